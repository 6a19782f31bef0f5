"""The allow-list of what a phone or a watch screen may be sent about a room.

``views.view`` builds a room's view; before it leaves, it is checked against these
models, whose every field is named here and nowhere else (``extra="forbid"``
throughout): a field added to a view without being added here fails every test that
builds a view, instead of quietly reaching players. Read with the secrecy rules in
``views``: what each field may hold is in its comment.
"""

from __future__ import annotations

from types import UnionType
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict


class _Shown(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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
    solo: bool
    phase: str
    mode: str
    size: str
    members: list[MemberShown]
    waiting_for: list[str]
    due_at: int | None
    game: GameShown | None = None


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
