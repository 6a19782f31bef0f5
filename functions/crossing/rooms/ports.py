"""What the rooms need from the outside world, as ideas rather than AWS.

``crossing.aws`` implements these with DynamoDB, API Gateway, EventBridge
Scheduler and S3; ``crossing.aws.memory`` has in-memory fakes for tests.
All times are server milliseconds since the epoch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size

Json = dict[str, Any]


class Conflict(Exception):
    """The stored version was not the one the writer had read: re-read and re-apply."""


class Store(Protocol):
    """Room state, connections, player profiles, saved games and rate counters.

    Rooms are written with optimistic concurrency: ``save_room`` succeeds only if
    the stored version is still ``seen`` (``None``: the room must not exist yet).
    """

    def load_room(self, code: str) -> tuple[Json, int] | None:
        """The room's state and version (a strongly consistent read), or None."""

    def save_room(self, code: str, state: Json, seen: int | None, expires_at: int) -> int:
        """Write the state if the version is still ``seen``; return the new version.

        Raises Conflict otherwise. ``expires_at`` (ms) is when the item may be dropped.

        ``state["parts"]``, if there, maps keys to texts that never change (the hash of
        the text is its key): ``load_room`` gives back every one the last save named, and
        a store may keep each apart from the room and write it only once.
        """

    def load_doc(self, kind: str, name: str) -> tuple[Json, int] | None:
        """Another versioned document and its version, read strongly consistent:
        ``kind`` is "game" (a Duel, by id), "lobby" (by game: "duel") or "rating"
        (a registered player's, by player id)."""

    def save_doc(
        self, kind: str, name: str, doc: Json, seen: int | None, expires_at: int | None
    ) -> int:
        """``save_room`` for any versioned document: written only if still at ``seen``.
        ``kind`` "seek" is one Duel game waiting for an opponent (by seek id)."""

    def delete_doc(self, kind: str, name: str, seen: int) -> None:
        """Remove a versioned document only if it is still at ``seen``: Conflict (and
        nothing removed) if it moved on or is gone. Two challengers deleting one seek:
        one wins, the other hears Conflict."""

    def list_docs(self, kind: str) -> list[tuple[str, Json, int]]:
        """Every stored document of a kind kept in one partition ("seek"), as
        (name, document, version) in name order: one Query, never a Scan. Documents
        past their ``expires_at`` may still be among them (DynamoDB drops them late)."""

    def put_connection(self, connection: str, room: str, player: str, expires_at: int) -> None:
        """Remember which room and player a WebSocket connection belongs to."""

    def get_connection(self, connection: str) -> tuple[str, str] | None:
        """(room code, player id) for a connection, or None."""

    def delete_connection(self, connection: str) -> None: ...

    def get_profile(self, player: str) -> Json | None:
        """A player's profile: token hash, name, color, recently dealt puzzle ids."""

    def put_profile(self, player: str, profile: Json) -> None:
        """Replace the whole profile (only for one that nobody else can be writing)."""

    def update_profile(self, player: str, changes: Json, expect: Json | None = None) -> bool:
        """Set just the fields in ``changes`` (a None value removes one), in one request,
        leaving every other field as it is; so two writers of different fields never lose
        each other's. With ``expect``, only if each named field still holds that value
        (None: absent): False, and nothing changed, if one does not."""

    def get_save(self, player: str, kind: str) -> Json | None:
        """A saved game of ``kind`` ("race" for a solo race, "together" for a host's board)."""

    def put_save(self, player: str, kind: str, save: Json, expires_at: int) -> None: ...

    def delete_save(self, player: str, kind: str) -> None: ...

    def take(self, key: str, limit: int, window_ms: int, now: int) -> bool:
        """Count one attempt against ``key`` at ``now``: True if it makes at most ``limit``
        in any ``window_ms`` (the window slides: ``pace.within``); False, and nothing
        counted, if over."""

    def attempts(self, key: str, window_ms: int, now: int) -> list[int]:
        """The times of the attempts ``take`` counted at ``key`` in the ``window_ms``
        before ``now``: a read, nothing counted."""

    def pace(self, key: str, arrived: int) -> bool:
        """Count one frame that arrived at ``arrived`` in the pace bucket at ``key`` (a
        connection): whether it fits (``pace.take``). A frame that does not fit counts
        all the same."""


