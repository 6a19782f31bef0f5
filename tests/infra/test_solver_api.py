from __future__ import annotations

from aws_cdk import Stack
from aws_cdk import aws_lambda as lambda_
from aws_cdk.assertions import Match, Template

from infra.solver_api import SolverApi
from tests.infra.helpers import KNOBS


def test_solve_and_rules_routes_on_an_http_api(stack: Stack, code: lambda_.Code) -> None:
    SolverApi(stack, "Solver", code=code, environment={"CROSSING_STAGE": "test"}, **KNOBS)
    template = Template.from_stack(stack)
    template.has_resource_properties("AWS::ApiGatewayV2::Api", {"ProtocolType": "HTTP"})
    template.has_resource_properties("AWS::ApiGatewayV2::Route", {"RouteKey": "POST /api/solve"})
    template.has_resource_properties("AWS::ApiGatewayV2::Route", {"RouteKey": "GET /api/rules"})
    template.all_resources_properties(
        "AWS::ApiGatewayV2::Integration", {"PayloadFormatVersion": "2.0"}
    )
    for handler in ("crossing.handlers.solve.handler", "crossing.handlers.rules.handler"):
        template.has_resource_properties("AWS::Lambda::Function", {"Handler": handler})
    # Neither function is given any permission beyond its logs and its traces.
    allowed = {
        "logs:CreateLogStream",
        "logs:PutLogEvents",
        "xray:PutTraceSegments",
        "xray:PutTelemetryRecords",
    }
    for policy in template.find_resources("AWS::IAM::Policy").values():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            actions = statement["Action"]
            assert set([actions] if isinstance(actions, str) else actions) <= allowed


def test_the_solver_is_throttled_and_cannot_take_the_games_concurrency(
    stack: Stack, code: lambda_.Code
) -> None:
    SolverApi(
        stack,
        "Solver",
        code=code,
        environment={"CROSSING_STAGE": "test"},
        solve_concurrency=20,
        rules_concurrency=5,
        **KNOBS,
    )
    template = Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::ApiGatewayV2::Stage",
        {
            "StageName": "$default",
            "DefaultRouteSettings": {"ThrottlingRateLimit": 50, "ThrottlingBurstLimit": 100},
            "AccessLogSettings": {"DestinationArn": Match.any_value(), "Format": Match.any_value()},
        },
    )
    reserved = {
        f["Properties"]["Handler"]: f["Properties"]["ReservedConcurrentExecutions"]
        for f in template.find_resources("AWS::Lambda::Function").values()
    }
    assert reserved == {"crossing.handlers.solve.handler": 20, "crossing.handlers.rules.handler": 5}
