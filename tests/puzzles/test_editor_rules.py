"""What an editor refuses: word families, answers in clues, block lists, twins, over-use."""

from __future__ import annotations

import pytest
from crossing.crossword.editor import Rules, editor_problems
from crossing.crossword.ipuz import to_ipuz
from crossing.crossword.lemma import same_family
from crossing.crossword.pack_builder import PackBuilder
from crossing.crossword.packs import check_pack, max_uses, puzzle_id
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size

WORDS = frozenset(
    {
        "ACT",
        "ACTS",
        "THRONE",
        "THRONES",
        "GET",
        "GOT",
        "ALGA",
        "ALGAE",
        "BAKE",
        "BAKER",
        "BAKING",
        "RUN",
        "RAN",
        "RUNNER",
        "CITY",
        "CITIES",
        "THE",
        "THING",
        "SEA",
        "AREA",
        "EAR",
        "EARLY",
        "STOP",
        "STOPPED",
        "SING",
        "SANG",
    }
)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ACT", "ACTS"),
        ("THRONE", "THRONES"),
        ("GET", "GOT"),
        ("ALGA", "ALGAE"),
        ("BAKER", "BAKING"),
        ("RUNNER", "RAN"),
        ("CITY", "CITIES"),
        ("STOP", "STOPPED"),
        ("SING", "SANG"),
    ],
)
def test_forms_of_one_word_are_one_family(a: str, b: str):
    assert same_family(a, b, WORDS)
    assert same_family(b, a, WORDS)


@pytest.mark.parametrize(("a", "b"), [("THE", "THING"), ("SEA", "AREA"), ("EAR", "EARLY")])
def test_different_words_are_not_one_family(a: str, b: str):
    assert not same_family(a, b, WORDS)


def _slots_puzzle(rows: list[str], clues: dict[str, str]) -> Puzzle:
    return Puzzle.from_rows(rows, clues)


def test_the_same_word_twice_in_a_grid_is_named():
    puzzle = _slots_puzzle(["ACTS#", "#####", "#ACT#"], {"1a": "Plays a part", "2a": "Deed"})
    found = editor_problems(puzzle, Size.MIDI, Rules(words=WORDS))
    assert any("same word twice: ACT and ACTS" in message for _, message in found)


def test_gets_and_got_are_the_same_word_twice():
    puzzle = _slots_puzzle(["GET##", "#####", "#GOT#"], {"1a": "Obtain", "2a": "Obtained"})
    found = editor_problems(puzzle, Size.MIDI, Rules(words=WORDS))
    assert any("same word twice" in message for _, message in found)


def test_an_answer_that_is_a_word_in_another_clue_is_named():
    puzzle = _slots_puzzle(
        ["SEA##", "#####", "#CITY"],
        {"1a": "Where ships sail", "2a": "Place by the sea"},
    )
    found = editor_problems(puzzle, Size.MIDI, Rules(words=WORDS))
    assert ("2 across", "answer in a clue: 'sea' in this clue is the answer SEA (1 across)") in [
        (where, message) for where, message in found
    ]
    plural = _slots_puzzle(["CITY#", "#####", "#SEA#"], {"1a": "Town", "2a": "Gulf near cities"})
    assert any("answer in a clue" in m for _, m in editor_problems(plural, Size.MIDI, Rules()))


def test_blocked_answers_and_easy_crosswordese_are_refused():
    puzzle = _slots_puzzle(["SERA#", "#####", "#BAKE"], {"1a": "Serums", "2a": "Cook in an oven"})
    rules = Rules(words=WORDS, blocked=frozenset({"BAKE"}), crosswordese=frozenset({"SERA"}))
    easy = [m for _, m in editor_problems(puzzle, Size.MINI, rules)]
    hard = [m for _, m in editor_problems(puzzle, Size.MIDI, rules)]
    assert any("BAKE is on the block list" in m for m in easy)
    assert any("SERA is crosswordese" in m for m in easy)
    assert any("BAKE is on the block list" in m for m in hard)
    assert not any("SERA" in m for m in hard)  # the hard sizes may still use it


# Open 5x5 grids of letters; without an answer list, check reads them as answers.
# GRID and its transpose have the same ten answers; OTHER shares none of them.
GRID = ["QWRTP", "LKJHG", "ZXCVB", "MNBVC", "PLKMJ"]
OTHER = ["ABCDF", "GHIJK", "LMNOP", "QRTUV", "WXYZA"]


