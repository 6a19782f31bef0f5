"""The rooms' Store, Accounts and Timers in one SQLite file, for ``crossing serve``.

What one machine needs to keep everything across a restart, with only the standard
library. Each port behaves as its cloud adapter does (the same contract tests run on
all of them): documents are versioned and written only if still at the version the
writer read, JSON too big for a DynamoDB item is refused, an item past its TTL is
gone. Every write is committed before anything it caused is said (the engine's round
commits before its messages leave), so whatever a player saw acknowledged is on disk
even if the process is killed.

The table mirrors the cloud's one table (``crossing.aws.table``'s keys): one row per
item, ``expires_at`` in epoch seconds as DynamoDB's TTL attribute.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
import sqlite3
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from crossing.aws import pool, table
from crossing.crossword.commands import Refused
from crossing.local import writes
from crossing.rooms.ports import Account, Json, Session

FILE_NAME = "crossing.sqlite3"
ROOMS_KNOWN = 2048
"""Rooms whose part rows a store remembers (the latest written or read)."""
GUEST_TTL_S = 90 * 24 * 3600
"""A guest's profile (and with it their seat and name) is dropped this long after they
were last seen; a signed-in player's profile is kept for good. Longer than a saved
game's 60 days, so a save never outlives the profile it belongs to."""
T = TypeVar("T")
ACCOUNT_PREFIX = "acct."
"""A signed-in player's id starts with this (``rooms.service``); any other is a guest."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    pk TEXT NOT NULL,
    sk TEXT NOT NULL,
    data TEXT NOT NULL,
    version INTEGER,
    expires_at INTEGER,
    PRIMARY KEY (pk, sk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS items_expiry ON items (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS timers (
    room TEXT PRIMARY KEY,
    at INTEGER NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS alive (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
    username TEXT PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    salt BLOB NOT NULL,
    digest BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    username TEXT NOT NULL REFERENCES users (username),
    created_at INTEGER NOT NULL
);
"""


