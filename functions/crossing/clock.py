"""A stopwatch held as banked time plus the moment it last started.

Time is always an argument (server milliseconds), so a clock can be read or
moved for any moment: a due event applied late reads the clock as it was on time.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Clock:
    elapsed_ms: int = 0
    since: int | None = None  # when it last started; None while stopped

    @property
    def running(self) -> bool:
        return self.since is not None

    def read(self, now: int) -> int:
        if self.since is None:
            return self.elapsed_ms
        return self.elapsed_ms + max(0, now - self.since)

    def start(self, now: int) -> Clock:
        return self if self.running else Clock(self.elapsed_ms, now)

    def stop(self, now: int) -> Clock:
        return Clock(self.read(now), None) if self.running else self

    def run_if(self, running: bool, now: int) -> Clock:
        """Start or stop so that the clock runs exactly when ``running``."""
        return self.start(now) if running else self.stop(now)

    def paused(self, start: int, end: int) -> Clock:
        """The clock as if it had stood still from ``start`` to ``end``: running, it reads
        at ``end`` what it read at ``start`` and runs on from there. A clock started at or
        after ``end`` is left alone, so the same pause applied twice counts once."""
        if self.since is None or self.since >= end:
            return self
        return Clock(self.read(start), end)

    def reaches_at(self, ms: int) -> int | None:
        """The moment the reading reaches ``ms``, if the clock runs on undisturbed."""
        if self.since is None:
            return None
        return self.since + max(0, ms - self.elapsed_ms)
