"""Clue files, the clue linter, and which clues are wordplay.

A clue file holds clues of one difficulty (``puzzles/clues/easy.tsv`` for Mini and
Small, ``hard.tsv`` for Midi and Large), one ``ANSWER<TAB>clue`` a line; an answer
may have several lines, one per clue. Blank lines and lines starting with ``#``
are skipped. The linter checks only what a machine can check without
false alarms: whether a clue is *good* stays a person's call.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

MIN_CLUE, MAX_CLUE = 2, 90
_WORD = re.compile(r"[A-Za-z]+")
_INITIALS = re.compile(r"^(?:[A-Za-z]\.){2,}$")  # U.S., e.g., R.S.V.P.
_ABBREVIATIONS = frozenset(
    [
        "abbr.",
        "approx.",
        "co.",
        "dept.",
        "dr.",
        "etc.",
        "ft.",
        "inc.",
        "jr.",
        "lb.",
        "mr.",
        "mrs.",
        "ms.",
        "mt.",
        "no.",
        "oz.",
        "sr.",
        "st.",
        "vs.",
    ]
)
_PAIRS = {")": "(", "]": "[", "}": "{", "\u201d": "\u201c"}
# Suffixes peeled off to compare roots, longest first so "ings" wins over "s".
_SUFFIXES = ("ings", "ing", "edly", "ness", "ment", "less", "ers", "ful", "est", "ed", "er", "es")


@dataclass(frozen=True)
class ClueLine:
    line: int
    answer: str
    clue: str


@dataclass(frozen=True)
class ClueIssue:
    line: int
    answer: str
    rule: str
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "clue"
        return f"{where} {self.answer}: {self.rule}: {self.message}"


def parse_clue_lines(lines: Iterable[str]) -> tuple[list[ClueLine], list[ClueIssue]]:
    """The clue lines of a file, and a ``format`` issue for each line that is not one."""
    clues: list[ClueLine] = []
    issues: list[ClueIssue] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        answer, tab, clue = line.partition("\t")
        if not tab:
            issues.append(ClueIssue(number, answer.strip(), "format", "expected ANSWER<TAB>clue"))
        elif not (answer.isascii() and answer.isalpha() and answer.isupper()):
            issues.append(
                ClueIssue(number, answer, "format", "the answer must be capital letters A-Z")
            )
        else:
            clues.append(ClueLine(number, answer, clue))
    return clues, issues


def clue_book(lines: Iterable[str]) -> dict[str, list[str]]:
    """Each answer's clues in file order (lines that are not clue lines are left out)."""
    book: dict[str, list[str]] = {}
    for entry in parse_clue_lines(lines)[0]:
        book.setdefault(entry.answer, []).append(entry.clue)
    return book


def clue_problems(answer: str, clue: str) -> list[tuple[str, str]]:
    """Every mechanical rule one clue breaks, as (rule, message); empty means it passes."""
    if not clue.strip():
        return [("empty", "the clue is empty")]
    problems = []
    if clue != clue.strip() or "  " in clue:
        problems.append(("whitespace", "leading, trailing or doubled spaces"))
    text = clue.strip()
    if not MIN_CLUE <= len(text) <= MAX_CLUE:
        problems.append(
            ("length", f"{len(text)} characters; keep between {MIN_CLUE} and {MAX_CLUE}")
        )
    if _ends_in_stray_period(text):
        problems.append(("period", "ends with a period (only abbreviations and '...' may)"))
    unbalanced = _unbalanced(text)
    if unbalanced:
        problems.append(("brackets", f"unbalanced {unbalanced}"))
    giveaway = _gives_away(answer, text)
    if giveaway:
        problems.append(("answer", giveaway))
    return problems


def lint_clues(
    clues: Iterable[ClueLine], answers: Collection[str] | None = None
) -> list[ClueIssue]:
    """Every issue in a clue file's lines: each clue's own rules, unknown answers, duplicates."""
    issues = []
    seen: dict[tuple[str, str], int] = {}
    for entry in clues:
        for rule, message in clue_problems(entry.answer, entry.clue):
            issues.append(ClueIssue(entry.line, entry.answer, rule, message))
        if answers is not None and entry.answer not in answers:
            message = "the answer is not in the answer list"
            issues.append(ClueIssue(entry.line, entry.answer, "unknown", message))
        key = (entry.answer, " ".join(entry.clue.casefold().split()))
        if key in seen:
            issues.append(
                ClueIssue(entry.line, entry.answer, "duplicate", f"same clue as line {seen[key]}")
            )
        else:
            seen[key] = entry.line
    return issues


def _ends_in_stray_period(text: str) -> bool:
    if not text.endswith(".") or text.endswith("..."):
        return False
    last = text.split()[-1]
    return not (_INITIALS.match(last) or last.lower() in _ABBREVIATIONS)


def _unbalanced(text: str) -> str:
    stack: list[str] = []
    for ch in text:
        if ch in "([{\u201c":
            stack.append(ch)
        elif ch in _PAIRS and (not stack or stack.pop() != _PAIRS[ch]):
            return "brackets or quotes"
    if stack:
        return "brackets or quotes"
    if text.count('"') % 2:
        return "double quotes"
    return ""


def _root(word: str) -> str:
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"  # cities -> city
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # running -> runn -> run
            return word
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    # Only an unsuffixed word drops its final e (bake ~ baking), so career is not care.
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _gives_away(answer: str, text: str) -> str:
    """Why the clue gives the answer away, or "" when it does not."""
    target = answer.lower()
    words = [w.lower() for w in _WORD.findall(text)]
    if target in words:
        return f"the clue contains the answer {answer}"
    for size in (2, 3):
        for start in range(len(words) - size + 1):
            if "".join(words[start : start + size]) == target:
                return f"the clue spells out the answer: {' '.join(words[start : start + size])}"
    root = _root(target)
    if len(root) >= 3:
        for word in words:
            if len(word) >= 3 and _root(word) == root:
                return f"'{word}' shares a root with the answer {answer}"
    return ""


def is_wordplay(clue: str) -> bool:
    """Wordplay and misdirection, which convention marks with a closing question mark."""
    return clue.rstrip().endswith("?") and not clue.rstrip().endswith('?"')
