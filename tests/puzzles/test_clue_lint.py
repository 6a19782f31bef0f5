"""The clue linter: each mechanical rule fails a bad clue and passes good ones."""

from __future__ import annotations

import pytest
from crossing.crossword.clues import clue_book, clue_problems, lint_clues, parse_clue_lines

GOOD = [
    ("CAT", "Pet that purrs"),
    ("RUN", "Sprint"),
    ("ART", "Article of faith, for a painter?"),
    ("CARE", "Career counselor's concern"),
    ("TEAM", "Steam room group, perhaps"),
    ("USA", "Born in the U.S."),
    ("STEW", "Hearty dish..."),
    ("SOUP", 'Course served with a "spoon" (hot)'),
    ("PLAN", "Blueprint, e.g."),
    ("EDGE", "Rim [of a cup]"),
]


@pytest.mark.parametrize(("answer", "clue"), GOOD)
def test_good_clues_pass(answer: str, clue: str):
    assert clue_problems(answer, clue) == []


@pytest.mark.parametrize(
    ("answer", "clue", "rule"),
    [
        ("CAT", "", "empty"),
        ("CAT", "   ", "empty"),
        ("CAT", "Pet that purrs ", "whitespace"),
        ("CAT", "Pet  that purrs", "whitespace"),
        ("CAT", "A" * 91, "length"),
        ("CAT", "Pet that purrs.", "period"),
        ("CAT", "Pet (one that purrs", "brackets"),
        ("CAT", "Pet that purrs]", "brackets"),
        ("CAT", 'Pet that "purrs', "brackets"),
        ("CAT", "Cat or dog", "answer"),
        ("ICECREAM", "Ice cream treat", "answer"),
        ("RUN", "Running fast", "answer"),
        ("BAKE", "What a baker does", "answer"),
        ("CITY", "One of many cities", "answer"),
        ("STARS", "Star signs", "answer"),
    ],
)
def test_each_rule_catches_a_bad_clue(answer: str, clue: str, rule: str):
    assert rule in [found for found, _ in clue_problems(answer, clue)]


def test_file_lint_names_format_unknown_answers_and_duplicates():
    text = [
        "# a comment",
        "",
        "CAT\tPet that purrs",
        "CAT\tpet that  purrs",
        "CAT\tPet  that purrs",
        "DOG\tBarker",
        "no tab here",
        "cow\tMoo maker",
        "ZZZQX\tNot a word",
    ]
    entries, issues = parse_clue_lines(text)
    issues += lint_clues(entries, answers={"CAT", "DOG", "COW"})
    found = {(issue.line, issue.rule) for issue in issues}
    assert (5, "duplicate") in found
    assert (7, "format") in found
    assert (8, "format") in found
    assert (9, "unknown") in found
    assert not any(line in (3, 6) for line, _ in found)
    assert clue_book(text) == {
        "CAT": ["Pet that purrs", "pet that  purrs", "Pet  that purrs"],
        "DOG": ["Barker"],
        "ZZZQX": ["Not a word"],
    }
