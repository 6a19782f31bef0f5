"""What the consume function makes of a queue message, and the dead-letter replay."""

from __future__ import annotations

import json
import logging

import pytest
from crossing import cli
from crossing.aws import queue as Q
from crossing.rooms.ports import Queued

FRAME = Queued("conn-1", "ROOM1", "p1", '{"action": "type", "seq": 9}', 1_700_000_000_000)
RECEIVED = {  # what `aws sqs receive-message` prints for the dead-letter queue
    "Messages": [
        {"MessageId": "dead-1", "ReceiptHandle": "r1", "Body": Q.encode(FRAME)},
        {"MessageId": "dead-2", "ReceiptHandle": "r2", "Body": Q.encode(FRAME)},
    ]
}


def test_a_frame_round_trips_through_the_queue_body() -> None:
    assert Q.records({"Records": [{"messageId": "1", "body": Q.encode(FRAME)}]}) == [("1", FRAME)]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (json.loads(Q.encode(FRAME)), "JSON dict, not a string"),  # pasted as an object
        ("not json", "not JSON"),
        ('["a"]', "not a JSON object"),
        ('{"connection": "c"}', "lacks code, player, body, arrived"),
        (Q.encode(FRAME).replace("1700000000000", '"soon"'), "does not hold a frame"),
        (None, "JSON NoneType"),
    ],
)
def test_a_body_that_is_not_a_frame_is_refused_loudly(
    caplog: pytest.LogCaptureFixture, body: object, reason: str
) -> None:
    """It was dropped with a warning and reported as done, so a replay by hand that
    pasted the body as an object applied nothing and said it had succeeded."""
    event = {"Records": [{"messageId": "1", "body": body}]}
    with caplog.at_level(logging.ERROR, logger="crossing.aws.queue"):
        taken = Q.records(event)
    assert taken == [("1", None)]
    assert Q.failures(taken, []) == [{"itemIdentifier": "1"}]
    [record] = caplog.records
    assert "queued message 1 refused" in record.getMessage()
    assert reason in record.getMessage()


def test_the_replay_event_holds_each_dead_letter_as_the_queue_delivered_it(
    tmp_path, capsys
) -> None:
    received = tmp_path / "dead.json"
    received.write_text(json.dumps(RECEIVED))
    assert cli.main(["replay-frames", str(received)]) == 0
    event = json.loads(capsys.readouterr().out)
    assert Q.records(event) == [("dead-1", FRAME), ("dead-2", FRAME)]
    assert Q.failures(Q.records(event), []) == []


@pytest.mark.parametrize(
    ("received", "says"),
    [
        ({"Messages": [{"MessageId": "dead-1", "Body": {"connection": "c"}}]}, "dead-1"),
        ({"Messages": [*RECEIVED["Messages"], {"MessageId": "dead-3", "Body": "{}"}]}, "dead-3"),
        ({}, "nothing to replay"),
        ("", "the queue is empty"),  # what receive-message prints then: nothing
        ([], "no list of Messages"),
    ],
)
def test_the_replay_refuses_what_it_cannot_read_and_prints_no_event(
    tmp_path, capsys, received: object, says: str
) -> None:
    path = tmp_path / "dead.json"
    path.write_text(json.dumps(received) if received != "" else "")
    assert cli.main(["replay-frames", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert says in err
