"""What the local stack's handlers run on: SQLite in one folder (the default, kept across
restarts), or moto's AWS in this process (``--backend moto``: the cloud adapters
through real WebSockets, for their end-to-end tests; forgotten at each stop).

Both give the handlers their environment (``crossing.aws.config``'s variables,
pointed at this machine), the due events the engine's pump applies, and the
transaction a round of the engine runs in. With moto the handlers build their
adapters from that environment; with SQLite the stack hands them a service built on
the SQLite ports.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import random
import socket
import sqlite3
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from crossing.aws import pool, table
from crossing.aws.push import generate_keys
from crossing.rooms.work import Resumed

REGION = "us-east-1"
TABLE = "crossing-local"
BUCKET = "crossing-local-site"
GROUP = "crossing-local"
POOL = "crossing-local"
# moto's own default account: fake ARNs for the schedules' target and role.
TIMER_ARN = "arn:aws:lambda:us-east-1:123456789012:function:crossing-local-timer"
ROLE_ARN = "arn:aws:iam::123456789012:role/crossing-local-scheduler"
# Placeholder credentials: moto and the local @connections accept anything, and boto3
# refuses to sign a request without some.
LOCAL_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local"}
TEST_SEED = "CROSSING_TEST_SEED"
"""An environment variable for tests only: the rooms draw their deals, codes and Duel
bags from a generator seeded with it, so a browser test plays the same games every
run. Never set on a real server (room codes would be guessable)."""
SWEEP_EVERY_S = 3600
"""How often the SQLite backend drops items past their TTL (reads skip them anyway)."""

POWERTOOLS = {
    "POWERTOOLS_SERVICE_NAME": "crossing",
    "POWERTOOLS_METRICS_NAMESPACE": "CrossingLocal",
    "POWERTOOLS_LOG_LEVEL": "WARNING",
    "POWERTOOLS_METRICS_DISABLED": "true",  # no CloudWatch here: keep the terminal quiet
}
"""The handlers' logging and metrics settings on this machine (the caller's own win)."""

log = logging.getLogger(__name__)

Due = tuple[dict[str, Any], Callable[[], None]]
"""A due event for the timer handler, and what to call once it has been handled."""


class Backend(Protocol):
    def environment(self, connections_url: str) -> dict[str, str]: ...

    def service(self, sockets: Any, aside: Any = None, think: Any = None) -> Any:
        """The rooms service for the handlers (sending on ``sockets``, the local app's;
        asking push services through ``aside``, searching for bots' moves through
        ``think``), or None: they build it from the environment."""

    def due(self, now_ms: int) -> list[Due]: ...

    def resumed(self) -> list[Resumed]:
        """For the first round: each room with a due event, and since when the server
        was away (its last sign of life kept with the data); none on a first start."""

    def transaction(self) -> AbstractContextManager[None]:
        """What one round of the engine runs in: committed before its messages leave."""

    def stop(self) -> None: ...


class BackendError(Exception):
    """The backend cannot start (its folder is in use, not writable): one line to show."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _common_environment(
    connections_url: str, vapid: tuple[str, str] | None = None
) -> dict[str, str]:
    """What either backend's handlers read. Without ``vapid``, a fresh pair: a browser's
    subscription from an earlier run no longer matches, so the client subscribes again
    when it sees a new key."""
    private_key, public_key = vapid or generate_keys()
    return {
        **LOCAL_CREDENTIALS,
        "AWS_DEFAULT_REGION": REGION,
        "CROSSING_STAGE": "local",
        "CROSSING_CONNECTIONS_URL": connections_url,
        "CROSSING_VAPID_PRIVATE_KEY": private_key,
        "CROSSING_VAPID_PUBLIC_KEY": public_key,
        "CROSSING_VAPID_SUBJECT": "mailto:local@localhost.invalid",
        **POWERTOOLS,
    }


# --- SQLite ------------------------------------------------------------------------------


