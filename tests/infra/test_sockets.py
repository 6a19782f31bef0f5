from __future__ import annotations

from aws_cdk import Stack
from aws_cdk import aws_lambda as lambda_
from aws_cdk.assertions import Match, Template

from infra.functions import RUNTIME
from infra.sockets import Sockets
from tests.infra.helpers import KNOBS


def _sockets(stack: Stack, code: lambda_.Code) -> Template:
    Sockets(
        stack,
        "Sockets",
        stage_name="test",
        code=code,
        environment={"CROSSING_STAGE": "test"},
        timer_function_name="crossing-test-timer",
        **KNOBS,
    )
    return Template.from_stack(stack)


def test_routes_and_stage(stack: Stack, code: lambda_.Code) -> None:
    template = _sockets(stack, code)
    template.has_resource_properties("AWS::ApiGatewayV2::Api", {"ProtocolType": "WEBSOCKET"})
    for route in ("$connect", "$disconnect", "$default"):
        template.has_resource_properties("AWS::ApiGatewayV2::Route", {"RouteKey": route})
    template.resource_count_is("AWS::ApiGatewayV2::Route", 3)
    template.has_resource_properties(
        "AWS::ApiGatewayV2::Stage",
        {
            "StageName": "test",
            "AutoDeploy": True,
            # A flood on this stage is refused here, before it uses up the account's rate.
            "DefaultRouteSettings": {"ThrottlingRateLimit": 2000, "ThrottlingBurstLimit": 1000},
            "AccessLogSettings": {"DestinationArn": Match.any_value(), "Format": Match.any_value()},
        },
    )


def test_each_entry_point_is_a_function_told_the_callback_url(
    stack: Stack, code: lambda_.Code
) -> None:
    template = _sockets(stack, code)
    handlers = [f"crossing.handlers.ws.{e}" for e in ("disconnect", "message", "consume", "timer")]
    # $connect in a module of its own: its cold start imports nothing of the rooms.
    for handler in ("crossing.handlers.connect.handler", *handlers):
        template.has_resource_properties(
            "AWS::Lambda::Function",
            {
                "Handler": handler,
                "Runtime": RUNTIME.name,
                "Environment": {
                    "Variables": {
                        "CROSSING_STAGE": "test",
                        "CROSSING_CONNECTIONS_URL": {
                            "Fn::Join": ["", Match.array_with(["https://", "/test"])]
                        },
                    }
                },
            },
        )
    template.has_resource_properties(
        "AWS::Lambda::Function",
        {"Handler": "crossing.handlers.ws.timer", "FunctionName": "crossing-test-timer"},
    )


def test_every_function_has_a_log_group_with_retention(stack: Stack, code: lambda_.Code) -> None:
    template = _sockets(stack, code)
    template.resource_count_is("AWS::Logs::LogGroup", 6)  # and the stage's access logs
    template.all_resources_properties("AWS::Logs::LogGroup", {"RetentionInDays": 30})
    template.all_resources_properties(
        "AWS::Lambda::Function", {"LoggingConfig": {"LogGroup": Match.any_value()}}
    )
