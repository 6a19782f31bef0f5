from __future__ import annotations

from aws_cdk import RemovalPolicy
from aws_cdk import aws_logs as logs

KNOBS = {"log_retention": logs.RetentionDays.ONE_MONTH, "removal_policy": RemovalPolicy.DESTROY}
"""The knobs every function-making construct takes, at test values."""
