"""Every play as rows (``"all": true``): the compiled search writes the answer's JSON
itself, without holding the interpreter. It is the same text, byte for byte, as the
Python reference (every Move, ``api.grouped``, ``json.dumps``) on every committed
mid-game position with each of its racks under each rule set, on empty boards with two
blanks, with a request's own words, without bonuses and for any leave values; and
building it makes no Python object per play."""

from __future__ import annotations

import json
import os
import random
import tracemalloc
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from crossing.game_files import shipped
from crossing.solver_request import read_request
from crossing.tiles import api
from crossing.tiles.api import ROW_FIELDS, BadRequest, Shipped, grouped, solve_request, solve_text
from crossing.tiles.board import Board
from crossing.tiles.leaves import FEATURES, LeaveValues, leaves_by_use
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.movegen import all_rows_json, compiled_available, generate
from crossing.tiles.rules import RULE_SETS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# The install (README, scripts/test) always builds the compiled search; only a checkout
# run without installing lacks it, and then nothing here can compare C with Python. CI
# installs, so there it must be built: missing, these tests fail rather than skip.
pytestmark = pytest.mark.skipif(
    not compiled_available() and os.environ.get("CI") != "true",
    reason="the compiled search is not built here (pip install -e . builds it)",
)

POSITIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "positions"


def racks_by_position() -> list[tuple[str, list[str]]]:
    lines = (POSITIONS / "racks.txt").read_text().splitlines()
    return [(name, racks) for name, *racks in (line.split() for line in lines)]


@cache
def board_rows(name: str) -> list[str]:
    return (POSITIONS / name).read_text().split()


def reference_text(body: dict[str, Any], kept: Shipped) -> str:
    """The answer as the Solver wrote it before the compiled rows: a Move per play,
    grouped in Python, dumped by json (the handler's compact separators)."""
    request = read_request(body)
    rules, rack = RULE_SETS[request.rules], request.rack.upper()
    board = Board.empty() if request.board is None else Board.parse(request.board)
    lexicon = kept.lexicon if request.words is None else Lexicon.from_words(request.words)
    moves = generate(board, rack, rules, lexicon, premiums=request.bonus)
    rows = grouped(moves, kept.leaves.get(rules.name, {}), rack)
    answer = {"fields": list(ROW_FIELDS), "plays": rows, "count": len(moves)}
    return json.dumps(answer, separators=(",", ":"))


def assert_same_answer(body: dict[str, Any], kept: Shipped | None = None) -> str:
    kept = kept or shipped()
    text = solve_text(read_request({**body, "all": True}), kept)
    expected = reference_text(body, kept)
    assert text == expected, first_difference(text, expected)
    # The dict answer (the CLI's, the tests') is the same text read back.
    assert solve_request(read_request({**body, "all": True}), kept) == json.loads(expected)
    return text


def first_difference(text: str, expected: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(text, expected, strict=False)) if a != b), None)
    at = min(len(text), len(expected)) if at is None else at
    return f"at {at}: {text[at - 80 : at + 80]!r} != {expected[at - 80 : at + 80]!r}"


@pytest.mark.parametrize(("name", "racks"), racks_by_position())
def test_every_mid_game_rack_under_every_rule_set_lists_the_reference_rows(name, racks):
    answered = 0
    for rules in RULE_SETS:
        for rack in racks:
            body = {"rules": rules, "rack": rack, "board": board_rows(name)}
            try:
                solve_text(read_request({**body, "all": True}), shipped())
            except BadRequest:  # more blanks, or more of a letter, than this bag holds
                continue
            assert_same_answer(body)
            answered += 1
    assert answered >= 3  # crossplay's bag holds every rack


@pytest.mark.parametrize(
    ("rules", "rack"),
    [("crossplay", "??AEIRS"), ("scrabble", "??EENST"), ("wwf", "??QZXJK"), ("crossplay", "???")],
)
def test_an_empty_board_with_blanks_lists_the_reference_rows(rules, rack):
    text = assert_same_answer({"rules": rules, "rack": rack})
    assert json.loads(text)["count"] > 1000


def test_own_words_and_no_bonus_list_the_reference_rows():
    board = board_rows("midgame-07.txt")
    words = ["cat", "cats", "scat", "at", "ta", "as", "es", "re", "ere", "sea", "seat", "eat"]
    assert_same_answer({"rules": "scrabble", "rack": "SEAT?", "board": board, "words": words})
    assert_same_answer({"rules": "crossplay", "rack": "ACT??", "words": words, "bonus": False})
    assert_same_answer({"rules": "wwf", "rack": "RE?", "board": board, "bonus": False})
    assert_same_answer({"rules": "duel", "rack": "XJ", "words": words})  # no play at all


