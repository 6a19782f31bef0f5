"""API Gateway WebSocket events and a Lambda context, as the cloud hands them to handlers."""

from __future__ import annotations

import base64
import itertools
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

_RUN = uuid.uuid4().hex[:12]  # this process's run: its ids differ from every other's
_numbers = itertools.count()


def request_id(length: int = 32) -> str:
    """An id as unique as API Gateway's and Lambda's, drawn without a system call: three
    ``uuid4`` a frame (each reads the OS's randomness) cost a tenth of a millisecond of
    CPU once the process had been idle a moment, as it is between keystrokes."""
    return f"{_RUN}{next(_numbers):0{length - len(_RUN)}x}"


def websocket_event(
    event_type: str,
    connection: str,
    *,
    body: str | bytes | None = None,
    route: str | None = None,
    source: str = "203.0.113.7",
) -> dict[str, Any]:
    """One WebSocket event: ``CONNECT``, ``MESSAGE`` or ``DISCONNECT``; a binary frame's
    body arrives base64-encoded with ``isBase64Encoded``, as API Gateway sends it."""
    route = route or {"CONNECT": "$connect", "DISCONNECT": "$disconnect"}.get(
        event_type, "$default"
    )
    now = time.time()
    event: dict[str, Any] = {
        "requestContext": {
            "routeKey": route,
            "eventType": event_type,
            "connectionId": connection,
            "messageId": request_id(16),
            "requestId": request_id(),
            "stage": "local",
            "domainName": "localhost",
            "apiId": "local",
            "requestTimeEpoch": int(now * 1000),
            "connectedAt": int(now * 1000),
            "identity": {"sourceIp": source},
        },
        "isBase64Encoded": isinstance(body, bytes),
    }
    if isinstance(body, bytes):
        event["body"] = base64.b64encode(body).decode()
    elif body is not None:
        event["body"] = body
    return event


@dataclass
class LambdaContext:
    """The attributes Powertools reads from a real Lambda context."""

    function_name: str = "crossing-local"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:crossing-local"
    aws_request_id: str = field(default_factory=request_id)

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def http_api_event(method: str, path: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    """An API Gateway HTTP API request (payload format 2.0)."""
    try:
        text, encoded = body.decode("utf-8"), False
    except UnicodeDecodeError:
        text, encoded = base64.b64encode(body).decode("ascii"), True
    return {
        "version": "2.0",
        "routeKey": f"{method} {path}",
        "rawPath": path,
        "rawQueryString": "",
        "headers": {name.lower(): value for name, value in headers.items()},
        "requestContext": {
            "http": {"method": method, "path": path, "protocol": "HTTP/1.1"},
            "requestId": str(uuid.uuid4()),
            "routeKey": f"{method} {path}",
            "stage": "$default",
        },
        "body": text,
        "isBase64Encoded": encoded,
    }
