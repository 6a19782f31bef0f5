"""What one message caused, and the small helpers every service of the router shares."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crossing.crossword.commands import Refused
from crossing.crossword.events import Checked
from crossing.rooms import room as R
from crossing.rooms.duel_documents import Outcome
from crossing.rooms.ports import Connections, Store


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Sent:
    """What one message caused, for the caller (handlers log and count it; tests read it)."""

    version: int | None = None
    wrote: bool = False
    started: tuple[str, str] | None = None  # (mode, size) of a game that started
    checked: str | None = None  # the mode of a game that was checked
    bot_actions: int = 0  # letters, words and Done taps by bots this write applied
    late_ms: int | None = None  # how long after falling due the first due event was applied
    duel_started: str | None = None  # "bot" or "human": a Duel began
    duel_finished: str | None = None  # a Duel ended, for this reason
    duel_moves: int = 0
    duel_bot_moves: int = 0
    queued: bool = False  # handed to the room's queue; its writer answers it
    action: str = "?"  # the frame's action, if the protocol knows it (``router.read``)


def from_duel(outcome: Outcome) -> Sent:
    return Sent(
        version=outcome.version,
        wrote=outcome.wrote,
        duel_started=outcome.started,
        duel_finished=outcome.finished,
        duel_moves=outcome.moves,
        duel_bot_moves=outcome.bot_moves,
    )


def outcome(before: R.Room, after: R.Room, events: list[Any], now: int, version: int) -> Sent:
    """What a write of the room did, for the handlers' metrics."""
    started = None
    if after.phase is R.Phase.PLAYING and (
        before.phase is not R.Phase.PLAYING or before.games_played != after.games_played
    ):
        started = (after.mode.value, after.size.value)
    checked = after.mode.value if any(isinstance(e, Checked) for e in events) else None
    bots = {m.player for m in after.members.values() if m.bot is not None}
    bot_actions = sum(1 for e in events if getattr(e, "player", None) in bots)
    due = before.due_at()
    late = now - due if due is not None and due <= now else None
    return Sent(version, True, started, checked, bot_actions, late)


def send(connections: Connections, connection: str, message: Any) -> bool:
    """One server message (a pydantic model) to one connection."""
    return connections.send(connection, message.model_dump(mode="json"))


def limit(
    store: Store, clock: Callable[[], int], key: str, rule: tuple[int, int], why: str
) -> None:
    """Refuse ``too-many`` past ``rule`` (count, window in ms) for ``key``."""
    if not store.take(key, rule[0], rule[1], clock()):
        raise Refused("too-many", why)
