"""The one loop every stored document goes through: step, write once, tell.

Commands are applied in *rounds*. Inside ``with runner.round():`` each ``run`` steps
its command at once on the document as the round holds it (read from the store the
first time it is named, or kept from an earlier round where this process is the
documents' only writer) and returns the step, so its caller answers a refusal there
and then. When the round ends, each document that changed is written once, under the
version it was read at, and only then does its ``Kind`` acknowledge each sender, arm
timers and tell every phone (``settled``). Six people typing into one room cost one
write a round and one fan-out, and no command waits for a thread.

Outside a round, ``run`` is a round of its own. Both stacks call one batch entry point
(``RoomService.apply``), which opens a round around whatever it was handed: the local
engine's every frame since the last round, the cloud consumer's SQS batch.

The version condition stays the guard: another process (another Lambda) that wrote
first makes the write fail with ``Conflict``; the runner then reads the document
again and steps the round's commands again. A command whose refusal its caller has
already answered stays refused. A round whose steps change nothing visible writes
nothing (counters stay in memory and go out with the next write).

One thread at a time uses a runner: the local engine's, or a Lambda's.
"""

from __future__ import annotations

import logging
import random
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from crossing.crossword.commands import Refused
from crossing.rooms.ports import Conflict

S = TypeVar("S")
MAX_TRIES = 6
HELD = 2000  # documents kept in memory, most recently used
BUSY = Refused("busy", "This is very busy right now; please send it again.")
TOO_LARGE = Refused("game-too-large", "This game has grown too large to save; that was not kept.")

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
        """Answer each sender (a refusal only where ``Job.told`` is false: its caller
        answered the others) and, if the batch wrote, do what follows a write (timers,
        saved games, fan-out). Returns commands for a round after this one (a gone
        phone's disconnect)."""


@dataclass
class Job(Generic[S]):
    change: Callable[[S, int], Step[S]]
    step: Step[S] | None = None
    version: int | None = None  # the version its change is in, once written
    wrote: bool = False  # its own step changed something visible
    missing: bool = False  # the document is not there
    told: bool = False  # its refusal went back to its caller, who answered it
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


@dataclass
class _Open(Generic[S]):
    """A document as the round holds it."""

    kind: Kind[S]
    name: str
    before: S
    version: int
    now: int
    state: S
    jobs: list[Job[S]] = field(default_factory=list)


