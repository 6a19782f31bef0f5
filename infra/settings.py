"""A stage's knobs, read once from CDK context (cdk.json or ``-c name=value``).

Everything that differs between two stages in one account is derived from the
stage name unless context says otherwise: the stack, the table, the schedule
group, the timer function and the metrics namespace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_STAGE = re.compile(r"^[a-z][a-z0-9-]{0,15}$")
DEFAULT_ASSET = "build/lambda"
SERVICE = "crossing"
"""POWERTOOLS_SERVICE_NAME of every function: the ``service`` dimension of the game's metrics."""


@dataclass(frozen=True, kw_only=True)
class StageSettings:
    stage: str
    table_name: str
    asset: str = DEFAULT_ASSET
    alarm_email: str | None = None
    log_retention_days: int = 30
    log_level: str = "INFO"
    vapid_subject: str = "mailto:crossing@example.com"
    websocket_access_logs: bool = False
    """Off unless asked for: a WebSocket stage may only log where the account's API
    Gateway CloudWatch Logs role is set, which is account-wide and not this stack's to
    set (docs/operations.md, Account prerequisites). The HTTP API's logs need no role."""
    solve_concurrency: int | None = None
    rules_concurrency: int | None = None
    """Reserved concurrency of the Solver's functions; None reserves none, so a new
    account (whose limit may be 10 or 50, and 100 must stay unreserved) can deploy."""

    def __post_init__(self) -> None:
        if not _STAGE.match(self.stage):
            # The stage names the stack, the function, the group and the API stage.
            raise ValueError(f"stage {self.stage!r}: use 1-16 of a-z, 0-9, '-', starting a-z")

    @property
    def production(self) -> bool:
        """Production keeps its data when the stack goes: table and bucket are retained."""
        return self.stage == "prod"

    @property
    def stack_name(self) -> str:
        return f"Crossing-{self.stage}"

    @property
    def schedule_group(self) -> str:
        return f"crossing-{self.stage}"

    @property
    def timer_function_name(self) -> str:
        # A fixed name lets the timer's ARN be written before the function exists, so the
        # timer function can be told its own ARN (it re-arms itself) without a cycle.
        return f"crossing-{self.stage}-timer"

    @property
    def vapid_secret(self) -> str:
        """The Secrets Manager secret holding this stage's Web Push keys (docs/operations.md)."""
        return f"crossing/{self.stage}/vapid"

    @property
    def user_pool_name(self) -> str:
        return f"crossing-{self.stage}"

    @property
    def metrics_namespace(self) -> str:
        return f"Crossing/{self.stage}"

    @classmethod
    def from_context(cls, get: Any) -> StageSettings:
        """From ``node.try_get_context``-like ``get(name)``; only ``stage`` is required."""
        stage = get("stage")
        if not stage:
            raise ValueError("set the stage: cdk synth -c stage=dev")
        stage = str(stage)
        retention = get("logRetentionDays")
        return cls(
            stage=stage,
            table_name=str(get("tableName") or f"crossing-{stage}"),
            asset=str(get("asset") or DEFAULT_ASSET),
            alarm_email=str(get("alarmEmail")) if get("alarmEmail") else None,
            log_retention_days=int(retention) if retention else 30,
            log_level=str(get("logLevel") or "INFO"),
            vapid_subject=str(get("vapidSubject") or "mailto:crossing@example.com"),
            websocket_access_logs=_flag(get, "websocketAccessLogs"),
            solve_concurrency=_reserved(get, "solveConcurrency"),
            rules_concurrency=_reserved(get, "rulesConcurrency"),
        )


def _flag(get: Any, name: str) -> bool:
    """A yes/no from context: JSON true/false in cdk.json, text from ``-c name=value``."""
    value = get(name)
    if value is None or value is False or value is True:
        return bool(value)
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off", ""):
        return False
    raise ValueError(f"{name}={value!r}: use true or false")


def _reserved(get: Any, name: str) -> int | None:
    """A reserved concurrency from context; unset (or 0, or 'none') reserves nothing."""
    value = get(name)
    if value is None or str(value).strip().lower() in ("", "none", "0"):
        return None
    try:
        count = int(str(value).strip())
    except ValueError:
        count = -1
    if count < 1:
        raise ValueError(f"{name}={value!r}: a whole number of executions, or none")
    return count
