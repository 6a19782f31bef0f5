"""In-memory fakes of the rooms' ports, behaving like the AWS adapters.

They are what the rooms tests run on. Like the real ones: stored documents are
JSON (a copy goes in and a fresh copy comes out, so no caller can change stored
state by mutating what it holds), rooms have versions and raise ``Conflict``,
documents too large for a DynamoDB item are refused, a gone connection answers
False. TTLs are kept but never act. ``requests`` counts calls per method the way
the adapters count AWS requests, so tests can hold code to the request budget.
No boto3 here.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from crossing.aws import pool, table
from crossing.crossword.commands import Refused
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size
from crossing.rooms.ports import Account, Conflict, Json, Queued, Session


class MemoryStore(table.KeyedDocuments):
    """``Store`` in dictionaries, with the same versions, conditions and counts as DynamoStore."""

    def __init__(self) -> None:
        self.docs: dict[tuple[str, str], tuple[str, int]] = {}
        """Every versioned document (rooms, Duel games, the lobby, ratings) by table key."""
        self.connections: dict[str, tuple[str, str]] = {}
        self.profiles: dict[str, str] = {}
        self.saves: dict[tuple[str, str], str] = {}
        self.expires_at: dict[tuple[str, str], int] = {}
        """Each item's TTL in epoch seconds, by table key, as DynamoStore would write it."""
        self.requests: Counter[str] = Counter()

    @property
    def rooms(self) -> dict[str, tuple[str, int]]:
        """The rooms among the documents, by code: (JSON text, version)."""
        prefix = table.room_key("")[0]
        return {k[0][len(prefix) :]: v for k, v in self.docs.items() if k[0].startswith(prefix)}

    def delete_doc(self, kind: str, name: str, seen: int) -> None:
        key = table.doc_key(kind, name)
        self.requests["delete_doc"] += 1
        stored = self.docs.get(key)
        if stored is None or stored[1] != seen:
            raise Conflict(f"{key[0]} {key[1]} is no longer at version {seen}")
        del self.docs[key]
        self.expires_at.pop(key, None)

    def list_docs(self, kind: str) -> list[tuple[str, Json, int]]:
        pk, prefix = table.listed(kind)
        self.requests["list_docs"] += 1
        return [
            (sk[len(prefix) :], json.loads(text), version)
            for (p, sk), (text, version) in sorted(self.docs.items())
            if p == pk and sk.startswith(prefix)
        ]

    def _load(self, method: str, key: tuple[str, str]) -> tuple[Json, int] | None:
        self.requests[method] += 1
        if key not in self.docs:
            return None
        text, version = self.docs[key]
        return json.loads(text), version

    def _save(
        self,
        method: str,
        key: tuple[str, str],
        doc: Json,
        seen: int | None,
        expires_at: int | None,
        what: str = "",
    ) -> int:
        text = table.encode(doc, what or f"{key[0]} {key[1]}")
        self.requests[method] += 1
        stored = self.docs.get(key)
        if (stored[1] if stored else None) != seen:
            raise Conflict(f"{key[0]} is no longer at version {seen}")
        version = 1 if seen is None else seen + 1
        self.docs[key] = (text, version)
        if expires_at is not None:
            self.expires_at[key] = table.ttl_seconds(expires_at)
        return version

    def put_connection(self, connection: str, room: str, player: str, expires_at: int) -> None:
        self.requests["put_connection"] += 1
        self.connections[connection] = (room, player)
        self.expires_at[table.connection_key(connection)] = table.ttl_seconds(expires_at)

    def get_connection(self, connection: str) -> tuple[str, str] | None:
        self.requests["get_connection"] += 1
        return self.connections.get(connection)

    def delete_connection(self, connection: str) -> None:
        self.requests["delete_connection"] += 1
        self.connections.pop(connection, None)

    def get_profile(self, player: str) -> Json | None:
        self.requests["get_profile"] += 1
        text = self.profiles.get(player)
        return None if text is None else json.loads(text)

    def put_profile(self, player: str, profile: Json) -> None:
        text = table.encode(profile, f"player {player}'s profile")
        self.requests["put_profile"] += 1
        self.profiles[player] = text

    def update_profile(self, player: str, changes: Json, expect: Json | None = None) -> bool:
        if not changes:
            raise ValueError("update_profile needs at least one field to change")
        self.requests["update_profile"] += 1
        text = self.profiles.get(player)
        profile = json.loads(text) if text else {}
        if any(profile.get(k) != v for k, v in (expect or {}).items()):
            return False
        profile = {k: v for k, v in {**profile, **changes}.items() if v is not None}
        self.profiles[player] = table.encode(profile, f"player {player}'s profile")
        return True

    def get_save(self, player: str, kind: str) -> Json | None:
        self.requests["get_save"] += 1
        text = self.saves.get((player, kind))
        return None if text is None else json.loads(text)

    def put_save(self, player: str, kind: str, save: Json, expires_at: int) -> None:
        text = table.encode(save, f"player {player}'s {kind} save")
        self.requests["put_save"] += 1
        self.saves[player, kind] = text
        self.expires_at[table.save_key(player, kind)] = table.ttl_seconds(expires_at)

    def delete_save(self, player: str, kind: str) -> None:
        self.requests["delete_save"] += 1
        self.saves.pop((player, kind), None)


