"""What a step reports back, for the room to tell the players (through views)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crossing.crossword.grid import Square


@dataclass(frozen=True)
class Changed:
    """A square changed. ``letter`` is ``"."`` when cleared; ``undo`` marks an undo,
    whose square is where the undoing player's cursor goes back to."""

    player: str
    square: Square
    letter: str
    undo: bool = False


@dataclass(frozen=True)
class DoneChanged:
    player: str
    done: bool
    time_ms: int


@dataclass(frozen=True)
class Seated:
    player: str
    present: bool


@dataclass(frozen=True)
class PauseChanged:
    paused: bool


@dataclass(frozen=True)
class Checked:
    """The check ran; ``result`` is the mode's result object."""

    reason: str  # "done" | "end" | "limit"
    result: Any


Event = Changed | DoneChanged | Seated | PauseChanged | Checked
