"""The whole app, synthesised offline as `cdk synth` would, with a stand-in asset."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from aws_cdk import App
from aws_cdk.assertions import Annotations, Match, Template

from infra import app as infra_app
from infra.stack import ROOT

CONFIG = (ROOT / "functions" / "crossing" / "aws" / "config.py").read_text()
READ_BY_CONFIG = set(re.findall(r'get\("(CROSSING_[A-Z_]+)"\)', CONFIG))
LOCAL_ONLY = {
    "CROSSING_PACKS_DIR",
    "CROSSING_AWS_ENDPOINT_URL",
    "CROSSING_VAPID_PRIVATE_KEY",
    "CROSSING_VAPID_PUBLIC_KEY",
}
"""Set by the local stack only: on AWS, packs come from S3, endpoints are AWS's, and the
Web Push keys are read from the secret CROSSING_VAPID_SECRET names."""


def _synth(asset_dir: Path, tmp: Path, **context: Any) -> Template:
    app = App(context={"stage": "test", "asset": str(asset_dir), **context}, outdir=str(tmp))
    stack = infra_app.build(app)
    app.synth()
    return Template.from_stack(stack)


@pytest.fixture(scope="module")
def template(asset_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Template:
    return _synth(asset_dir, tmp_path_factory.mktemp("cdk.out"))


def _functions(template: Template) -> dict[str, dict[str, Any]]:
    """Each function's properties, keyed by the last part of its handler."""
    found = template.find_resources("AWS::Lambda::Function")
    return {
        p["Properties"]["Handler"].rsplit(".", 1)[-1]
        if "handlers.ws" in p["Properties"]["Handler"]
        else p["Properties"]["Handler"].split(".")[2]: p["Properties"]
        for p in found.values()
        if p["Properties"].get("Handler", "").startswith("crossing.")
    }


def _policies_of(template: Template, role_ref: dict[str, Any]) -> str:
    return str(
        [
            p["Properties"]["PolicyDocument"]
            for p in template.find_resources("AWS::IAM::Policy").values()
            if role_ref in p["Properties"].get("Roles", [])
        ]
    )


def test_config_names_are_found() -> None:
    assert {"CROSSING_TABLE", "CROSSING_CONNECTIONS_URL", "CROSSING_TIMER_TARGET_ARN"} <= (
        READ_BY_CONFIG
    )


def test_room_functions_have_every_variable_config_reads(template: Template) -> None:
    functions = _functions(template)
    assert set(functions) == {
        "connect",
        "disconnect",
        "message",
        "consume",
        "timer",
        "solve",
        "rules",
    }
    for name in ("connect", "disconnect", "message", "consume", "timer"):
        variables = functions[name]["Environment"]["Variables"]
        assert set(variables) >= READ_BY_CONFIG - LOCAL_ONLY, name
        assert variables["POWERTOOLS_SERVICE_NAME"] == "crossing"
        assert variables["POWERTOOLS_METRICS_NAMESPACE"] == "Crossing/test"
        assert variables["CROSSING_PACKS_PREFIX"] == "packs/"
        assert variables["CROSSING_VAPID_SECRET"] == "crossing/test/vapid"
        assert "CROSSING_VAPID_PRIVATE_KEY" not in variables  # never in the configuration
        assert variables["CROSSING_USER_POOL_ID"] == {"Ref": _pool(template)}
        assert variables["CROSSING_USER_POOL_CLIENT_ID"] == {"Ref": _pool_client(template)}
    for name in ("solve", "rules"):
        assert "POWERTOOLS_METRICS_NAMESPACE" in functions[name]["Environment"]["Variables"]


def test_only_the_posting_functions_may_manage_connections_and_arm_timers(
    template: Template,
) -> None:
    functions = _functions(template)
    for name, props in functions.items():
        policies = _policies_of(template, {"Ref": props["Role"]["Fn::GetAtt"][0]})
        posts = name in {"disconnect", "message", "consume", "timer"}
        assert ("execute-api:ManageConnections" in policies) is posts, name
        assert ("scheduler:CreateSchedule" in policies) is posts, name
        assert ("iam:PassRole" in policies) is posts, name
        assert ("dynamodb:PutItem" in policies) is posts, name