class RecordingConnections:
    """``Connections`` that records every message per connection; some can be gone."""

    def __init__(self) -> None:
        self.sent: defaultdict[str, list[Json]] = defaultdict(list)
        """Messages delivered to each connection, in order (as the client would parse them)."""
        self.log: list[tuple[str, Json]] = []
        """Every delivered message with its connection, in order."""
        self.gone: set[str] = set()
        self.requests: Counter[str] = Counter()

    def mark_gone(self, *connections: str) -> None:
        """From now on these connections answer 410 Gone."""
        self.gone.update(connections)

    def send(self, connection: str, message: Mapping[str, Any]) -> bool:
        self.requests["send"] += 1
        if connection in self.gone:
            return False
        copy = json.loads(json.dumps(message, allow_nan=False))
        self.sent[connection].append(copy)
        self.log.append((connection, copy))
        return True

    def messages(self, connection: str) -> list[Json]:
        return list(self.sent.get(connection, ()))

    def clear(self) -> None:
        self.sent.clear()
        self.log.clear()


class MemoryQueue:
    """``Queue`` as SQS FIFO behaves: in order within a group, a repeated dedup id
    dropped, and ``take`` hands out up to ``most`` messages of one group whose earlier
    messages are not still in flight (as Lambda's FIFO event source does)."""

    def __init__(self) -> None:
        self.waiting: list[Queued] = []
        self.sent = 0
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def send(self, frame: Queued, dedup: str) -> None:
        with self._lock:
            if dedup in self._seen:
                return
            self._seen.add(dedup)
            self.waiting.append(frame)
            self.sent += 1

    def mine(self, group: str) -> bool:
        return False

    def take(self, most: int = 10, busy: Iterable[str] = ()) -> list[Queued]:
        """The next messages of the first group in line that is not ``busy``, removed."""
        with self._lock:
            skip = set(busy)
            group = next((f.group for f in self.waiting if f.group not in skip), None)
            taken = [f for f in self.waiting if f.group == group][:most]
            for frame in taken:
                self.waiting.remove(frame)
            return taken


class ManualTimers:
    """``Timers`` that only remember: ``armed[room] = (at, version)``; tests fire them.

    ``at`` is kept exactly as given; SchedulerTimers rounds it up to the second and
    sets it at least two seconds ahead, which only ever makes a real timer later.
    """

    def __init__(self) -> None:
        self.armed: dict[str, tuple[int, int]] = {}
        self.requests: Counter[str] = Counter()

    def arm(self, room: str, at: int, version: int) -> None:
        self.requests["arm"] += 1
        self.armed[room] = (at, version)

    def disarm(self, room: str) -> None:
        self.requests["disarm"] += 1
        self.armed.pop(room, None)

    def due(self, now: int) -> list[tuple[str, int]]:
        """Fire every schedule due by ``now``, earliest first: (room, version) payloads.

        Fired schedules are removed, as Scheduler's ActionAfterCompletion DELETE does.
        """
        armed = self.armed.items()
        fired = sorted((at, room, version) for room, (at, version) in armed if at <= now)
        for _, room, _ in fired:
            del self.armed[room]
        return [(room, version) for _, room, version in fired]


