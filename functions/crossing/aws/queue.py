"""The rooms' Queue on SQS FIFO: one message group per room or Duel game.

``$default`` sends each frame bound to a room as one message (the room's code as the
group, API Gateway's request id as the deduplication id); the consumer Lambda is
handed up to ten at a time, and SQS gives it a group's next messages only once the
earlier ones are done. So each room has one writer at a time and its frames stay in
the order they were sent.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from crossing.aws import clients
from crossing.rooms.ports import Queued


class SqsQueue:
    def __init__(self, url: str, client: Any = None) -> None:
        if client is None:
            client = clients.client("sqs")
        self.url = url
        self.client = client
        self.requests: Counter[str] = Counter()

    def send(self, frame: Queued, dedup: str) -> None:
        self.requests["send_message"] += 1
        self.client.send_message(
            QueueUrl=self.url,
            MessageBody=encode(frame),
            MessageGroupId=frame.group,
            MessageDeduplicationId=dedup[:128],
        )


def encode(frame: Queued) -> str:
    return json.dumps(
        {
            "connection": frame.connection,
            "code": frame.code,
            "player": frame.player,
            "body": frame.body,
            "arrived": frame.arrived,
            "group": frame.group,
        },
        separators=(",", ":"),
    )


def decode(body: str) -> Queued:
    data = json.loads(body)
    return Queued(
        str(data["connection"]),
        str(data["code"]),
        str(data["player"]),
        str(data["body"]),
        int(data["arrived"]),
        str(data.get("group", "")),
    )


def records(event: Mapping[str, Any]) -> list[tuple[str, Queued | None]]:
    """The (message id, frame) of each record of an SQS event, in order; a body that is
    not a frame (nothing of ours sends one) is None, to be dropped."""
    out: list[tuple[str, Queued | None]] = []
    for record in event.get("Records", ()):
        try:
            frame: Queued | None = decode(record["body"])
        except (ValueError, KeyError, TypeError):
            frame = None
        out.append((str(record["messageId"]), frame))
    return out


def failures(
    taken: Iterable[tuple[str, Queued | None]], failed: Iterable[int]
) -> list[dict[str, str]]:
    """The batch item failures to report: each failed frame and, as FIFO requires, every
    later one of its group (applied again, they are acknowledged again by their seq)."""
    taken = list(taken)
    first: dict[str, int] = {}  # each group's first failed frame
    for at in sorted(failed):
        frame = taken[at][1]
        if frame is not None:
            first.setdefault(frame.group, at)
    return [
        {"itemIdentifier": message}
        for at, (message, frame) in enumerate(taken)
        if frame is not None and at >= first.get(frame.group, len(taken))
    ]