def test_a_rooms_frames_queue_in_order_for_one_consumer_at_a_time(template: Template) -> None:
    queues = template.find_resources("AWS::SQS::Queue")
    [(frames_id, frames)] = [
        (i, q)
        for i, q in queues.items()
        if "RedrivePolicy" in q["Properties"] and q["Properties"].get("FifoQueue")
    ]
    props = frames["Properties"]
    assert props["ContentBasedDeduplication"] is False  # each frame is named by its sender
    assert props["DeduplicationScope"] == "messageGroup"
    assert props["FifoThroughputLimit"] == "perMessageGroupId"
    # Handed back, a frame waits out the visibility timeout, and its room's later frames
    # wait behind it: a room waits at most half a minute before it is dead-lettered.
    receives = props["RedrivePolicy"]["maxReceiveCount"]
    assert receives * props["VisibilityTimeout"] <= 30
    dead = props["RedrivePolicy"]["deadLetterTargetArn"]["Fn::GetAtt"][0]
    assert queues[dead]["Properties"]["FifoQueue"] is True
    template.has_resource_properties(
        "AWS::CloudWatch::Alarm",
        {
            "MetricName": "ApproximateNumberOfMessagesVisible",
            "Dimensions": [{"Name": "QueueName", "Value": {"Fn::GetAtt": [dead, "QueueName"]}}],
        },
    )
    functions = _functions(template)
    [mapping] = template.find_resources("AWS::Lambda::EventSourceMapping").values()
    assert mapping["Properties"]["EventSourceArn"] == {"Fn::GetAtt": [frames_id, "Arn"]}
    assert mapping["Properties"]["BatchSize"] == 10
    assert mapping["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    by_id = {
        logical: p["Properties"]["Handler"]
        for logical, p in template.find_resources("AWS::Lambda::Function").items()
    }
    assert by_id[mapping["Properties"]["FunctionName"]["Ref"]] == "crossing.handlers.ws.consume"
    # SQS would deliver a frame again while the batch that has it still runs.
    assert props["VisibilityTimeout"] >= functions["consume"]["Timeout"]
    assert functions["message"]["Environment"]["Variables"]["CROSSING_QUEUE_URL"] == {
        "Ref": frames_id
    }
    for name, props in functions.items():
        policies = _policies_of(template, {"Ref": props["Role"]["Fn::GetAtt"][0]})
        assert ("sqs:SendMessage" in policies) is (name == "message"), name
        assert ("sqs:ReceiveMessage" in policies) is (name == "consume"), name


def _pool(template: Template) -> str:
    (logical_id,) = template.find_resources("AWS::Cognito::UserPool")
    return logical_id


def _pool_client(template: Template) -> str:
    (logical_id,) = template.find_resources("AWS::Cognito::UserPoolClient")
    return logical_id


def test_only_the_message_function_may_confirm_a_sign_up(template: Template) -> None:
    for name, props in _functions(template).items():
        policies = _policies_of(template, {"Ref": props["Role"]["Fn::GetAtt"][0]})
        assert ("cognito-idp:AdminConfirmSignUp" in policies) is (name == "message"), name
        assert "cognito-idp:Admin" not in policies.replace("AdminConfirmSignUp", ""), name


def test_outputs_name_the_three_urls(template: Template) -> None:
    outputs = template.find_outputs("*")
    assert {"WebUrl", "WebSocketUrl", "HttpApiUrl"} <= set(outputs)
    # The runbook's replays look these up by name (docs/operations.md, Alarms).
    consume = next(
        logical
        for logical, p in template.find_resources("AWS::Lambda::Function").items()
        if p["Properties"]["Handler"] == "crossing.handlers.ws.consume"
    )
    assert outputs["ConsumeFunctionName"]["Value"] == {"Ref": consume}
    assert {"FrameDeadLetterQueueUrl", "TimerDeadLetterQueueUrl"} <= set(outputs)


