"""Which of a player's messages a document has applied: a window, not only the last.

A client numbers its messages and sends without waiting, and in the cloud two of
them can be handled in either order, so "greater than the last" would silently
drop the older of two close letters. The window keeps the ``WINDOW`` most recent
seqs applied, by number, however far apart they are (a page that reads its seqs off
the clock, so two tabs of one player never share one, numbers them microseconds
apart): a seq among them, or newer than the oldest of them, is applied once whatever
order it comes in; one older than all of them is refused (``stale``: nothing
changed, so the client may send it again under a new seq).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from crossing.refusals import Refused

WINDOW = 64
STALE = Refused("stale", "That message is too old to tell whether it was applied; send it anew.")


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


def record(applied: Applied | None, seq: int) -> Applied:
    """The window with ``seq`` applied (``seen`` said NEW)."""
    if applied is None:
        return Applied(seq)
    if seq > applied.top:
        shift = seq - applied.top
        gaps = (shift, *(gap + shift for gap in applied.gaps))
        return Applied(seq, gaps[: WINDOW - 1])
    gaps = tuple(sorted((*applied.gaps, applied.top - seq)))
    return Applied(applied.top, gaps[: WINDOW - 1])
