"""Seeded self-play: plausible mid-game positions for tests and the benchmark.

Randomness comes only from the seed passed in."""

from __future__ import annotations

import random

from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.movegen import generate
from crossing.tiles.rules import RuleSet


def new_bag(rules: RuleSet) -> list[str]:
    bag = [letter for letter, n in sorted(rules.counts.items()) for _ in range(n)]
    return bag + ["?"] * rules.blanks


def self_play(
    rules: RuleSet, lexicon: Lexicon, seed: int, turns: int, choose_from: int = 3
) -> tuple[Board, list[str]]:
    """Play ``turns`` turns from a shuffled bag, each a random pick among the best few.

    Returns the board and what is left in the bag.
    """
    rng = random.Random(seed)
    bag = new_bag(rules)
    rng.shuffle(bag)
    board = Board.empty()
    rack: list[str] = []
    for _ in range(turns):
        while len(rack) < rules.rack_size and bag:
            rack.append(bag.pop())
        moves = generate(board, "".join(rack), rules, lexicon, top=choose_from)
        if not moves:
            # Swap the whole rack, as a stuck player would.
            bag.extend(rack)
            rng.shuffle(bag)
            rack = []
            continue
        move = rng.choice(moves)
        board = board.with_tiles((t.row, t.col, t.text) for t in move.tiles)
        for tile in move.tiles:
            rack.remove("?" if tile.blank else tile.letter)
    return board, bag + rack
