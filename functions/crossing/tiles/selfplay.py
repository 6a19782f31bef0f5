"""Seeded self-play: plausible mid-game positions for tests and the benchmark.

Randomness comes only from the seed passed in."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.movegen import Move, generate
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


# A chooser picks one of the legal plays for a rack (or None to swap or pass).
Chooser = Callable[[Board, str, RuleSet, Lexicon], Move | None]


@dataclass
class Turn:
    """One turn of a played game: who moved, the rack before, what it kept, what it scored."""

    player: int
    rack: str
    leave: str
    score: int


@dataclass
class Game:
    scores: list[int]
    turns: list[Turn]


def leave_after(rack: str, move: Move) -> str:
    """The rack tiles a play does not use, in rack order."""
    left = list(rack)
    for tile in move.tiles:
        left.remove("?" if tile.blank else tile.letter)
    return "".join(left)


def by_score(board: Board, rack: str, rules: RuleSet, lexicon: Lexicon) -> Move | None:
    moves = generate(board, rack, rules, lexicon, top=1)
    return moves[0] if moves else None


def play_game(
    rules: RuleSet, lexicon: Lexicon, seed: int, choosers: tuple[Chooser, Chooser]
) -> Game:
    """A whole two-player game from a seeded bag, each side choosing with its own chooser.

    A side with no play swaps its rack while the bag holds a full one, else passes. The
    game ends when the bag is empty and a rack is played out (its owner gains the other
    rack's points, which the other loses) or after four passes in a row.
    """
    rng = random.Random(seed)
    bag = new_bag(rules)
    rng.shuffle(bag)
    board = Board.empty()
    racks: list[list[str]] = [[], []]
    scores = [0, 0]
    turns: list[Turn] = []
    passes = 0
    player = 0

    def value(tiles: list[str]) -> int:
        return sum(rules.values[t] for t in tiles if t != "?")

    for hand in racks:
        while len(hand) < rules.rack_size and bag:
            hand.append(bag.pop())
    while passes < 4:
        rack = "".join(racks[player])
        move = choosers[player](board, rack, rules, lexicon) if rack else None
        if move is None:
            passes += 1
            if len(bag) >= rules.rack_size:
                bag.extend(racks[player])
                rng.shuffle(bag)
                racks[player] = [bag.pop() for _ in range(rules.rack_size)]
            turns.append(Turn(player, rack, rack, 0))
        else:
            passes = 0
            board = board.with_tiles((t.row, t.col, t.text) for t in move.tiles)
            leave = leave_after(rack, move)
            racks[player] = list(leave)
            scores[player] += move.score
            turns.append(Turn(player, rack, leave, move.score))
            while len(racks[player]) < rules.rack_size and bag:
                racks[player].append(bag.pop())
            if not racks[player]:
                left = value(racks[1 - player])
                scores[player] += left
                scores[1 - player] -= left
                break
        player = 1 - player
    return Game(scores, turns)