class MemoryPacks:
    """``Packs`` from a list of puzzles, each filed under the size of its width, in order."""

    def __init__(self, puzzles: Iterable[Puzzle]) -> None:
        self._by_size: dict[Size, list[Puzzle]] = defaultdict(list)
        for puzzle in puzzles:
            self._by_size[Size.for_width(puzzle.width)].append(puzzle)

    def puzzles(self, size: Size) -> Sequence[Puzzle]:
        return tuple(self._by_size.get(Size(size), ()))


class RecordingPush:
    """``Push`` that records every notification; endpoints in ``gone`` answer "gone"."""

    def __init__(self, public_key: str | None = "BTestPublicKey") -> None:
        self.public_key = public_key
        self.sent: list[tuple[Json, Json]] = []
        """(subscription, payload) for each delivered notification, in order."""
        self.gone: set[str] = set()
        self.requests: Counter[str] = Counter()

    def send(self, subscription: Mapping[str, Any], payload: Mapping[str, Any]) -> str:
        self.requests["send"] += 1
        if subscription.get("endpoint") in self.gone:
            return "gone"
        self.sent.append((json.loads(json.dumps(subscription)), json.loads(json.dumps(payload))))
        return "sent"

    def to(self, endpoint: str) -> list[Json]:
        """Payloads delivered to one endpoint."""
        return [payload for sub, payload in self.sent if sub.get("endpoint") == endpoint]


@dataclass(frozen=True)
class _User:
    id: str
    name: str  # as typed at sign-up
    salt: bytes
    digest: bytes  # scrypt of the password: the password itself is never kept


class MemoryAccounts:
    """``Accounts`` in dictionaries, with CognitoAccounts' rules, codes and messages.

    Names are case-insensitive and checked by ``pool``'s rules; passwords follow the
    pool's policy and are kept only as a salted scrypt hash. Refresh tokens never
    expire here; ``revoke`` stands in for Cognito forgetting one.
    """

    SCRYPT: ClassVar[dict[str, int]] = {"n": 2**12, "r": 8, "p": 1}
    """Cheap enough for tests; this fake never holds a real player's password."""

    def __init__(self) -> None:
        self.users: dict[str, _User] = {}
        """By username (the name, lower case)."""
        self.refresh_tokens: dict[str, str] = {}
        """Refresh token -> username."""
        self.requests: Counter[str] = Counter()

    def sign_up(self, name: str, password: str) -> Session:
        pool.check_name(name)
        pool.check_new_password(password)
        self.requests["sign_up"] += 1
        username = pool.username(name)
        if username in self.users:
            raise Refused("name-taken", pool.NAME_TAKEN)
        salt = secrets.token_bytes(16)
        self.users[username] = _User(str(uuid.uuid4()), name, salt, self._hash(password, salt))
        return self._session(username)

    def sign_in(self, name: str, password: str) -> Session:
        pool.check_name(name)
        if not pool.could_be_password(password):
            raise Refused("wrong-password", pool.WRONG_PASSWORD)
        self.requests["sign_in"] += 1
        user = self.users.get(pool.username(name))
        # Hash even for an unknown name, so both take the same time.
        salt = user.salt if user else b"\0" * 16
        digest = self._hash(password, salt)
        if user is None or not hmac.compare_digest(digest, user.digest):
            raise Refused("wrong-password", pool.WRONG_PASSWORD)
        return self._session(pool.username(name))

    def resume(self, refresh: str) -> Account:
        if not isinstance(refresh, str) or not refresh:
            raise Refused("signed-out", pool.SIGNED_OUT)
        self.requests["resume"] += 1
        username = self.refresh_tokens.get(refresh)
        if username is None or username not in self.users:
            raise Refused("signed-out", pool.SIGNED_OUT)
        return self._account(username)

    def revoke(self, refresh: str) -> None:
        """Forget a refresh token, as Cognito does when it expires or is revoked."""
        self.refresh_tokens.pop(refresh, None)

    def _session(self, username: str) -> Session:
        token = secrets.token_urlsafe(32)
        self.refresh_tokens[token] = username
        return Session(self._account(username), token)

    def _account(self, username: str) -> Account:
        user = self.users[username]
        return Account(user.id, user.name)

    def _hash(self, password: str, salt: bytes) -> bytes:
        return hashlib.scrypt(password.encode("utf-8"), salt=salt, **self.SCRYPT)
