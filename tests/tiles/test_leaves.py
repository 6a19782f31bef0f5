"""Leave values: fitted from our own self-play, recorded with their seed, used for equity."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from crossing.game_files import leave_table
from crossing.tiles.board import Board
from crossing.tiles.leaves import (
    FEATURES,
    by_equity,
    equity,
    features,
    leave_of,
    leave_value,
)
from crossing.tiles.movegen import generate
from crossing.tiles.rules import CROSSPLAY, DUEL, RULE_SETS

SCRIPT = Path(__file__).resolve().parents[2] / "scripts/build_leaves.py"
_spec = importlib.util.spec_from_file_location("build_leaves", SCRIPT)
build_leaves = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_leaves)


def test_the_table_says_how_it_was_made_for_every_rule_set():
    made = leave_table()
    assert isinstance(made["seed"], int)
    for name in RULE_SETS:
        assert made["games"][name] >= 1000
        assert made["samples"][name] > made["games"][name]
    assert "?" not in made["values"]["duel"]  # Duel has no blanks


def values(rules):
    return leave_table()["values"].get(rules.name, {})


def test_what_self_play_learned_a_player_would_recognise():
    for name, rules in RULE_SETS.items():
        fitted = values(rules)
        if rules.blanks:
            assert leave_value(fitted, "?") > leave_value(fitted, "S") > leave_value(fitted, "Q")
        # Keeping two of a letter is worth less than the two apart.
        assert leave_value(fitted, "UU") < 2 * leave_value(fitted, "U"), name


def test_a_play_that_empties_the_rack_keeps_nothing(enable):
    best = generate(Board.empty(), "QUIXOTE", CROSSPLAY, enable, top=1)[0]
    assert leave_of("QUIXOTE", best) == ""
    assert equity(values(CROSSPLAY), "QUIXOTE", best) == 110


def test_by_equity_makes_the_play_with_the_best_score_plus_leave(enable):
    rack = "XIS?UUV"
    moves = generate(Board.empty(), rack, CROSSPLAY, enable)
    fitted = values(CROSSPLAY)
    chosen = by_equity(Board.empty(), rack, CROSSPLAY, enable, fitted)
    assert equity(fitted, rack, chosen) == max(equity(fitted, rack, m) for m in moves)
    assert chosen.score < moves[0].score  # here the top score is not the best play
    assert by_equity(Board.empty(), "QQ", DUEL, enable, values(DUEL)) is None


def test_the_fit_recovers_known_values():
    rng = random.Random(7)
    truth = {name: rng.uniform(-5, 5) for name in FEATURES}
    rows = []
    for _ in range(3000):
        leave = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ?") for _ in range(rng.randint(0, 6)))
        x = features(leave)
        rows.append((x, 30 + sum(v * truth[n] for n, v in zip(FEATURES, x, strict=True))))
    base, weights = build_leaves.fit(rows)
    assert abs(base - 30) < 0.5
    for name, w in zip(FEATURES, weights, strict=True):
        assert abs(w - truth[name]) < 0.5, name
