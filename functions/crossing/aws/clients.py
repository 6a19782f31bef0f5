"""The one way the adapters make a boto3 client, with one botocore configuration.

botocore's defaults suit a batch job, not a game: a call that hangs waits 60 s to
connect and 60 s for each read (longer than any of our functions may run), and its
pool keeps 10 connections while the fan-out posts 16 at a time, so six posts of every
round would wait for a connection. Here a stuck call fails within seconds, a throttle
or a dropped connection is retried by the standard mode (jittered backoff, a retry
quota), and the pool has a connection for every posting thread.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from crossing.rooms.fanout import WORKERS

CONNECT_TIMEOUT_S = 2
READ_TIMEOUT_S = 3
"""Per socket read, not per call: a pack's download reads many times. Our calls are one
item, one post or one schedule: tens of milliseconds when AWS is well."""
MAX_ATTEMPTS = 3  # in all: the first try and two retries


@cache
def config() -> Any:
    """The shared ``botocore.config.Config`` (imported at first use: the handlers' cold
    start builds clients in the init phase anyway, but importing this module costs nothing)."""
    from botocore.config import Config

    return Config(
        connect_timeout=CONNECT_TIMEOUT_S,
        read_timeout=READ_TIMEOUT_S,
        retries={"mode": "standard", "total_max_attempts": MAX_ATTEMPTS},
        max_pool_connections=WORKERS,
    )


def client(service: str, *, region: str | None = None, endpoint_url: str | None = None) -> Any:
    """A boto3 client for ``service`` with the shared configuration; credentials and, when
    ``region`` is None, the region are found the usual way."""
    import boto3

    return boto3.client(service, region_name=region, endpoint_url=endpoint_url, config=config())
