"""The one DynamoDB table: its definition as plain data, and the item keys.

Three callers read the same definition: the CDK stack, the local stack and the
tests (``create_table``). Items and their attributes are documented in
``docs/data.md``.

Keys (partition ``pk`` / sort ``sk``, both strings)::

    ROOM#<code>   / STATE          room state (JSON string) + version
    ROOM#<code>   / PART#<key>     a part of it that never changes (the local store only)
    CONN#<id>     / CONN           connection -> room, player
    PLAYER#<id>   / PROFILE        profile (JSON string)
    PLAYER#<id>   / SAVE#<kind>    a saved game (JSON string)
    RATE#<key>    / TIMES          a limit's latest attempts (pace.within)
    PACE#<conn>   / BUCKET         a connection's pace (frames no room counts)
    GAME#<id>     / STATE          a Duel game (JSON string) + version
    LOBBY         / DUEL           the connections watching the Duel lobby's list + version
    LOBBY         / SEEK#<id>      one Duel game waiting for an opponent + version
    PLAYER#<id>   / RATING         a registered player's Duel rating + version
    PLAYER#<id>   / DUELS          a registered player's finished Duel games (My games) + version

Every read is a GetItem or an UpdateItem on a full key, except the open seeks:
one Query on the ``LOBBY`` partition (``list_docs``). No index, and nothing ever Scans.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from crossing.rooms import pace
from crossing.rooms.ports import Conflict

PARTITION_KEY = "pk"
SORT_KEY = "sk"
TTL_ATTRIBUTE = "expires_at"
COUNT_TRIES = 4
"""Reads and writes of a limit's or a pace's document before the attempt is refused:
each failed one was a write from elsewhere at the same moment."""
PACE_KEPT_MS = 60_000
"""Epoch **seconds**, as DynamoDB TTL requires (the rooms layer speaks milliseconds)."""

KEY_SCHEMA: list[dict[str, str]] = [
    {"AttributeName": PARTITION_KEY, "KeyType": "HASH"},
    {"AttributeName": SORT_KEY, "KeyType": "RANGE"},
]
ATTRIBUTE_DEFINITIONS: list[dict[str, str]] = [
    {"AttributeName": PARTITION_KEY, "AttributeType": "S"},
    {"AttributeName": SORT_KEY, "AttributeType": "S"},
]
BILLING_MODE = "PAY_PER_REQUEST"

MAX_ITEM_BYTES = 400 * 1024
"""DynamoDB's item size limit (names and values together)."""
MAX_DOCUMENT_BYTES = MAX_ITEM_BYTES - 4 * 1024
"""What a stored JSON document may take, leaving room for keys and the other attributes."""

TABLE: dict[str, Any] = {
    "key_schema": KEY_SCHEMA,
    "attribute_definitions": ATTRIBUTE_DEFINITIONS,
    "billing_mode": BILLING_MODE,
    "ttl_attribute": TTL_ATTRIBUTE,
}
"""The whole definition, for the CDK stack and the local stack."""


def room_key(code: str) -> tuple[str, str]:
    return f"ROOM#{code}", "STATE"


def connection_key(connection: str) -> tuple[str, str]:
    return f"CONN#{connection}", "CONN"


def profile_key(player: str) -> tuple[str, str]:
    return f"PLAYER#{player}", "PROFILE"


def save_key(player: str, kind: str) -> tuple[str, str]:
    return f"PLAYER#{player}", f"SAVE#{kind}"


def rate_key(key: str) -> tuple[str, str]:
    return f"RATE#{key}", "TIMES"


def pace_key(key: str) -> tuple[str, str]:
    return f"PACE#{key}", "BUCKET"


def doc_key(kind: str, name: str) -> tuple[str, str]:
    """The key of a versioned document the ``Store`` holds by kind and name."""
    if kind == "game":
        return f"GAME#{name}", "STATE"
    if kind == "lobby":
        return "LOBBY", name.upper()
    if kind == "seek":
        return "LOBBY", SEEK_PREFIX + name  # ids are case-sensitive: kept as they are
    if kind == "rating":
        return f"PLAYER#{name}", "RATING"
    if kind == "duels":
        return f"PLAYER#{name}", "DUELS"
    raise ValueError(f"no document kind {kind!r} (game, lobby, seek, rating or duels)")


SEEK_PREFIX = "SEEK#"
LISTED = {"seek": ("LOBBY", SEEK_PREFIX)}
"""The document kinds that share one partition, so all of them are one Query:
(partition key, sort key prefix)."""


def listed(kind: str) -> tuple[str, str]:
    """Where every document of a listed kind lives: (partition key, sort key prefix)."""
    if kind not in LISTED:
        raise ValueError(f"documents of kind {kind!r} are not listed (only {sorted(LISTED)})")
    return LISTED[kind]


