"""The rooms' Timers as EventBridge Scheduler one-time schedules, one per room.

A room's schedule is named ``room-<code>`` in the configured group and fires the
timer handler once with ``{"room": code, "version": version}``, then deletes
itself (``ActionAfterCompletion: DELETE``). Scheduler works in whole seconds and
only promises to fire within the minute, so the time is rounded *up*: it never
fires before the due event, and it is only the backstop (see DESIGN "Time").
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from botocore.exceptions import ClientError

from crossing.aws import clients

_NAME = re.compile(r"^[0-9A-Za-z_.-]{1,59}$")  # "room-" + this fits Scheduler's 64
_ATTEMPTS = 3
MIN_LEAD_MS = 2_000
"""A schedule is never set closer than this to now: a one-time schedule whose time has
already passed when the request lands may be refused (reported, not in AWS's reference),
and Scheduler only promises the minute anyway."""
RETRY_POLICY = {"MaximumEventAgeInSeconds": 3600, "MaximumRetryAttempts": 20}
"""A late timer is harmless (the room catches up), a lost one is not: retry for an hour."""


def schedule_name(room: str) -> str:
    if not _NAME.match(room):
        raise ValueError(f"room code {room!r} cannot name a schedule")
    return f"room-{room}"


def at_expression(at: int) -> str:
    """``at(yyyy-mm-ddThh:mm:ss)`` in UTC for a time in ms, rounded up to the second."""
    seconds = -(-at // 1000)
    return f"at({datetime.fromtimestamp(seconds, UTC):%Y-%m-%dT%H:%M:%S})"


class SchedulerTimers:
    """``Timers`` on EventBridge Scheduler: ``target_arn`` is the timer handler's ARN,
    ``role_arn`` the role Scheduler assumes to invoke it."""

    def __init__(
        self,
        group: str,
        target_arn: str,
        role_arn: str,
        client: Any = None,
        *,
        clock: Callable[[], float] = time.time,
        dead_letter_arn: str | None = None,
    ) -> None:
        if client is None:
            client = clients.client("scheduler")
        self.group = group
        self.target_arn = target_arn
        self.role_arn = role_arn
        self.client = client
        self.clock = clock
        # Where Scheduler puts an invocation it gave up on (the stack alarms on its depth).
        self.dead_letter_arn = dead_letter_arn
        self.requests: Counter[str] = Counter()

    def arm(self, room: str, at: int, version: int) -> None:
        """Move the room's schedule (one request), or create it (two: the update misses).

        A time already past (or nearly) is set to ``MIN_LEAD_MS`` from now: the due event
        is then applied by whatever touches the room first, this timer included.
        """
        at = max(at, int(self.clock() * 1000) + MIN_LEAD_MS)
        schedule = self._schedule(room, at, version)
        for _ in range(_ATTEMPTS):
            try:
                self._call("update_schedule", schedule)
                return
            except ClientError as error:
                # Conflict: someone else is changing it right now; try again.
                if _code(error) not in ("ResourceNotFoundException", "ConflictException"):
                    raise
            try:
                self._call("create_schedule", schedule)
                return
            except ClientError as error:
                # Conflict: another writer created it since our update missed; update it.
                if _code(error) != "ConflictException":
                    raise
        raise RuntimeError(f"could not arm the timer of room {room} after {_ATTEMPTS} tries")

    def disarm(self, room: str) -> None:
        try:
            self._call("delete_schedule", {"Name": schedule_name(room), "GroupName": self.group})
        except ClientError as error:
            if _code(error) != "ResourceNotFoundException":
                raise

    def _schedule(self, room: str, at: int, version: int) -> dict[str, Any]:
        # update_schedule replaces every setting, so each call sends them all.
        target: dict[str, Any] = {
            "Arn": self.target_arn,
            "RoleArn": self.role_arn,
            "Input": json.dumps({"room": room, "version": version}, separators=(",", ":")),
            "RetryPolicy": RETRY_POLICY,
        }
        if self.dead_letter_arn:
            target["DeadLetterConfig"] = {"Arn": self.dead_letter_arn}
        return {
            "Name": schedule_name(room),
            "GroupName": self.group,
            "ScheduleExpression": at_expression(at),
            "ScheduleExpressionTimezone": "UTC",
            "FlexibleTimeWindow": {"Mode": "OFF"},
            "ActionAfterCompletion": "DELETE",
            "State": "ENABLED",
            "Target": target,
        }

    def _call(self, operation: str, params: dict[str, Any]) -> None:
        self.requests[operation] += 1
        getattr(self.client, operation)(**params)


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))
