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
RACE_MEDIAN_MS: dict[int, dict[str, float]] = {
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
    # Together, board full: the bot re-reads one word at a time, as a solver does.
    hit: float  # chance a re-read wrong word reads wrong to it
    doubt: float  # chance a re-read right word reads wrong to it all the same
    rereads: float  # words re-read in a row finding nothing before Done, per word of the puzzle


REREAD = 0.5  # re-reading a filled word against its clue: this share of the time to solve one
LEVEL = {
    "easy": Level(0.05, 0.55, hit=0.45, doubt=0.12, rereads=0.4),
    "medium": Level(0.015, 0.75, hit=0.7, doubt=0.07, rereads=0.6),
    "hard": Level(0.003, 0.92, hit=0.9, doubt=0.03, rereads=1.0),
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
    calm: int = 0  # full board: words re-read in a row that read right to it


def together_turn(game: Together, bot: str, level: str, rng: random.Random, calm: int = 0) -> Turn:
    """What the bot does now, and how long it thinks before its next word.

    ``calm``: on a full board, how many words in a row it has re-read and found right.
    """
    rules = LEVEL[level]
    letters = game.letters()
    gaps = [s for s in game.puzzle.slots if any(letters[sq] == EMPTY for sq in s.squares)]
    if gaps:
        slot = _pick_slot(gaps, letters, rng)
        typed = _attempt(game.puzzle, slot, letters, rules, rng)
        thinking = _think(game.puzzle, slot, level, rng)
        return Turn(tuple(Type(bot, sq, ch) for sq, ch in typed), thinking)
    return reconsider(game, bot, level, rng, calm)


def reconsider(game: Together, bot: str, level: str, rng: random.Random, calm: int) -> Turn:
    """The board is full: re-read one word against its clue, as a solver does.

    The bot does not know which words are wrong. It picks a word to re-read (one
    with others' letters in twice as likely as one all its own), and the word reads
    wrong to it with the level's ``hit`` chance if it is wrong, and its ``doubt``
    chance if it is right. A word that reads wrong is worked again from the clue and
    its crossings: solved, it is retyped as the answer; not solved, one of its
    letters is changed on a guess, which may land on a right square. Once it has
    re-read the level's share of the words in a row and found nothing, it taps Done,
    so a wrong word may be left.
    """
    rules = LEVEL[level]
    slots = list(game.puzzle.slots)
    letters = game.letters()
    weights = [2 if any(game.board[sq].writer != bot for sq in s.squares) else 1 for s in slots]
    slot = rng.choices(slots, weights=weights)[0]
    doubted = rng.random() < (rules.doubt if game.is_right(slot) else rules.hit)
    thinking = int(_think(game.puzzle, slot, level, rng) * REREAD)
    if not doubted:
        if calm + 1 >= math.ceil(rules.rereads * len(slots)):
            return Turn((Done(bot),), None)
        return Turn((), thinking, calm + 1)
    if rng.random() < _solve_chance(rules, 1.0):
        typed = [(sq, game.puzzle.solution[sq]) for sq in slot.squares]
    else:
        sq = rng.choice(slot.squares)
        typed = [(sq, _wrong_letter(letters[sq], rng))]
    changes = tuple(Type(bot, sq, ch) for sq, ch in typed if letters[sq] != ch)
    return Turn(changes, thinking)


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
    if rng.random() < _solve_chance(rules, have):
        return [
            (sq, puzzle.solution[sq]) for sq in slot.squares if letters[sq] != puzzle.solution[sq]
        ]
    guesses = []
    for sq in slot.squares:
        if letters[sq] == EMPTY:
            right = puzzle.solution[sq]
            guesses.append((sq, right if rng.random() < 0.5 else _wrong_letter(right, rng)))
    return guesses


def _solve_chance(rules: Level, have: float) -> float:
    """The chance to solve a clue with ``have`` (a fraction) of its letters in."""
    return min(0.99, rules.solve + (1 - rules.solve) * 0.6 * have)


def _think(puzzle: Puzzle, slot: Slot, level: str, rng: random.Random) -> int:
    """Time for one word: the level's solo time spread over the puzzle's words.

    Measured with ``crossing bots simulate --bots 1``: a bot alone on a Together board
    then takes about as long as the same bot racing. Longer words take a little longer.
    """
    per_word = solve_ms(puzzle, level) / len(puzzle.slots)
    average = len(puzzle.white_squares) * 2 / len(puzzle.slots)
    return int(per_word * rng.uniform(0.6, 1.4) * math.sqrt(len(slot) / average))
