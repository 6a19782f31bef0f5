"""Every write to the data file, each a plain function of a connection and plain data.

``sqlite.Database.run`` runs one in a savepoint of the round's transaction (or in a
transaction of its own), so each is all or nothing; the time comes as an argument.
"""

from __future__ import annotations

import json
import sqlite3

from crossing.aws import table
from crossing.rooms.ports import Conflict, Json

PART, PART_END = "PART#", "PART$"
"""The sort keys of a room's parts: ``PART#<key>``, beside its ``STATE``."""
_LIVE = "SELECT data, version FROM items WHERE (expires_at IS NULL OR expires_at > ?)"
"""An item that is there: one past its TTL counts as gone, as DynamoDB's TTL makes it."""
_REPLACE = "INSERT OR REPLACE INTO items (pk, sk, data, version, expires_at) VALUES (?, ?, ?, ?, ?)"


def save_item(
    db: sqlite3.Connection,
    key: tuple[str, str],
    text: str,
    seen: int | None,
    ttl: int | None,
    now: int,
    new: list[tuple[str, str, str]],
    gone: list[tuple[str, str]],
) -> int:
    """``text`` at ``key`` if it is still at version ``seen``, with a room's part rows to
    insert and to delete; the new version."""
    row = db.execute(_LIVE + " AND pk = ? AND sk = ?", (now, *key)).fetchone()
    if (row[1] if row else None) != seen:
        raise Conflict(f"{key[0]} is no longer at version {seen}")
    version = 1 if seen is None else seen + 1
    db.execute(_REPLACE, (*key, text, version, ttl))
    if new:  # most keystrokes finish no part
        db.executemany("INSERT OR IGNORE INTO items (pk, sk, data) VALUES (?, ?, ?)", new)
    if gone:
        db.executemany("DELETE FROM items WHERE pk = ? AND sk = ?", gone)
    return version


def delete_item(db: sqlite3.Connection, key: tuple[str, str], seen: int, now: int) -> None:
    row = db.execute(_LIVE + " AND pk = ? AND sk = ?", (now, *key)).fetchone()
    if row is None or row[1] != seen:
        raise Conflict(f"{key[0]} {key[1]} is no longer at version {seen}")
    db.execute("DELETE FROM items WHERE pk = ? AND sk = ?", key)


def put_item(db: sqlite3.Connection, key: tuple[str, str], text: str, ttl: int | None) -> None:
    db.execute(_REPLACE, (*key, text, None, ttl))


def delete_key(db: sqlite3.Connection, key: tuple[str, str]) -> None:
    db.execute("DELETE FROM items WHERE pk = ? AND sk = ?", key)


def keep_until(db: sqlite3.Connection, key: tuple[str, str], ttl: int) -> None:
    db.execute("UPDATE items SET expires_at = ? WHERE pk = ? AND sk = ?", (ttl, *key))


def update_fields(
    db: sqlite3.Connection,
    key: tuple[str, str],
    changes: Json,
    expect: Json | None,
    now: int,
    ttl: int | None,
    what: str,
) -> bool:
    """Change some of a document's fields (None removes one) if ``expect``'s hold."""
    row = db.execute(
        "SELECT data FROM items WHERE pk = ? AND sk = ? AND (expires_at IS NULL OR expires_at > ?)",
        (*key, now),
    ).fetchone()
    document = json.loads(row[0]) if row else {}
    if any(document.get(k) != v for k, v in (expect or {}).items()):
        return False
    document = {k: v for k, v in {**document, **changes}.items() if v is not None}
    db.execute(_REPLACE, (*key, table.encode(document, what), None, ttl))
    return True


def sweep(db: sqlite3.Connection, now: int) -> int:
    """Delete every item past its TTL (reads already ignore them), and the parts of rooms
    that are gone; how many went."""
    expired = db.execute(
        "DELETE FROM items WHERE expires_at IS NOT NULL AND expires_at <= ?", (now,)
    ).rowcount
    # A part lives as long as its room's state: it has no TTL of its own, as the
    # state's moves on with every write.
    orphans = db.execute(
        "DELETE FROM items WHERE sk >= ? AND sk < ? AND pk NOT IN "
        "(SELECT pk FROM items WHERE sk = ?)",
        (PART, PART_END, table.room_key("")[1]),
    ).rowcount
    return int(expired + orphans)


# Due events


def arm(db: sqlite3.Connection, room: str, at: int, version: int) -> None:
    db.execute(
        "INSERT OR REPLACE INTO timers (room, at, version) VALUES (?, ?, ?)", (room, at, version)
    )


def alive(db: sqlite3.Connection, at: int) -> None:
    db.execute("INSERT OR REPLACE INTO alive (one, at) VALUES (1, ?)", (at,))


def disarm(db: sqlite3.Connection, room: str) -> None:
    db.execute("DELETE FROM timers WHERE room = ?", (room,))


def fired(db: sqlite3.Connection, room: str, at: int, version: int) -> None:
    db.execute("DELETE FROM timers WHERE room = ? AND at = ? AND version = ?", (room, at, version))


# Accounts


def add_user(
    db: sqlite3.Connection, username: str, id_: str, name: str, salt: bytes, digest: bytes
) -> bool:
    """A new user, unless the name is taken (then False)."""
    try:
        db.execute(
            "INSERT INTO users (username, id, name, salt, digest) VALUES (?, ?, ?, ?, ?)",
            (username, id_, name, salt, digest),
        )
    except sqlite3.IntegrityError:
        return False
    return True


def add_token(db: sqlite3.Connection, token_hash: str, username: str, now: int) -> tuple[str, str]:
    """Keep a refresh token's hash for ``username``; the user's id and name."""
    db.execute(
        "INSERT INTO refresh_tokens (token_hash, username, created_at) VALUES (?, ?, ?)",
        (token_hash, username, now),
    )
    id_, name = db.execute("SELECT id, name FROM users WHERE username = ?", (username,)).fetchone()
    return id_, name
