"""Together: the room shares one board; the first to finish a word right earns it.

Earning a word gives its earner every square of it not already earned through
a crossing word, and credit never moves. At the check only words still right
count: a square whose earning word is wrong goes to whoever earned a right word
crossing it. Most squares wins; ties go to whoever earned their squares sooner
on average, then to whoever earned their first word first.
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
from crossing.crossword.grid import Slot, Square
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


@dataclass(frozen=True)
class Write:
    """What a square holds: the letter, who last changed it, and a unique stamp.

    The stamp tells undo whether a square is still as its player left it.
    A cleared square keeps the clearer as ``writer`` with the letter ``"."``.
    """

    letter: str = EMPTY
    writer: str | None = None
    stamp: int = 0


@dataclass(frozen=True)
class Change:
    """One entry of a player's undo history: the square, what it held, what they wrote."""

    square: Square
    before: Write
    stamp: int  # the stamp of this player's write; undo applies only while it still stands


@dataclass(frozen=True)
class Member:
    player: str
    done: bool = False
    gone: bool = False
    away: bool = False
    history: tuple[Change, ...] = ()


@dataclass(frozen=True)
class Earned:
    """A word's first finisher, with the game time (ms, pauses excluded) and order."""

    slot: str
    player: str
    at_ms: int
    order: int


@dataclass(frozen=True)
class Standing:
    player: str
    place: int
    squares: int
    words: tuple[str, ...]  # slot ids earned that still count at the check
    average_ms: float | None  # mean earning time of the squares held at the check
    first_word_ms: int | None


@dataclass(frozen=True)
class TogetherResult:
    reason: str
    standings: tuple[Standing, ...]  # best first
    owners: Mapping[Square, str]  # who holds each square at the check
    misses: tuple[Miss, ...]


@dataclass(frozen=True)
class Together:
    puzzle: Puzzle
    board: tuple[Write, ...]  # one per square of the grid; blocks stay empty
    players: Mapping[str, Member]
    earned: Mapping[str, Earned]  # slot id -> its first finisher; credit never moves
    owners: Mapping[Square, str]  # square -> slot id through which it was earned
    clock: Clock
    next_stamp: int = 1
    paused: bool = False
    result: TogetherResult | None = None
    # Game time (ms) of the board's last change: bots finishing a full board measure
    # how long it has stood still from it.
    changed_ms: int = 0
    done_label: ClassVar[str] = "We're done"

    @property
    def over(self) -> bool:
        return self.result is not None

    def letters(self) -> str:
        """The board as one string: "#" blocks, "." empty, letters."""
        return "".join(
            "#" if ch == "#" else w.letter
            for ch, w in zip(self.puzzle.solution, self.board, strict=True)
        )

    def is_right(self, slot: Slot) -> bool:
        return all(self.board[sq].letter == self.puzzle.solution[sq] for sq in slot.squares)

    def credit(self) -> dict[str, int]:
        """Squares each player holds through earned words, before the check."""
        counts: dict[str, int] = {}
        for slot_id in self.owners.values():
            player = self.earned[slot_id].player
            counts[player] = counts.get(player, 0) + 1
        return counts

    def due_at(self) -> int | None:
        """Together has no time limit: nothing falls due by itself."""
        return None


def start_together(puzzle: Puzzle, players: Iterable[str], now: int) -> Together:
    members = {p: Member(p) for p in dict.fromkeys(players)}
    if not members:
        raise Refused("no-players", "A game needs at least one player.")
    board = tuple(Write() for _ in puzzle.solution)
    return Together(puzzle, board, members, {}, {}, Clock().start(now))


def step(game: Together, command: Command, now: int) -> tuple[Together, list[Event]]:
    if isinstance(command, Tick):
        return game, []
    if game.over:
        raise Refused("over", "The game is over: the board has been checked.")
    game, events = _apply(game, command, now)
    game = replace(game, clock=game.clock.run_if(not game.paused, now))
    if everyone_done(game):
        game, checked = _check(game, now, "done")
        events.append(checked)
    return game, events


def _apply(game: Together, command: Command, now: int) -> tuple[Together, list[Event]]:
    match command:
        case Type(player, square, letter):
            return _write(game, player, square, clean_letter(letter), now)
        case Clear(player, square):
            return _write(game, player, square, EMPTY, now)
        case Undo(player):
            return _undo(game, player, now)
        case End():
            game, checked = _check(game, now, "end")
            return game, [checked]
    applied = apply_seating(
        game, command, now, new_seat=Member, time_of=lambda game, _: game.clock.read(now)
    )
    if applied is None:
        raise Refused("unknown", f"Together does not take {type(command).__name__}.")
    return applied


def _set(game: Together, square: Square, write: Write) -> Together:
    board = (*game.board[:square], write, *game.board[square + 1 :])
    return replace(game, board=board)


