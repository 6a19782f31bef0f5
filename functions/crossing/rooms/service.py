"""The crossword room's writer and the facade the handlers use.

``RoomService`` builds the thin router (``router.py``) and the services behind it
(identity, entering rooms, Duel, notifications), and is itself the crossword room as a
document of the one loop (``runner.py``): load the room, step it, write it back under
the stored version, then send each connection its own view of the change, arm the
room's backstop timer for the next due event, and keep or forget saved games.
Everything outside comes in through the ports, so the same code runs on AWS, on the
local stack and in tests.
"""

from __future__ import annotations

import contextlib
import logging
import math
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from crossing import seqs
from crossing.crossword.commands import (
    Refused,
)
from crossing.crossword.deal import pick_puzzle
from crossing.crossword.events import Changed
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size
from crossing.rooms import consuming, dealing, pace
from crossing.rooms import protocol as P
from crossing.rooms import room as R
from crossing.rooms.duel_desk import DuelDesk, is_duel_code
from crossing.rooms.fanout import FanOut
from crossing.rooms.held import HeldConnections
from crossing.rooms.identity import ACCOUNT_PREFIX, CONNECTION_TTL_MS
from crossing.rooms.patch import merge_patch
from crossing.rooms.ports import Accounts, Connections, Packs, Push, Queue, Queued, Store, Timers
from crossing.rooms.router import Router
from crossing.rooms.runner import Batch, Runner, Step
from crossing.rooms.sent import Sent, from_duel, now_ms, send, token_hash
from crossing.rooms.sent import outcome as _outcome
from crossing.rooms.storage import dump_game, dump_room, load_game, load_room
from crossing.rooms.views import view, views
from crossing.rooms.work import Due, Frame, Left, Resumed, Work
from crossing.rooms.writer import NO_ROOM, Change, room_step

__all__ = [
    "ACCOUNT_PREFIX",
    "CONNECTION_TTL_MS",
    "RoomService",
    "Sent",
    "merge_patch",
    "now_ms",
    "token_hash",
]

ROOM_TTL_MS = 2 * 24 * 3600_000
SAVE_TTL_MS = 60 * 24 * 3600_000
MAX_TRIES = 6
SHOWN_ROOMS = 2000  # rooms whose last-sent views are kept, so each view is built once
SNAPSHOT_AGAIN_MS = 2000
SNAPSHOT_AGAIN = Refused(
    "too-fast", "That room has not changed since its whole view was just sent to you."
)

