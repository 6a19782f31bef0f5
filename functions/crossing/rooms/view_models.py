"""The allow-list of what a phone or a watch screen may be sent: a room, a Duel, the lobby.

``views.view`` builds a room's view and ``duel.views.view`` a Duel's; before either
leaves, it is checked against these models, whose every field is named here and nowhere
else (``extra="forbid"`` throughout): a field added to a view without being added here
fails every test that builds a view, instead of quietly reaching players. A room's view
is checked where it is built (it may leave as a patch); a Duel's and the lobby's where
their message is (``protocol.DuelMessage``, ``protocol.LobbyMessage``: they always leave
whole). Read with the secrecy rules in ``views`` and ``duel.views``: what each field may
hold is in its comment.
"""

from __future__ import annotations

from collections.abc import Callable
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict


class _Shown(BaseModel):
    # Only their fields are read (``_shape``): no validator is ever built for them.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class MemberShown(_Shown):
    player: str
    name: str
    color: str
    bot: str | None  # the level, or None for a person
    present: bool
    on_game_screen: bool


class ClueShown(_Shown):
    id: str
    number: int
    squares: list[int]
    clue: str


class PuzzleShown(_Shown):
    """The grid and clues: never the solution."""

    id: str
    title: str
    width: int
    height: int
    blocks: list[int]
    numbers: dict[str, int]
    clues: dict[str, list[ClueShown]]


class SeatShown(_Shown):
    done: bool
    gone: bool
    away: bool


class ProgressShown(_Shown):
    """Squares-only: which squares a racer has filled and the share, never a letter."""

    filled: list[int]
    fraction: float


class ClockShown(_Shown):
    elapsed_ms: int  # banked while stopped
    running: bool
    since: int | None  # server ms it last started running
    at: int  # the server's time of the reading (whole views carry it)


class MissShown(_Shown):
    square: int
    answer: str
    letter: str


class RaceStandingShown(_Shown):
    player: str
    place: int
    perfect: bool
    right: int
    squares: int
    time_ms: int | None
    done: bool


class TogetherStandingShown(_Shown):
    player: str
    place: int
    squares: int
    words: list[str]
    average_ms: float | int | None
    first_word_ms: int | None


class RaceResultShown(_Shown):
    """After the check only: the answers, and this racer's own misses."""

    reason: str
    standings: list[RaceStandingShown]
    solution: str
    misses: list[MissShown] | None = None


class TogetherResultShown(_Shown):
    """After the check only: the answers and who earned which square."""

    reason: str
    standings: list[TogetherStandingShown]
    owners: dict[str, str]
    misses: list[MissShown]
    solution: str


class GameShown(_Shown):
    mode: str
    puzzle: PuzzleShown
    paused: bool
    seats: dict[str, SeatShown]
    over: bool
    clock: ClockShown
    # a race: everyone's squares-only progress; the viewer's own board, clock and undo
    progress: dict[str, ProgressShown] | None = None
    limit_ms: int | None = None
    my_clock: ClockShown | None = None
    bot_fills: dict[str, list[list[int]]] | None = None  # [race-clock ms, square]: no letter
    # the board: a racer's own letters, or Together's shared one (every phone sees it)
    board: str | None = None
    writers: list[str | None] | None = None  # whose tint each Together square shows
    can_undo: bool | None = None
    result: RaceResultShown | TogetherResultShown | None = None


class RoomShown(_Shown):
    code: str
    you: str | None
    host: str | None
    host_was: str | None  # whom the host role passed on from, until the next start
    solo: bool
    phase: str
    mode: str
    size: str
    members: list[MemberShown]
    waiting_for: list[str]
    due_at: int | None
    game: GameShown | None = None


# --- the Duel -------------------------------------------------------------------------------


class DuelSeatShown(_Shown):
    seat: int
    player: str
    name: str
    rating: int
    rated: bool
    provisional: bool  # the rating is provisional: a game against it moves no other rating
    bot: str | None
    score: int
    time_left: int | None
    out_of_time: bool
    running: bool
    rack_count: int  # how many tiles: never which
    connected: bool


class TileValueShown(_Shown):
    letter: str
    value: int
    count: int


class TileRulesShown(_Shown):
    """The rule set the page draws with: the same for every game."""

    name: str
    layout: list[str]
    tiles: list[TileValueShown]
    star_multiplies: bool


class DuelMoveShown(_Shown):
    """A move as the move list shows it: a swap never says which tile went back."""

    seat: int | None
    kind: str
    score: int
    words: list[str]
    tiles: list[list[int | str]]  # [row, col, letter]: the tiles laid on the board
    at: str


class RatingChangeShown(_Shown):
    before: int
    after: int
    games: int | None  # the player's rated games, this one counted (None: not known)
    provisional: bool  # still provisional after this game


class DuelOpponentShown(_Shown):
    name: str
    bot: str | None
    rated: bool


