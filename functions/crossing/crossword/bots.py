"""Bots: racers and co-solvers at Easy, Medium and Hard. Pure: seeds in, plans out.

A race bot's whole solve is a *plan* made from its seed at the start: when each
square gets its letter (race-clock time, so a pause stops it), which few squares
it gets wrong, and when it taps Done. Its progress at any moment is read off the
plan, so it costs nothing per letter.

A Together bot acts one word at a time: ``together_turn`` looks at the shared
board as a person would — the clue, the crossing letters, never the answers it
has not "solved" — and says what it types and how long it thinks before its
next word. Its chance of solving a clue grows with its level and with how many
letters are already in. Once the board is full it re-reads words for wrong ones,
and taps Done when it finds nothing more or the board has stood still for its
patience. The model is written down in docs/bots.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
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
    finish_ms: int  # taps Done at the latest this long after the board's last change


REREAD = 0.5  # re-reading a filled word against its clue: this share of the time to solve one
# A word that has read wrong to a bot this many times it lets stand: a solver who has
# worked a word twice and still cannot place it leaves it, rather than circling forever.
DOUBTS = 2
LEVEL = {
    "easy": Level(0.05, 0.55, hit=0.45, doubt=0.12, finish_ms=60 * SECOND),
    "medium": Level(0.015, 0.75, hit=0.7, doubt=0.07, finish_ms=40 * SECOND),
    "hard": Level(0.003, 0.92, hit=0.9, doubt=0.03, finish_ms=20 * SECOND),
}
PATIENCE = (0.8, 1.0)  # each bot's patience: this share of its level's finish_ms
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
class Look:
    """What a bot remembers of the board once it is full, to finish as a solver does.

    ``read``: each word's letters when it last read them and let them stand, so that it
    re-reads only what has changed since; ``doubts``: how often each word has read wrong
    to it, at most ``DOUBTS``; ``reading``: the word it is re-reading now;
    ``patience_ms``: how long after the board's last change it taps Done (None: its
    level's ``finish_ms``).
    """

    read: Mapping[str, str] = field(default_factory=dict)
    doubts: Mapping[str, int] = field(default_factory=dict)
    reading: str | None = None
    patience_ms: int | None = None

    def patience(self, level: str) -> int:
        return LEVEL[level].finish_ms if self.patience_ms is None else self.patience_ms


def first_look(level: str, rng: random.Random) -> Look:
    """A bot's memory at the start: nothing read, and its own patience, so that two bots
    of a level do not tap Done at the same moment."""
    return Look(patience_ms=int(LEVEL[level].finish_ms * rng.uniform(*PATIENCE)))


@dataclass(frozen=True)
class Turn:
    commands: tuple[Command, ...]
    think_ms: int | None  # until the bot's next action; None once it has tapped Done
    look: Look = field(default_factory=Look)


def acts_at(game: Together, level: str, look: Look, next_ms: int) -> int:
    """The game time of the bot's next action: its next word at ``next_ms``, or, on a
    full board, the end of its patience with the board standing still, if that is sooner."""
    if EMPTY in game.letters():
        return next_ms
    return min(next_ms, game.changed_ms + look.patience(level))


def together_turn(
    game: Together,
    bot: str,
    level: str,
    rng: random.Random,
    at_ms: int,
    look: Look | None = None,
    waited_for: bool = False,
) -> Turn:
    """What the bot does at game time ``at_ms``, and how long it thinks before its next word.

    ``look``: what it remembers of the full board; ``waited_for``: every person in the
    game has tapped Done, and the check waits only for bots.
    """
    rules = LEVEL[level]
    look = look or Look()
    letters = game.letters()
    gaps = [s for s in game.puzzle.slots if any(letters[sq] == EMPTY for sq in s.squares)]
    if gaps:
        slot = _pick_slot(gaps, letters, rng)
        typed, solved = _attempt(game.puzzle, slot, letters, rules, rng)
        thinking = _think(game.puzzle, slot, level, rng)
        look = replace(look, reading=None)
        if solved:  # sure of it, it need not re-read it unless someone changes it
            look = _read(look, slot, _word(game.puzzle.solution, slot))
        return Turn(tuple(Type(bot, sq, ch) for sq, ch in typed), thinking, look)
    return reconsider(game, bot, level, rng, at_ms, look, waited_for)


def reconsider(
    game: Together,
    bot: str,
    level: str,
    rng: random.Random,
    at_ms: int,
    look: Look,
    waited_for: bool = False,
) -> Turn:
    """The board is full: finish re-reading a word against its clue, as a solver does,
    and start on the next.

    The bot does not know which words are wrong. It re-reads the words it has not read
    as they stand now (one with others' letters in twice as likely as one all its own),
    each taking half the time solving it takes. A word reads wrong to it with the
    level's ``hit`` chance if it is wrong, and its ``doubt`` chance if it is right,
    until it has read wrong ``DOUBTS`` times. A word that reads wrong is worked again
    from the clue and its crossings: solved, it is retyped as the answer; not solved,
    one of its letters is changed on a guess, which may land on a right square (unless
    the check waits only for bots: then, not sure, it lets the word stand). It taps Done
    once it has nothing left to re-read, or once the board has stood still for its
    patience, so a wrong word may be left.
    """
    if at_ms >= game.changed_ms + look.patience(level):
        return Turn((Done(bot),), None, look)
    changes: tuple[Type, ...] = ()
    if look.reading is not None:
        slot = game.puzzle.grid.slot(look.reading)
        changes, look = _reread(game, bot, level, slot, rng, look, waited_for)
    letters = list(game.letters())
    for change in changes:
        letters[change.square] = change.letter
    now = "".join(letters)
    unread = [s for s in game.puzzle.slots if look.read.get(s.id) != _word(now, s)]
    if not unread:
        return Turn((*changes, Done(bot)), None, replace(look, reading=None))
    weights = [2 if any(game.board[sq].writer != bot for sq in s.squares) else 1 for s in unread]
    slot = rng.choices(unread, weights=weights)[0]
    reading = int(_think(game.puzzle, slot, level, rng) * REREAD)
    return Turn(changes, reading, replace(look, reading=slot.id))


def _reread(
    game: Together,
    bot: str,
    level: str,
    slot: Slot,
    rng: random.Random,
    look: Look,
    waited_for: bool,
) -> tuple[tuple[Type, ...], Look]:
    """The bot has re-read ``slot`` as it stands: what it changes, and what it remembers."""
    rules = LEVEL[level]
    letters = game.letters()
    doubts = look.doubts.get(slot.id, 0)
    chance = rules.doubt if game.is_right(slot) else rules.hit
    if doubts >= DOUBTS or rng.random() >= chance:
        return (), _read(look, slot, _word(letters, slot))
    look = replace(look, doubts={**look.doubts, slot.id: doubts + 1})
    if rng.random() < _solve_chance(rules, 1.0):
        answer = _word(game.puzzle.solution, slot)
        typed = zip(slot.squares, answer, strict=True)
        return tuple(Type(bot, sq, ch) for sq, ch in typed if letters[sq] != ch), _read(
            look, slot, answer
        )
    if waited_for:
        return (), _read(look, slot, _word(letters, slot))
    sq = rng.choice(slot.squares)
    return (Type(bot, sq, _wrong_letter(letters[sq], rng)),), look


def _word(letters: str, slot: Slot) -> str:
    return "".join(letters[sq] for sq in slot.squares)


def _read(look: Look, slot: Slot, word: str) -> Look:
    """The bot has read ``slot`` as ``word`` and lets it stand."""
    return replace(look, read={**look.read, slot.id: word})


def _pick_slot(gaps: list[Slot], letters: str, rng: random.Random) -> Slot:
    """Most likely a word that already has some letters in."""
    weights = [1 + 4 * sum(letters[sq] != EMPTY for sq in s.squares) / len(s) for s in gaps]
    return rng.choices(gaps, weights=weights)[0]


def _attempt(
    puzzle: Puzzle, slot: Slot, letters: str, rules: Level, rng: random.Random
) -> tuple[list[tuple[Square, str]], bool]:
    """Type the answer if the clue is solved; else guess only the empty squares. And
    whether it was solved.

    Solving works from the clue and the crossing letters: the more of the word is in,
    the likelier. A solved word is typed whole, as a person sure of it would, over any
    crossing letter that disagrees; an unsolved one leaves existing letters alone.
    """
    have = sum(letters[sq] != EMPTY for sq in slot.squares) / len(slot)
    if rng.random() < _solve_chance(rules, have):
        return [
            (sq, puzzle.solution[sq]) for sq in slot.squares if letters[sq] != puzzle.solution[sq]
        ], True
    guesses = []
    for sq in slot.squares:
        if letters[sq] == EMPTY:
            right = puzzle.solution[sq]
            guesses.append((sq, right if rng.random() < 0.5 else _wrong_letter(right, rng)))
    return guesses, False


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