def _write(
    game: Together, player: str, square: Square, letter: str, now: int
) -> tuple[Together, list[Event]]:
    member = typing(game, player)
    if not game.puzzle.grid.is_white(square):
        raise Refused("bad-square", f"Square {square} is not a white square of this puzzle.")
    before = game.board[square]
    if before.letter == letter:
        return game, []  # the same letter again changes nothing, and leaves nothing to undo
    stamp = game.next_stamp
    game = _set(game, square, Write(letter, player, stamp))
    game = replace(game, next_stamp=stamp + 1, changed_ms=game.clock.read(now))
    history = remembered(member.history, Change(square, before, stamp))
    game = put(game, replace(member, history=history))
    game = _earn(game, player, square, now)
    return game, [Changed(player, square, letter)]


def _undo(game: Together, player: str, now: int) -> tuple[Together, list[Event]]:
    """Take back the player's own last change that still stands; skip the overwritten ones."""
    member = undoing(game, player)
    history = list(member.history)
    while history:
        change = history.pop()
        if game.board[change.square].stamp == change.stamp:
            game = _set(game, change.square, change.before)
            game = replace(game, changed_ms=game.clock.read(now))
            game = put(game, replace(member, history=tuple(history)))
            game = _earn(game, player, change.square, now)
            return game, [Changed(player, change.square, change.before.letter, undo=True)]
    raise Refused("nothing-to-undo", "There is nothing of yours left to undo.")


def _earn(game: Together, player: str, square: Square, now: int) -> Together:
    """Words through ``square`` that are now right for the first time go to ``player``.

    Across is looked at before down, so when one letter finishes both, the
    across word takes the shared square and the down word the rest: both the
    player's.
    """
    at = game.clock.read(now)
    for slot in game.puzzle.grid.slots_by_square.get(square, ()):
        if slot.id in game.earned or not game.is_right(slot):
            continue
        earned = {**game.earned, slot.id: Earned(slot.id, player, at, len(game.earned))}
        new_squares = {sq: slot.id for sq in slot.squares if sq not in game.owners}
        game = replace(game, earned=earned, owners={**game.owners, **new_squares})
    return game


def final_owners(game: Together) -> dict[Square, str]:
    """Who holds each square at the check.

    A square stays with the word it was earned through while that word is still
    right; otherwise it goes to the earner of the crossing word, if that word
    was earned and is right; otherwise to nobody.
    """
    grid = game.puzzle.grid
    right = {slot.id for slot in grid.slots if slot.id in game.earned and game.is_right(slot)}
    holders: dict[Square, str] = {}
    for square, slot_id in game.owners.items():
        if slot_id in right:
            holders[square] = game.earned[slot_id].player
            continue
        crossing = grid.crossing(grid.slot(slot_id), square)
        if crossing is not None and crossing.id in right:
            holders[square] = game.earned[crossing.id].player
    return holders


def _check(game: Together, at: int, reason: str) -> tuple[Together, Checked]:
    grid = game.puzzle.grid
    holders = final_owners(game)
    counting = [e for e in game.earned.values() if game.is_right(grid.slot(e.slot))]
    standings = []
    for player in game.players.keys() | {e.player for e in game.earned.values()}:
        held = [sq for sq, p in holders.items() if p == player]
        times = [_earned_at(game, sq) for sq in held]
        firsts = [e.at_ms for e in game.earned.values() if e.player == player]
        standings.append(
            Standing(
                player=player,
                place=0,
                squares=len(held),
                words=tuple(
                    e.slot for e in sorted(counting, key=lambda e: e.order) if e.player == player
                ),
                average_ms=sum(times) / len(times) if times else None,
                first_word_ms=min(firsts) if firsts else None,
            )
        )
    result = TogetherResult(
        reason, tuple(rank(standings)), holders, misses(game.puzzle, game.letters())
    )
    game = replace(game, result=result, clock=game.clock.stop(at))
    return game, Checked(reason, result)


def _earned_at(game: Together, square: Square) -> int:
    """When the square's holder earned it: through its own word if still right, else the
    crossing word (``final_owners`` gives it to nobody when neither is right)."""
    grid = game.puzzle.grid
    slot = grid.slot(game.owners[square])
    if not game.is_right(slot):
        crossing = grid.crossing(slot, square)
        assert crossing is not None, "a square earned through a crossing word has one"
        slot = crossing
    return game.earned[slot.id].at_ms


def rank_key(s: Standing) -> tuple[int, float, float]:
    never = float("inf")
    return (
        -s.squares,
        s.average_ms if s.average_ms is not None else never,
        s.first_word_ms if s.first_word_ms is not None else never,
    )


def rank(results: Iterable[Standing]) -> list[Standing]:
    """Best first, with places; equal keys share a place."""
    return assign_places(results, rank_key)
