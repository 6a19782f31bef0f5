"""The thin router: one frame in, parsed once, its connection looked up once, and handed
by its message type to the service that owns it.

- identity (``identity.py``): hello, sign-up, sign-in;
- crossword rooms: entering them (``entering.py``: host, join, watch, pick up) and
  everything inside one (``actions.py``), applied by the room's writer (``service.py``);
- Duel (``duel_desk.py``): the lobby, seeks, games;
- notifications (``notices.py``): a phone's push subscription.

Where a queue is configured (the cloud), a frame for a room or a Duel game (``group_of``)
is not applied here: it is enqueued with the connection record, and the queue's consumer
hands the frames of one room to ``RoomService.apply``, which applies them as one round
through the same services.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from pydantic import ValidationError

from crossing.crossword.commands import Refused
from crossing.rooms import protocol as P
from crossing.rooms.actions import RoomActions
from crossing.rooms.duel_desk import GAME_PREFIX, is_duel_code
from crossing.rooms.entering import Entering
from crossing.rooms.identity import Identity
from crossing.rooms.notices import Notices
from crossing.rooms.ports import Queue, Queued
from crossing.rooms.sent import Sent, from_duel, send
from crossing.rooms.writer import RoomWriter

log = logging.getLogger(__name__)
KEEP_ALIVE = "ping"
"""An idle screen's frame that only keeps its socket open (docs/protocol.md)."""

_DUEL_MODELS = (P.DuelSeek, P.DuelCancel, P.DuelAccept, P.DuelBot, P.DuelOpen, P.DuelWatch)
_DUEL_MOVES = (P.DuelPlay, P.DuelSwap)
_DUEL_SIMPLE = ("duel_lobby", "duel_skip", "duel_resign")
_DIRECT = (P.Hello, P.SignUp, P.SignIn, P.Notify, P.Host, P.PickUp)
_DUEL_TURN = ("tick", "duel_skip", "duel_resign")
_CODE = re.compile(r"[A-Z0-9]{4,12}")  # a crossword room's code, as a queue's group
_ENTERS = (P.JoinByCode, P.Watch)  # the frames whose group is the room they name


def decode(body: str | bytes | None, binary: bool) -> Any:
    """The frame as JSON data, or the refusal a malformed frame gets."""
    if binary:
        raise Refused("binary-frame", "Messages are JSON text, not binary frames.")
    raw = body.encode() if isinstance(body, str) else (body or b"")
    if len(raw) > P.MAX_MESSAGE_BYTES:
        raise Refused("too-large", f"Messages are at most {P.MAX_MESSAGE_BYTES} bytes.")
    try:
        return json.loads(raw or b"null")
    except (ValueError, RecursionError):  # nested past the parser's depth: not JSON
        raise Refused("bad-message", "That message is not JSON.") from None


def validate(data: Any) -> Any:
    """The client message model (the pydantic union in ``protocol.py``) for ``data``."""
    try:
        return P.CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        raise Refused("bad-message", P.explain(error)) from None


def is_duel(message: Any, code: str) -> bool:
    if isinstance(message, _DUEL_MODELS + _DUEL_MOVES):
        return True
    return message.action in _DUEL_SIMPLE or (
        is_duel_code(code) and message.action in ("tick", "snapshot")
    )


def group_of(message: Any, code: str) -> str | None:
    """The room or Duel game whose single writer must apply ``message``, the connection
    being in ``code``: the frames worth a queue, and their group. None for those that
    act directly: identity, hosting (a new room), notifications, snapshots, the Duel
    lobby."""
    if isinstance(message, _ENTERS):  # the room entered, which may be busy
        entered = message.code.strip().upper()
        return entered if _CODE.fullmatch(entered) else None
    if not code or isinstance(message, _DIRECT) or message.action == "snapshot":
        return None
    if is_duel(message, code):
        moves = isinstance(message, _DUEL_MOVES) or message.action in _DUEL_TURN
        return code if code.startswith(GAME_PREFIX) and moves else None
    return None if is_duel_code(code) else code


class Router:
    def __init__(self, rooms: RoomWriter, queue: Queue | None = None) -> None:
        self.rooms = rooms
        self.queue = queue
        self.identity = Identity(rooms)
        self.entering = Entering(rooms)
        self.notices = Notices(rooms)
        self.actions = RoomActions(rooms)

    def receive(
        self,
        connection: str,
        body: str | bytes | None,
        *,
        binary: bool = False,
        arrived: int | None = None,
        request: str | None = None,
        found: tuple[str, str] | None = None,
    ) -> Sent:
        """Handle one frame; every refusal is an error message to its connection.

        ``found`` is the connection record when the caller has it already: the queue's
        consumer, so the frame is applied here, never queued again. ``request`` names
        the frame for the queue's deduplication.
        """
        seq = None
        arrived = self.rooms.clock() if arrived is None else arrived
        try:
            data = decode(body, binary)
            if isinstance(data, dict) and data.get("action") == KEEP_ALIVE:
                return Sent()  # it only kept its socket open: nothing to answer
            seq = P.echoed_seq(data)
            message = validate(data)
            if isinstance(message, P.Hello):
                return self.identity.hello(connection, message)
            queued = found is not None
            found = found or self.rooms.store.get_connection(connection)
            if found is None:
                raise Refused("no-hello", "Say hello first: the connection has no player yet.")
            frame = (
                None if queued else self._elsewhere(connection, body, data, message, found, arrived)
            )
            if frame is not None:
                assert self.queue is not None
                self.queue.send(frame, request or f"{connection}.{seq}.{arrived}")
                return Sent(queued=True)
            return self.dispatch(connection, found[0], found[1], message, arrived)
        except Refused as refusal:
            send(
                self.rooms.connections,
                connection,
                P.refused(refusal, seq),
            )
            return Sent()

    def _elsewhere(
        self,
        connection: str,
        body: str | bytes | None,
        data: Any,
        message: Any,
        found: tuple[str, str],
        arrived: int,
    ) -> Queued | None:
        """``message`` as its room's queue takes it, if another writer applies it."""
        if self.queue is None:
            return None
        code, player = found
        group = group_of(message, code)
        if group is None:
            return None
        text = body if isinstance(body, str) else json.dumps(data)
        return Queued(connection, code, player, text, arrived, group)

    def dispatch(self, connection: str, code: str, player: str, message: Any, arrived: int) -> Sent:
        """Hand a parsed message to the service that owns its type."""
        if isinstance(message, P.SignUp | P.SignIn):
            return self.identity.sign_in(connection, code, message)
        duel = self.rooms.duel
        if is_duel(message, code):
            if message.action == "snapshot":
                return from_duel(duel.snapshot(connection, code, player))
            return from_duel(duel.receive(connection, player, code, message))
        if isinstance(message, P.Host):
            return self.entering.host(connection, player, code, message)
        if isinstance(message, P.JoinByCode):
            return self.entering.join(connection, player, code, message)
        if isinstance(message, P.Watch):
            return self.entering.watch(connection, player, code, message)
        if isinstance(message, P.PickUp):
            return self.entering.pick_up(connection, player, code, message)
        if isinstance(message, P.Notify):
            return self.notices.subscribe(connection, player, message)
        return self.actions.act(connection, code, player, message, arrived)

    def apply(self, frame: Queued) -> Sent:
        """Apply one queued frame here, with the connection record that came with it."""
        found = (frame.code, frame.player)
        return self.receive(frame.connection, frame.body, arrived=frame.arrived, found=found)
