"""The rooms' Queue on SQS FIFO: one message group per room or Duel game.

``$default`` sends each frame bound to a room as one message (the room's code as the
group, API Gateway's request id as the deduplication id); the consumer Lambda is
handed up to ten at a time, and SQS gives it a group's next messages only once the
earlier ones are done. So each room has one writer at a time and its frames stay in
the order they were sent.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from crossing.aws import clients
from crossing.rooms.ports import Queued, held_back

log = logging.getLogger(__name__)


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


class Unreadable(ValueError):
    """A message body that is not a frame as ``encode`` writes it."""


FIELDS = ("connection", "code", "player", "body", "arrived")


def decode(body: Any) -> Queued:
    """The frame a message body holds; ``Unreadable``, saying why, for anything else. The
    body is text (JSON of an object): an object pasted where the text belongs, as a hand
    made replay might, is refused rather than guessed at."""
    if not isinstance(body, str):
        raise Unreadable(
            f"its body is a JSON {type(body).__name__}, not a string: give the dead-letter "
            "message's Body as it is, one JSON string (`crossing replay-frames` builds the event)"
        )
    try:
        data = json.loads(body)
    except ValueError:
        raise Unreadable("its body is not JSON") from None
    if not isinstance(data, dict):
        raise Unreadable("its body is not a JSON object")
    missing = [name for name in FIELDS if name not in data]
    if missing:
        raise Unreadable(f"its body lacks {', '.join(missing)}")
    try:
        return Queued(
            str(data["connection"]),
            str(data["code"]),
            str(data["player"]),
            str(data["body"]),
            int(data["arrived"]),
            str(data.get("group", "")),
        )
    except (ValueError, TypeError) as error:
        raise Unreadable(f"its body does not hold a frame: {error}") from None


def records(event: Mapping[str, Any]) -> list[tuple[str, Queued | None]]:
    """The (message id, frame) of each record of an SQS event, in order. A body that is
    not a frame (nothing of ours sends one; a replay made by hand might) is None, logged
    as an error with the reason, and reported as failed by ``failures``: it is never
    dropped without a word."""
    out: list[tuple[str, Queued | None]] = []
    for record in event.get("Records", ()):
        message = str(record.get("messageId"))
        try:
            frame: Queued | None = decode(record.get("body"))
        except Unreadable as error:
            log.error("queued message %s refused: %s", message, error)
            frame = None
        out.append((message, frame))
    return out


def replay(messages: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The consume function's event for messages taken from the dead-letter queue (the
    ``Messages`` of ``aws sqs receive-message``), in their order. ``Unreadable``, naming
    the message, if any body is not a frame: then nothing is to be sent."""
    taken = []
    for message in messages:
        try:
            decode(message.get("Body"))
        except Unreadable as error:
            raise Unreadable(f"message {message.get('MessageId')}: {error}") from None
        taken.append({"messageId": str(message["MessageId"]), "body": message["Body"]})
    if not taken:
        raise Unreadable("no messages: nothing to replay")
    return {"Records": taken}


def failures(
    taken: Iterable[tuple[str, Queued | None]], failed: Iterable[int]
) -> list[dict[str, str]]:
    """The batch item failures to report: each failed frame and, as FIFO requires, every
    later one of its group (applied again, they are acknowledged again by their seq); and
    every message that is not a frame, so that it ends in the dead-letter queue, where
    its alarm is, and a replay by hand hears that it was refused."""
    taken = list(taken)
    held = set(held_back([frame for _, frame in taken], failed))
    return [
        {"itemIdentifier": message}
        for at, (message, frame) in enumerate(taken)
        if frame is None or at in held
    ]
