from __future__ import annotations

import json

from aws_cdk import RemovalPolicy, Stack
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from aws_cdk.assertions import Capture, Match, Template

from infra.monitoring import (
    EMITTED,
    FAILED_FRAMES_LIMIT,
    FRAME_AGE_LIMIT_S,
    WANTED,
    Monitoring,
)
from infra.table import GameTable


def _monitoring(stack: Stack, code: lambda_.Code, email: str | None = None) -> Template:
    function = lambda_.Function(
        stack, "Fn", runtime=lambda_.Runtime.PYTHON_3_11, handler="x.y", code=code
    )
    table = GameTable(stack, "Data", table_name="t", removal_policy=RemovalPolicy.DESTROY).table
    Monitoring(
        stack,
        "Monitoring",
        dashboard_name="crossing-test",
        functions={"message": function},
        table=table,
        dead_letters=sqs.Queue(stack, "DeadLetters"),
        frames=sqs.Queue(stack, "Frames"),
        frame_dead_letters=sqs.Queue(stack, "FrameDeadLetters"),
        socket_api_id="abc123",
        socket_stage="test",
        namespace="Crossing/test",
        service="crossing",
        alarm_email=email,
    )
    return Template.from_stack(stack)


def _dashboard_text(template: Template) -> str:
    body = Capture()
    template.has_resource_properties(
        "AWS::CloudWatch::Dashboard", {"DashboardName": "crossing-test", "DashboardBody": body}
    )
    return json.dumps(body.as_object())


def test_dashboard_graphs_every_game_metric_and_the_services(
    stack: Stack, code: lambda_.Code
) -> None:
    text = _dashboard_text(_monitoring(stack, code))
    for name in (*EMITTED, *WANTED):
        assert f'\\"{name}\\"' in text, name
    for name in ("ConnectCount", "MessageCount", "ConditionalCheckFailedRequests", "Throttles"):
        assert name in text
    for percentile in ("p50", "p90", "p99"):
        assert f'\\"stat\\":\\"{percentile}\\"' in text
    assert "Crossing/test" in text


def test_alarms_notify_the_topic(stack: Stack, code: lambda_.Code) -> None:
    template = _monitoring(stack, code)
    topic = Capture()
    template.has_resource_properties("AWS::CloudWatch::Alarm", {"AlarmActions": [topic]})
    alarms = template.find_resources("AWS::CloudWatch::Alarm")
    # Errors and throttles of the function, table throttles, timer lateness, timers in the
    # dead-letter queue and timers Scheduler dropped; the frame queue's oldest frame, frames
    # failed and frames in the dead-letter queue.
    assert len(alarms) == 9
    for alarm in alarms.values():
        assert alarm["Properties"]["AlarmActions"] == [topic.as_object()]
        assert alarm["Properties"]["OKActions"] == [topic.as_object()]  # and when it is over
    template.resource_count_is("AWS::SNS::Subscription", 0)


def test_an_email_in_context_subscribes(stack: Stack, code: lambda_.Code) -> None:
    template = _monitoring(stack, code, email="ops@example.com")
    template.has_resource_properties(
        "AWS::SNS::Subscription", {"Protocol": "email", "Endpoint": "ops@example.com"}
    )
    template.has_resource_properties(
        "AWS::CloudWatch::Alarm", {"TreatMissingData": Match.exact("notBreaching")}
    )


def test_the_top_row_is_on_call_minute(stack: Stack, code: lambda_.Code) -> None:
    body = json.loads(_dashboard_text(_monitoring(stack, code)))
    text = json.dumps(body)
    first = text.index("Rooms stuck or given up on")
    for title in (
        "Frame queue: oldest frame",
        "Frames failed",
        "Dead-letter queues: frames and timers",
        "Letters typed",
        "Latency by action p99",
        "Refusals by code",
        "Posts failed and 410 Gone",
        "Write conflicts",
        "Cold starts",
        "Timer lateness p99",
    ):
        assert text.index(title) > first, title
        assert text.index(title) < text.index("WebSocket connections and messages"), title
    assert '\\"period\\":60' in text


def test_a_stuck_room_pages_from_the_first_row(stack: Stack, code: lambda_.Code) -> None:
    """The consumer hands failed frames back in a normal return, so its Errors never fire:
    the frame queue's oldest frame and the frames failed do, with the dead-letter queues,
    all in the first row's alarm status."""
    template = _monitoring(stack, code)
    alarms = template.find_resources("AWS::CloudWatch::Alarm")
    [age] = [a["Properties"] for i, a in alarms.items() if i.startswith("MonitoringFrameAge")]
    metric, statistic = _watched(age)
    assert metric["MetricName"] == "ApproximateAgeOfOldestMessage" and statistic == "Maximum"
    assert metric["Dimensions"][0]["Value"]["Fn::GetAtt"][0].startswith("Frames")
    assert age["Threshold"] == FRAME_AGE_LIMIT_S
    [failed] = [
        a["Properties"] for i, a in alarms.items() if i.startswith("MonitoringFramesFailed")
    ]
    metric, statistic = _watched(failed)
    assert (metric["Namespace"], metric["MetricName"], statistic) == (
        "Crossing/test",
        "FramesFailed",
        "Sum",
    )
    assert failed["Threshold"] == FAILED_FRAMES_LIMIT
    widgets = json.loads(json.dumps(_dashboard(template)))["widgets"]
    [status] = [w for w in widgets if w["type"] == "alarm"]
    assert status["y"] == min(w["y"] for w in widgets if w["type"] != "text")
    assert len(status["properties"]["alarms"]) == 4  # frames' age, failed; both dead letters


def _dashboard(template: Template) -> dict:
    """The dashboard body, its tokens (the alarms' ARNs) left as CloudFormation has them."""
    body = Capture()
    template.has_resource_properties("AWS::CloudWatch::Dashboard", {"DashboardBody": body})
    parts = body.as_object()["Fn::Join"][1]
    text = "".join(p if isinstance(p, str) else '"token"' for p in parts)
    return json.loads(text.replace('""token""', '"token"'))


def _watched(alarm: dict) -> tuple[dict, str]:
    """The metric an alarm watches and its statistic, in either of CDK's two forms."""
    if "MetricName" in alarm:
        return alarm, alarm["Statistic"]
    stat = alarm["Metrics"][0]["MetricStat"]
    return stat["Metric"], stat["Stat"]
