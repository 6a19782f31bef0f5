"""The four puzzle sizes, their race time limits and clue difficulty."""

from __future__ import annotations

from enum import StrEnum

MINUTE_MS = 60_000


class Size(StrEnum):
    MINI = "mini"
    SMALL = "small"
    MIDI = "midi"
    LARGE = "large"

    @property
    def width(self) -> int:
        return _WIDTH[self]

    @property
    def race_limit_ms(self) -> int:
        """Time limit of a race with more than one racer, bots included."""
        return _LIMIT_MINUTES[self] * MINUTE_MS

    @property
    def difficulty(self) -> str:
        """The two smaller sizes have easier clues."""
        return "easy" if self in (Size.MINI, Size.SMALL) else "hard"

    @classmethod
    def for_width(cls, width: int) -> Size:
        for size, w in _WIDTH.items():
            if w == width:
                return size
        raise ValueError(f"no size is {width} squares wide (sizes: 5, 7, 9, 11)")


_WIDTH = {Size.MINI: 5, Size.SMALL: 7, Size.MIDI: 9, Size.LARGE: 11}
_LIMIT_MINUTES = {Size.MINI: 5, Size.SMALL: 10, Size.MIDI: 20, Size.LARGE: 30}