log = logging.getLogger(__name__)


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
        queue: Queue | None = None,
        aside: Callable[[Callable[[], Any], Callable[[Any], None]], Any] | None = None,
        think: Callable[[Callable[[], None]], Any] | None = None,
    ):
        # Where this process is the only writer, it holds what it writes (connections here,
        # rooms and games in the runner) instead of reading it back for every frame.
        self.store: Store = HeldConnections(store) if hold else store
        self.push = push
        # Where a notification is sent from: here, after the write (Lambda must send it
        # before returning), or handed to ``aside(send, then)`` (the local engine runs
        # ``send`` on a thread of its own, so a push service taking its time never holds
        # up a room, and ``then`` with its answer in a round of the engine's). ``think``
        # runs a Duel bot's search on another thread, ahead of its move (``bot_moves``).
        self.aside = aside
        self.accounts = accounts
        self.connections = connections
        self.timers = timers
        self.packs = packs
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self.sleep = sleep
        self.runner = Runner(
            clock=lambda: self.clock(),
            sleep=lambda s: self.sleep(s),
            rng=self.rng,
            hold=hold,
        )
        self.fan_out = FanOut(connections)
        self._shown: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()
        # each connection's latest snapshot: (room, version, when)
        self._snapshots: dict[str, tuple[str, int, int]] = {}
        self.duel = DuelDesk(
            self.store,
            connections,
            timers,
            clock=lambda: self.clock(),
            rng=self.rng,
            sleep=lambda seconds: self.sleep(seconds),
            leave=self.drop,
            runner=self.runner,
            fan_out=self.fan_out,
            think=think,
        )
        # The cloud's frames for a room go through ``queue`` to its one consumer at a time.
        self.router = Router(self, queue)

    # --- entry points (the router does the work) -------------------------------------------

    def receive(self, connection: str, body: str | bytes | None, **options: Any) -> Sent:
        """Handle one frame from a connection; every refusal is an error message to it.

        ``options`` are ``Router.receive``'s: ``binary``; ``arrived``, when the frame
        reached the server (API Gateway's request time): the pace counts frames by it,
        not by when they were handled; ``request``, API Gateway's request id, which
        deduplicates a frame the router hands the queue (a frame for the room the
        connection is in, where a queue is configured: ``consume`` applies it).
        """
        return self.router.receive(connection, body, **options)

    def apply(self, work: Sequence[Work]) -> list[Sent | Exception]:
        """The batch entry point of both stacks: apply ``work`` in order as one round of
        the runner (one write per room, then each room's acks and fan-out). What each item
        caused, or the exception it failed with (the store, or a bug: not a refusal, which
        its sender has been answered): the cloud's consumer has SQS deliver those again,
        the local engine answers them ``storage``. Where the round itself fails (its
        writes), it raises, and nothing of it was written."""
        with self.runner.round():
            return [self._apply(item) for item in work]

    def _apply(self, item: Work) -> Sent | Exception:
        try:
            if isinstance(item, Frame):
                return self.router.receive(
                    item.connection,
                    item.body,
                    binary=item.binary,
                    arrived=item.arrived,
                    source=item.source,
                )
            if isinstance(item, Queued):
                return self.router.apply(item)
            if isinstance(item, Left):
                self.disconnect(item.connection)
            elif isinstance(item, Due):
                return self.timer(item.room, item.version)
            elif isinstance(item, Resumed):
                if is_duel_code(item.room):
                    return from_duel(self.duel.paused(item.room, item.since))
            else:
                item.do()
            return Sent()
        except Exception as error:  # the caller logs it: it knows a store's failure
            return error

    def take_reports(self) -> list[Any]:
        """What each write since the last call did (``Sent`` for rooms, ``Outcome`` for
        Duel games), for the handlers' metrics."""
        return self.runner.take_reports()

    def forget(self) -> None:
        """Drop everything held in memory (a round the store took back): the next round
        reads what the store has."""
        self.runner.forget()
        if isinstance(self.store, HeldConnections):
            self.store.forget()
        self._shown.clear()

    def consume(
        self,
        frames: Sequence[Queued],
        *,
        worth_retrying: Callable[[Exception], bool] = lambda error: False,
        time_left: Callable[[], float] = lambda: math.inf,
    ) -> list[Sent | Exception]:
        """The queue's consumer: ``apply`` with the frames of one SQS batch, and again
        with those that failed for a reason ``worth_retrying`` (``consuming.py``), while
        ``time_left`` (seconds) allows. What still failed, SQS delivers again, and each
        frame is applied once whatever was written."""
        return consuming.consume(
            self.apply,
            frames,
            worth_retrying=worth_retrying,
            sleep=self.sleep,
            time_left=time_left,
        )

    def disconnect(self, connection: str) -> None:
        found = self.store.get_connection(connection)
        self.store.delete_connection(connection)
        if found and found[0]:
            self.drop(found[0], connection)

    def drop(self, code: str, connection: str) -> None:
        """Take a connection out of a room; a room that is gone needs telling nothing."""
        if is_duel_code(code):
            self.duel.drop(code, connection)
            return
        with contextlib.suppress(Refused):
            self.mutate(code, lambda room, now: R.step(room, R.Disconnect(connection), now))

    def timer(self, code: str, version: int | None = None) -> Sent:
        """The Scheduler's backstop: apply whatever has fallen due. Stale or repeated: no-op.

        Two writers can arm a room's one schedule out of order, leaving it set for a moment
        that has passed while the next due event has none: so a timer that finds nothing
        due re-arms for whatever is due next.
        """
        if is_duel_code(code):
            return from_duel(self.duel.timer(code))
        try:
            sent = self.mutate(code, lambda room, now: R.advance(room, now))
        except Refused:
            return Sent()
        if not sent.wrote:
            loaded = self.store.load_room(code)
            due = load_room(loaded[0]).due_at() if loaded else None
            if loaded and due is not None:
                self.timers.arm(code, due, loaded[1])
        return sent

    # --- starting a game --------------------------------------------------------------------

    def start_action(
        self, code: str, player: str, m: P.Start
    ) -> tuple[Callable[[R.Room], Any], Puzzle | None]:
        """Deal or pick up (and the puzzle dealt): the reads happen once, before the write."""
        held = self.runner.peek(self, code)  # as this round has it: a choose before counts
        if held is None:
            raise Refused("no-room", NO_ROOM)
        room = held[0]
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

    def dealt(self, host: str, puzzle: Puzzle, phone: Sequence[str] = ()) -> None:
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

    def mutate(
        self,
        code: str,
        change: Change,
        *,
        connection: str | None = None,
        seq: int | None = None,
        player: str | None = None,
        arrived: int | None = None,
        missing: str = NO_ROOM,
    ) -> Sent:
        """Queue one change for the room's writer; raise its refusal, if any, here.

        A message from a player (``player`` and ``seq``) is counted against their pace
        by when it arrived and applied once whatever order it comes in (``seqs``); one
        that would change a square their newer message already changed changes nothing.
        """
        arrived = self.clock() if arrived is None else arrived
        reply = _Reply(connection, seq, player) if connection and seq is not None else None

        def command(room: R.Room, now: int) -> Step[R.Room]:
            if player:
                bucket, fits = pace.take(room.paces.get(player), arrived)
                room = replace(room, paces={**room.paces, player: bucket})
                if not fits:
                    return Step(room, refused=pace.TOO_FAST, note=reply)
            window = room.applied.get(player) if player else None
            if player and seq is not None:
                match seqs.seen(window, seq):
                    case seqs.Seen.APPLIED:  # a retry or a redelivery: applied once
                        return Step(room, duplicate=True, note=reply)
                    case seqs.Seen.STALE:
                        return Step(room, refused=seqs.STALE, note=reply)
            try:
                after, events = change(room, now)
            except Refused as refusal:  # refused, but counted all the same
                return Step(room, refused=refusal, note=reply)
            if player and seq is not None:
                square = _square_changed(events, player)
                if square is not None and seqs.overtaken(window, seq, square):
                    # Their newer change there came first and stands: this one is applied
                    # (acknowledged, never sent again) as if typed before it, so it
                    # changes nothing.
                    after, events, square = room, [], None
                recorded = seqs.record(window, seq, square)
                after = replace(after, applied={**after.applied, player: recorded})
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
        """Anything but seq windows and paces: those ride along with the next write.

        Field by field, and by identity first: a step keeps what it does not change, so
        most fields are the very same object (no copies of the room to compare)."""
        for name in _VISIBLE_FIELDS:
            old, new = getattr(before, name), getattr(after, name)
            if old is not new and old != new:
                return True
        return False

    def settled(self, code: str, batch: Batch[R.Room]) -> list[Callable[[R.Room, int], Step]]:
        """Acks and the fan-out concurrently; then saved games, timers, notifications."""
        messages: list[tuple[str, Any]] = []
        for job in batch.jobs:
            step, reply = job.step, job.step.note if job.step else None
            if step is None or reply is None:
                continue
            if step.refused is not None:
                if not job.told:  # refused only now (written from elsewhere meanwhile)
                    messages.append(
                        (reply.connection, P.refused(step.refused, reply.seq).model_dump())
                    )
                continue
            cursor = next(
                (
                    e.square
                    for e in step.events
                    if isinstance(e, Changed) and e.undo and e.player == reply.player
                ),
                None,
            )
            if step.duplicate:
                cursor = None
            ack = P.ack(reply.seq, batch.version, step.duplicate, cursor)
            messages.append((reply.connection, ack))
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
        return [_as_step(room_step(R.Disconnect(connection))) for connection in gone]

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
        shown = self._shown.pop(code, None)
        known = shown[1] if shown and shown[0] == batch.version - 1 else {}
        full_phase = batch.before.phase != after.phase
        before_connections = _connections_of(batch.before)
        audience: list[tuple[str, str | None]] = [
            (c, m.player) for m in after.members.values() for c in m.connections
        ]
        audience += [(c, None) for c in after.watchers]
        built = views(after, (viewer for _, viewer in audience), now)
        fresh_views: dict[str, Any] = {}
        messages = []
        for connection, viewer in audience:
            new = built[viewer]
            fresh_views[connection] = new
            fresh = full_phase or connection not in before_connections
            if not fresh:
                old = known.get(connection)
                if old is None:
                    old = view(batch.before, viewer, now)
                new = merge_patch(old, new)
            # P.RoomMessage's shape, built as the dict it dumps to: the view is JSON
            # already, and walking it again per connection cost more than building it.
            messages.append(
                (connection, {"type": "room", "version": version, "full": fresh, "room": new})
            )
        self._shown[code] = (version, fresh_views)
        while len(self._shown) > SHOWN_ROOMS:
            self._shown.popitem(last=False)
        return messages

    def snapshot(self, connection: str, code: str, viewer: str | None) -> Sent:
        """The whole view, at the room's version. Asked again by the same connection for
        the same version within ``SNAPSHOT_AGAIN_MS``, it is neither built nor sent again
        (the phone has it): a flood of snapshots costs a read each, not a view each."""
        loaded = self.store.load_room(code)
        if loaded is None:
            raise Refused("no-room", NO_ROOM)
        version, now = loaded[1], self.clock()
        last = self._snapshots.get(connection)
        if last and last[:2] == (code, version) and now - last[2] < SNAPSHOT_AGAIN_MS:
            raise SNAPSHOT_AGAIN
        self._snapshots.pop(connection, None)  # to the end: the newest
        self._snapshots[connection] = (code, version, now)
        while len(self._snapshots) > SHOWN_ROOMS:  # the oldest first: a dict keeps order
            del self._snapshots[next(iter(self._snapshots))]
        room = view(load_room(loaded[0]), viewer, now)
        self._send(connection, P.RoomMessage(version=version, full=True, room=room))
        return Sent(version)

    def _send(self, connection: str, message: Any) -> bool:
        return send(self.connections, connection, message)

    def _notify(self, note: R.Notify) -> None:
        self.router.notices.notify(note, self.aside)


_VISIBLE_FIELDS = tuple(f.name for f in fields(R.Room) if f.name not in ("applied", "paces"))


def _as_step(change: Callable[[R.Room, int], Any]) -> Callable[[R.Room, int], Step[R.Room]]:
    return lambda room, now: Step(*change(room, now))


@dataclass(frozen=True)
class _Reply:
    connection: str
    seq: int
    player: str | None


def _square_changed(events: list[Any], player: str) -> int | None:
    """The square a player's own message changed (a letter, a clear, an undo), if any:
    the events of bots catching up in the same step are theirs, not the player's."""
    for event in events:
        if isinstance(event, Changed) and event.player == player:
            return event.square
    return None


def _quietly(action: Callable[..., Any], *args: Any) -> None:
    """After a write, a failing side effect is logged: the write and the others stand."""
    try:
        action(*args)
    except Exception:
        log.exception("%s after a write failed", getattr(action, "__name__", "step"))


def _connections_of(room: R.Room) -> set[str]:
    return {c for m in room.members.values() for c in m.connections} | set(room.watchers)
