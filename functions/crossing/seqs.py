"""Which of a player's messages a document has applied: a window, not only the last.

A client numbers its messages and sends without waiting, and in the cloud two of
them can be handled in either order, so "greater than the last" would silently
drop the older of two close letters. The window keeps the ``WINDOW`` most recent
seqs applied, by number, however far apart they are (a page that reads its seqs off
the clock, so two tabs of one player never share one, numbers them microseconds
apart): a seq among them, or newer than the oldest of them, is applied once whatever
order it comes in; one older than all of them is refused (``stale``: nothing
changed, so the client may send it again under a new seq).

Applied once is not enough for two letters of one player on one square: handled in
the reverse of typed order, the older would stay. So the window also remembers the
square each seq changed, and a late seq can ask whether a newer one of the same
player changed its square (``overtaken``). Every seq newer than one the window still
takes is in it, so nothing more than the window is needed.
"""

from __future__ import annotations

from bisect import bisect
from dataclasses import dataclass
from enum import Enum

from crossing.refusals import Refused

WINDOW = 64
STALE = Refused("stale", "That message is too old to tell whether it was applied; send it anew.")
NO_SQUARE = -1


class Seen(Enum):
    NEW = "new"
    APPLIED = "applied"
    STALE = "stale"  # older than the window: whether it was applied is no longer known


@dataclass(frozen=True)
class Applied:
    top: int = -1  # the highest seq applied
    # how far below ``top`` each other remembered seq is, nearest first: small numbers
    # where seqs are dense, and at most WINDOW - 1 of them however sparse
    gaps: tuple[int, ...] = ()
    # the square each remembered seq changed (NO_SQUARE: none), the top's first, then
    # each gap's in order; cut short after the last that changed one (a document
    # stored before squares were remembered reads as none changed)
    squares: tuple[int, ...] = ()


def seen(applied: Applied | None, seq: int) -> Seen:
    """
    >>> window = record(record(None, 5_000_000), 3_000_000)
    >>> [seen(window, s).value for s in (5_000_000, 3_000_000, 4_000_000, 6_000_000)]
    ['applied', 'applied', 'new', 'new']
    """
    if applied is None or seq > applied.top:
        return Seen.NEW
    gap = applied.top - seq
    if gap == 0 or gap in applied.gaps:
        return Seen.APPLIED
    if len(applied.gaps) >= WINDOW - 1 and gap > applied.gaps[-1]:
        return Seen.STALE
    return Seen.NEW


def overtaken(applied: Applied | None, seq: int, square: int) -> bool:
    """Whether a seq newer than ``seq`` (which ``seen`` said is NEW) changed ``square``.

    >>> window = record(record(None, 9, square=12), 10, square=3)
    >>> [overtaken(window, 8, 12), overtaken(window, 8, 4), overtaken(window, 11, 12)]
    [True, False, False]
    """
    if applied is None or seq >= applied.top:
        return False
    newer = applied.top - seq  # a remembered seq less than this far below the top is newer
    for gap, changed in zip((0, *applied.gaps), applied.squares, strict=False):
        if gap >= newer:
            return False
        if changed == square:
            return True
    return False


def record(applied: Applied | None, seq: int, square: int | None = None) -> Applied:
    """The window with ``seq`` applied (``seen`` said NEW), and the square it changed."""
    mark = NO_SQUARE if square is None else square
    if applied is None:
        return Applied(seq, (), _cut((mark,)))
    marks = applied.squares
    if seq > applied.top:
        shift = seq - applied.top
        gaps = (shift, *(gap + shift for gap in applied.gaps))
        return Applied(seq, gaps[: WINDOW - 1], _cut((mark, *marks)[:WINDOW]))
    gap = applied.top - seq
    at = bisect(applied.gaps, gap)  # the gaps stay in order, nearest first
    gaps = (*applied.gaps[:at], gap, *applied.gaps[at:])
    if at + 1 <= len(marks):
        marks = (*marks[: at + 1], mark, *marks[at + 1 :])
    elif mark != NO_SQUARE:
        marks = (*marks, *(NO_SQUARE,) * (at + 1 - len(marks)), mark)
    return Applied(applied.top, gaps[: WINDOW - 1], _cut(marks[:WINDOW]))


def _cut(marks: tuple[int, ...]) -> tuple[int, ...]:
    """Without the trailing seqs that changed no square: a Duel's window, or a lobby's,
    stores no squares at all."""
    end = len(marks)
    while end and marks[end - 1] == NO_SQUARE:
        end -= 1
    return marks if end == len(marks) else marks[:end]
