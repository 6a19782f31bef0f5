"""One way to make a game Lambda: the shared asset, runtime, log group and Powertools env."""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.build_asset import PYTHON_VERSION

RUNTIME = lambda_.Runtime(f"python{PYTHON_VERSION}", lambda_.RuntimeFamily.PYTHON)
"""The asset's Python (``build_asset.PYTHON_VERSION``): its wheels, extension modules and
bytecode are for this version only. 3.13, not the newest (3.14): the asset is built and
its bytecode compiled by the runtime's own interpreter, and tested in it, and no Python
3.14 can be installed on our build and CI machines yet (docs/operations.md)."""
ARCHITECTURE = lambda_.Architecture.X86_64
"""Matches ``build_asset.PLATFORMS``; arm64 would need every native wheel checked for it."""


def game_function(
    scope: Construct,
    id: str,
    *,
    code: lambda_.Code,
    handler: str,
    environment: Mapping[str, str],
    memory_mb: int = 512,
    timeout_seconds: int = 10,
    log_retention: logs.RetentionDays,
    removal_policy: RemovalPolicy,
    function_name: str | None = None,
    reserved_concurrency: int | None = None,
) -> lambda_.Function:
    """A Python function from the one asset, with its own log group (retention set), a
    role that may write to that log group only (not AWS's managed policy, which allows
    every log group), and X-Ray tracing on."""
    log_group = logs.LogGroup(
        scope, f"{id}Logs", retention=log_retention, removal_policy=removal_policy
    )
    role = iam.Role(
        scope,
        f"{id}Role",
        assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
        description=f"Crossing Words {id} function",
    )
    role.add_to_policy(
        iam.PolicyStatement(
            actions=["logs:CreateLogStream", "logs:PutLogEvents"],
            resources=[log_group.log_group_arn],
        )
    )
    return lambda_.Function(
        scope,
        id,
        function_name=function_name,
        runtime=RUNTIME,
        architecture=ARCHITECTURE,
        code=code,
        handler=handler,
        memory_size=memory_mb,
        timeout=Duration.seconds(timeout_seconds),
        environment=dict(environment),
        log_group=log_group,
        role=role,
        tracing=lambda_.Tracing.ACTIVE,
        reserved_concurrent_executions=reserved_concurrency,
    )


_RETENTION = {
    1: logs.RetentionDays.ONE_DAY,
    3: logs.RetentionDays.THREE_DAYS,
    7: logs.RetentionDays.ONE_WEEK,
    14: logs.RetentionDays.TWO_WEEKS,
    30: logs.RetentionDays.ONE_MONTH,
    90: logs.RetentionDays.THREE_MONTHS,
    180: logs.RetentionDays.SIX_MONTHS,
    365: logs.RetentionDays.ONE_YEAR,
}


def retention(days: int) -> logs.RetentionDays:
    """CloudWatch accepts only certain periods: the longest of these not above ``days``."""
    return _RETENTION[max([d for d in _RETENTION if d <= days] or [1])]