def open_file(path: Path) -> sqlite3.Connection:
    """A connection to the data file, its tables made if new."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    # 512 KiB of page cache, not SQLite's 2 MiB: the OS caches the file anyway, and a
    # cache that fills as the file grows is memory that never comes back.
    db.execute("PRAGMA cache_size=-512")
    db.executescript(_SCHEMA)
    return db


class Database:
    """The data file: one connection, used by one thread at a time (the local engine's).

    ``synchronous=FULL`` makes each commit survive a power cut as well as a killed
    process; that costs an fsync per commit, so the engine opens one ``transaction`` a
    round and every write of the round joins it (one fsync for every room). A write
    outside a transaction is a transaction of its own.
    """

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        self._db = open_file(self.path)
        self._open = False

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction around everything inside: committed on the way out, or rolled
        back if anything inside raised or the commit itself failed (then it raises)."""
        if self._open:  # part of the one already open
            yield
            return
        self._db.execute("BEGIN IMMEDIATE")
        self._open = True
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        finally:
            self._open = False

    def run(self, write: Callable[..., T], *args: Any) -> T:
        """``write(db, *args)``, all or nothing: a savepoint of the open transaction (a
        write that fails undoes only itself), else a transaction of its own."""
        if not self._open:
            with self.transaction():
                return write(self._db, *args)
        self._db.execute("SAVEPOINT one")
        try:
            answer = write(self._db, *args)
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK TO one")
                self._db.execute("RELEASE one")
            raise
        self._db.execute("RELEASE one")
        return answer

    def read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._db.execute(sql, params).fetchall()

    def now_s(self) -> int:
        return int(self.clock())

    def sweep(self) -> int:
        """Delete every item past its TTL, and the parts of rooms that are gone; how many."""
        return self.run(writes.sweep, self.now_s())

    def close(self) -> None:
        self._db.close()


class SqliteStore(table.KeyedDocuments):
    """``Store`` in the ``items`` table, with DynamoStore's versions, refusals and counts."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.requests: Counter[str] = Counter()
        # Each room's part rows as this store last wrote or read them: (version, keys).
        self._parts: dict[str, tuple[int, frozenset[str]]] = {}

    # A room's parts (``Store.save_room``) are rows of its own beside its state, each
    # written once: a keystroke writes the state and the chunk of undo history it
    # finished, if any, not every chunk again (a Large room of eight rewrote 38 KB a
    # letter after 2,000 letters; its state is now 6-12 KB).

    def load_room(self, code: str) -> tuple[Json, int] | None:
        pk, sk = table.room_key(code)
        self.requests["load_room"] += 1
        # One statement, so the state and its parts are of one moment.
        rows = self.db.read(
            "SELECT sk, data, version FROM items WHERE pk = ? AND (sk = ? AND "
            "(expires_at IS NULL OR expires_at > ?) OR sk >= ? AND sk < ?)",
            (pk, sk, self.db.now_s(), writes.PART, writes.PART_END),
        )
        head = next((row for row in rows if row[0] == sk), None)
        if head is None:
            return None
        state, version = json.loads(head[1]), head[2]
        if isinstance(state.get("parts"), list):
            stored = {row[0][len(writes.PART) :]: row[1] for row in rows if row[0] != sk}
            state["parts"] = {key: stored[key] for key in state["parts"] if key in stored}
            self._know(code, version, frozenset(stored))
        return state, version

    def _know(self, code: str, version: int, keys: frozenset[str]) -> None:
        # Forgetting a room costs only a rewrite of its parts (``INSERT OR IGNORE``).
        self._parts.pop(code, None)
        self._parts[code] = (version, keys)
        while len(self._parts) > ROOMS_KNOWN:
            del self._parts[next(iter(self._parts))]

    def save_room(self, code: str, state: Json, seen: int | None, expires_at: int) -> int:
        parts: dict[str, str] | None = state.get("parts")
        if not parts:
            return super().save_room(code, state, seen, expires_at)
        key = table.room_key(code)
        pk = key[0]
        version, known = self._parts.get(code, (None, frozenset()))
        if version != seen:  # written by another since: which rows are there is unknown
            known = frozenset()
        new = [(pk, writes.PART + part, parts[part]) for part in parts.keys() - known]
        gone = [(pk, writes.PART + part) for part in known - parts.keys()]

        head = {**state, "parts": sorted(parts)}
        # The cloud keeps the parts in the item itself: the same limit holds here.
        beside = sum(len(text) + 3 for text in parts.values())
        what = f"room {code}'s state"
        version = self._save("save_room", key, head, seen, expires_at, what, beside, (new, gone))
        self._know(code, version, frozenset(parts))
        return version

    def delete_doc(self, kind: str, name: str, seen: int) -> None:
        key = table.doc_key(kind, name)
        self.requests["delete_doc"] += 1
        self.db.run(writes.delete_item, key, seen, self.db.now_s())

    def list_docs(self, kind: str) -> list[tuple[str, Json, int]]:
        pk, prefix = table.listed(kind)
        self.requests["list_docs"] += 1
        # The primary key's order: a range on sk, like DynamoDB's begins_with.
        after = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        rows = self.db.read(
            "SELECT sk, data, version FROM items WHERE pk = ? AND sk >= ? AND sk < ? "
            "AND (expires_at IS NULL OR expires_at > ?) ORDER BY sk",
            (pk, prefix, after, self.db.now_s()),
        )
        return [(sk[len(prefix) :], json.loads(data), version) for sk, data, version in rows]

    def _load(self, method: str, key: tuple[str, str]) -> tuple[Json, int] | None:
        row = self._get(method, key, "data, version")
        return None if row is None else (json.loads(row[0]), row[1])

    def _save(
        self,
        method: str,
        key: tuple[str, str],
        doc: Json,
        seen: int | None,
        expires_at: int | None,
        what: str = "",
        beside: int = 0,
        parts: tuple[list[tuple[str, str, str]], list[tuple[str, str]]] = ([], []),
    ) -> int:
        """Write ``doc`` at ``key`` if still at ``seen``, with a room's part rows: the
        ones to insert and the ones to delete, in the same transaction."""
        text = table.encode(doc, what or f"{key[0]} {key[1]}", beside)
        self.requests[method] += 1
        ttl = None if expires_at is None else table.ttl_seconds(expires_at)
        version: int = self.db.run(writes.save_item, key, text, seen, ttl, self.db.now_s(), *parts)
        return version

    # Connections

    def put_connection(self, connection: str, room: str, player: str, expires_at: int) -> None:
        data = json.dumps([room, player])
        self._put("put_connection", table.connection_key(connection), data, expires_at)

    def get_connection(self, connection: str) -> tuple[str, str] | None:
        row = self._get("get_connection", table.connection_key(connection))
        if row is None:
            return None
        room, player = json.loads(row[0])
        return room, player

    def delete_connection(self, connection: str) -> None:
        self._delete("delete_connection", table.connection_key(connection))

    # Profiles and saved games

    def get_profile(self, player: str) -> Json | None:
        key = table.profile_key(player)
        row = self._get("get_profile", key, "data, expires_at")
        if row is None:
            return None
        if row[1] is not None and row[1] < self.db.now_s() + GUEST_TTL_S - 24 * 3600:
            # A guest seen again: their profile lives on (rewritten at most once a day).
            self.db.run(writes.keep_until, key, self.db.now_s() + GUEST_TTL_S)
        return json.loads(row[0])

    def put_profile(self, player: str, profile: Json) -> None:
        text = table.encode(profile, f"player {player}'s profile")
        guest = not player.startswith(ACCOUNT_PREFIX)
        expires_at = (self.db.now_s() + GUEST_TTL_S) * 1000 if guest else None
        self._put("put_profile", table.profile_key(player), text, expires_at)

    def update_profile(self, player: str, changes: Json, expect: Json | None = None) -> bool:
        """Change some fields (None removes one), only if ``expect``'s fields hold: read,
        check and write in one transaction, as DynamoDB's conditional update is one
        request (so two writers of different fields never lose each other's)."""
        if not changes:
            raise ValueError("update_profile needs at least one field to change")
        self.requests["update_profile"] += 1
        key = table.profile_key(player)
        guest = not player.startswith(ACCOUNT_PREFIX)
        ttl = self.db.now_s() + GUEST_TTL_S if guest else None
        what = f"player {player}'s profile"
        done: bool = self.db.run(
            writes.update_fields, key, changes, expect, self.db.now_s(), ttl, what
        )
        return done

    def get_save(self, player: str, kind: str) -> Json | None:
        row = self._get("get_save", table.save_key(player, kind))
        return None if row is None else json.loads(row[0])

    def put_save(self, player: str, kind: str, save: Json, expires_at: int) -> None:
        text = table.encode(save, f"player {player}'s {kind} save")
        self._put("put_save", table.save_key(player, kind), text, expires_at)

    def delete_save(self, player: str, kind: str) -> None:
        self._delete("delete_save", table.save_key(player, kind))

    def _get(
        self, method: str, key: tuple[str, str], columns: str = "data"
    ) -> tuple[Any, ...] | None:
        self.requests[method] += 1
        rows = self.db.read(
            f"SELECT {columns} FROM items WHERE pk = ? AND sk = ? "
            "AND (expires_at IS NULL OR expires_at > ?)",
            (*key, self.db.now_s()),
        )
        return rows[0] if rows else None

    def _put(self, method: str, key: tuple[str, str], data: str, expires_at: int | None) -> None:
        self.requests[method] += 1
        ttl = None if expires_at is None else table.ttl_seconds(expires_at)
        self.db.run(writes.put_item, key, data, ttl)

    def _delete(self, method: str, key: tuple[str, str]) -> None:
        self.requests[method] += 1
        self.db.run(writes.delete_key, key)


class SqliteTimers:
    """``Timers``: one pending due event per room, kept across restarts.

    ``at`` is kept exactly; ``due`` hands back every event whose time has come (the
    local pump fires them), so one that fell due while the server was down fires as
    soon as it is back, and the room applies it as of its own moment (rooms catch up
    on due events by their own times, whenever they are applied).
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self.requests: Counter[str] = Counter()

    def arm(self, room: str, at: int, version: int) -> None:
        self.requests["arm"] += 1
        self.db.run(writes.arm, room, at, version)

    def disarm(self, room: str) -> None:
        self.requests["disarm"] += 1
        self.db.run(writes.disarm, room)

    def pending(self) -> dict[str, tuple[int, int]]:
        """Every armed room: (at, version)."""
        rows = self.db.read("SELECT room, at, version FROM timers")
        return {room: (at, version) for room, at, version in rows}

    def due(self, now: int) -> list[tuple[str, int, int]]:
        """Every event due by ``now`` (ms), earliest first: (room, at, version).

        They stay until ``fired`` is called, so one cut off by a crash is still due
        when the server comes back.
        """
        return self.db.read(
            "SELECT room, at, version FROM timers WHERE at <= ? ORDER BY at, room", (now,)
        )

    def fired(self, room: str, at: int, version: int) -> None:
        """Forget a handled event, as Scheduler deletes a one-time schedule once run,
        unless handling it armed the room again (then the new one stays)."""
        self.db.run(writes.fired, room, at, version)


class Alive:
    """When the server was last known to be running (ms), kept across restarts: the
    pump stamps it every look (once a second) and a clean stop on its way out, so the
    next start knows from when it was away, within a second even after a crash."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def stamp(self, now: int) -> None:
        self.db.run(writes.alive, now)

    def last(self) -> int | None:
        rows = self.db.read("SELECT at FROM alive")
        return int(rows[0][0]) if rows else None


class SqliteAccounts:
    """``Accounts`` on this machine: CognitoAccounts' rules, codes and messages.

    A password is kept only as a scrypt hash (memory-hard, a random salt per user);
    a refresh token is 32 random bytes, kept only as its SHA-256, so the file alone
    signs nobody in. Tokens do not expire (Cognito's last 30 days); there is no
    sign-out, as in the cloud.
    """

    SCRYPT: ClassVar[dict[str, int]] = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 2**20}
    """16 MiB and about 50 ms per hash: the parameters OWASP gives for scrypt."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.requests: Counter[str] = Counter()

    def sign_up(self, name: str, password: str) -> Session:
        pool.check_name(name)
        pool.check_new_password(password)
        self.requests["sign_up"] += 1
        username = pool.username(name)
        salt = secrets.token_bytes(16)
        digest = self._hash(password, salt)
        if not self.db.run(writes.add_user, username, str(uuid.uuid4()), name, salt, digest):
            raise Refused("name-taken", pool.NAME_TAKEN)
        return self._session(username)

    def sign_in(self, name: str, password: str) -> Session:
        pool.check_name(name)
        if not pool.could_be_password(password):
            raise Refused("wrong-password", pool.WRONG_PASSWORD)
        self.requests["sign_in"] += 1
        username = pool.username(name)
        rows = self.db.read("SELECT salt, digest FROM users WHERE username = ?", (username,))
        # Hash even for an unknown name, so both take the same time.
        salt, digest = rows[0] if rows else (b"\0" * 16, b"")
        if not hmac.compare_digest(self._hash(password, salt), digest):
            raise Refused("wrong-password", pool.WRONG_PASSWORD)
        return self._session(username)

    def resume(self, refresh: str) -> Account:
        if not isinstance(refresh, str) or not refresh:
            raise Refused("signed-out", pool.SIGNED_OUT)
        self.requests["resume"] += 1
        rows = self.db.read(
            "SELECT users.id, users.name FROM refresh_tokens JOIN users USING (username) "
            "WHERE token_hash = ?",
            (_token_hash(refresh),),
        )
        if not rows:
            raise Refused("signed-out", pool.SIGNED_OUT)
        return Account(*rows[0])

    def _session(self, username: str) -> Session:
        token = secrets.token_urlsafe(32)
        id_, name = self.db.run(writes.add_token, _token_hash(token), username, self.db.now_s())
        return Session(Account(id_, name), token)

    def _hash(self, password: str, salt: bytes) -> bytes:
        return hashlib.scrypt(password.encode("utf-8"), salt=salt, **self.SCRYPT)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
