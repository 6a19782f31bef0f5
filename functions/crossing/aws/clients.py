"""The one way the adapters make a boto3 client, with one botocore configuration.

botocore's defaults suit a batch job, not a game: a call that hangs waits 60 s to
connect and 60 s for each read (longer than any of our functions may run), and its
pool keeps 10 connections while the fan-out posts 16 at a time, so six posts of every
round would wait for a connection. Here a stuck call fails within seconds, a throttle
or a dropped connection is retried by the standard mode (jittered backoff, a retry
quota), and the pool has a connection for every posting thread.
"""

from __future__ import annotations

import threading
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


_making = threading.Lock()
"""boto3's default session is not safe to make clients from on two threads at once."""


def client(service: str, *, region: str | None = None, endpoint_url: str | None = None) -> Any:
    """A boto3 client for ``service`` with the shared configuration; credentials and, when
    ``region`` is None, the region are found the usual way."""
    import boto3

    with _making:
        return boto3.client(service, region_name=region, endpoint_url=endpoint_url, config=config())


class Deferred:
    """``client(service, ...)``, made at its first use: a client costs 5 to 25 ms of CPU
    (its service model read and parsed), and most invocations never call Cognito, S3,
    Scheduler or SQS, so a cold start makes only the clients its first request uses."""

    def __init__(
        self, service: str, *, region: str | None = None, endpoint_url: str | None = None
    ) -> None:
        self.service, self.region, self.endpoint_url = service, region, endpoint_url
        self._client: Any = None

    def __getattr__(self, name: str) -> Any:  # only what the instance lacks: the client's
        if self._client is None:
            made = client(self.service, region=self.region, endpoint_url=self.endpoint_url)
            self._client = made  # two threads at once: both get a working client
        return getattr(self._client, name)
