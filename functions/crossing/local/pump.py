"""Fires due events into the timer handler, as EventBridge Scheduler does in the cloud.

The backend says what is due (SQLite's timers table, or moto's schedules, which moto
keeps but never fires); this thread fires them, once a second.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger(__name__)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def at_due(expression: str, now: int) -> bool:
    """Whether a one-time ``at(yyyy-mm-ddThh:mm:ss)`` expression (UTC) has come by ``now`` (ms)."""
    if not expression.startswith("at(") or not expression.endswith(")"):
        return False
    when = datetime.fromisoformat(expression[3:-1]).replace(tzinfo=UTC)
    return when.timestamp() * 1000 <= now


class Pump:
    def __init__(
        self,
        due: Callable[[int], list[tuple[dict[str, Any], Callable[[], None]]]],
        fire: Callable[[dict[str, Any]], Any],
        *,
        every: float = 1.0,
        clock: Callable[[], int] = now_ms,
    ):
        self.due = due
        self.fire = fire
        self.every = every
        self.clock = clock
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="timer-pump", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        # At once, then every ``every`` s: what fell due while the server was down goes first.
        while True:
            try:
                self.pump_once()
            except Exception:  # a bad event must not stop the pump for every room
                log.exception("timer pump failed")
            if self._stop.wait(self.every):
                return

    def pump_once(self) -> int:
        """Fire every due event once; how many fired."""
        fired = 0
        for event, done in self.due(self.clock()):
            if self._stop.is_set():
                break  # stopping: the rest stay due for the next start
            try:
                self.fire(event)
            except Exception:
                # As Scheduler gives up after its retries: logged, and not fired again.
                log.exception("timer event %s failed", event)
            done()
            fired += 1
        return fired