class KeyedDocuments:
    """The port's versioned-document methods and rate limit, said once for every store:
    each store brings only its primitives by key, ``_load`` and ``_save``."""

    requests: Counter[str]

    def _load(self, method: str, key: tuple[str, str]) -> tuple[Any, int] | None:
        raise NotImplementedError

    def _save(
        self,
        method: str,
        key: tuple[str, str],
        doc: Any,
        seen: int | None,
        expires_at: int | None,
        what: str = "",
    ) -> int:
        raise NotImplementedError

    def take(self, key: str, limit: int, window_ms: int, now: int) -> bool:
        if window_ms < 1:
            raise ValueError(f"a rate window must be at least 1 ms, not {window_ms}")
        if limit < 1:
            return False

        def count(times: Any) -> tuple[Any, bool]:
            kept = pace.within(times or [], limit, window_ms, now)
            return kept, kept is not None

        return self._counted(rate_key(key), count, now + window_ms)

    def attempts(self, key: str, window_ms: int, now: int) -> list[int]:
        loaded = self._load("take", rate_key(key))
        return [t for t in (loaded[0] if loaded else []) if t > now - window_ms]

    def pace(self, key: str, arrived: int) -> bool:
        def count(doc: Any) -> tuple[Any, bool]:
            # Over or not, the frame counts: a flood stays refused until it stops.
            bucket, fits = pace.take(pace.Bucket(*doc) if doc else None, arrived)
            return [bucket.level, bucket.at], fits

        # A bucket left alone for a minute is empty again: no need to keep it longer.
        return self._counted(pace_key(key), count, arrived + PACE_KEPT_MS)

    def _counted(
        self,
        key: tuple[str, str],
        count: Callable[[Any], tuple[Any, bool]],
        expires_at: int,
    ) -> bool:
        """Read the document at ``key``, ``count`` one more in it (the document to write,
        None for nothing, and whether the attempt is allowed) and write it back under the
        version read."""
        for _ in range(COUNT_TRIES):
            loaded = self._load("take", key)
            counted, allowed = count(loaded[0] if loaded else None)
            if counted is not None:
                try:
                    self._save("take", key, counted, loaded[1] if loaded else None, expires_at)
                except Conflict:
                    continue  # counted from elsewhere at the same moment: count again
            return allowed
        return False

    def load_room(self, code: str) -> tuple[Any, int] | None:
        return self._load("load_room", room_key(code))

    def save_room(self, code: str, state: Any, seen: int | None, expires_at: int) -> int:
        what = f"room {code}'s state"
        return self._save("save_room", room_key(code), state, seen, expires_at, what)

    # Other versioned documents: Duel games, seeks, the lobby's watchers, ratings

    def load_doc(self, kind: str, name: str) -> tuple[Any, int] | None:
        return self._load("load_doc", doc_key(kind, name))

    def save_doc(
        self, kind: str, name: str, doc: Any, seen: int | None, expires_at: int | None
    ) -> int:
        return self._save("save_doc", doc_key(kind, name), doc, seen, expires_at)


def ttl_seconds(expires_at_ms: int) -> int:
    """The TTL attribute for a time in milliseconds, rounded up (never dropped early)."""
    return -(-expires_at_ms // 1000)


class DocumentTooLarge(ValueError):
    """A JSON document that would not fit in one DynamoDB item."""


def encode(document: Any, what: str, beside: int = 0) -> str:
    """Compact JSON text for a document, refused if it cannot fit in an item together
    with ``beside`` more bytes (what a store keeps apart but the cloud's item holds)."""
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    size = len(text.encode("utf-8")) + beside
    if size > MAX_DOCUMENT_BYTES:
        raise DocumentTooLarge(
            f"{what} is {size} bytes of JSON; one item holds at most "
            f"{MAX_DOCUMENT_BYTES} bytes of document"
        )
    return text


def create_table(client_or_resource: Any, name: str) -> None:
    """Create the table and turn on TTL, with a boto3 DynamoDB client or resource.

    Waits until the table exists (instant under moto and the local stack).
    """
    client = getattr(getattr(client_or_resource, "meta", None), "client", client_or_resource)
    client.create_table(
        TableName=name,
        KeySchema=KEY_SCHEMA,
        AttributeDefinitions=ATTRIBUTE_DEFINITIONS,
        BillingMode=BILLING_MODE,
    )
    client.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 1, "MaxAttempts": 30}
    )
    client.update_time_to_live(
        TableName=name,
        TimeToLiveSpecification={"Enabled": True, "AttributeName": TTL_ATTRIBUTE},
    )