def test_two_stages_do_not_share_names(asset_dir: Path, tmp_path: Path) -> None:
    prod = _synth(asset_dir, tmp_path, stage="prod")
    prod.has_resource_properties("AWS::DynamoDB::Table", {"TableName": "crossing-prod"})
    prod.has_resource_properties("AWS::Scheduler::ScheduleGroup", {"Name": "crossing-prod"})
    prod.has_resource("AWS::DynamoDB::Table", {"DeletionPolicy": "Retain"})
    prod.has_resource("AWS::S3::Bucket", {"DeletionPolicy": "Retain"})
    prod.has_resource_properties("AWS::Cognito::UserPool", {"UserPoolName": "crossing-prod"})
    prod.has_resource("AWS::Cognito::UserPool", {"DeletionPolicy": "Retain"})


def test_a_missing_asset_says_how_to_build_it(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"infra/build_asset\.py"):
        _synth(tmp_path / "nowhere", tmp_path)


def test_cdk_synth_prints_no_jsii_node_banner(tmp_path: Path) -> None:
    """jsii's warning about this machine's Node came out as raw bytes (``b'!!…'``), a
    dozen lines, in every synth; the synth's own message is all that is left."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JSII_SILENCE")}
    env["CDK_CONTEXT_JSON"] = json.dumps({"stage": "dev", "asset": str(tmp_path / "nowhere")})
    synth = subprocess.run(
        [sys.executable, "infra/app.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert synth.returncode == 1
    assert synth.stderr.strip().splitlines() == [
        f"No Lambda asset at {tmp_path / 'nowhere'}: run `python3 infra/build_asset.py` "
        "first (or pass -c asset=DIR)."
    ]


def _statements(template: Template, role_ref: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        statement
        for p in template.find_resources("AWS::IAM::Policy").values()
        if role_ref in p["Properties"].get("Roles", [])
        for statement in p["Properties"]["PolicyDocument"]["Statement"]
    ]


def test_room_functions_get_only_what_the_adapters_call(template: Template) -> None:
    functions = _functions(template)
    for name in ("disconnect", "message", "consume", "timer"):
        role = {"Ref": functions[name]["Role"]["Fn::GetAtt"][0]}
        actions = {
            action
            for s in _statements(template, role)
            for action in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
        }
        dynamodb = {a for a in actions if a.startswith("dynamodb:")}
        assert dynamodb == {
            "dynamodb:GetItem",
            "dynamodb:PutItem",
            "dynamodb:UpdateItem",
            "dynamodb:DeleteItem",
            "dynamodb:Query",  # the Duel lobby's seeks, one partition; never a Scan
        }, name
        assert {a for a in actions if a.startswith("s3:")} == {"s3:GetObject", "s3:ListBucket"}
        text = str(_statements(template, role))
        assert "/packs/*" in text and "'s3:prefix': ['packs/*']" in text
        assert "/test/POST/@connections/*" in text
        assert "secret:crossing/test/vapid'" in text  # the bare name: missing is NotFound


def test_safe_defaults(template: Template, asset_dir: Path, tmp_path: Path) -> None:
    client = next(iter(template.find_resources("AWS::Cognito::UserPoolClient").values()))
    assert client["Properties"]["AllowedOAuthFlowsUserPoolClient"] is False
    assert "CallbackURLs" not in client["Properties"]
    template.has_resource_properties(
        "AWS::SNS::TopicPolicy",
        {"PolicyDocument": {"Statement": [Match.object_like({"Effect": "Deny"})]}},
    )
    headers = next(iter(template.find_resources("AWS::CloudFront::ResponseHeadersPolicy").values()))
    security = headers["Properties"]["ResponseHeadersPolicyConfig"]["SecurityHeadersConfig"]
    csp = str(security["ContentSecurityPolicy"]["ContentSecurityPolicy"])
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert security["StrictTransportSecurity"]["AccessControlMaxAgeSec"] >= 31_536_000
    assert security["ContentTypeOptions"]["Override"] is True
    deployments = template.find_resources("Custom::CDKBucketDeployment").values()
    assert all("cache-control" in str(d["Properties"]["SystemMetadata"]) for d in deployments)
    for function in _functions(template).values():
        assert function["TracingConfig"] == {"Mode": "Active"}
    template.has_resource_properties("AWS::DynamoDB::Table", {"DeletionProtectionEnabled": False})
    prod = _synth(asset_dir, tmp_path, stage="prod")
    prod.has_resource_properties("AWS::DynamoDB::Table", {"DeletionProtectionEnabled": True})


def test_the_site_serves_the_watch_page_at_slash_watch(template: Template) -> None:
    """The rules send players to …/watch: a viewer-request function rewrites it."""
    (function,) = template.find_resources("AWS::CloudFront::Function").values()
    code = function["Properties"]["FunctionCode"]
    assert "'/watch'" in code and "'/watch.html'" in code
    (cdn,) = template.find_resources("AWS::CloudFront::Distribution").values()
    associations = cdn["Properties"]["DistributionConfig"]["DefaultCacheBehavior"][
        "FunctionAssociations"
    ]
    assert [a["EventType"] for a in associations] == ["viewer-request"]


def _socket_stage(template: Template) -> dict[str, Any]:
    stages = template.find_resources("AWS::ApiGatewayV2::Stage").values()
    [stage] = [s["Properties"] for s in stages if s["Properties"]["StageName"] != "$default"]
    return stage


def _reserved(template: Template) -> dict[str, int | None]:
    return {
        name: props.get("ReservedConcurrentExecutions")
        for name, props in _functions(template).items()
    }


@pytest.mark.parametrize("stage", ["dev", "prod"])
def test_a_fresh_account_can_deploy_either_stage_and_turn_on_what_it_has_room_for(
    asset_dir: Path, tmp_path: Path, stage: str
) -> None:
    """The first deploy failed in an account without API Gateway's CloudWatch Logs role
    (the WebSocket stage's access logs need it) or with a concurrency limit under 125 (the
    Solver reserved 20 + 5, and 100 must stay unreserved)."""
    fresh = App(context={"stage": stage, "asset": str(asset_dir)}, outdir=str(tmp_path / "a"))
    stack = infra_app.build(fresh)
    infra_app.check(fresh)
    fresh.synth()  # cdk-nag: the stage's missing access logs are acknowledged, with why
    template = Template.from_stack(stack)
    assert "AccessLogSettings" not in _socket_stage(template)
    template.resource_count_is("AWS::ApiGateway::Account", 0)  # not ours: account-wide
    # The HTTP API's access logs need no account role: they stay on.
    template.has_resource_properties(
        "AWS::ApiGatewayV2::Stage",
        {"StageName": "$default", "AccessLogSettings": Match.object_like({})},
    )
    assert set(_reserved(template).values()) == {None}
    [warning] = Annotations.from_stack(stack).find_warning("*", Match.any_value())
    assert "-c websocketAccessLogs=true" in str(warning.entry.data)

    ready = {"websocketAccessLogs": "true", "solveConcurrency": "20", "rulesConcurrency": "5"}
    app = App(
        context={"stage": stage, "asset": str(asset_dir), **ready}, outdir=str(tmp_path / "b")
    )
    stack = infra_app.build(app)
    infra_app.check(app)
    app.synth()
    template = Template.from_stack(stack)
    logs = _socket_stage(template)["AccessLogSettings"]
    assert "$context.connectionId" in logs["Format"]
    assert _reserved(template) == {
        "connect": None,
        "disconnect": None,
        "message": None,
        "consume": None,
        "timer": None,
        "solve": 20,
        "rules": 5,
    }
    assert Annotations.from_stack(stack).find_warning("*", Match.any_value()) == []
