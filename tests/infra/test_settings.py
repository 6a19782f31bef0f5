from __future__ import annotations

import pytest
from aws_cdk import aws_logs as logs

from infra.functions import retention
from infra.settings import StageSettings


def test_names_follow_the_stage_so_two_stages_share_an_account() -> None:
    dev = StageSettings.from_context({"stage": "dev"}.get)
    prod = StageSettings.from_context({"stage": "prod", "tableName": "games"}.get)
    assert (dev.table_name, prod.table_name) == ("crossing-dev", "games")
    assert dev.stack_name != prod.stack_name
    assert dev.schedule_group != prod.schedule_group
    assert dev.timer_function_name != prod.timer_function_name
    assert dev.metrics_namespace != prod.metrics_namespace
    assert (dev.user_pool_name, prod.user_pool_name) == ("crossing-dev", "crossing-prod")
    assert (dev.production, prod.production) == (False, True)
    assert dev.alarm_email is None


@pytest.mark.parametrize("stage", ["", "Prod", "a b", "x" * 17])
def test_a_stage_that_cannot_name_things_is_refused(stage: str) -> None:
    with pytest.raises(ValueError, match="stage"):
        StageSettings.from_context({"stage": stage}.get)


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        (0, logs.RetentionDays.ONE_DAY),
        (30, logs.RetentionDays.ONE_MONTH),
        (45, logs.RetentionDays.ONE_MONTH),
        (400, logs.RetentionDays.ONE_YEAR),
    ],
)
def test_retention_rounds_down_to_a_period_cloudwatch_accepts(
    days: int, expected: logs.RetentionDays
) -> None:
    assert retention(days) is expected


def test_a_fresh_account_gets_no_access_logs_role_need_and_no_reservation() -> None:
    settings = StageSettings.from_context({"stage": "dev"}.get)
    assert settings.websocket_access_logs is False
    assert (settings.solve_concurrency, settings.rules_concurrency) == (None, None)
    chosen = StageSettings.from_context(
        {"stage": "prod", "websocketAccessLogs": True, "solveConcurrency": 20}.get
    )
    assert chosen.websocket_access_logs is True
    assert (chosen.solve_concurrency, chosen.rules_concurrency) == (20, None)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("websocketAccessLogs", "maybe"),
        ("solveConcurrency", "twenty"),
        ("rulesConcurrency", "-5"),
        ("solveConcurrency", "2.5"),
    ],
)
def test_a_context_value_that_means_nothing_is_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        StageSettings.from_context({"stage": "dev", name: value}.get)
