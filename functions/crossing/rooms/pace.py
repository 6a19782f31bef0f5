"""How fast a player may go: the pace of frames, and limits on attempts over a window.

**Pace.** Every frame counts, applied or refused, ticks and snapshots included, at the
moment it reached the server (not when it was handled: a backlog that drains at once is
not a burst). A leaky bucket per player drains at ``PER_SECOND`` and holds ``BURST``; a
frame that finds it full is refused ``too-fast`` and still counts, so a flood stays
refused, up to ``BURST`` more so a stopped flood is forgiven within seconds. A person
typing flat out (ten letters a second, bursts of twenty) never fills it. A crossword
room keeps its players' buckets in its own document (written with the letter anyway);
every other frame counts in its connection's bucket, which the store keeps.

**Limits** (hosting, joining, signing in, …): at most ``count`` attempts in *any*
window of ``window_ms``, the window sliding with each attempt (``within``), so a burst
across a minute's boundary gets no more than the limit.

**Wrong passwords** slow every attempt on that account's name (``backoff_ms``) rather
than lock it: the owner, with the right password, waits at most a minute, and not at all
after the few wrong ones a single source may try (OWASP's advice on lockout).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crossing.refusals import Refused

BURST = 30
PER_SECOND = 15
TOO_FAST = Refused("too-fast", "Slow down: too many messages at once.")


@dataclass(frozen=True)
class Bucket:
    level: float = 0.0
    at: int = 0  # ms: the latest arrival counted (arrivals may be handled out of order)


def take(bucket: Bucket | None, arrived: int) -> tuple[Bucket, bool]:
    """Count one frame that arrived at ``arrived``: the new bucket, and whether it fits."""
    bucket = bucket or Bucket(0.0, arrived)
    drained = max(0.0, bucket.level - max(0, arrived - bucket.at) * PER_SECOND / 1000)
    level = min(drained + 1, 2 * BURST)
    return Bucket(level, max(arrived, bucket.at)), level <= BURST


def within(times: Sequence[int], count: int, window_ms: int, now: int) -> list[int] | None:
    """One more attempt at ``now`` against at most ``count`` in any ``window_ms``: the
    times to keep (the latest ``count`` attempts allowed), or None if it is one too many.

    >>> kept = []
    >>> for at in (0, 10, 20):
    ...     kept = within(kept, 2, 1000, at) or kept
    >>> kept, within(kept, 2, 1000, 1009), within(kept, 2, 1000, 1010)
    ([0, 10], None, [10, 1010])
    """
    recent = sorted(t for t in times if t > now - window_ms)
    if len(recent) >= count:
        return None
    return [*recent, now][-count:] if count > 0 else None


FREE_FAILURES = 10
"""Wrong passwords for a name (in ``FAILURES_KEPT_MS``) before any attempt on it waits:
as many as one source may try in a minute, so one guesser alone never slows the owner."""
FAILURES_KEPT_MS = 15 * 60_000
MOST_WAIT_MS = 60_000


def backoff_ms(failures: Sequence[int], now: int) -> int:
    """How long an attempt on a name must still wait, after the wrong passwords tried for
    it at ``failures`` (times): none for the first ``FREE_FAILURES``, then a second,
    doubling with each more, at most a minute, from the latest.

    >>> backoff_ms([0] * 10, 0), backoff_ms([0] * 11, 0), backoff_ms([0] * 13, 500)
    (0, 1000, 3500)
    """
    recent = [t for t in failures if t > now - FAILURES_KEPT_MS]
    beyond = len(recent) - FREE_FAILURES
    if beyond <= 0:
        return 0
    wait = min(1000 * 2 ** (beyond - 1), MOST_WAIT_MS)
    return max(0, max(recent) + wait - now)
