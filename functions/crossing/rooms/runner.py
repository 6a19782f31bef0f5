"""The one loop every stored document goes through: queue, step, write once, tell.

Commands for one document (a room, a Duel game, the lobby...) queue in this
process and one thread at a time applies them: it takes every command queued so
far, steps them in arrival order on the document it holds in memory (read from
the store only when it has none), writes the result once under the version it
read, then lets the document's ``Kind`` acknowledge each sender, arm timers and
tell every phone. So six people typing into one room cost one write per batch
rather than a conflict-and-retry each, and no frame waits behind a retry.

The version condition stays the guard: another process (another Lambda, another
server) that wrote first makes the write fail with ``Conflict``; the runner then
forgets what it held, reads again and re-applies the whole batch. A batch whose
steps change nothing visible is not written at all (its counters stay in memory
and go out with the next write). Nothing raises once a write has succeeded.

A caller handed several commands for one document at once (the cloud's queue
consumer, ``router.Router.consume``) can ``gather`` the document: its commands then
queue without being applied until ``release``, so they make one batch, in order.
"""

from __future__ import annotations

import logging
import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from crossing.crossword.commands import Refused
from crossing.rooms.ports import Conflict

S = TypeVar("S")
MAX_TRIES = 6
OWN_DRAWS = 64  # names drawn at most for a new document this process owns (1 in N each)
HELD = 2000  # documents kept in memory per process, most recently used

log = logging.getLogger(__name__)


@dataclass
class Step(Generic[S]):
    """What one command did: the state to go on from, its events, and its answer."""

    state: S
    events: list[Any] = field(default_factory=list)
    refused: Refused | None = None  # nothing visible changed (counters may have)
    duplicate: bool = False  # applied before: acknowledged again, nothing changed
    note: Any = None  # anything the Kind wants back when it answers (an undo's square)


class Kind(Protocol[S]):
    """What the runner needs to know about one kind of document."""

    def load(self, name: str) -> tuple[S, int] | None: ...

    def save(self, name: str, state: S, seen: int, now: int) -> int:
        """Write under the version condition; raise ``Conflict`` if it moved on."""

    def visible(self, before: S, after: S) -> bool:
        """Whether ``after`` differs from ``before`` in anything worth a write."""

    def settled(self, name: str, batch: Batch[S]) -> list[Callable[[S, int], Step[S]]]:
        """Answer each sender and, if the batch wrote, do what follows a write (timers,
        saved games, fan-out). Returns commands to queue next (a gone phone's
        disconnect), never applied from inside this batch."""


@dataclass
class Job(Generic[S]):
    change: Callable[[S, int], Step[S]]
    waiting: bool = True  # a thread waits for it (a follow-up has nobody waiting)
    step: Step[S] | None = None
    version: int | None = None
    wrote: bool = False
    missing: bool = False
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)
    lead: bool = False  # woken to apply the next batch itself
    report: Any = None  # what the Kind says the batch did, on its first applied job


@dataclass
class Batch(Generic[S]):
    before: S
    after: S
    version: int  # as written (or as read, when nothing was written)
    wrote: bool
    now: int
    jobs: list[Job[S]]

    @property
    def steps(self) -> list[Step[S]]:
        return [job.step for job in self.jobs if job.step is not None]

    @property
    def events(self) -> list[Any]:
        return [e for step in self.steps for e in step.events]


class Shared(Protocol):
    """Documents shared out among a few processes, each the owner of some (the local
    workers): the runner holds only its own, and tells an owner when it wrote another's."""

    def mine(self, name: str) -> bool: ...

    def written(self, name: str) -> None: ...

    def claims(self) -> bool:
        """Whether a document made here now is to be owned here (``Runner.new_name``)."""
        ...


