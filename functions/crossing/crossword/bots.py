"""Bots: racers and co-solvers at Easy, Medium and Hard. Pure: seeds in, plans out.

A race bot's whole solve is a *plan* made from its seed at the start: when each
square gets its letter (race-clock time, so a pause stops it), which few squares
it gets wrong, and when it taps Done. Its progress at any moment is read off the
plan, so it costs nothing per letter.

A Together bot acts one word at a time: ``together_turn`` looks at the shared
board as a person would — the clue, the crossing letters, never the answers it
has not "solved" — and says what it types and how long it thinks before its
next word. Its chance of solving a clue grows with its level and with how many
letters are already in. The model is written down in docs/bots.md.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

from crossing.crossword.commands import EMPTY, Command, Done, Type
from crossing.crossword.grid import Slot, Square
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.together import Together

SECOND = 1000
LEVELS = ("easy", "medium", "hard")


MINUTE = 60 * SECOND
# Median time for a race bot to fill the board, by size and level (docs/bots.md). Each
# Easy time leaves room under the size's limit (5, 10, 20, 30 minutes); a Hard bot on a
# Mini takes about a minute.
RACE_MEDIAN_MS = {
    5: {"easy": 3.5 * MINUTE, "medium": 2 * MINUTE, "hard": 1 * MINUTE},
    7: {"easy": 7 * MINUTE, "medium": 4 * MINUTE, "hard": 2 * MINUTE},
    9: {"easy": 14 * MINUTE, "medium": 8 * MINUTE, "hard": 4 * MINUTE},
    11: {"easy": 22 * MINUTE, "medium": 13 * MINUTE, "hard": 6.5 * MINUTE},
}


@dataclass(frozen=True)
class Level:
    """How a level plays."""

    race_wrong_per_square: float  # chance each square ends up wrong
    solve: float  # Together: chance to solve a clue with no letters in
    spot: float  # Together, board full: chance to notice one wrong word


LEVEL = {
    "easy": Level(0.05, 0.55, 0.35),
    "medium": Level(0.015, 0.75, 0.7),
    "hard": Level(0.003, 0.92, 0.95),
}
MINI_SQUARES = 21  # white squares of a typical Mini: other grids scale from the Mini's time
DONE_AFTER_MS = (2 * SECOND, 6 * SECOND)  # taps Done a few seconds after the board is full


def rng_for(*parts: object) -> random.Random:
    """A generator seeded from its parts; string seeds hash the same in every process."""
    return random.Random(":".join(str(p) for p in parts))


# --- Race -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RacePlan:
    """When each square gets its letter (race-clock ms), and when the bot taps Done."""

    fills: tuple[tuple[int, Square, str], ...]  # (at_ms, square, letter), in time order
    done_ms: int

    def letters_at(self, ms: int) -> dict[Square, str]:
        return {sq: letter for at, sq, letter in self.fills if at <= ms}

    def filled_at(self, ms: int) -> list[Square]:
        return sorted(sq for at, sq, _ in self.fills if at <= ms)


def race_plan(puzzle: Puzzle, level: str, seed: object) -> RacePlan:
    """The bot's whole race, fixed by its seed. Fast at first, slower on the last squares."""
    return _race_plan(puzzle.width, puzzle.solution, puzzle.id, level, str(seed))


