"""SchedulerTimers on EventBridge Scheduler (moto): one schedule per room, moved, deleted."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from botocore.exceptions import ClientError
from botocore.stub import Stubber
from crossing.aws.memory import ManualTimers
from crossing.aws.timers import SchedulerTimers, at_expression, schedule_name

GROUP = "crossing-test"
TARGET = "arn:aws:lambda:us-east-1:123456789012:function:timer"
ROLE = "arn:aws:iam::123456789012:role/scheduler"


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() * 1000)


NOW = ms("2026-11-29T19:00:00")


def clock() -> float:
    return NOW / 1000


@pytest.fixture
def scheduler(aws, boto_session):
    client = boto_session.client("scheduler")
    client.create_schedule_group(Name=GROUP)
    return client


@pytest.fixture
def timers(scheduler):
    return SchedulerTimers(GROUP, TARGET, ROLE, client=scheduler, clock=clock)


def schedules(scheduler):
    return scheduler.list_schedules(GroupName=GROUP)["Schedules"]


@pytest.mark.parametrize(
    ("at", "expression"),
    [
        (ms("2026-11-29T19:05:07"), "at(2026-11-29T19:05:07)"),
        (ms("2026-11-29T19:05:07") + 1, "at(2026-11-29T19:05:08)"),
        (ms("2026-11-29T19:05:07") + 999, "at(2026-11-29T19:05:08)"),
        (ms("2026-12-31T23:59:59") + 500, "at(2027-01-01T00:00:00)"),
    ],
)
def test_the_time_is_utc_to_the_second_rounded_up(at, expression):
    assert at_expression(at) == expression


def test_arming_creates_one_schedule_that_fires_once_and_deletes_itself(scheduler, timers):
    timers.arm("ABCD", ms("2026-11-29T19:05:07") + 250, 12)
    [listed] = schedules(scheduler)
    assert listed["Name"] == "room-ABCD"
    got = scheduler.get_schedule(GroupName=GROUP, Name="room-ABCD")
    assert got["ScheduleExpression"] == "at(2026-11-29T19:05:08)"
    assert got["ScheduleExpressionTimezone"] == "UTC"
    assert got["FlexibleTimeWindow"] == {"Mode": "OFF"}
    assert got["ActionAfterCompletion"] == "DELETE"
    assert got["Target"]["Arn"] == TARGET
    assert got["Target"]["RoleArn"] == ROLE
    assert json.loads(got["Target"]["Input"]) == {"room": "ABCD", "version": 12}


def test_arming_again_moves_the_one_schedule(scheduler, timers):
    timers.arm("ABCD", ms("2026-11-29T19:05:07"), 12)
    timers.arm("ABCD", ms("2026-11-29T19:09:00"), 15)
    [listed] = schedules(scheduler)
    got = scheduler.get_schedule(GroupName=GROUP, Name=listed["Name"])
    assert got["ScheduleExpression"] == "at(2026-11-29T19:09:00)"
    assert json.loads(got["Target"]["Input"]) == {"room": "ABCD", "version": 15}
    assert got["ActionAfterCompletion"] == "DELETE"


def test_a_time_already_past_is_set_a_little_after_now(scheduler, timers):
    timers.arm("ABCD", NOW - 60_000, 4)
    got = scheduler.get_schedule(GroupName=GROUP, Name="room-ABCD")
    assert got["ScheduleExpression"] == "at(2026-11-29T19:00:02)"
    timers.arm("ABCD", NOW + 1_500, 5)
    got = scheduler.get_schedule(GroupName=GROUP, Name="room-ABCD")
    assert got["ScheduleExpression"] == "at(2026-11-29T19:00:02)", "nearly now counts as past"


def test_arming_is_one_request_to_move_and_two_to_create(timers):
    timers.arm("ABCD", ms("2026-11-29T19:05:07"), 1)
    assert dict(timers.requests) == {"update_schedule": 1, "create_schedule": 1}
    timers.arm("ABCD", ms("2026-11-29T19:06:07"), 2)
    assert dict(timers.requests) == {"update_schedule": 2, "create_schedule": 1}


def test_rooms_have_their_own_schedules_and_disarm_deletes_one(scheduler, timers):
    timers.arm("ABCD", ms("2026-11-29T19:05:07"), 1)
    timers.arm("WXYZ", ms("2026-11-29T19:05:07"), 1)
    timers.disarm("ABCD")
    assert [s["Name"] for s in schedules(scheduler)] == ["room-WXYZ"]


def test_disarming_a_room_with_no_schedule_is_fine(scheduler, timers):
    timers.disarm("ABCD")
    timers.arm("ABCD", ms("2026-11-29T19:05:07"), 1)
    timers.disarm("ABCD")
    timers.disarm("ABCD")
    assert schedules(scheduler) == []


def test_a_schedule_created_by_someone_else_meanwhile_is_updated(boto_session):
    """The update misses, then another writer creates it before our create: update again."""
    client = boto_session.client("scheduler")
    timers = SchedulerTimers(GROUP, TARGET, ROLE, client=client, clock=clock)
    with Stubber(client) as stub:
        stub.add_client_error("update_schedule", "ResourceNotFoundException", http_status_code=404)
        stub.add_client_error("create_schedule", "ConflictException", http_status_code=409)
        stub.add_response("update_schedule", {"ScheduleArn": "arn:aws:scheduler:x"})
        timers.arm("ABCD", ms("2026-11-29T19:05:07"), 3)
        stub.assert_no_pending_responses()


def test_other_scheduler_errors_propagate(boto_session):
    client = boto_session.client("scheduler")
    timers = SchedulerTimers(GROUP, TARGET, ROLE, client=client, clock=clock)
    with Stubber(client) as stub:
        stub.add_client_error("update_schedule", "ValidationException", http_status_code=400)
        with pytest.raises(ClientError, match="ValidationException"):
            timers.arm("ABCD", ms("2026-11-29T19:05:07"), 3)
        stub.add_client_error("delete_schedule", "AccessDeniedException", http_status_code=403)
        with pytest.raises(ClientError, match="AccessDenied"):
            timers.disarm("ABCD")


def test_a_room_code_that_cannot_name_a_schedule_is_refused():
    assert schedule_name("ab-C_9.x") == "room-ab-C_9.x"
    for bad in ("", "a b", "a/b", "x" * 60):
        with pytest.raises(ValueError, match="cannot name a schedule"):
            schedule_name(bad)


def test_manual_timers_keep_one_per_room_and_fire_what_is_due():
    timers = ManualTimers()
    timers.arm("ABCD", 5_000, 1)
    timers.arm("ABCD", 9_000, 2)  # moved
    timers.arm("WXYZ", 7_000, 4)
    timers.arm("GONE", 1_000, 1)
    timers.disarm("GONE")
    timers.disarm("NONE")
    assert timers.armed == {"ABCD": (9_000, 2), "WXYZ": (7_000, 4)}
    assert timers.due(6_999) == []
    assert timers.due(9_000) == [("WXYZ", 4), ("ABCD", 2)]
    assert timers.armed == {}, "fired schedules delete themselves"


def test_a_timer_scheduler_gives_up_on_goes_to_the_dead_letter_queue(scheduler):
    queue = "arn:aws:sqs:us-east-1:123456789012:crossing-test-timer-dlq"
    timers = SchedulerTimers(
        GROUP, TARGET, ROLE, client=scheduler, clock=clock, dead_letter_arn=queue
    )
    timers.arm("ABCD", ms("2026-11-29T19:05:07"), 3)
    timers.arm("ABCD", ms("2026-11-29T19:06:07"), 4)  # moving it keeps the queue
    got = scheduler.get_schedule(GroupName=GROUP, Name="room-ABCD")
    assert got["Target"]["DeadLetterConfig"] == {"Arn": queue}
