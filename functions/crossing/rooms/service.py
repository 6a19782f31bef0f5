"""The rooms service: one message in, the room stepped and stored, every phone told.

Load the room, step it, write it back only if nobody else wrote since (the
stored version), and on a conflict re-read and re-apply. Then send each
connection its own view of the change, arm the room's backstop timer for the
next due event, and keep or forget saved games. Everything outside comes in
through the ports, so the same code runs on AWS, on the local stack and in tests.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from crossing.crossword.commands import (
    Clear,
    Done,
    End,
    Pause,
    Refused,
    Resume,
    TakeBack,
    Type,
    Undo,
)
from crossing.crossword.events import Changed, Checked
from crossing.crossword.packs import pick_puzzle
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size
from crossing.rooms import dealing, pace, seqs
from crossing.rooms import protocol as P
from crossing.rooms import room as R
from crossing.rooms.duel_desk import DuelDesk, Outcome, is_duel_code
from crossing.rooms.fanout import FanOut
from crossing.rooms.held import HeldConnections
from crossing.rooms.ports import Accounts, Conflict, Connections, Packs, Push, Store, Timers
from crossing.rooms.runner import Batch, Runner, Step
from crossing.rooms.storage import dump_game, dump_room, load_game, load_room
from crossing.rooms.views import view

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed
CODE_LENGTH = 6  # 31**6, about 890 million codes
ROOM_TTL_MS = 2 * 24 * 3600_000
SAVE_TTL_MS = 60 * 24 * 3600_000
CONNECTION_TTL_MS = 24 * 3600_000
MAX_TRIES = 6
JOIN_LIMIT = (10, 60_000)  # join attempts by code per player per minute
HOST_LIMIT = (10, 60_000)
SHOWN_ROOMS = 2000  # rooms whose last-sent views are kept, so each view is built once
TOO_FAST = Refused("too-fast", "Slow down: too many messages at once.")
STALE = Refused("stale", "That message is too old to tell whether it was applied; send it anew.")
NOTIFY_LIMIT = (10, 60_000)  # notifications turned on or off per player per minute
SIGN_IN_LIMIT = (10, 60_000)  # sign-in attempts per name per minute: slows password guessing
ACCOUNT_PREFIX = "acct."  # a registered player's id is this and the account's stable id
NOTIFY_TITLE = "Crossing Words"
NOTIFY_BODY = "Everyone else is done: the game is waiting for you."

log = logging.getLogger(__name__)

_GAME_COMMANDS: dict[str, Callable[[str], Any]] = {
    "undo": Undo,
    "done": Done,
    "take_back": TakeBack,
    "pause": lambda p: Pause(),
    "resume": lambda p: Resume(),
    "end": lambda p: End(),
}


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


def _from_duel(outcome: Outcome) -> Sent:
    return Sent(
        version=outcome.version,
        wrote=outcome.wrote,
        duel_started=outcome.started,
        duel_finished=outcome.finished,
        duel_moves=outcome.moves,
        duel_bot_moves=outcome.bot_moves,
    )


def _outcome(before: R.Room, after: R.Room, events: list[Any], now: int, version: int) -> Sent:
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


class RoomService:
    def __init__(
        self,
        store: Store,
        connections: Connections,
        timers: Timers,
        packs: Packs,
        *,
        clock: Callable[[], int] = now_ms,
        rng: random.Random | None = None,
        sleep: Callable[[float], None] = time.sleep,
        push: Push | None = None,
        accounts: Accounts | None = None,
        hold: bool = True,
    ):
        # Where this process is the only writer, it holds what it writes (connections here,
        # rooms and games in the runner) instead of reading it back for every frame.
        self.store: Store = HeldConnections(store) if hold else store  # type: ignore[assignment]
        self.push = push
        self.accounts = accounts
        self.connections = connections
        self.timers = timers
        self.packs = packs
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self.sleep = sleep
        self.runner = Runner(
            clock=lambda: self.clock(), sleep=lambda s: self.sleep(s), rng=self.rng, hold=hold
        )
        self.fan_out = FanOut(connections)
        self._shown: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()
        self._shown_lock = threading.Lock()
        self.duel = DuelDesk(
            self.store,
            connections,
            timers,
            clock=lambda: self.clock(),
            rng=self.rng,
            sleep=lambda seconds: self.sleep(seconds),
            leave=self._drop,
            runner=self.runner,
            fan_out=self.fan_out,
        )

    # --- entry points ---------------------------------------------------------------------

    def receive(
        self,
        connection: str,
        body: str | bytes | None,
        *,
        binary: bool = False,
        arrived: int | None = None,
    ) -> Sent:
        """Handle one frame from a connection; every refusal is an error message to it.

        ``arrived`` is when the frame reached the server (API Gateway's request time),
        if known: the pace counts frames by it, not by when they were handled.
        """
        seq = None
        arrived = self.clock() if arrived is None else arrived
        try:
            if binary:
                raise Refused("binary-frame", "Messages are JSON text, not binary frames.")
            raw = body.encode() if isinstance(body, str) else (body or b"")
            if len(raw) > P.MAX_MESSAGE_BYTES:
                raise Refused("too-large", f"Messages are at most {P.MAX_MESSAGE_BYTES} bytes.")
            try:
                data = json.loads(raw or b"null")
            except (ValueError, RecursionError):  # nested past the parser's depth: not JSON
                raise Refused("bad-message", "That message is not JSON.") from None
            seq = P.echoed_seq(data)
            try:
                message = P.CLIENT_MESSAGE.validate_python(data)
            except ValidationError as error:
                raise Refused("bad-message", _explain(error)) from None
            return self._dispatch(connection, message, arrived)
        except Refused as refusal:
            self._send(connection, P.Error(code=refusal.code, message=str(refusal), seq=seq))
            return Sent()

    def disconnect(self, connection: str) -> None:
        found = self.store.get_connection(connection)
        self.store.delete_connection(connection)
        if found and found[0]:
            self._drop(found[0], connection)

    def _drop(self, code: str, connection: str) -> None:
        """Take a connection out of a room; a room that is gone needs telling nothing."""
        if is_duel_code(code):
            self.duel.drop(code, connection)
            return
        with contextlib.suppress(Refused):
            self._mutate(code, lambda room, now: R.step(room, R.Disconnect(connection), now))

    def timer(self, code: str, version: int | None = None) -> Sent:
        """The Scheduler's backstop: apply whatever has fallen due. Stale or repeated: no-op.

        Two writers can arm a room's one schedule out of order, leaving it set for a moment
        that has passed while the next due event has none: so a timer that finds nothing
        due re-arms for whatever is due next.
        """
        if is_duel_code(code):
            return _from_duel(self.duel.timer(code))
        try:
            sent = self._mutate(code, lambda room, now: R.advance(room, now))
        except Refused:
            return Sent()
        if not sent.wrote:
            loaded = self.store.load_room(code)
            due = load_room(loaded[0]).due_at() if loaded else None
            if loaded and due is not None:
                self.timers.arm(code, due, loaded[1])
        return sent

    # --- dispatch -------------------------------------------------------------------------

    def _dispatch(self, connection: str, message: Any, arrived: int) -> Sent:
        if isinstance(message, P.Hello):
            return self._hello(connection, message)
        found = self.store.get_connection(connection)
        if found is None:
            raise Refused("no-hello", "Say hello first: the connection has no player yet.")
        code, player = found
        if isinstance(message, P.SignUp | P.SignIn):
            return self._sign_in(connection, code, message)
        if message.action.startswith("duel_") or (
            is_duel_code(code) and message.action in ("tick", "snapshot")
        ):
            if message.action == "snapshot":
                return _from_duel(self.duel.snapshot(connection, code, player))
            return _from_duel(self.duel.receive(connection, player, code, message))
        if isinstance(message, P.Host):
            return self._host(connection, player, code, message)
        if isinstance(message, P.JoinByCode):
            return self._join(connection, player, code, message)
        if isinstance(message, P.Watch):
            return self._watch(connection, player, code, message)
        if isinstance(message, P.PickUp):
            return self._pick_up(connection, player, code, message)
        if isinstance(message, P.Notify):
            return self._subscribe(connection, player, message)
        if code and message.action == "snapshot":  # a watch screen may ask too (no player)
            return self._snapshot(connection, code, player or None)
        if not code or not player:
            raise Refused("no-room", "Join or host a room first.")
        if message.action == "tick":
            # Checked against the server's own clock: an early or forged tick does nothing,
            # but it counts against the pace and is always acknowledged.
            return self._mutate(
                code,
                lambda room, now: R.advance(room, now),
                connection=connection,
                seq=message.seq,
                player=player,
                arrived=arrived,
            )
        if isinstance(message, P.Start):
            start, puzzle = self._start_action(code, player, message)
            sent = self._mutate(
                code,
                lambda room, now: R.step(room, start(room), now),
                connection=connection,
                seq=message.seq,
                player=player,
                arrived=arrived,
            )
            if puzzle is not None:  # the start was written: now the deal counts as seen
                self._dealt(player, puzzle, message.dealt)
            return sent
        action = self._room_action(code, player, message)
        return self._mutate(
            code, action, connection=connection, seq=message.seq, player=player, arrived=arrived
        )

    def _room_action(self, code: str, player: str, m: Any) -> Callable[[R.Room, int], Any]:
        """The room action for an in-room message, resolved against the room as loaded."""
        match m.action:
            case "type":
                return _play(player, Type(player, m.square, m.letter))
            case "clear":
                return _play(player, Clear(player, m.square))
            case "rename":
                return _fixed(R.Rename(player, m.name))
            case "add_bot":
                return _fixed(R.AddBot(player, m.level))
            case "remove_bot":
                return _fixed(R.RemoveBot(player, m.bot))
            case "to_game":
                return _fixed(R.ToGame(player))
            case "to_lobby":
                return _fixed(R.ToLobby(player))
            case "choose":
                return _fixed(R.Choose(player, m.mode, m.size))
            case "close":
                return _fixed(R.Close(player))
            case name if name in _GAME_COMMANDS:
                return _play(player, _GAME_COMMANDS[name](player))
        raise Refused("unknown", f"Unknown action {m.action!r}.")

    # --- identity and entering rooms --------------------------------------------------------

    def _hello(self, connection: str, m: P.Hello) -> Sent:
        account = self._resume(m.refresh) if m.refresh else None
        profile = self.store.get_profile(m.player) if m.player and m.token else None
        if account is not None:
            player, token = account
            profile = self.store.get_profile(player) or {}
        elif profile and secrets.compare_digest(
            profile.get("token_hash", ""), token_hash(m.token or "")
        ):
            player, token = m.player, m.token
        else:
            player, token = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
            profile = {"token_hash": token_hash(token), "room": "", "dealt": []}
            self.store.update_profile(player, profile)
        assert player is not None and token is not None
        now = self.clock()
        code = self._seat_of(player, profile.get("room", ""))
        self.store.put_connection(connection, code, player, now + CONNECTION_TTL_MS)
        saved = {
            kind: self.store.get_save(player, kind) is not None for kind in ("race", "together")
        }
        welcome = P.Welcome(
            player=player,
            token=token,
            saved=saved,
            room=code or None,
            push_key=self.push.public_key if self.push else None,
            notify=bool(profile.get("push")),
            account=(
                {"name": profile.get("account", ""), "rating": self.duel.rating(player)}
                if account
                else None
            ),
            duel=self.duel.unfinished(player, profile.get("duel", "")),
        )
        self._send(connection, welcome)
        self._send(connection, P.Ack(seq=m.seq))
        if not code:
            return Sent()
        # Back in their seat: the fan-out sends this new connection the full view.
        connect = R.Connect(player, connection)
        return self._mutate(code, lambda room, now: R.step(room, connect, now))

    def _resume(self, refresh: str) -> tuple[str, str] | None:
        """(player, "") for a refresh token the identity service still accepts, else None:
        a stale sign-in falls back to the guest identity rather than failing the hello."""
        if self.accounts is None:
            return None
        try:
            account = self.accounts.resume(refresh)
        except Refused:
            return None
        return ACCOUNT_PREFIX + account.id, ""

    def _sign_in(self, connection: str, code: str, m: P.SignUp | P.SignIn) -> Sent:
        """Sign up or in; the connection becomes the account's player, out of any room."""
        if self.accounts is None:
            raise Refused("no-accounts", "Accounts are not set up on this server.")
        key = f"sign-in:{m.name.lower()}"
        self._limit(key, SIGN_IN_LIMIT, "Too many tries for that name; wait a minute.")
        if isinstance(m, P.SignUp):
            session = self.accounts.sign_up(m.name, m.password)
        else:
            session = self.accounts.sign_in(m.name, m.password)
        player = ACCOUNT_PREFIX + session.account.id
        # "account" is the name signed up with; "name" stays what the player types in rooms.
        self.store.update_profile(player, {"account": session.account.name})
        self.store.update_profile(player, {"name": session.account.name}, expect={"name": None})
        guest = (self.store.get_connection(connection) or ("", ""))[1]
        if code:
            self._drop(code, connection)
        self.store.put_connection(connection, "", player, self.clock() + CONNECTION_TTL_MS)
        if guest and guest != player:
            self.duel.signed_in(guest, player)
        signed = P.SignedIn(
            player=player,
            name=session.account.name,
            rating=self.duel.rating(player),
            refresh=session.refresh,
        )
        self._send(connection, signed)
        self._send(connection, P.Ack(seq=m.seq))
        return Sent()

    def _seat_of(self, player: str, code: str) -> str:
        """The room a returning player still has a seat in, or ""."""
        loaded = self.store.load_room(code) if code else None
        if loaded is None:
            return ""
        room = load_room(loaded[0])
        member = room.members.get(player)
        return code if member and not member.left and room.phase is not R.Phase.CLOSED else ""

    def _enter(
        self, connection: str, player: str, old_code: str, code: str, name: str | None = None
    ) -> None:
        """Move a connection into a room: out of the one it was in, and remembered."""
        if old_code and old_code != code:
            self._drop(old_code, connection)
        self.store.put_connection(connection, code, player, self.clock() + CONNECTION_TTL_MS)
        if player:
            self.store.update_profile(player, {"room": code, **({"name": name} if name else {})})

    def _host(self, connection: str, player: str, old: str, m: P.Host) -> Sent:
        self._limit(f"host:{player}", HOST_LIMIT, "Too many rooms at once; wait a minute.")

        def ready(room: R.Room, now: int) -> R.Room:
            if m.solo:  # on your own there is nobody to gather: straight to the game screen
                room, _ = R.step(room, R.ToGame(player), now)
            return room

        return self._open_room(connection, player, old, m.seq, m.name, solo=m.solo, ready=ready)

    def _open_room(
        self,
        connection: str,
        player: str,
        old: str,
        seq: int,
        name: str,
        *,
        solo: bool,
        ready: Callable[[R.Room, int], R.Room],
    ) -> Sent:
        """A new room under a fresh code, its host connected and ``ready`` applied.

        The room is saved only if nobody holds the code yet; a taken code draws another.
        """
        now = self.clock()
        for _ in range(MAX_TRIES):
            code = "".join(self.rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            room = R.new_room(code, player, name, solo=solo, seed=self.rng.getrandbits(32))
            room, _ = R.step(room, R.Connect(player, connection), now)
            room = ready(room, now)
            try:
                version = self.store.save_room(code, dump_room(room), None, now + ROOM_TTL_MS)
            except Conflict:
                continue  # that code is taken: draw another
            self._enter(connection, player, old, code, name)
            self._send(connection, P.Ack(seq=seq, version=version))
            self._send(
                connection, P.RoomMessage(version=version, full=True, room=view(room, player, now))
            )
            return Sent(version, True)
        raise Refused("busy", "Could not find a free room code; please try again.")

    def _join(self, connection: str, player: str, old: str, m: P.JoinByCode) -> Sent:
        self._limit(f"join:{player}", JOIN_LIMIT, "Too many tries; wait a minute and try again.")
        code = m.code.strip().upper()

        def join(room: R.Room, now: int) -> Any:
            room, _ = R.step(room, R.JoinRoom(player, m.name), now)
            return R.step(room, R.Connect(player, connection), now)

        # The room refuses (full, solo, closed, no such code) before anything else moves.
        sent = self._mutate(
            code,
            join,
            connection=connection,
            seq=m.seq,
            player=player,
            missing="There is no room with that code.",
        )
        self._enter(connection, player, old, code, m.name)
        return sent

    def _watch(self, connection: str, player: str, old: str, m: P.Watch) -> Sent:
        self._limit(f"join:{player or connection}", JOIN_LIMIT, "Too many tries; wait a minute.")
        code = m.code.strip().upper()
        sent = self._mutate(
            code,
            lambda room, now: R.step(room, R.WatchRoom(connection), now),
            missing="There is no room with that code.",
        )
        # A watch screen is not a player: its connection belongs to the room, not to anyone.
        self._enter(connection, "", old, code)
        self._send(connection, P.Ack(seq=m.seq, version=sent.version))
        if not sent.wrote:  # already watching: no write, so no fan-out sent the view
            self._snapshot(connection, code, None)
        return sent

    def _pick_up(self, connection: str, player: str, old: str, m: P.PickUp) -> Sent:
        saved = self.store.get_save(player, "race")
        if saved is None:
            raise Refused("no-save", "There is no race of yours to pick up.")
        game = load_game(saved)
        name = (self.store.get_profile(player) or {}).get("name") or "You"

        def ready(room: R.Room, now: int) -> R.Room:
            room, _ = R.step(room, R.ToGame(player), now)
            room, _ = R.step(room, R.Start(player, saved=game), now)
            return room

        return self._open_room(connection, player, old, m.seq, name, solo=True, ready=ready)

    # --- notifications ----------------------------------------------------------------------

    def _subscribe(self, connection: str, player: str, m: P.Notify) -> Sent:
        """Store (or, with null, forget) the player's Web Push subscription in their profile."""
        if not player:
            raise Refused("no-player", "Only a player can turn notifications on.")
        self._limit(f"notify:{player}", NOTIFY_LIMIT, "Too many changes; wait a minute.")
        if m.subscription is not None and (self.push is None or not self.push.public_key):
            raise Refused("no-push", "Notifications are not set up on this server.")
        push = m.subscription.model_dump(mode="json") if m.subscription is not None else None
        self.store.update_profile(player, {"push": push})
        self._send(connection, P.Ack(seq=m.seq))
        return Sent()

    def _notify(self, note: R.Notify) -> None:
        """Send one notification; a subscription the push service calls gone is removed.

        Runs only after the write that recorded ``note.player`` in ``Room.notified``
        succeeded, so each player is sent at most one per game. A failure is logged, never
        raised: the room has moved on whether or not the phone hears about it.
        """
        if self.push is None:
            return
        profile = self.store.get_profile(note.player) or {}
        subscription = profile.get("push")
        if not subscription:
            return
        payload = {"title": NOTIFY_TITLE, "body": NOTIFY_BODY, "room": note.room}
        try:
            result = self.push.send(subscription, payload)
        except Exception:
            log.exception("push to %s failed", note.player)
            return
        if result == "gone":  # forgotten unless the player has set another since
            self.store.update_profile(note.player, {"push": None}, expect={"push": subscription})

    # --- starting a game --------------------------------------------------------------------

    def _start_action(
        self, code: str, player: str, m: P.Start
    ) -> tuple[Callable[[R.Room], Any], Puzzle | None]:
        """Deal or pick up (and the puzzle dealt): the reads happen once, before the write."""
        loaded = self.store.load_room(code)
        if loaded is None:
            raise Refused("no-room", "This room no longer exists.")
        room = load_room(loaded[0])
        if room.host != player:
            raise Refused("not-host", "Only the host can do that.")
        if room.mode is R.Mode.TOGETHER:
            saved = self.store.get_save(player, "together")
            if m.pick_up:
                if saved is None:
                    raise Refused("no-save", "There is no saved Together board to pick up.")
                board = load_game(saved)
                return (lambda room: R.Start(player, saved=board)), None
            if saved is not None and not m.replace_saved:
                raise Refused(
                    "saved-board",
                    "You have a saved Together board: pick it up, "
                    "or confirm that a new puzzle replaces it.",
                )
        puzzle = self._deal(player, room, m.dealt)
        return (lambda room: R.Start(player, puzzle=puzzle)), puzzle

    def _deal(self, host: str, room: R.Room, phone: Sequence[str] = ()) -> Puzzle:
        """A puzzle of the chosen size that this host has not had (``pick_puzzle``), by
        the phone's list of what it dealt and, for a signed-in host, the profile's."""
        puzzles = list(self.packs.puzzles(room.size))
        if not puzzles:
            raise Refused("no-puzzles", f"There are no {room.size.value} puzzles yet.")
        profile = (self.store.get_profile(host) or {}) if host.startswith(ACCOUNT_PREFIX) else {}
        return pick_puzzle(puzzles, dealing.history(profile, room.size, phone), self.rng)

    def _dealt(self, host: str, puzzle: Puzzle, phone: Sequence[str] = ()) -> None:
        """Record a deal in a signed-in host's profile, once the start that dealt it was
        written, with the phone's own list (so the account's other phones know both).

        Only the one size's field, under the condition that it is still what was read: a
        deal in another room of this host's at the same moment is kept too. A guest's
        phone's list is the whole record: nothing to write.
        """
        if not host.startswith(ACCOUNT_PREFIX):
            return
        key = dealing.field(Size.for_width(puzzle.width))
        for _ in range(MAX_TRIES):
            seen = (self.store.get_profile(host) or {}).get(key)
            changes = {key: dealing.merged(seen or [], phone, [puzzle.id])}
            if self.store.update_profile(host, changes, expect={key: seen}):
                return
        log.warning("could not record %s as dealt to %s", puzzle.id, host)

    # --- the room as a document of the runner (crossing.rooms.runner) ----------------------

    def _mutate(
        self,
        code: str,
        change: Callable[[R.Room, int], Any],
        *,
        connection: str | None = None,
        seq: int | None = None,
        player: str | None = None,
        arrived: int | None = None,
        missing: str = "This room no longer exists.",
    ) -> Sent:
        """Queue one change for the room's writer; raise its refusal, if any, here.

        A message from a player (``player`` and ``seq``) is counted against their pace
        by when it arrived and applied once whatever order it comes in (``seqs``).
        """
        arrived = self.clock() if arrived is None else arrived
        reply = _Reply(connection, seq, player) if connection and seq is not None else None

        def command(room: R.Room, now: int) -> Step[R.Room]:
            if player:
                bucket, fits = pace.take(room.paces.get(player), arrived)
                room = replace(room, paces={**room.paces, player: bucket})
                if not fits:
                    return Step(room, refused=TOO_FAST, note=reply)
            window = room.applied.get(player) if player else None
            if player and seq is not None:
                match seqs.seen(window, seq):
                    case seqs.Seen.APPLIED:  # a retry or a redelivery: applied once
                        return Step(room, duplicate=True, note=reply)
                    case seqs.Seen.STALE:
                        return Step(room, refused=STALE, note=reply)
            try:
                after, events = change(room, now)
            except Refused as refusal:  # refused, but counted all the same
                return Step(room, refused=refusal, note=reply)
            if player and seq is not None:
                after = replace(after, applied={**after.applied, player: seqs.record(window, seq)})
            return Step(after, events, note=reply)

        job = self.runner.run(self, code, command)
        if job.missing:
            raise Refused("no-room", missing)
        assert job.step is not None
        if job.step.refused is not None:
            raise job.step.refused
        return job.report or Sent(job.version, job.wrote)

    def load(self, code: str) -> tuple[R.Room, int] | None:
        loaded = self.store.load_room(code)
        return (load_room(loaded[0]), loaded[1]) if loaded else None

    def save(self, code: str, room: R.Room, seen: int, now: int) -> int:
        return self.store.save_room(code, dump_room(room), seen, now + ROOM_TTL_MS)

    def visible(self, before: R.Room, after: R.Room) -> bool:
        """Anything but seq windows and paces: those ride along with the next write."""
        return replace(before, applied={}, paces={}) != replace(after, applied={}, paces={})

    def settled(self, code: str, batch: Batch[R.Room]) -> list[Callable[[R.Room, int], Step]]:
        """Acks and the fan-out concurrently; then saved games, timers, notifications."""
        messages: list[tuple[str, Any]] = []
        for job in batch.jobs:
            step, reply = job.step, job.step.note if job.step else None
            if step is None or reply is None or step.refused is not None:
                continue  # a refusal is raised to its own caller, who answers it
            cursor = next(
                (
                    e.square
                    for e in step.events
                    if isinstance(e, Changed) and e.undo and e.player == reply.player
                ),
                None,
            )
            ack = P.Ack(seq=reply.seq, version=batch.version, duplicate=step.duplicate)
            if cursor is not None and not step.duplicate:
                ack = ack.model_copy(update={"cursor": cursor})
            messages.append((reply.connection, ack.model_dump(mode="json")))
        if not batch.wrote:
            self.fan_out.send(messages)
            return []
        first = next((job for job in batch.jobs if job.wrote), batch.jobs[0])
        first.report = _outcome(batch.before, batch.after, batch.events, batch.now, batch.version)
        messages += self._room_messages(code, batch)
        gone = self.fan_out.send(messages)
        self._after(code, batch.before, batch.after, batch.version, batch.events, batch.now)
        for connection in gone:
            _quietly(self.store.delete_connection, connection)
        # Each gone phone is one more command for this room, queued rather than applied
        # from inside this batch.
        return [_as_step(_fixed(R.Disconnect(connection))) for connection in gone]

    def _after(
        self, code: str, before: R.Room, after: R.Room, version: int, events: list[Any], now: int
    ) -> None:
        for note in events:
            if isinstance(note, R.Notify):
                _quietly(self._notify, note)
            if isinstance(note, R.Keep):
                if note.game is None:
                    _quietly(self.store.delete_save, note.player, note.kind)
                else:
                    game = dump_game(note.game)
                    _quietly(self.store.put_save, note.player, note.kind, game, now + SAVE_TTL_MS)
        if after.due_at() != before.due_at():
            due = after.due_at()
            if due is None:
                _quietly(self.timers.disarm, code)
            else:
                _quietly(self.timers.arm, code, due, version)

    def _room_messages(self, code: str, batch: Batch[R.Room]) -> list[tuple[str, Any]]:
        """Each connection's patch from the view it was last sent, each view built once."""
        after, version, now = batch.after, batch.version, batch.now
        with self._shown_lock:
            shown = self._shown.pop(code, None)
        known = shown[1] if shown and shown[0] == batch.version - 1 else {}
        full_phase = batch.before.phase != after.phase
        before_connections = _connections_of(batch.before)
        audience = [(c, m.player) for m in after.members.values() for c in m.connections]
        audience += [(c, None) for c in after.watchers]
        views: dict[str | None, Any] = {}
        fresh_views: dict[str, Any] = {}
        messages = []
        for connection, viewer in audience:
            if viewer not in views:
                views[viewer] = view(after, viewer, now)
            new = views[viewer]
            fresh_views[connection] = new
            fresh = full_phase or connection not in before_connections
            if not fresh:
                old = known.get(connection)
                if old is None:
                    old = view(batch.before, viewer, now)
                new = merge_patch(old, new)
            message = P.RoomMessage(version=version, full=fresh, room=new)
            messages.append((connection, message.model_dump(mode="json")))
        with self._shown_lock:
            self._shown[code] = (version, fresh_views)
            while len(self._shown) > SHOWN_ROOMS:
                self._shown.popitem(last=False)
        return messages

    def _snapshot(self, connection: str, code: str, viewer: str | None) -> Sent:
        loaded = self.store.load_room(code)
        if loaded is None:
            raise Refused("no-room", "This room no longer exists.")
        room, version = load_room(loaded[0]), loaded[1]
        self._send(
            connection,
            P.RoomMessage(version=version, full=True, room=view(room, viewer, self.clock())),
        )
        return Sent(version)

    def _send(self, connection: str, message: Any) -> bool:
        return self.connections.send(connection, message.model_dump(mode="json"))

    def _limit(self, key: str, rule: tuple[int, int], message: str) -> None:
        if not self.store.take(key, rule[0], rule[1], self.clock()):
            raise Refused("too-many", message)


def _play(player: str, command: Any) -> Callable[[R.Room, int], Any]:
    return lambda room, now: R.step(room, R.Play(player, command), now)


def _fixed(action: Any) -> Callable[[R.Room, int], Any]:
    return lambda room, now: R.step(room, action, now)


def _as_step(change: Callable[[R.Room, int], Any]) -> Callable[[R.Room, int], Step[R.Room]]:
    return lambda room, now: Step(*change(room, now))


@dataclass(frozen=True)
class _Reply:
    connection: str
    seq: int
    player: str | None


def _quietly(action: Callable[..., Any], *args: Any) -> None:
    """After a write, a failing side effect is logged: the write and the others stand."""
    try:
        action(*args)
    except Exception:
        log.exception("%s after a write failed", getattr(action, "__name__", "step"))


def _connections_of(room: R.Room) -> set[str]:
    return {c for m in room.members.values() for c in m.connections} | set(room.watchers)


def merge_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The JSON Merge Patch (RFC 7386) that turns ``old`` into ``new``.

    Objects are patched key by key, anything else is replaced whole; a key that
    disappears is sent as null. So a keystroke sends the squares that changed,
    not the puzzle and its clues again.
    """
    patch: dict[str, Any] = {}
    for key, value in new.items():
        before = old.get(key)
        if before == value:
            continue
        if isinstance(before, dict) and isinstance(value, dict):
            patch[key] = merge_patch(before, value)
        else:
            patch[key] = value
    patch |= {key: None for key in old if key not in new}
    return patch


def _explain(error: ValidationError) -> str:
    return P.explain(error)
