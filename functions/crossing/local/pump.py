"""Fires due EventBridge Scheduler schedules into the timer handler, as the cloud would.

moto keeps the schedules but never fires them; this thread does, once a second.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger(__name__)


def due(expression: str, now: datetime) -> bool:
    """Whether a one-time ``at(yyyy-mm-ddThh:mm:ss)`` expression (UTC) has come."""
    if not expression.startswith("at(") or not expression.endswith(")"):
        return False
    when = datetime.fromisoformat(expression[3:-1]).replace(tzinfo=UTC)
    return when <= now


class SchedulePump:
    def __init__(
        self,
        scheduler: Any,
        group: str,
        fire: Callable[[dict[str, Any]], Any],
        *,
        every: float = 1.0,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ):
        self.scheduler = scheduler
        self.group = group
        self.fire = fire
        self.every = every
        self.clock = clock
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="schedule-pump", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.pump_once()
            except Exception:  # a bad schedule must not stop the pump for every room
                log.exception("schedule pump failed")

    def pump_once(self) -> int:
        """Fire every due schedule once, deleting it as Scheduler does after a one-time run."""
        fired = 0
        now = self.clock()
        # Every page: a grace period behind fifty newer rooms must fire too.
        pages = self.scheduler.get_paginator("list_schedules").paginate(GroupName=self.group)
        listed = [summary for page in pages for summary in page.get("Schedules", [])]
        for summary in listed:
            name = summary["Name"]
            try:
                schedule = self.scheduler.get_schedule(GroupName=self.group, Name=name)
            except self.scheduler.exceptions.ResourceNotFoundException:
                continue
            if not due(schedule.get("ScheduleExpression", ""), now):
                continue
            self.scheduler.delete_schedule(GroupName=self.group, Name=name)
            self.fire(json.loads(schedule["Target"].get("Input") or "{}"))
            fired += 1
        return fired
