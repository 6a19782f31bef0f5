"""Which of a player's messages a document has applied: a window, not only the last.

A client numbers its messages and sends without waiting, and in the cloud two of
them can be handled in either order, so "greater than the last" would silently
drop the older of two close letters. The window keeps the highest seq applied and
one bit for each of the ``WINDOW`` seqs below it: a seq in the window is applied
once whatever order it comes in, and one older than the window is refused
(``stale``: nothing changed, so the client may send it again under a new seq).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

WINDOW = 64


class Seen(Enum):
    NEW = "new"
    APPLIED = "applied"
    STALE = "stale"  # older than the window: whether it was applied is no longer known


@dataclass(frozen=True)
class Applied:
    top: int = -1  # the highest seq applied
    below: int = 0  # bit i set: seq top - 1 - i was applied too


def seen(applied: Applied | None, seq: int) -> Seen:
    if applied is None or seq > applied.top:
        return Seen.NEW
    if seq == applied.top:
        return Seen.APPLIED
    gap = applied.top - 1 - seq
    if gap >= WINDOW:
        return Seen.STALE
    return Seen.APPLIED if applied.below >> gap & 1 else Seen.NEW


def record(applied: Applied | None, seq: int) -> Applied:
    """The window with ``seq`` applied (``seen`` said NEW)."""
    if applied is None:
        return Applied(seq, 0)
    if seq > applied.top:
        shift = seq - applied.top
        below = ((applied.below << 1 | 1) << (shift - 1)) if shift <= WINDOW else 0
        return Applied(seq, below & ((1 << WINDOW) - 1))
    return Applied(applied.top, applied.below | 1 << (applied.top - 1 - seq))
