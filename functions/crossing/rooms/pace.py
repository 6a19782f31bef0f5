"""The in-room rate limit: a leaky bucket per player, filled by when frames arrived.

Every frame counts, applied or refused, ticks included, at the moment it reached
the server (not when it was handled: a backlog that drains at once is not a
burst). The bucket drains at ``PER_SECOND`` and holds ``BURST``; a frame that
finds it full is refused ``too-fast`` and still counts, so a flood stays refused,
up to ``BURST`` more so a stopped flood is forgiven within seconds. A person
typing flat out (ten letters a second, bursts of twenty) never fills it.
"""

from __future__ import annotations

from dataclasses import dataclass

BURST = 30
PER_SECOND = 15


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