class Runner:
    def __init__(
        self,
        *,
        clock: Callable[[], int],
        sleep: Callable[[float], None],
        rng: random.Random,
        tries: int = MAX_TRIES,
        hold: bool = True,
        shared: Shared | None = None,
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self.rng = rng
        self.tries = tries
        # Keep each document in memory between batches: right where this process is its
        # only writer (the local stack); where many processes write (Lambdas), every batch
        # reads first instead, or most writes would start with a stale version. Where a
        # few processes share the documents out (the local workers), each holds its own.
        self.hold = hold
        self.shared = shared
        self._lock = threading.Lock()
        self._queues: dict[tuple[int, str], list[Job[Any]]] = {}
        self._leaders: dict[tuple[int, str], int] = {}  # document -> the thread applying it
        self._held: OrderedDict[tuple[int, str], tuple[Any, int]] = OrderedDict()
        # Documents whose commands wait for release(), and how many have come since gather().
        self._gathering: dict[str, int] = {}
        self._queued = threading.Condition(self._lock)
        self.batches = 0
        self.conflicts = 0

    def run(self, kind: Kind[S], name: str, change: Callable[[S, int], Step[S]]) -> Job[S]:
        """Apply ``change`` to the document (in a batch with whatever else is queued)."""
        job: Job[S] = Job(change)
        key = (id(kind), name)
        with self._lock:
            if self._leaders.get(key) == threading.get_ident():
                # It would wait for itself: only another process may write mid-batch.
                raise RuntimeError(f"{name} changed from inside its own batch")
            queue = self._queues.get(key)
            leader = queue is None and name not in self._gathering
            if queue is None:
                self._queues[key] = queue = []
            queue.append(job)
            if name in self._gathering:
                self._gathering[name] += 1
                self._queued.notify_all()
        if not leader:
            job.done.wait()
            if not job.lead:
                return self._result(job)
        self._lead(kind, key, name)
        job.done.wait()
        return self._result(job)

    def new_name(self, draw: Callable[[], str]) -> str:
        """A name for a new document from ``draw``; where processes share the documents out
        and this one claims what it makes, one it owns. At light load the local stack
        serves every phone from one process (``local/funnel.py``), which then owns every
        room made, so no frame or post crosses to another; past it, names fall where
        they may and the rooms are shared out evenly."""
        name = draw()
        if self.shared is None or not self.shared.claims():
            return name
        for _ in range(OWN_DRAWS):
            if self.shared.mine(name):
                break
            name = draw()
        return name

    def gather(self, name: str) -> None:
        """Hold the document's commands in its queue, unapplied, until ``release``: a
        consumer handed several frames of one room at once applies them as one batch."""
        with self._lock:
            self._gathering.setdefault(name, 0)

    def gathered(self, name: str) -> int:
        """How many commands for the document have come since ``gather``."""
        with self._lock:
            return self._gathering.get(name, 0)

    def wait_gathered(self, name: str, count: int, timeout: float) -> bool:
        """Whether ``count`` commands have come since ``gather`` (waiting ``timeout``)."""
        with self._queued:
            return self._queued.wait_for(lambda: self._gathering.get(name, 0) >= count, timeout)

    def release(self, name: str) -> None:
        """Apply what was gathered for the document: its first waiting thread leads."""
        with self._lock:
            self._gathering.pop(name, None)
            for key, queue in self._queues.items():
                if key[1] == name and queue and key not in self._leaders:
                    queue[0].lead = True
                    queue[0].done.set()

    def forget(self, name: str) -> None:
        """Drop what is held in memory of the documents named ``name`` (another process
        wrote one): the next batch reads it, rather than answering from what it held."""
        with self._lock:
            for key in [key for key in self._held if key[1] == name]:
                del self._held[key]

    def _holds(self, name: str) -> bool:
        return self.hold and (self.shared is None or self.shared.mine(name))

    def _lead(self, kind: Kind[Any], key: tuple[int, str], name: str) -> None:
        """Apply batches until the queue is empty or a waiting thread can take over."""
        while True:
            with self._lock:
                batch = self._queues[key]
                self._queues[key] = []
                self._leaders[key] = threading.get_ident()
            try:
                follow = self._apply(kind, key, name, batch)
            except BaseException:
                with self._lock:
                    self._leaders.pop(key, None)
                raise
            with self._lock:  # one hold of the lock: release() sees a leader or none
                self._leaders.pop(key, None)
                queue = self._queues[key]
                queue.extend(Job(change, waiting=False) for change in follow)
                if not queue:
                    del self._queues[key]
                    return
                if name in self._gathering and queue[0].waiting:
                    return  # release() hands the queue to its first thread
                if queue[0].waiting:
                    # Its thread applies the next batch: no caller serves others for long.
                    queue[0].lead = True
                    queue[0].done.set()
                    return

    def _apply(
        self, kind: Kind[Any], key: tuple[int, str], name: str, jobs: list[Job[Any]]
    ) -> list[Callable[[Any, int], Step[Any]]]:
        for job in jobs:
            job.lead = False
            job.done.clear()
        try:
            batch = self._write(kind, key, name, jobs)
        except BaseException as error:  # a bug, or the store failing: every sender hears
            log.exception("applying %d commands to %s failed", len(jobs), name)
            for job in jobs:
                job.error = error
            batch = None
        follow: list[Callable[[Any, int], Step[Any]]] = []
        if batch is not None:
            try:
                follow = kind.settled(name, batch)
            except Exception:  # the write stands whatever happens after it
                log.exception("after writing %s", name)
        for job in jobs:
            job.done.set()
        return follow

    def _write(
        self, kind: Kind[Any], key: tuple[int, str], name: str, jobs: list[Job[Any]]
    ) -> Batch[Any] | None:
        self.batches += 1
        for attempt in range(self.tries):
            with self._lock:
                held = self._held.get(key)
            loaded = held or kind.load(name)
            if loaded is None:
                for job in jobs:
                    job.missing = True
                return None
            before, version = loaded
            now = self.clock()
            state = before
            changed = []  # which commands changed something visible themselves
            for job in jobs:
                try:
                    job.step = job.change(state, now)
                except Refused as refusal:
                    job.step = Step(state, refused=refusal)
                changed.append(job.step.refused is None and kind.visible(state, job.step.state))
                state = job.step.state
            wrote = kind.visible(before, state)
            if wrote:
                try:
                    version = kind.save(name, state, version, now)
                except Exception as error:
                    with self._lock:
                        self._held.pop(key, None)
                    if not isinstance(error, Conflict):
                        raise
                    self.conflicts += 1
                    self.sleep(self.rng.uniform(0, 0.01 * (attempt + 1)))
                    continue
                if self.shared is not None and not self.shared.mine(name):
                    self.shared.written(name)
            if self._holds(name):
                with self._lock:
                    self._held[key] = (state, version)
                    self._held.move_to_end(key)
                    while len(self._held) > HELD:
                        self._held.popitem(last=False)
            for job, its_own in zip(jobs, changed, strict=True):
                job.version, job.wrote = version, wrote and its_own
            return Batch(before, state, version, wrote, now, jobs)
        busy = Refused("busy", "This is very busy right now; please send it again.")
        for job in jobs:
            job.error = busy
        return None

    def _result(self, job: Job[S]) -> Job[S]:
        if job.error is not None:
            raise job.error
        return job
