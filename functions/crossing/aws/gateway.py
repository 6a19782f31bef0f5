"""The rooms' Connections on API Gateway's WebSocket management API."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Mapping
from typing import Any

from botocore.exceptions import ClientError

from crossing.aws import clients


class ApiGatewayConnections:
    """Posts messages to WebSocket connections through ``@connections``.

    ``endpoint_url`` is the stage's callback URL
    (``https://<api-id>.execute-api.<region>.amazonaws.com/<stage>``) in the cloud,
    or the local stack's ``@connections`` base URL on a laptop.
    """

    def __init__(self, endpoint_url: str, client: Any = None) -> None:
        if client is None:
            client = clients.client("apigatewaymanagementapi", endpoint_url=endpoint_url)
        self.endpoint_url = endpoint_url
        self.client = client
        # For the dashboard (crossing.handlers.ws takes them after each event): "posted",
        # "gone", "failed"; and the refusals sent, by their code. The fan-out posts from
        # several threads at once, so they are counted and taken under a lock.
        self.posts: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self._counting = threading.Lock()

    def take_counts(self) -> tuple[Counter[str], Counter[str]]:
        """The posts and refusals counted since the last call."""
        with self._counting:
            taken = self.posts, self.refusals
            self.posts, self.refusals = Counter(), Counter()
        return taken

    def _count(self, counter: str, key: str) -> None:
        with self._counting:  # the counter is looked up inside: ``take_counts`` swaps it
            getattr(self, counter)[key] += 1

    def send(self, connection: str, message: Mapping[str, Any]) -> bool:
        # allow_nan=False: NaN and Infinity are not JSON, and a browser would refuse them.
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        data = text.encode("utf-8")
        if message.get("type") == "error":
            self._count("refusals", str(message.get("code")))
        try:
            self.client.post_to_connection(ConnectionId=connection, Data=data)
        except ClientError as error:
            if _is_gone(error):
                self._count("posts", "gone")
                return False
            self._count("posts", "failed")
            raise
        except Exception:
            self._count("posts", "failed")
            raise
        self._count("posts", "posted")
        return True


def _is_gone(error: ClientError) -> bool:
    code = error.response.get("Error", {}).get("Code")
    status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    return code == "GoneException" or status == 410
