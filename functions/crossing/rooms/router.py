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
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from crossing.crossword.commands import Refused
from crossing.rooms import pace
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
BAD_PING = "The message's number (seq) must be a whole number from 0 to 2^53."

_DUEL_MODELS = (P.DuelSeek, P.DuelCancel, P.DuelAccept, P.DuelBot, P.DuelOpen, P.DuelWatch)
_DUEL_MOVES = (P.DuelPlay, P.DuelSwap)
_DUEL_SIMPLE = ("duel_lobby", "duel_games", "duel_skip", "duel_resign")
_DIRECT = (P.Hello, P.SignUp, P.SignIn, P.Notify, P.Host, P.PickUp)
_DUEL_TURN = ("tick", "duel_skip", "duel_resign")
_CODE = re.compile(r"[A-Z0-9]{4,12}")  # a crossword room's code, as a queue's group
_ENTERS = (P.JoinByCode, P.Watch)  # the frames whose group is the room they name
_KNOWN = frozenset(P.ACTIONS)


@dataclass(frozen=True)
class Read:
    """A frame as far as anything may look at it before its model is validated: its JSON
    value, the action it names (``"?"`` for none the protocol knows: a name for logs and
    metrics, from a closed list), the ``seq`` an answer repeats (None unless valid), and
    the refusal of a frame that is too large, binary or not JSON."""

    data: Any
    action: str = "?"
    seq: int | None = None
    refused: Refused | None = None


def read(body: str | bytes | None, binary: bool) -> Read:
    """Size, JSON, then shape: the one classification of a frame, on both stacks."""
    if binary:
        why = "Messages are JSON text, not binary frames."
        return Read(None, refused=Refused("binary-frame", why))
    raw = body.encode() if isinstance(body, str) else (body or b"")
    if len(raw) > P.MAX_MESSAGE_BYTES:
        why = f"Messages are at most {P.MAX_MESSAGE_BYTES:,} bytes."
        return Read(None, refused=Refused("too-large", why))
    try:
        data = json.loads(raw or b"null")
    except (ValueError, RecursionError):  # nested past the parser's depth: not JSON
        return Read(None, refused=Refused("bad-message", "That message is not JSON."))
    action = data.get("action") if isinstance(data, dict) else None
    if not isinstance(action, str) or not (action in _KNOWN or action == KEEP_ALIVE):
        action = "?"
    return Read(data, action, P.echoed_seq(data))


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


def paced_by_room(message: Any, code: str, player: str) -> bool:
    """Whether a crossword room counts ``message`` in its player's pace (an action in the
    room, applied by its writer): every other frame counts in its connection's."""
    if not code or not player or is_duel(message, code) or message.action == "snapshot":
        return False
    return not isinstance(message, _DIRECT + _ENTERS)


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
        source: str | None = None,
    ) -> Sent:
        """Handle one frame; every refusal is an error message to its connection.

        ``found`` is the connection record when the caller has it already: the queue's
        consumer, so the frame is applied here, never queued again. ``request`` names
        the frame for the queue's deduplication. ``source`` is the network address the
        frame came from, where the stack knows it (signing in is limited by it too).
        """
        arrived = self.rooms.clock() if arrived is None else arrived
        frame = read(body, binary)
        try:
            sent = self._receive(connection, body, frame, arrived, request, found, source)
        except Refused as refusal:
            send(self.rooms.connections, connection, P.refused(refusal, frame.seq))
            sent = Sent()
        return replace(sent, action=frame.action)

    def _receive(
        self,
        connection: str,
        body: str | bytes | None,
        frame: Read,
        arrived: int,
        request: str | None,
        found: tuple[str, str] | None,
        source: str | None,
    ) -> Sent:
        queued = found is not None  # counted when it arrived, before the queue
        if frame.action == KEEP_ALIVE and frame.refused is None:  # it kept its socket open
            if "seq" not in frame.data:  # unnumbered: nothing to answer, nothing counted
                return Sent()
            if frame.seq is not None:  # a client that numbers it hears back, as for any frame
                self._pace(connection, arrived)
                self.rooms.connections.send(connection, P.ack(frame.seq, None, False, None))
                return Sent()
        try:
            if frame.refused is not None:
                raise frame.refused
            if frame.action == KEEP_ALIVE:  # numbered, but wrongly: refused like any frame
                raise Refused("bad-message", BAD_PING)
            message = validate(frame.data)
            found = found or self.rooms.store.get_connection(connection)
            if found is None and not isinstance(message, P.Hello):
                raise Refused("no-hello", "Say hello first: the connection has no player yet.")
        except Refused:
            if not queued:
                self._pace(connection, arrived)  # too fast, or refused for what it is
            raise
        if not queued and not paced_by_room(message, *(found or ("", ""))):
            self._pace(connection, arrived)
        if isinstance(message, P.Hello):
            return self.identity.hello(connection, message)
        assert found is not None
        elsewhere = (
            None
            if queued
            else self._elsewhere(connection, body, frame.data, message, found, arrived)
        )
        if elsewhere is not None:
            assert self.queue is not None
            self.queue.send(elsewhere, request or f"{connection}.{frame.seq}.{arrived}")
            return Sent(queued=True)
        return self.dispatch(connection, found[0], found[1], message, arrived, source)

    def _pace(self, connection: str, arrived: int) -> None:
        """Count a frame no room counts in its connection's pace (``pace.py``)."""
        if not self.rooms.store.pace(connection, arrived):
            raise pace.TOO_FAST

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

    def dispatch(
        self,
        connection: str,
        code: str,
        player: str,
        message: Any,
        arrived: int,
        source: str | None = None,
    ) -> Sent:
        """Hand a parsed message to the service that owns its type."""
        if isinstance(message, P.SignUp | P.SignIn):
            return self.identity.sign_in(connection, code, message, source)
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
