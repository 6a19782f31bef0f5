"""The Solver's HTTP API: POST /api/solve and GET /api/rules (payload format 2.0)."""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import RemovalPolicy
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.functions import game_function


class SolverApi(Construct):
    """Neither function touches the table, the sockets or the timers: no grants."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        code: lambda_.Code,
        environment: Mapping[str, str],
        log_retention: logs.RetentionDays,
        removal_policy: RemovalPolicy,
    ) -> None:
        super().__init__(scope, id)
        common = {
            "code": code,
            "environment": environment,
            "log_retention": log_retention,
            "removal_policy": removal_policy,
        }
        # Move generation is CPU-bound and Lambda's CPU grows with memory; the HTTP API
        # gives up after 30 s, so the function may not run longer.
        self.solve = game_function(
            self,
            "Solve",
            handler="crossing.handlers.solve.handler",
            memory_mb=1024,
            timeout_seconds=29,
            **common,  # type: ignore[arg-type]
        )
        self.rules = game_function(
            self, "Rules", handler="crossing.handlers.rules.handler", memory_mb=256, **common
        )  # type: ignore[arg-type]
        self.api = apigw.HttpApi(self, "Api", description="Crossing Words Solver")
        self.api.add_routes(
            path="/api/solve",
            methods=[apigw.HttpMethod.POST],
            integration=integrations.HttpLambdaIntegration("SolveIntegration", self.solve),
        )
        self.api.add_routes(
            path="/api/rules",
            methods=[apigw.HttpMethod.GET],
            integration=integrations.HttpLambdaIntegration("RulesIntegration", self.rules),
        )

    @property
    def functions(self) -> dict[str, lambda_.Function]:
        return {"solve": self.solve, "rules": self.rules}

    @property
    def url(self) -> str:
        return self.api.api_endpoint