class DuelGameShown(_Shown):
    """One finished game in a player's list (My games)."""

    id: str
    ended_at: int | None
    limit: int | None
    you: int
    opponent: DuelOpponentShown
    outcome: str  # "won" | "lost" | "draw"
    reason: str
    scores: list[int]  # in seat order
    moves: int
    aborted: bool
    rating: RatingChangeShown | None
    kept_until: int  # the game can be opened (and replayed) until then


class DuelResultShown(_Shown):
    reason: str
    winner: int | None
    scores: list[int]
    aborted: bool
    ratings: list[RatingChangeShown | None]


class DuelShown(_Shown):
    id: str
    you: int | None  # the viewer's seat; None for a watch screen
    seats: list[DuelSeatShown]
    rack: str  # the viewer's own letters only; "" for a watch screen
    bag: int  # how many tiles are left: never which, nor their order
    board: list[str]
    rules: TileRulesShown
    turn: int | None
    limit: int | None
    rated: bool
    moves: list[DuelMoveShown]
    due_at: int | None  # the next flag fall or bot move: when to send a tick
    now: int
    result: DuelResultShown | None


class SeekShown(_Shown):
    """A public waiting game in the lobby: never its private token."""

    id: str
    name: str
    rating: int
    rated: bool
    provisional: bool
    will_rate: bool
    limit: int | None
    expires_at: int
    yours: bool


class OwnSeekShown(_Shown):
    """The viewer's own waiting game: only its owner is sent its token (the private link)."""

    id: str
    limit: int | None
    private: bool
    token: str | None
    expires_at: int


_V = TypeVar("_V")


def shown_as(annotation: Any) -> Callable[[_V], _V]:
    """A check that lets a value through unchanged once it fits ``annotation`` (a model,
    or a list or union of them), key by key at every depth, like ``allowed``: for a
    message field (``Annotated[..., AfterValidator(shown_as(DuelShown))]``)."""
    shape = _shape(annotation)
    where = getattr(annotation, "__name__", str(annotation))

    def check(value: _V) -> _V:
        _check(value, shape, where)
        return value

    return check


def allowed(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` unchanged, once every key in it, at every depth, is on the allow-list.

    The check is by keys (what could leak), against the models' own fields; the
    property tests check the values. The puzzle, the same for every viewer, is checked
    where it is built (``allowed_puzzle``), so a cached one is not walked again.
    """
    _check(view, _ROOM, "room")
    return view


def allowed_game(part: dict[str, Any]) -> dict[str, Any]:
    """``part`` of a game's view (what one viewer sees on top of what all see) unchanged,
    once every key in it is on the allow-list."""
    _check(part, _ROOM["game"], "room.game")
    return part


def allowed_puzzle(puzzle: dict[str, Any]) -> dict[str, Any]:
    """``puzzle`` unchanged, once it holds only what ``PuzzleShown`` allows."""
    _check(puzzle, _PUZZLE, "puzzle")
    return puzzle


Shape = Any  # a model's {field: shape}, ("list"|"dict", shape), ("any", shapes) or None


def _shape(annotation: Any) -> Shape:
    origin, args = get_origin(annotation), get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, _Shown):
        return {name: _shape(info.annotation) for name, info in annotation.model_fields.items()}
    if origin in (list, dict):  # a list or dict of plain values has no keys to check
        inner = _shape(args[0] if origin is list else args[1])
        return None if inner is None else ("list" if origin is list else "dict", inner)
    if origin in (Union, UnionType):
        shapes = [_shape(a) for a in args if a is not type(None)]
        shapes = [x for x in shapes if x is not None]
        return None if not shapes else shapes[0] if len(shapes) == 1 else ("any", shapes)
    return None


def _check(value: Any, shape: Shape, where: str) -> None:
    if shape is None or value is None:
        return
    if isinstance(shape, dict):
        if not isinstance(value, dict) or not value.keys() <= shape.keys():
            extra = sorted(set(value) - set(shape)) if isinstance(value, dict) else value
            raise ValueError(f"{where}: not on the allow-list: {extra!r}")
        for key, item in value.items():
            _check(item, shape[key], f"{where}.{key}")
    elif shape[0] == "list":
        for item in value:
            _check(item, shape[1], where + "[]")
    elif shape[0] == "dict":
        for key, item in value.items():
            _check(item, shape[1], f"{where}[{key}]")
    else:  # a union: the value fits one of the shapes
        errors = []
        for option in shape[1]:
            try:
                _check(value, option, where)
                return
            except ValueError as error:
                errors.append(str(error))
        raise ValueError("; ".join(errors))


# Worked out once: the checks only walk them. The room's shape leaves the puzzle out.
_PUZZLE = _shape(PuzzleShown)
_ROOM = _shape(RoomShown)
_ROOM["game"]["puzzle"] = None