class Runner:
    def __init__(
        self,
        *,
        clock: Callable[[], int],
        sleep: Callable[[float], None],
        rng: random.Random,
        tries: int = MAX_TRIES,
        hold: bool = True,
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self.rng = rng
        self.tries = tries
        # Keep each document in memory between rounds: right where this process is its
        # only writer (the local stack); where many processes write (Lambdas), every
        # round reads first instead, or most writes would start with a stale version.
        self.hold = hold
        self._held: OrderedDict[tuple[int, str], tuple[Any, int]] = OrderedDict()
        self._round: dict[tuple[int, str], _Open[Any]] | None = None
        self.reports: list[Any] = []
        """What each written batch did (``Job.report``), for the handlers' metrics;
        the caller takes them (``take_reports``)."""
        self.batches = 0
        self.conflicts = 0

    def run(
        self,
        kind: Kind[S],
        name: str,
        change: Callable[[S, int], Step[S]],
        *,
        at_once: bool = False,
    ) -> Job[S]:
        """Step ``change`` on the document now; it is written when the round ends (at
        once outside a round, or ``at_once``: a round of its own inside this one, for a
        caller that answers only once what it changed is written and told, as the Duel's
        do). ``Job.missing`` if there is no such document."""
        if self._round is None or at_once:
            outer, self._round = self._round, None
            try:
                with self.round():
                    return self.run(kind, name, change)
            finally:
                self._round = outer
        key = (id(kind), name)
        job: Job[S] = Job(change)
        doc = self._round.get(key)
        if doc is None:
            loaded = self._load(kind, key, name)
            if loaded is None:
                job.missing = True
                return job
            doc = _Open(kind, name, loaded[0], loaded[1], self.clock(), loaded[0])
            self._round[key] = doc
        self._step(doc, job)
        job.told = job.step is not None and job.step.refused is not None
        doc.jobs.append(job)
        return job

    def peek(self, kind: Kind[S], name: str) -> tuple[S, int] | None:
        """The document as this round holds it (changes not yet written included), else
        as held or stored: a reader inside a round sees what the round did."""
        key = (id(kind), name)
        doc = self._round.get(key) if self._round is not None else None
        if doc is not None:
            return doc.state, doc.version
        return self._load(kind, key, name)

    @contextmanager
    def round(self) -> Iterator[None]:
        """Apply every ``run`` inside as one round: one write per document at the end,
        then each document's ``settled``. A round inside a round is part of it."""
        if self._round is not None:
            yield
            return
        self._round = {}
        try:
            yield
        except BaseException:
            self._drop(self._round)  # nothing of it was written: hold none of it
            self._round = None
            raise
        opened, self._round = self._round, None
        self._finish(opened)

    def take_reports(self) -> list[Any]:
        reports, self.reports = self.reports, []
        return reports

    def forget(self, name: str | None = None) -> None:
        """Drop what is held in memory (of the documents named ``name``, or all): the next
        round reads it again (the store failed, or another process wrote it)."""
        for key in [key for key in self._held if name is None or key[1] == name]:
            del self._held[key]

    def _load(self, kind: Kind[S], key: tuple[int, str], name: str) -> tuple[S, int] | None:
        held = self._held.get(key) if self.hold else None
        return held if held is not None else kind.load(name)

    def _step(self, doc: _Open[Any], job: Job[Any]) -> None:
        if job.told and job.step is not None:  # answered already: it stays refused
            job.step = Step(doc.state, refused=job.step.refused, note=job.step.note)
            return
        try:
            step = job.change(doc.state, doc.now)
        except Refused as refusal:
            step = Step(doc.state, refused=refusal)
        job.step = step
        job.wrote = step.refused is None and doc.kind.visible(doc.state, step.state)
        doc.state = step.state

    def _finish(self, opened: dict[tuple[int, str], _Open[Any]]) -> None:
        """Write each document of the round once and settle it; commands the Kinds return
        (a gone phone's leaving) make a round of their own. A document whose write fails
        is told nothing; the others still are, and the first failure is raised after."""
        follow: list[tuple[_Open[Any], list[Callable[[Any, int], Step[Any]]]]] = []
        failure: BaseException | None = None
        for key, doc in opened.items():
            try:
                batch = self._write(key, doc)
            except Exception as error:
                self._held.pop(key, None)
                failure = failure or error
                continue
            try:
                more = doc.kind.settled(doc.name, batch)
            except Exception:  # the write stands whatever happens after it
                log.exception("after writing %s", doc.name)
                more = []
            if more:
                follow.append((doc, more))
            self.reports += [job.report for job in doc.jobs if job.report is not None]
        if follow:
            with self.round():
                for doc, changes in follow:
                    for change in changes:
                        self.run(doc.kind, doc.name, change)
        if failure is not None:
            raise failure

    def _write(self, key: tuple[int, str], doc: _Open[Any]) -> Batch[Any]:
        self.batches += 1
        kind, name = doc.kind, doc.name
        for _ in range(self.tries):
            wrote = kind.visible(doc.before, doc.state)
            version = doc.version
            if wrote:
                try:
                    version = kind.save(name, doc.state, doc.version, doc.now)
                except Conflict:
                    self.conflicts += 1
                    self._held.pop(key, None)
                    self.sleep(self.rng.uniform(0, 0.01 * (self.conflicts % 8 + 1)))
                    if not self._again(doc):
                        break
                    continue
                except ValueError as error:  # the store refuses the document itself
                    log.error("%s cannot be written: %s", name, error)
                    self._held.pop(key, None)
                    return self._refused(doc, TOO_LARGE)
            if self.hold:
                self._held[key] = (doc.state, version)
                self._held.move_to_end(key)
                while len(self._held) > HELD:
                    self._held.popitem(last=False)
            for job in doc.jobs:
                job.version, job.wrote = version, wrote and job.wrote
            return Batch(doc.before, doc.state, version, wrote, doc.now, doc.jobs)
        # Written from elsewhere every time (or gone): each sender hears, nothing changed.
        return self._refused(doc, BUSY)

    def _refused(self, doc: _Open[Any], refusal: Refused) -> Batch[Any]:
        """Nothing of the round is written for ``doc``: each sender hears ``refusal``."""
        for job in doc.jobs:
            if job.step is not None and job.step.refused is None:
                job.step = Step(doc.before, refused=refusal, note=job.step.note)
            job.wrote = False
        return Batch(doc.before, doc.before, doc.version, False, doc.now, doc.jobs)

    def _again(self, doc: _Open[Any]) -> bool:
        """Read the document again and step the round's commands again on it."""
        loaded = doc.kind.load(doc.name)
        if loaded is None:
            return False
        doc.before, doc.version = loaded
        doc.state, doc.now = doc.before, self.clock()
        for job in doc.jobs:
            self._step(doc, job)
        return True

    def _drop(self, opened: dict[tuple[int, str], _Open[Any]]) -> None:
        for key in opened:
            self._held.pop(key, None)