@lru_cache(maxsize=256)  # asked for at every step of a race with bots; the plan never changes
def _race_plan(width: int, solution: str, puzzle_id: str, level: str, seed: str) -> RacePlan:
    puzzle = Puzzle(width, len(solution) // width, solution, {}, id=puzzle_id)
    rules = LEVEL[level]
    rng = rng_for("race", seed, level, puzzle.id)
    order = _fill_order(puzzle, rng)
    n = len(order)
    total = solve_ms(puzzle, level) * rng.lognormvariate(0, 0.18)
    # Square i waits in proportion to 1 + 3 (i/n)^2: the last squares take about 4x the first.
    weights = [(1 + 3 * (i / n) ** 2) * rng.lognormvariate(0, 0.35) for i in range(n)]
    unit = total / sum(weights)
    fills, at = [], 0.0
    for sq, weight in zip(order, weights, strict=True):
        at += weight * unit
        letter = puzzle.solution[sq]
        if rng.random() < rules.race_wrong_per_square:
            letter = _wrong_letter(letter, rng)
        fills.append((int(at), sq, letter))
    done = int(at) + rng.randint(*DONE_AFTER_MS)
    return RacePlan(tuple(fills), done)


def solve_ms(puzzle: Puzzle, level: str) -> float:
    """The level's median time to solve this puzzle alone."""
    median = RACE_MEDIAN_MS.get(puzzle.width, {}).get(level)
    return median or RACE_MEDIAN_MS[5][level] * len(puzzle.white_squares) / MINI_SQUARES


def _fill_order(puzzle: Puzzle, rng: random.Random) -> list[Square]:
    """Word by word, as a solver works: each next word most likely one crossing the last."""
    slots = list(puzzle.slots)
    seen: set[Square] = set()
    order: list[Square] = []
    current = rng.choice(slots)
    while len(seen) < len(puzzle.white_squares):
        for sq in current.squares:
            if sq not in seen:
                seen.add(sq)
                order.append(sq)
        open_slots = [s for s in slots if any(sq not in seen for sq in s.squares)]
        if not open_slots:
            break
        crossing = [s for s in open_slots if set(s.squares) & set(current.squares)]
        current = rng.choice(crossing if crossing and rng.random() < 0.7 else open_slots)
    return order


def _wrong_letter(letter: str, rng: random.Random) -> str:
    return rng.choice([c for c in "EAIOTNSRLD" if c != letter])


# --- Together -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    commands: tuple[Command, ...]
    think_ms: int | None  # until the bot's next action; None once it has tapped Done


def together_turn(game: Together, bot: str, level: str, rng: random.Random) -> Turn:
    """What the bot does now, and how long it thinks before its next word."""
    rules = LEVEL[level]
    letters = game.letters()
    gaps = [s for s in game.puzzle.slots if any(letters[sq] == EMPTY for sq in s.squares)]
    if gaps:
        slot = _pick_slot(gaps, letters, rng)
        typed = _attempt(game.puzzle, slot, letters, rules, rng)
        thinking = _think(game.puzzle, slot, level, rng)
        return Turn(tuple(Type(bot, sq, ch) for sq, ch in typed), thinking)
    # The board is full: look for a wrong word a person could notice (it reads badly
    # against its clue), fix it; if nothing turns up, tap Done.
    wrong = [s for s in game.puzzle.slots if not game.is_right(s)]
    if wrong and rng.random() < rules.spot:
        slot = rng.choice(wrong)
        fixes = tuple(
            Type(bot, sq, game.puzzle.solution[sq])
            for sq in slot.squares
            if letters[sq] != game.puzzle.solution[sq]
        )
        return Turn(fixes, _think(game.puzzle, slot, level, rng))
    return Turn((Done(bot),), None)


def _pick_slot(gaps: list[Slot], letters: str, rng: random.Random) -> Slot:
    """Most likely a word that already has some letters in."""
    weights = [1 + 4 * sum(letters[sq] != EMPTY for sq in s.squares) / len(s) for s in gaps]
    return rng.choices(gaps, weights=weights)[0]


def _attempt(
    puzzle: Puzzle, slot: Slot, letters: str, rules: Level, rng: random.Random
) -> list[tuple[Square, str]]:
    """Type the answer if the clue is solved; else guess only the empty squares.

    Solving works from the clue and the crossing letters: the more of the word is in,
    the likelier. A solved word is typed whole, as a person sure of it would, over any
    crossing letter that disagrees; an unsolved one leaves existing letters alone.
    """
    have = sum(letters[sq] != EMPTY for sq in slot.squares) / len(slot)
    chance = min(0.99, rules.solve + (1 - rules.solve) * 0.6 * have)
    if rng.random() < chance:
        return [
            (sq, puzzle.solution[sq]) for sq in slot.squares if letters[sq] != puzzle.solution[sq]
        ]
    guesses = []
    for sq in slot.squares:
        if letters[sq] == EMPTY:
            right = puzzle.solution[sq]
            guesses.append((sq, right if rng.random() < 0.5 else _wrong_letter(right, rng)))
    return guesses


def _think(puzzle: Puzzle, slot: Slot, level: str, rng: random.Random) -> int:
    """Time for one word: the level's solo time spread over the puzzle's words.

    Measured with ``crossing bots simulate --bots 1``: a bot alone on a Together board
    then takes about as long as the same bot racing. Longer words take a little longer.
    """
    per_word = solve_ms(puzzle, level) / len(puzzle.slots)
    average = len(puzzle.white_squares) * 2 / len(puzzle.slots)
    return int(per_word * rng.uniform(0.6, 1.4) * math.sqrt(len(slot) / average))
