"""Who is in a game, Done, and pause: the part of the rules Race and Together share.

A game state here is a frozen dataclass with ``players`` (a mapping of player id
to a seat with ``done``, ``gone`` and ``away``), ``paused`` and ``done_label``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from crossing.crossword.commands import (
    Away,
    Back,
    Command,
    Done,
    Join,
    Leave,
    Pause,
    Resume,
    TakeBack,
)
from crossing.crossword.events import DoneChanged, Event, PauseChanged, Seated
from crossing.refusals import Refused

if TYPE_CHECKING:
    from _typeshed import DataclassInstance as DataclassInstance
else:  # the checker's name for "a dataclass instance" exists only for the checker

    class DataclassInstance(Protocol):
        __dataclass_fields__: ClassVar[dict[str, Any]]


class Seat(DataclassInstance, Protocol):
    @property
    def player(self) -> str: ...
    @property
    def done(self) -> bool: ...
    @property
    def gone(self) -> bool: ...  # back in the lobby, or away past grace: not waited for
    @property
    def away(self) -> bool: ...  # the phone dropped; the seat is kept


class Game(DataclassInstance, Protocol):
    @property
    def players(self) -> Mapping[str, Any]: ...
    @property
    def paused(self) -> bool: ...
    @property
    def done_label(self) -> str: ...


# Undo reaches back this many of a player's own changes: more than anyone takes back,
# and it keeps a Large room of eight players far below the store's item limit.
UNDO_DEPTH = 500


def remembered(history: tuple[Any, ...], change: Any) -> tuple[Any, ...]:
    """A player's undo history with ``change`` added, the oldest beyond the depth dropped."""
    return (*history[-(UNDO_DEPTH - 1) :], change)


G = TypeVar("G", bound=Game)


def seat_of(game: Game, player: str) -> Any:
    try:
        return game.players[player]
    except KeyError:
        raise Refused("not-a-player", "You are not in this game.") from None


def playing(game: Game, player: str) -> Any:
    """The seat of a player who may act now: present in the game, and the game not paused."""
    seat = seat_of(game, player)
    if seat.gone:
        raise Refused("not-playing", "You have left this game; join it again to play.")
    if game.paused:
        raise Refused("paused", "The game is paused.")
    return seat


def typing(game: Game, player: str) -> Any:
    """The seat of a player whose keyboard is on (not Done)."""
    seat = playing(game, player)
    if seat.done:
        raise Refused(
            "done", f"You tapped {game.done_label}, so the keyboard is off: take it back to type."
        )
    return seat


def undoing(game: Game, player: str) -> Any:
    seat = playing(game, player)
    if seat.done:
        raise Refused("done", f"Undo is off once you have tapped {game.done_label}.")
    return seat


def put(game: G, seat: Seat) -> G:
    return replace(game, players={**game.players, seat.player: seat})


def everyone_done(game: Game) -> bool:
    """Every player still in the game has tapped Done (and someone is still in it)."""
    still_in = [s for s in game.players.values() if not s.gone]
    return bool(still_in) and all(s.done for s in still_in)


def apply_seating(
    game: G,
    command: Command,
    now: int,
    *,
    new_seat: Callable[[str], Seat],
    time_of: Callable[[G, str], int],
) -> tuple[G, list[Event]] | None:
    """Apply a seat, Done or pause command; None for any other command.

    ``time_of(game, player)`` is the time a DoneChanged event reports;
    ``new_seat(player)`` seats someone who joins for the first time.
    """
    match command:
        case Done(player):
            seat = playing(game, player)
            if seat.done:
                raise Refused("already-done", f"You have already tapped {game.done_label}.")
            game = put(game, replace(seat, done=True))
            return game, [DoneChanged(player, True, time_of(game, player))]
        case TakeBack(player):
            seat = seat_of(game, player)
            if not seat.done:
                raise Refused("not-done", f"You have not tapped {game.done_label}.")
            game = put(game, replace(seat, done=False))
            return game, [DoneChanged(player, False, time_of(game, player))]
        case Join(player):
            seat = game.players.get(player) or new_seat(player)
            return put(game, replace(seat, gone=False, away=False)), [Seated(player, True)]
        case Leave(player):
            seat = replace(seat_of(game, player), gone=True, away=False)
            return put(game, seat), [Seated(player, False)]
        case Away(player):
            return put(game, replace(seat_of(game, player), away=True)), [Seated(player, False)]
        case Back(player):
            seat = replace(seat_of(game, player), away=False, gone=False)
            return put(game, seat), [Seated(player, True)]
        case Pause():
            if game.paused:
                raise Refused("paused", "The game is already paused.")
            return replace(game, paused=True), [PauseChanged(True)]
        case Resume():
            if not game.paused:
                raise Refused("not-paused", "The game is not paused.")
            return replace(game, paused=False), [PauseChanged(False)]
    return None
