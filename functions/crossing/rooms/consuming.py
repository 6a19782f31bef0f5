"""The queue's consumer: one batch of queued frames applied, and what failed for a
passing reason tried again at once.

SQS takes a failed frame back only when its visibility timeout runs out, and every
later frame of its room waits behind it (FIFO): a store that throttled one request
would freeze a room for seconds. So the consumer tries again itself, briefly, but only
where that can help: a failure ``worth_retrying`` says may pass (the adapters' side
knows: a timeout, throttling, a 5xx). A bug fails the same way every time; tried again
it only holds the room longer, so it goes back to the queue at once (and after its
last delivery to the dead-letter queue, which pages).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence

from crossing.rooms.ports import Queued, held_back
from crossing.rooms.sent import Sent

WAITS_S = (0.25, 1.0)
"""Before each try after the first: longer than botocore's own backoff between the
tries it has made already, short against the queue's visibility timeout."""
TRY_NEEDS_S = 2.0
"""Time a try after a wait must have left before the function's timeout: a read, a
write and the posts, with room to spare (a try cut off by the timeout fails the whole
batch)."""

log = logging.getLogger(__name__)

Apply = Callable[[Sequence[Queued]], list[Sent | Exception]]


def consume(
    apply: Apply,
    frames: Sequence[Queued],
    *,
    worth_retrying: Callable[[Exception], bool],
    sleep: Callable[[float], None],
    time_left: Callable[[], float] = lambda: math.inf,
    waits: Sequence[float] = WAITS_S,
) -> list[Sent | Exception]:
    """What each frame caused, or what it failed with after its last try: ``apply``
    (one round) with the batch, then again with each room's frames from its first
    failure on, while that failure is worth retrying, a wait remains, and there is time.
    Each frame is applied once however often it is tried (its seq)."""
    results = _round(apply, frames)
    for wait in waits:
        again = retried(frames, results, worth_retrying)
        if not again or time_left() < wait + TRY_NEEDS_S:
            break
        log.warning("%d queued frames failed; trying them again", len(again))
        sleep(wait)
        for at, sent in zip(again, _round(apply, [frames[at] for at in again]), strict=True):
            results[at] = sent
    return results


def retried(
    frames: Sequence[Queued],
    results: Sequence[Sent | Exception],
    worth_retrying: Callable[[Exception], bool],
) -> list[int]:
    """The positions to try again: each room's frames from its first failure on, where
    that failure is worth retrying (a room whose first failure is a bug waits for none)."""
    failed = [at for at, sent in enumerate(results) if isinstance(sent, Exception)]
    held = held_back(frames, failed)
    first: dict[str, Exception] = {}
    for at in held:
        sent = results[at]
        if isinstance(sent, Exception):
            first.setdefault(frames[at].group, sent)
    rooms = {group for group, error in first.items() if worth_retrying(error)}
    return [at for at in held if frames[at].group in rooms]


def _round(apply: Apply, frames: Sequence[Queued]) -> list[Sent | Exception]:
    """Where the round's writes failed, every frame of it failed (nothing was written)."""
    try:
        return apply(frames)
    except Exception as error:
        return [error] * len(frames)
