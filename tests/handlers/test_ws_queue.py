"""The cloud's single writer per room, on moto: ``$default`` sends a room's frames to an
SQS FIFO queue (the room as the message group) and the consumer handler, handed what
SQS delivers, applies them and answers every phone."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from crossing.aws import queue as Q
from crossing.handlers import ws
from crossing.local.events import websocket_event
from crossing.rooms import consuming
from crossing.rooms.ports import Queued

from tests.handlers.conftest import FakeLambdaContext
from tests.handlers.test_ws_duel import DEAL_SEED, REGION, Clock, Socket, errors, seat
from tests.handlers.test_ws_duel import cloud as cloud  # the fixture, for ``queued``
from tests.handlers.test_ws_metrics import emf_blobs, values
from tests.rooms.fakes import apply_patch

QUEUE = "crossing-test-frames.fifo"


def sqs() -> Any:
    return boto3.client("sqs", region_name=REGION)


def deliver(most: int = 10) -> int:
    """Do what Lambda's SQS event source does: hand the consumer what SQS gives it, and
    delete what it did not report as failed. Returns how many frames went through."""
    url = sqs().get_queue_url(QueueName=QUEUE)["QueueUrl"]
    done = 0
    while True:
        got = (
            sqs()
            .receive_message(QueueUrl=url, MaxNumberOfMessages=most, AttributeNames=["All"])
            .get("Messages", [])
        )
        if not got:
            return done
        event = {
            "Records": [
                {
                    "messageId": m["MessageId"],
                    "receiptHandle": m["ReceiptHandle"],
                    "body": m["Body"],
                    "attributes": m.get("Attributes", {}),
                    "eventSource": "aws:sqs",
                }
                for m in got
            ]
        }
        answer = ws.consume(event, FakeLambdaContext())
        failed = {f["itemIdentifier"] for f in answer["batchItemFailures"]}
        assert not failed
        for m in got:
            sqs().delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
        done += len(got)


@pytest.fixture
def queued(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    """The Duel tests' cloud (``test_ws_duel.cloud``) with the frame queue: a stage
    that is not local, and ``CROSSING_QUEUE_URL``."""
    cloud: Clock = request.getfixturevalue("cloud")
    url = sqs().create_queue(QueueName=QUEUE, Attributes={"FifoQueue": "true"})["QueueUrl"]
    monkeypatch.setenv("CROSSING_QUEUE_URL", url)
    monkeypatch.setenv("CROSSING_STAGE", "test")
    ws.reset()
    ws.service().clock = cloud
    ws.service().timers.clock = lambda: cloud.now / 1000
    ws.service().duel.rng = random.Random(DEAL_SEED)  # as the cloud fixture deals
    yield cloud
    ws.reset()


class Phone(Socket):
    """A connection whose frames go through the queue: each send is delivered at once."""

    def send(self, action: str, **fields: Any) -> list[dict[str, Any]]:
        self.seq += 1
        body = json.dumps({"action": action, "seq": self.seq, **fields})
        event = websocket_event("MESSAGE", self.id, body=body)
        assert ws.message(event, FakeLambdaContext()) == {"statusCode": 200}
        deliver()
        return self.take()

    def queue(self, action: str, *, typed: int | None = None, **fields: Any) -> None:
        """Send without delivering: the frame waits in the queue. ``typed``: the seq the
        phone gave it, for a frame that reaches ``$default`` after a later one."""
        if typed is None:
            self.seq += 1
        body = json.dumps({"action": action, "seq": typed or self.seq, **fields})
        ws.message(websocket_event("MESSAGE", self.id, body=body), FakeLambdaContext())


def room_of(phone: Phone) -> dict[str, Any]:
    room: dict[str, Any] = {}
    for message in phone.posted():
        if message["type"] == "room":
            room = message["room"] if message["full"] else apply_patch(room, message["room"])
    return room


def together(hana: Phone, ann: Phone) -> list[int]:
    """Hana hosts, Ann joins, a Together Mini starts: its white squares."""
    hana.send("hello")
    ann.send("hello")
    hana.send("host", name="Hana")
    code = room_of(hana)["code"]
    assert not errors(ann.send("join", code=code, name="Ann"))
    hana.send("to_game")
    hana.send("choose", mode="together", size="mini")
    assert not errors(hana.send("start"))
    board = room_of(hana)["game"]["board"]
    return [i for i, square in enumerate(board) if square != "#"]


def test_letters_go_through_the_queue_and_every_phone_sees_them(queued: Clock) -> None:
    hana, ann = Phone(), Phone()
    whites = together(hana, ann)[:6]
    for i, square in enumerate(whites):
        (hana if i % 2 else ann).queue("type", square=square, letter="AEIOUS"[i])
    url = sqs().get_queue_url(QueueName=QUEUE)["QueueUrl"]
    waiting = sqs().get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert waiting["ApproximateNumberOfMessages"] == "6"  # nothing applied yet
    assert deliver() == 6
    for phone in (hana, ann):
        acked = [m for m in phone.take() if m["type"] == "ack"]
        assert len(acked) == 3 and not any(m["duplicate"] for m in acked)
        shown = room_of(phone)["game"]["board"]
        assert [shown[s] for s in whites] == list("AEIOUS")


def test_a_phones_two_letters_queued_in_reverse_leave_the_one_typed_last(queued: Clock) -> None:
    hana, ann = Phone(), Phone()
    square = together(hana, ann)[0]
    x, y = hana.seq + 1, hana.seq + 2  # typed X, then Y; $default ran Y's frame first
    hana.seq = y
    hana.queue("type", typed=y, square=square, letter="Y")
    hana.queue("type", typed=x, square=square, letter="X")
    ann.queue("type", square=square + 1, letter="A")
    assert deliver() == 3
    acked = {m["seq"]: m for m in hana.take() if m["type"] == "ack"}
    assert not acked[x]["duplicate"] and not acked[y]["duplicate"]  # both applied
    for phone in (hana, ann):
        assert room_of(phone)["game"]["board"][square : square + 2] == "YA"
    # Across players the later letter stays, whatever the two counters say.
    ann.queue("type", square=square, letter="B")
    assert ann.seq < y
    assert deliver() == 1
    assert room_of(hana)["game"]["board"][square] == "B"


def test_a_duel_is_played_through_the_queue(queued: Clock) -> None:
    first, second = seat(Phone(), Phone())
    queued.now += 30_000
    assert not errors(first.send("duel_play", tiles=first.best_play()))
    second.take()
    assert second.my_turn and second.game["moves"][0]["score"] > 0
    assert not errors(second.send("duel_resign"))
    first.take()
    assert first.game["result"]["reason"] == "resigned"


class Throttled:
    """The table's client, refusing room writes as a throttled DynamoDB does once
    botocore has given up (``fail``: how many more; -1: all until set to 0)."""

    def __init__(self, client: Any) -> None:
        self.client, self.fail, self.refused = client, 0, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def put_item(self, **request: Any) -> Any:
        if self.fail and request["Item"]["pk"]["S"].startswith("ROOM#"):
            self.fail -= self.fail > 0
            self.refused += 1
            error = {"Code": "ProvisionedThroughputExceededException", "Message": "slow down"}
            raise ClientError(
                {"Error": error, "ResponseMetadata": {"HTTPStatusCode": 400}}, "PutItem"
            )
        return self.client.put_item(**request)


def consume_once(capsys: pytest.CaptureFixture[str]) -> tuple[int, int, dict[str, float]]:
    """One consumer invocation, as Lambda's event source makes it: what it applied (and
    SQS deletes), what it handed back (visible again at once, as once the visibility
    timeout has run out), and the frame counts it emitted."""
    url = sqs().get_queue_url(QueueName=QUEUE)["QueueUrl"]
    got = sqs().receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    event = {
        "Records": [
            {"messageId": m["MessageId"], "body": m["Body"], "eventSource": "aws:sqs"} for m in got
        ]
    }
    capsys.readouterr()
    answer = ws.consume(event, FakeLambdaContext())
    counts: dict[str, float] = {}
    for blob in emf_blobs(capsys.readouterr().out):
        for name in ("FramesApplied", "FramesFailed"):
            if name in blob:
                counts[name] = counts.get(name, 0) + sum(values(blob, name))
    back = {f["itemIdentifier"] for f in answer["batchItemFailures"]}
    for m in got:
        if m["MessageId"] in back:
            sqs().change_message_visibility(
                QueueUrl=url, ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=0
            )
        else:
            sqs().delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    return len(got) - len(back), len(back), counts


@dataclass
class Flaky:
    """A Together game through the queue, on a table whose client is ``Throttled``, with
    metrics on and the consumer's waits recorded instead of slept."""

    hana: Phone
    ann: Phone
    whites: list[int]
    table: Throttled
    slept: list[float]