def _mini(rows: list[str]) -> dict:
    puzzle = Puzzle.from_rows(rows, {})
    clues = {slot.id: f"Zqx clue {slot.id}" for slot in puzzle.slots}
    pid = puzzle_id(puzzle.solution)
    clued = Puzzle(5, 5, puzzle.solution, clues, id=pid, title="T", difficulty="easy")
    data = to_ipuz(clued)
    data["size"] = "mini"
    return data


def _transpose(rows: list[str]) -> list[str]:
    return ["".join(row[c] for row in rows) for c in range(len(rows[0]))]


def _pack(*grids: list[str]) -> dict:
    return {"size": "mini", "difficulty": "easy", "puzzles": [_mini(g) for g in grids]}


def test_a_transposed_twin_is_refused_by_check():
    assert check_pack(_pack(GRID, OTHER)) == []
    failures = [str(f) for f in check_pack(_pack(GRID, OTHER, _transpose(GRID)))]
    assert failures == [
        f"pack puzzle 3 ({puzzle_id(''.join(_transpose(GRID)))}): near-twin: shares 10 of "
        f"its 10 answers with pack puzzle 1 ({puzzle_id(''.join(GRID))})"
    ]


def test_a_puzzle_sharing_half_its_answers_is_a_near_twin():
    half = [*GRID[:4], "PAEIO"]  # four rows and the first column: five of ten
    near = [*GRID[:4], "AEIOU"]  # four rows only: not a twin
    assert any("near-twin" in str(f) for f in check_pack(_pack(GRID, half)))
    assert not any("near-twin" in str(f) for f in check_pack(_pack(GRID, near)))


def test_an_answer_in_too_many_puzzles_is_refused_by_check():
    assert (max_uses(1000), max_uses(300), max_uses(10)) == (30, 9, 2)
    third = ["QWRTP", "AEIOU", "YAEIO", "UYAEI", "IUYAE"]  # shares only QWRTP with GRID
    assert check_pack(_pack(GRID, OTHER)) == []
    fourth = ["QWRTP", "BCDFG", "HJKLM", "NPRTV", "WXZBC"]
    failures = [str(f) for f in check_pack(_pack(GRID, third, fourth))]
    assert failures == ["pack: over-used answer: QWRTP is in 3 of 3 puzzles (at most 2, 3%)"]


def test_the_builder_refuses_what_check_refuses_and_keeps_the_share():
    grids = [GRID, _transpose(GRID), OTHER, ["QWRTP", "AEIOU", "YAEIO", "UYAEI", "IUYAE"]]
    grids.append(["QWRTP", "BCDFG", "HJKLM", "NPRTV", "WXZBC"])
    clues: dict[str, list[str]] = {}
    for rows in grids:
        puzzle = Puzzle.from_rows(rows, {})
        for slot in puzzle.slots:
            clues.setdefault(puzzle.answer(slot), ["Zqx vwq"])
    builder = PackBuilder(Size.MINI, clues, Rules(), target=10, seed=1)
    results = [builder.offer(Puzzle.from_rows(rows, {})) for rows in grids]
    assert results == ["", "near-twin", "", "", "answer at its share"]
    assert check_pack(builder.pack()) == []


def _clued(rows: list[str]) -> Puzzle:
    puzzle = Puzzle.from_rows(rows, {})
    return Puzzle(5, 5, puzzle.solution, {}, id=puzzle_id(puzzle.solution))


def test_dealing_skips_a_twin_of_a_puzzle_the_host_has_had():
    import random

    from crossing.crossword.deal import pick_puzzle

    first, twin, other = _clued(GRID), _clued(_transpose(GRID)), _clued(OTHER)
    rng = random.Random(0)
    for _ in range(20):
        assert pick_puzzle([first, twin, other], [first.id], rng) is other
    # All met (twin through its transpose): the one met longest ago comes back first.
    assert pick_puzzle([first, twin, other], [first.id, other.id], rng) in (first, twin)
    assert pick_puzzle([first, twin, other], [other.id, first.id], rng) is other


