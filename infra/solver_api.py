"""The Solver's HTTP API: POST /api/solve and GET /api/rules (payload format 2.0)."""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import RemovalPolicy
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.access_logs import HTTP_FIELDS, access_logs
from infra.functions import game_function

THROTTLE = apigw.ThrottleSettings(rate_limit=50, burst_limit=100)
"""A solve is up to seconds of CPU: a flood is refused at the door (429), not queued."""


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
        solve_concurrency: int | None = None,
        rules_concurrency: int | None = None,
    ) -> None:
        """``*_concurrency``: executions reserved for each function (None: none). Reserved,
        the Solver can never take more of the account's concurrency than that, nor starve
        the room functions; but an account must keep 100 unreserved, so a reservation is
        for accounts whose limit allows it (docs/operations.md, Throttling)."""
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
            reserved_concurrency=solve_concurrency,
            **common,  # type: ignore[arg-type]
        )
        self.rules = game_function(
            self,
            "Rules",
            handler="crossing.handlers.rules.handler",
            memory_mb=256,
            reserved_concurrency=rules_concurrency,
            **common,  # type: ignore[arg-type]
        )
        self.api = apigw.HttpApi(
            self, "Api", description="Crossing Words Solver", create_default_stage=False
        )
        self.stage = apigw.HttpStage(
            self,
            "Stage",
            http_api=self.api,
            stage_name="$default",
            auto_deploy=True,
            throttle=THROTTLE,
            access_log_settings=access_logs(
                self,
                "AccessLogs",
                HTTP_FIELDS,
                retention=log_retention,
                removal_policy=removal_policy,
            ),
        )
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