@pytest.fixture
def flaky(queued: Clock, monkeypatch: pytest.MonkeyPatch) -> Flaky:
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    hana, ann = Phone(), Phone()
    whites = together(hana, ann)
    table = Throttled(ws.service().store.client)
    ws.service().store.client = table
    slept: list[float] = []
    ws.service().sleep = slept.append
    return Flaky(hana, ann, whites, table, slept)


def test_a_store_that_fails_pages_through_failed_frames_and_the_room_goes_on_once_it_is_back(
    flaky: Flaky, capsys: pytest.CaptureFixture[str]
) -> None:
    hana, ann, whites = flaky.hana, flaky.ann, flaky.whites
    flaky.table.fail = -1  # the store is down
    hana.queue("type", square=whites[0], letter="S")
    ann.queue("type", square=whites[1], letter="T")
    assert consume_once(capsys) == (0, 2, {"FramesApplied": 0, "FramesFailed": 2})
    assert flaky.table.refused == 3  # tried in the consumer first
    assert flaky.slept == list(consuming.WAITS_S)
    assert room_of(hana)["game"]["board"][whites[0]] == "."
    flaky.table.fail = 0  # back
    hana.queue("type", square=whites[2], letter="U")  # the room's next frame, behind them
    assert consume_once(capsys) == (3, 0, {"FramesApplied": 3, "FramesFailed": 0})
    for phone in (hana, ann):
        assert room_of(phone)["game"]["board"][whites[0] : whites[2] + 1] == "STU"
    acked = [m["seq"] for m in hana.take() if m["type"] == "ack"]
    assert acked == [hana.seq - 1, hana.seq]