def test_big_grids_need_their_marquee_entries_and_few_three_letter_words():
    from crossing.crossword.editor import shape_problems

    assert shape_problems([9, 5, 5, 4, 4, 4, 3], Size.MIDI) == []
    midi = [m for _, m in shape_problems([7, 7, 5, 5, 4, 3, 3, 3], Size.MIDI)]
    assert midi == [
        "no marquee: a midi needs 1 entry of 8+ letters (longest is 7)",
        "three-letter entries are 38% of the grid (at most 25%)",
    ]
    large = [m for _, m in shape_problems([10, 8, 5, 5, 4], Size.LARGE)]
    assert large == ["no marquee: a large needs 2 entries of 9+ letters (longest is 10)"]
    assert shape_problems([3, 3, 3, 3], Size.MINI) == []  # the easy sizes have no such rule


def test_seen_before_counts_clues_met_in_earlier_puzzles():
    from crossing.crossword.clues import is_wordplay
    from crossing.crossword.pack_stats import seen_before

    same = [[("CAT", "Purring pet"), ("DOG", "Barker")] for _ in range(40)]
    fresh = [[(f"W{i}", "Clue"), (f"V{i}", "Other clue")] for i in range(40)]
    assert seen_before(same, 30) == 1.0
    assert seen_before(fresh, 30) == 0.0
    half = [[("CAT", "Purring pet"), (f"V{i}", "Other clue")] for i in range(40)]
    assert seen_before(half, 30) == 0.5
    assert is_wordplay("Period piece?")
    assert not is_wordplay('"Who\'s there?"')


def test_an_answers_wordplay_clue_comes_round_twice_as_often_as_a_plain_one():
    import random
    from collections import Counter

    from crossing.crossword.pack_builder import clue_draft

    draft = Puzzle.from_rows(GRID, {})
    answers = {draft.answer(slot) for slot in draft.slots}
    for seed in range(20):
        tags = {a: "Zq" + "x" * n for n, a in enumerate(sorted(answers))}
        clues = {a: [f"{t} plain", f"{t} punned?", f"{t} other"] for a, t in tags.items()}
        used: Counter[str] = Counter()
        rng = random.Random(seed)
        puzzles = [clue_draft(draft, Size.MINI, clues, rng, used) for _ in range(3)]
        assert all(p is not None for p in puzzles)
        assert all(c.endswith("?") for c in puzzles[0].clues.values())
        # In three puzzles each answer has its pun twice and one plain clue once.
        for tag in tags.values():
            assert used[f"{tag} punned?"] == 2
            assert used[f"{tag} plain"] + used[f"{tag} other"] == 1


def test_the_builder_keeps_the_share_of_its_target_and_trims_a_short_pack():
    # Four puzzles sharing QWRTP: a pack aiming at 100 may hold three (3% of 100),
    # where keeping the share of the pack as it stands would refuse the third.
    rows = [
        ["QWRTP", "AEIOU", "YAEIO", "UYAEI", "IUYAE"],
        ["QWRTP", "BCDFG", "HJKLM", "NPRTV", "WXZBC"],
        ["QWRTP", "ZXCVB", "NMLKJ", "HGFDS", "POIUY"],
        ["QWRTP", "MNBVC", "XZLKJ", "HGFDA", "SPOIU"],
    ]
    clues: dict[str, list[str]] = {}
    for grid in rows:
        puzzle = Puzzle.from_rows(grid, {})
        for slot in puzzle.slots:
            clues.setdefault(puzzle.answer(slot), ["Zqx vwq"])
    builder = PackBuilder(Size.MINI, clues, Rules(), target=100, seed=1)
    results = [builder.offer(Puzzle.from_rows(grid, {})) for grid in rows]
    assert results == ["", "", "", "answer at its share"]
    # Stopped at three puzzles, the pack may use QWRTP twice: the newest goes.
    pack = builder.pack()
    assert len(pack["puzzles"]) == 2
    assert check_pack(pack) == []


def test_an_answer_met_in_three_puzzles_needs_three_distinct_clues():
    from crossing.crossword.pack_stats import short_of_clues

    third = ["QWRTP", "AEIOU", "YAEIO", "UYAEI", "IUYAE"]  # QWRTP again, with GRID's row
    fourth = ["QWRTP", "BCDFG", "HJKLM", "NPRTV", "WXZBC"]
    packs = [_pack(GRID, third), _pack(fourth)]  # QWRTP in three puzzles of two packs
    book = {"QWRTP": ["Keyboard run", "keyboard  RUN", "Top-row letters"]}
    # The same clue in other case and spacing is one clue: two of the three needed.
    assert short_of_clues(packs, book) == [("QWRTP", 3, 2)]
    book["QWRTP"].append("Start of a typist's drill")
    assert short_of_clues(packs, book) == []
