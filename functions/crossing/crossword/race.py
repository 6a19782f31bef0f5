"""Race: everyone solves the same puzzle on a board of their own.

A perfect board beats any board with a mistake; perfect boards rank by time;
the rest by right squares, then time. ``step(race, command, now)`` is the only
way a race changes; it never mutates its input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from crossing.clock import Clock
from crossing.crossword.commands import (
    EMPTY,
    Clear,
    Command,
    End,
    Refused,
    Tick,
    Type,
    Undo,
    clean_letter,
)
from crossing.crossword.events import Changed, Checked, Event
from crossing.crossword.grid import Square
from crossing.crossword.puzzle import Miss, Puzzle, misses
from crossing.crossword.ranking import assign_places
from crossing.crossword.seating import (
    apply_seating,
    everyone_done,
    put,
    remembered,
    typing,
    undoing,
)
from crossing.crossword.sizes import Size


@dataclass(frozen=True)
class Change:
    """One entry of a racer's undo history: the square and what it held before."""

    square: Square
    before: str


@dataclass(frozen=True)
class Racer:
    player: str
    letters: str  # one character per square: "#" block, "." empty, else the letter
    clock: Clock
    done: bool = False
    gone: bool = False  # back in the lobby, or away past grace: not waited for
    away: bool = False
    history: tuple[Change, ...] = ()


@dataclass(frozen=True)
class RacerResult:
    player: str
    place: int
    perfect: bool
    right: int
    squares: int
    time_ms: int
    done: bool
    misses: tuple[Miss, ...]


@dataclass(frozen=True)
class RaceResult:
    reason: str  # "done" | "end" | "limit"
    standings: tuple[RacerResult, ...]  # best first

    def of(self, player: str) -> RacerResult:
        return next(r for r in self.standings if r.player == player)


@dataclass(frozen=True)
class Race:
    puzzle: Puzzle
    players: Mapping[str, Racer]
    clock: Clock  # race time: runs from the start, stops only for pause and the check
    size_limit_ms: int | None  # the size's limit; in force only with more than one racer
    paused: bool = False
    result: RaceResult | None = None
    done_label: ClassVar[str] = "Done"

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def limit_ms(self) -> int | None:
        """A race has a time limit only with more than one racer, bots included."""
        return None if self.solo else self.size_limit_ms

    @property
    def over(self) -> bool:
        return self.result is not None

    def due_at(self) -> int | None:
        """When the time limit falls due, if the race runs on undisturbed."""
        if self.over or self.limit_ms is None:
            return None
        return self.clock.reaches_at(self.limit_ms)

    def time_of(self, player: str, now: int) -> int:
        """A racer's time so far, never past the limit."""
        time = self.players[player].clock.read(now)
        return time if self.limit_ms is None else min(time, self.limit_ms)


def start_race(puzzle: Puzzle, players: Iterable[str], now: int) -> Race:
    """Everyone on the game screen gets the puzzle and the clock starts."""
    try:
        size_limit: int | None = Size.for_width(puzzle.width).race_limit_ms
    except ValueError:
        size_limit = None  # only the four sizes have limits; other grids are for tests and tools
    racers = {p: Racer(p, _blank(puzzle), Clock()) for p in dict.fromkeys(players)}
    if not racers:
        raise Refused("no-players", "A race needs at least one player.")
    race = Race(puzzle, racers, Clock(), size_limit)
    return sync_clocks(race, now)


def step(race: Race, command: Command, now: int) -> tuple[Race, list[Event]]:
    """Apply what has fallen due by ``now``, then the command."""
    race, events = advance(race, now)
    if isinstance(command, Tick):
        return race, events
    if race.over:
        raise Refused("over", "The race is over: the boards have been checked.")
    race, more = _apply(race, command, now)
    race = sync_clocks(race, now)
    events += more
    if everyone_done(race):
        race, checked = _check(race, now, "done")
        events.append(checked)
    return race, events


def advance(race: Race, now: int) -> tuple[Race, list[Event]]:
    """Apply the time limit if it has fallen due, as of the moment it fell due."""
    due = race.due_at()
    if due is None or due > now:
        return race, []
    race, checked = _check(race, due, "limit")
    return race, [checked]