def test_a_write_throttled_once_is_tried_again_in_the_consumer_and_not_handed_back(
    flaky: Flaky, capsys: pytest.CaptureFixture[str]
) -> None:
    flaky.table.fail = 1
    flaky.hana.queue("type", square=flaky.whites[0], letter="S")
    assert consume_once(capsys) == (1, 0, {"FramesApplied": 1, "FramesFailed": 0})
    assert flaky.table.refused == 1 and flaky.slept == [consuming.WAITS_S[0]]
    acked = [m for m in flaky.hana.take() if m["type"] == "ack"]
    assert [(m["seq"], m["duplicate"]) for m in acked] == [(flaky.hana.seq, False)]
    assert room_of(flaky.ann)["game"]["board"][flaky.whites[0]] == "S"


def test_a_failed_frame_and_the_later_ones_of_its_room_are_delivered_again() -> None:
    frames = [
        ("m1", Q.decode(Q.encode(Queued("c1", "ROOM1", "p1", "{}", 1)))),
        ("m2", Queued("c2", "ROOM2", "p2", "{}", 2)),
        ("m3", Queued("c1", "ROOM1", "p1", "{}", 3)),
        ("m4", None),
        ("m5", Queued("c3", "ROOM1", "p3", "{}", 4)),
    ]
    assert Q.failures(frames, [0]) == [
        {"itemIdentifier": "m1"},
        {"itemIdentifier": "m3"},
        {"itemIdentifier": "m4"},  # not a frame: always reported (tests/aws/test_queue.py)
        {"itemIdentifier": "m5"},
    ]
    assert Q.failures(frames, [2]) == [
        {"itemIdentifier": "m3"},
        {"itemIdentifier": "m4"},
        {"itemIdentifier": "m5"},
    ]
    assert Q.failures(frames, []) == [{"itemIdentifier": "m4"}]