class Connections(Protocol):
    def send(self, connection: str, message: Mapping[str, Any]) -> bool:
        """Post a JSON message to one connection; False if it is gone (410)."""


class Timers(Protocol):
    """One pending one-time schedule per room, the backstop for due events."""

    def arm(self, room: str, at: int, version: int) -> None:
        """Create or move the room's schedule to fire at ``at`` carrying ``version``."""

    def disarm(self, room: str) -> None:
        """Delete the room's schedule if there is one."""


class Push(Protocol):
    """Web Push to one browser subscription (the PushSubscription JSON the browser gave)."""

    @property
    def public_key(self) -> str | None:
        """The VAPID application server key the browser subscribes with (base64url), if any."""

    def send(self, subscription: Mapping[str, Any], payload: Mapping[str, Any]) -> str:
        """Deliver ``payload``: "sent", or "gone" if the push service says the
        subscription has expired or been withdrawn (404/410)."""


@dataclass(frozen=True)
class Account:
    """A registered player: ``id`` is stable across devices (Cognito's ``sub``)."""

    id: str
    name: str  # the name signed up with, shown beside the rating


@dataclass(frozen=True)
class Session:
    account: Account
    refresh: str  # kept by the browser to sign in again without the password


class Accounts(Protocol):
    """Sign-up and sign-in (Amazon Cognito; moto's in tests and on the local stack).

    Every failure is a ``Refused`` with a code the client can show: ``name-taken``,
    ``bad-name``, ``weak-password``, ``wrong-password``, ``signed-out``, ``too-many``
    (the identity service is throttling) or ``accounts-down`` (it failed). A password
    is passed to the identity service and never stored or logged.
    """

    def sign_up(self, name: str, password: str) -> Session: ...

    def sign_in(self, name: str, password: str) -> Session: ...

    def resume(self, refresh: str) -> Account:
        """The account a refresh token belongs to; ``Refused("signed-out")`` if it is
        no longer accepted (expired, revoked, or from another pool)."""


class Packs(Protocol):
    def puzzles(self, size: Size) -> Sequence[Puzzle]:
        """Every puzzle of a size, in a stable order."""


@dataclass(frozen=True)
class Queued:
    """One frame for a room's (or Duel game's) single writer, with what the receiving
    handler already knew: whose connection it came from and when it arrived."""

    connection: str
    code: str  # the room or game the connection is in (its record)
    player: str
    body: str
    arrived: int
    group: str = ""  # the room or game the frame is for, the queue's group: ``code`` if ""

    def __post_init__(self) -> None:
        if not self.group:
            object.__setattr__(self, "group", self.code)


def held_back(frames: Sequence[Queued | None], failed: Iterable[int]) -> list[int]:
    """The positions of each failed frame and of every later frame of its group, in
    order: what an ordered queue takes back together (a group's frames are applied in
    the order they were sent, so none goes on past one that failed). A None frame (a
    message that is no frame) belongs to no group.

    >>> a, b = Queued("c1", "ROOM1", "p1", "{}", 1), Queued("c2", "ROOM2", "p2", "{}", 2)
    >>> held_back([a, b, None, a], [0])
    [0, 3]
    """
    first: dict[str, int] = {}  # each group's first failed frame
    for at in sorted(failed):
        frame = frames[at]
        if frame is not None:
            first.setdefault(frame.group, at)
    return [
        at
        for at, frame in enumerate(frames)
        if frame is not None and at >= first.get(frame.group, len(frames))
    ]


class Queue(Protocol):
    """An ordered queue per group (SQS FIFO in the cloud): the frames of one room reach
    one consumer at a time, in the order they were sent."""

    def send(self, frame: Queued, dedup: str) -> None:
        """Enqueue ``frame`` under group ``frame.group``; a second send with the same
        ``dedup`` (a retried request) is dropped."""