def _apply(race: Race, command: Command, now: int) -> tuple[Race, list[Event]]:
    match command:
        case Type(player, square, letter):
            return _write(race, player, square, clean_letter(letter))
        case Clear(player, square):
            return _write(race, player, square, EMPTY)
        case Undo(player):
            return _undo(race, player)
        case End():
            race, checked = _check(race, now, "end")
            return race, [checked]
    applied = apply_seating(
        race,
        command,
        now,
        # A late joiner plays the same puzzle on the same clock: their time starts at the race's.
        new_seat=lambda player: Racer(player, _blank(race.puzzle), Clock(race.clock.read(now))),
        time_of=lambda race, player: race.time_of(player, now),
    )
    if applied is None:
        raise Refused("unknown", f"A race does not take {type(command).__name__}.")
    return applied


def _blank(puzzle: Puzzle) -> str:
    return "".join("#" if ch == "#" else EMPTY for ch in puzzle.solution)


def _write(race: Race, player: str, square: Square, letter: str) -> tuple[Race, list[Event]]:
    racer = typing(race, player)
    if not race.puzzle.grid.is_white(square):
        raise Refused("bad-square", f"Square {square} is not a white square of this puzzle.")
    before = racer.letters[square]
    if before == letter:
        return race, []
    letters = racer.letters[:square] + letter + racer.letters[square + 1 :]
    history = remembered(racer.history, Change(square, before))
    return put(race, replace(racer, letters=letters, history=history)), [
        Changed(player, square, letter)
    ]


def _undo(race: Race, player: str) -> tuple[Race, list[Event]]:
    racer = undoing(race, player)
    if not racer.history:
        raise Refused("nothing-to-undo", "There is nothing of yours to undo.")
    change = racer.history[-1]
    sq = change.square
    letters = racer.letters[:sq] + change.before + racer.letters[sq + 1 :]
    racer = replace(racer, letters=letters, history=racer.history[:-1])
    return put(race, racer), [Changed(player, sq, change.before, undo=True)]


def sync_clocks(race: Race, now: int) -> Race:
    """Clocks run unless paused or checked; on your own, only while you are there."""
    alone_and_absent = race.solo and any(r.away or r.gone for r in race.players.values())
    running = not race.paused and not race.over and not alone_and_absent
    racers = {
        p: replace(r, clock=r.clock.run_if(running and not r.done, now))
        for p, r in race.players.items()
    }
    return replace(race, clock=race.clock.run_if(running, now), players=racers)


def _check(race: Race, at: int, reason: str) -> tuple[Race, Checked]:
    """Check every board as it stands at moment ``at`` and rank the racers."""
    times = {p: race.time_of(p, at) for p in race.players}
    scored = [score_board(race.puzzle, r, times[p]) for p, r in race.players.items()]
    result = RaceResult(reason, tuple(rank(scored)))
    race = replace(race, result=result)
    racers = {p: replace(r, clock=r.clock.stop(at)) for p, r in race.players.items()}
    race = replace(race, clock=race.clock.stop(at), players=racers)
    return race, Checked(reason, result)


def score_board(puzzle: Puzzle, racer: Racer, time_ms: int) -> RacerResult:
    """One racer's board against the solution; ``place`` is filled in by ``rank``."""
    wrong = misses(puzzle, racer.letters)
    squares = len(puzzle.white_squares)
    return RacerResult(
        player=racer.player,
        place=0,
        perfect=not wrong,
        right=squares - len(wrong),
        squares=squares,
        time_ms=time_ms,
        done=racer.done,
        misses=wrong,
    )


def rank_key(result: RacerResult) -> tuple[int, int, int]:
    """Perfect boards first, by time; then the rest by right squares, then time."""
    if result.perfect:
        return (0, 0, result.time_ms)
    return (1, -result.right, result.time_ms)


def rank(results: Iterable[RacerResult]) -> list[RacerResult]:
    """Best first, with places; equal keys share a place."""
    return assign_places(results, rank_key)
