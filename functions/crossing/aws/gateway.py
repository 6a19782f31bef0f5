"""The rooms' Connections on API Gateway's WebSocket management API."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from botocore.exceptions import ClientError


class ApiGatewayConnections:
    """Posts messages to WebSocket connections through ``@connections``.

    ``endpoint_url`` is the stage's callback URL
    (``https://<api-id>.execute-api.<region>.amazonaws.com/<stage>``) in the cloud,
    or the local stack's ``@connections`` base URL on a laptop.
    """

    def __init__(self, endpoint_url: str, client: Any = None) -> None:
        if client is None:
            import boto3

            client = boto3.client("apigatewaymanagementapi", endpoint_url=endpoint_url)
        self.endpoint_url = endpoint_url
        self.client = client
        # For the dashboard (crossing.handlers.ws reads and clears them after each event):
        # "posted", "gone", "failed"; and the refusals sent, by their code.
        self.posts: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()

    def send(self, connection: str, message: Mapping[str, Any]) -> bool:
        # allow_nan=False: NaN and Infinity are not JSON, and a browser would refuse them.
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        data = text.encode("utf-8")
        if message.get("type") == "error":
            self.refusals[str(message.get("code"))] += 1
        try:
            self.client.post_to_connection(ConnectionId=connection, Data=data)
        except ClientError as error:
            if _is_gone(error):
                self.posts["gone"] += 1
                return False
            self.posts["failed"] += 1
            raise
        except Exception:
            self.posts["failed"] += 1
            raise
        self.posts["posted"] += 1
        return True


def _is_gone(error: ClientError) -> bool:
    code = error.response.get("Error", {}).get("Code")
    status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    return code == "GoneException" or status == 410
