from __future__ import annotations

import json

from aws_cdk import RemovalPolicy, Stack
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from aws_cdk.assertions import Capture, Match, Template

from infra.monitoring import EMITTED, WANTED, Monitoring
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
    # dead-letter queue and timers Scheduler dropped.
    assert len(alarms) == 6
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
    first = text.index("Letters typed")
    for title in (
        "Latency by action p99",
        "Refusals by code",
        "Posts failed and 410 Gone",
        "Write conflicts",
        "Cold starts",
        "Timer lateness p99",
        "Timer dead-letter queue depth",
    ):
        assert text.index(title) > first, title
        assert text.index(title) < text.index("WebSocket connections and messages"), title
    assert '\\"period\\":60' in text