@dataclass
class SqliteBackend:
    """The store, accounts and due events in ``data/crossing.sqlite3``; packs from a folder."""

    data: Path
    packs: Path | None
    clock: Callable[[], float] = time.time
    _swept_at: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        from crossing.local.sqlite import (
            FILE_NAME,
            Alive,
            Database,
            SqliteAccounts,
            SqliteStore,
            SqliteTimers,
        )

        try:
            self.data.mkdir(parents=True, exist_ok=True)
            self._lock = _lock(self.data / "lock")
            self.db = Database(self.data / FILE_NAME, clock=self.clock)
        except OSError as error:
            raise BackendError(f"cannot keep data in {self.data}: {error.strerror}") from None
        except sqlite3.Error as error:
            raise BackendError(f"cannot keep data in {self.data}: {error}") from None
        self.store = SqliteStore(self.db)
        self.timers = SqliteTimers(self.db)
        self.accounts = SqliteAccounts(self.db)
        self.alive = Alive(self.db)
        self._away_since = self.alive.last()  # before this run stamps it

    def environment(self, connections_url: str) -> dict[str, str]:
        env = _common_environment(connections_url, self._vapid())
        if self.packs is not None:
            env["CROSSING_PACKS_DIR"] = str(self.packs)
        return env

    def service(self, sockets: Any, aside: Any = None, think: Any = None) -> Any:
        from crossing.aws.config import Settings
        from crossing.rooms.service import RoomService

        settings = Settings.from_env()
        seed = os.environ.get(TEST_SEED)
        return RoomService(
            self.store,
            sockets,
            self.timers,
            settings.packs(),
            rng=random.Random(seed) if seed else None,
            push=settings.push(),
            accounts=self.accounts,
            aside=aside,
            think=think,
        )

    def transaction(self) -> AbstractContextManager[None]:
        return self.db.transaction()

    def _vapid(self) -> tuple[str, str]:
        """The Web Push key pair, made once and kept with the data: the notification
        subscriptions the profiles hold were made with it."""
        path = self.data / "vapid.json"
        try:
            keys = json.loads(path.read_text())
            return keys["private_key"], keys["public_key"]
        except (OSError, ValueError, KeyError):
            private_key, public_key = generate_keys()
            path.touch(mode=0o600)  # a secret: only this user reads it
            path.write_text(json.dumps({"private_key": private_key, "public_key": public_key}))
            return private_key, public_key

    def resumed(self) -> list[Resumed]:
        if self._away_since is None:
            return []
        return [Resumed(room, self._away_since) for room in self.timers.pending()]

    def due(self, now_ms: int) -> list[Due]:
        self.alive.stamp(now_ms)  # each look, once a second: the next start's "away since"
        if self.clock() - self._swept_at >= SWEEP_EVERY_S:
            self._swept_at = self.clock()
            self.db.sweep()
        # Forgotten only once handled, so one cut off by a crash fires again at the start.
        return [
            ({"room": room, "version": version}, functools.partial(self._done, room, at, version))
            for room, at, version in self.timers.due(now_ms)
        ]

    def _done(self, room: str, at: int, version: int) -> None:
        self.timers.fired(room, at, version)

    def stop(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # a failing disk: the last look's stamp stands
            self.alive.stamp(round(self.clock() * 1000))
        self.db.close()
        self._lock.close()


def _lock(path: Path) -> Any:
    """Hold ``path`` locked while the stack runs, so two servers never share one folder."""
    handle = path.open("a+")
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks here; one server per folder is on you
        return handle
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise BackendError(
            f"another crossing serve is using {path.parent}; stop it or choose another --data"
        ) from None
    return handle


# --- moto --------------------------------------------------------------------------------


@dataclass
class MotoBackend:
    """moto's server in the same process, with the table, bucket, packs, schedule group
    and user pool made, from the same definitions the cloud stack uses
    (``crossing.aws.table``, ``crossing.aws.pool``)."""

    packs: Path | None
    server: Any = field(default=None, init=False)
    endpoint: str = field(default="", init=False)
    user_pool_id: str = field(default="", init=False)
    user_pool_client_id: str = field(default="", init=False)

    def __post_init__(self) -> None:
        try:
            from moto.server import ThreadedMotoServer
        except ImportError:
            raise BackendError(
                "--backend moto needs moto's server: pip install -e '.[moto]'"
            ) from None
        port = free_port()
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
        self.server.start()
        self.endpoint = f"http://127.0.0.1:{port}"
        table.create_table(self.client("dynamodb"), TABLE)
        s3 = self.client("s3")
        s3.create_bucket(Bucket=BUCKET)
        for path in sorted(self.packs.glob("*.json")) if self.packs else ():
            s3.put_object(
                Bucket=BUCKET,
                Key=f"packs/{path.name}",
                Body=path.read_bytes(),
                ContentType="application/json",
            )
        self.scheduler = self.client("scheduler")
        self.scheduler.create_schedule_group(Name=GROUP)
        cognito = self.client("cognito-idp")
        self.user_pool_id, self.user_pool_client_id = pool.create_pool(cognito, POOL)
        allow_long_passwords(self.user_pool_id)

    def client(self, service: str) -> Any:
        import boto3

        return boto3.client(
            service,
            region_name=REGION,
            endpoint_url=self.endpoint,
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )

    def environment(self, connections_url: str) -> dict[str, str]:
        return {
            **_common_environment(connections_url),
            "CROSSING_TABLE": TABLE,
            "CROSSING_AWS_ENDPOINT_URL": self.endpoint,
            "CROSSING_SCHEDULER_GROUP": GROUP,
            "CROSSING_TIMER_TARGET_ARN": TIMER_ARN,
            "CROSSING_SCHEDULER_ROLE_ARN": ROLE_ARN,
            "CROSSING_PACKS_BUCKET": BUCKET,
            "CROSSING_PACKS_PREFIX": "packs/",
            "CROSSING_USER_POOL_ID": self.user_pool_id,
            "CROSSING_USER_POOL_CLIENT_ID": self.user_pool_client_id,
        }

    def service(self, sockets: Any, aside: Any = None, think: Any = None) -> Any:
        return None

    def transaction(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()  # each DynamoDB write stands alone, as in the cloud

    def due(self, now_ms: int) -> list[Due]:
        return scheduler_due(self.scheduler, GROUP, now_ms)

    def resumed(self) -> list[Resumed]:
        return []  # moto forgets everything at each stop: nothing to resume

    def stop(self) -> None:
        self.server.stop()


def scheduler_due(scheduler: Any, group: str, now_ms: int) -> list[Due]:
    """Every one-time schedule in ``group`` whose time has come, deleted first as
    Scheduler does after a one-time run (so a handler that arms the room again keeps
    its new schedule). moto keeps schedules but never fires them."""
    taken: list[Due] = []
    # Every page: a grace period behind fifty newer rooms must fire too.
    pages = scheduler.get_paginator("list_schedules").paginate(GroupName=group)
    listed = [summary for page in pages for summary in page.get("Schedules", [])]
    for summary in listed:
        name = summary["Name"]
        try:
            schedule = scheduler.get_schedule(GroupName=group, Name=name)
        except scheduler.exceptions.ResourceNotFoundException:
            continue
        if not at_due(schedule.get("ScheduleExpression", ""), now_ms):
            continue
        scheduler.delete_schedule(GroupName=group, Name=name)
        taken.append((json.loads(schedule["Target"].get("Input") or "{}"), lambda: None))
    return taken


def allow_long_passwords(user_pool_id: str, region: str = REGION) -> None:
    """Let moto take passwords up to ``pool.PASSWORD_MAX`` characters, as Cognito does.

    moto refuses any password of 99 characters or more unless the pool's policy has a
    ``MaximumLength``, which Cognito's API has no such field for (it allows 256), so
    it is set on moto's own record of the pool. Only where moto runs in this process:
    the local stack and the tests.
    """
    from moto.cognitoidp.models import cognitoidp_backends
    from moto.core import DEFAULT_ACCOUNT_ID

    user_pool = cognitoidp_backends[DEFAULT_ACCOUNT_ID][region].user_pools[user_pool_id]
    policy = user_pool.extended_config.setdefault("Policies", {}).setdefault("PasswordPolicy", {})
    policy["MaximumLength"] = pool.PASSWORD_MAX + 1  # moto's bound is exclusive


def at_due(expression: str, now: int) -> bool:
    """Whether a one-time ``at(yyyy-mm-ddThh:mm:ss)`` expression (UTC) has come by ``now`` (ms)."""
    if not expression.startswith("at(") or not expression.endswith(")"):
        return False
    when = datetime.fromisoformat(expression[3:-1]).replace(tzinfo=UTC)
    return when.timestamp() * 1000 <= now


def start_backend(kind: str, packs: Path | None, data: Path | None = None) -> Backend:
    if kind == "moto":
        return MotoBackend(packs)
    if data is None:
        from crossing.local.paths import default_data

        data = default_data()
    return SqliteBackend(data, packs)