def test_a_play_of_the_whole_rack_has_an_equity_without_a_fraction():
    """The empty leave is worth int 0 to the leave values, so round(score + 0, 1) is an
    int and json writes 110, not 110.0; a rule set without values writes 110.0."""
    text = assert_same_answer({"rules": "crossplay", "rack": "QUIXOTE"})
    assert '["QUIXOTE",8,6,"across",110,7,"",110,[]]' in text
    no_values = Shipped(shipped().lexicon, {})
    text = assert_same_answer({"rules": "crossplay", "rack": "QUIXOTE"}, no_values)
    assert '["QUIXOTE",8,6,"across",110,7,"",110.0,[]]' in text


def test_a_small_negative_equity_is_written_as_minus_zero_as_python_writes_it():
    # Two blanks played without bonuses score 0; the kept E is worth -0.04.
    kept = Shipped(Lexicon.from_words(["ee", "eee"]), {"crossplay": {"E": -0.04}})
    text = assert_same_answer({"rules": "crossplay", "rack": "??E", "bonus": False}, kept)
    assert '"E",-0.0' in text


def test_without_the_compiled_module_python_writes_the_same_answer(monkeypatch):
    request = read_request(
        {"rules": "wwf", "rack": "EET?", "board": board_rows("midgame-03.txt"), "all": True}
    )
    compiled = solve_text(request, shipped())
    monkeypatch.setattr(api, "compiled_available", lambda: False)
    assert solve_text(request, shipped()) == compiled


# Halves and twentieths (0.25, 0.05: exact and inexact binary ties at one decimal),
# other small values, and whole numbers as floats.
worths = st.one_of(
    st.integers(-400, 400).map(lambda n: n / 20),
    st.integers(-400, 400).map(lambda n: n / 4),
    st.floats(-60, 60, allow_nan=False),
    st.integers(-30, 30).map(float),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.dictionaries(st.sampled_from(FEATURES), worths, max_size=len(FEATURES)))
def test_any_leave_values_give_the_reference_equities(values: LeaveValues):
    kept = Shipped(shipped().lexicon, {"scrabble": values})
    board = board_rows("midgame-12.txt")
    assert_same_answer({"rules": "scrabble", "rack": "EAST?R", "board": board}, kept)


def a_worth(rng: random.Random) -> float:
    """Sums that land on a tie at one decimal, exact in binary (x.25) or not (x.05), just
    below zero (-0.0), on whole numbers, or anywhere."""
    return rng.choice(
        [
            rng.randint(-400, 400) / 20,
            rng.randint(-400, 400) / 4,
            -rng.randint(0, 4) / 100,
            float(rng.randint(-30, 30)),
            rng.uniform(-50, 50),
        ]
    )


def test_every_equity_is_written_as_python_rounds_and_writes_it():
    """C's %.1f on score + worth against repr(round(score + worth, 1)), 380,000 times."""
    rng = random.Random(20260)
    rack, rules = "??AEIRS", RULE_SETS["crossplay"]
    for _ in range(4):
        leaves = [(leave, a_worth(rng)) for leave, _ in leaves_by_use({}, rack)]
        # Two blanks alone score 0: kept AEIRS just below zero makes -0.0.
        leaves = [(leave, -0.04 if leave == "AEIRS" else w) for leave, w in leaves]
        text, count = all_rows_json(Board.empty(), rack, rules, shipped().lexicon, True, leaves)
        worth_of = dict(leaves)  # a leave names the sub-rack it was left by
        rows = json.loads(text)
        plays = [(row[4], row[6], row[7]) for row in rows]
        plays += [(score, leave, equity) for row in rows for _, score, leave, equity in row[8]]
        assert len(plays) == count > 90_000
        written = [repr(equity) for _, _, equity in plays]
        expected = [repr(round(score + worth_of[leave], 1)) for score, leave, _ in plays]
        assert written == expected
        assert "-0.0" in written
        # ...and as json writes it: the text is its own rows dumped again.
        assert json.dumps(rows, separators=(",", ":")) == text


def test_listing_every_play_makes_no_python_object_per_play():
    """The interpreter holds only the answer's text: the Python memory it takes at its
    peak is a few copies of that text, where a Move and a row per play were ten times
    it (and held the GIL all the while they were made)."""
    request = read_request({"rules": "crossplay", "rack": "??AEIRS", "all": True})
    kept = shipped()
    solve_text(request, kept)  # the graph checked, the tables built: once per process
    tracemalloc.start()
    try:
        text = solve_text(request, kept)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(text) > 2_000_000
    assert peak < 3 * len(text), (peak, len(text))
