"""Notifications: a player's Web Push subscription, and the one "your turn" message a
game sends each player (``Room.notified`` records it with the write that decided it)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from crossing.crossword.commands import Refused
from crossing.rooms import protocol as P
from crossing.rooms import room as R
from crossing.rooms.sent import Sent, limit, send
from crossing.rooms.writer import RoomWriter

NOTIFY_LIMIT = (10, 60_000)  # notifications turned on or off per player per minute
NOTIFY_TITLE = "Crossing Words"
NOTIFY_BODY = "Everyone else is done: the game is waiting for you."

log = logging.getLogger(__name__)
Aside = Callable[[Callable[[], Any], Callable[[Any], None]], Any]
"""Runs its first function off the rooms' thread, then its second with the answer."""


class Notices:
    def __init__(self, rooms: RoomWriter) -> None:
        self.rooms = rooms

    def subscribe(self, connection: str, player: str, m: P.Notify) -> Sent:
        """Store (or, with null, forget) the player's Web Push subscription in their profile."""
        rooms = self.rooms
        if not player:
            raise Refused("no-player", "Only a player can turn notifications on.")
        why = "Too many changes; wait a minute."
        limit(rooms.store, rooms.clock, f"notify:{player}", NOTIFY_LIMIT, why)
        if m.subscription is not None and (rooms.push is None or not rooms.push.public_key):
            raise Refused("no-push", "Notifications are not set up on this server.")
        push = m.subscription.model_dump(mode="json") if m.subscription is not None else None
        rooms.store.update_profile(player, {"push": push})
        send(rooms.connections, connection, P.Ack(seq=m.seq))
        return Sent()

    def notify(self, note: R.Notify, aside: Aside | None = None) -> None:
        """Send one notification; a subscription the push service calls gone is removed.

        Runs only after the write that recorded ``note.player`` in ``Room.notified``
        succeeded, so each player is sent at most one per game. A failure is logged, never
        raised: the room has moved on whether or not the phone hears about it. With
        ``aside``, the push service is asked off this thread, and what it answered comes
        back to a round of the rooms (``RoomService.aside``).
        """
        push, store = self.rooms.push, self.rooms.store
        if push is None:
            return
        profile = store.get_profile(note.player) or {}
        subscription = profile.get("push")
        if not subscription:
            return
        payload = {"title": NOTIFY_TITLE, "body": NOTIFY_BODY, "room": note.room}

        def send() -> str | None:
            assert push is not None
            try:
                return push.send(subscription, payload)
            except Exception:
                log.exception("push to %s failed", note.player)
                return None

        def then(result: str | None) -> None:
            if result == "gone":  # forgotten unless the player has set another since
                store.update_profile(note.player, {"push": None}, expect={"push": subscription})

        if aside is None:
            then(send())
        else:
            aside(send, then)
