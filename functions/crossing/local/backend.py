"""moto's server in the same process, with the table, bucket, packs, schedule group and
user pool made.

The table comes from ``crossing.aws.table`` and the user pool from ``crossing.aws.pool``,
the same definitions the cloud stack uses.
"""

from __future__ import annotations

import logging
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
from moto.server import ThreadedMotoServer

from crossing.aws import pool, table
from crossing.aws.push import generate_keys

REGION = "us-east-1"
TABLE = "crossing-local"
BUCKET = "crossing-local-site"
GROUP = "crossing-local"
POOL = "crossing-local"
# moto's own default account: fake ARNs for the schedules' target and role.
TIMER_ARN = "arn:aws:lambda:us-east-1:123456789012:function:crossing-local-timer"
ROLE_ARN = "arn:aws:iam::123456789012:role/crossing-local-scheduler"
# Placeholder credentials: moto accepts anything, and boto3 refuses to sign without some.
LOCAL_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local"}


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@dataclass
class Backend:
    server: ThreadedMotoServer
    endpoint: str
    user_pool_id: str = ""
    user_pool_client_id: str = ""

    def client(self, service: str) -> Any:
        return boto3.client(
            service,
            region_name=REGION,
            endpoint_url=self.endpoint,
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )

    def stop(self) -> None:
        self.server.stop()


def start_backend(packs: Path | None) -> Backend:
    """Start moto, create what the handlers expect, and upload the puzzle packs."""
    port = free_port()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    backend = Backend(server, f"http://127.0.0.1:{port}")
    table.create_table(backend.client("dynamodb"), TABLE)
    s3 = backend.client("s3")
    s3.create_bucket(Bucket=BUCKET)
    for path in sorted(packs.glob("*.json")) if packs else ():
        s3.put_object(
            Bucket=BUCKET,
            Key=f"packs/{path.name}",
            Body=path.read_bytes(),
            ContentType="application/json",
        )
    backend.client("scheduler").create_schedule_group(Name=GROUP)
    cognito = backend.client("cognito-idp")
    backend.user_pool_id, backend.user_pool_client_id = pool.create_pool(cognito, POOL)
    allow_long_passwords(backend.user_pool_id)
    return backend


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


def environment(backend: Backend, connections_url: str) -> dict[str, str]:
    """The variables the handlers read (``crossing.aws.config``), pointed at this machine.

    A fresh VAPID pair each start: a browser's subscription from an earlier run no
    longer matches, so the client subscribes again when it sees a new key.
    """
    private_key, public_key = generate_keys()
    return {
        **LOCAL_CREDENTIALS,
        "AWS_DEFAULT_REGION": REGION,
        "CROSSING_STAGE": "local",
        "CROSSING_TABLE": TABLE,
        "CROSSING_AWS_ENDPOINT_URL": backend.endpoint,
        "CROSSING_CONNECTIONS_URL": connections_url,
        "CROSSING_SCHEDULER_GROUP": GROUP,
        "CROSSING_TIMER_TARGET_ARN": TIMER_ARN,
        "CROSSING_SCHEDULER_ROLE_ARN": ROLE_ARN,
        "CROSSING_PACKS_BUCKET": BUCKET,
        "CROSSING_PACKS_PREFIX": "packs/",
        "CROSSING_USER_POOL_ID": backend.user_pool_id,
        "CROSSING_USER_POOL_CLIENT_ID": backend.user_pool_client_id,
        "CROSSING_VAPID_PRIVATE_KEY": private_key,
        "CROSSING_VAPID_PUBLIC_KEY": public_key,
        "CROSSING_VAPID_SUBJECT": "mailto:local@localhost.invalid",
        "POWERTOOLS_SERVICE_NAME": "crossing",
        "POWERTOOLS_METRICS_NAMESPACE": "CrossingLocal",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
        "POWERTOOLS_METRICS_DISABLED": "true",  # no CloudWatch here: keep the terminal quiet
    }
