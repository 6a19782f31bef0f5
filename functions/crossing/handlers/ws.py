"""The WebSocket API's handlers ($connect, $disconnect, $default) and the timer's.

Each builds the rooms service once per container from the environment
(``crossing.aws.config``) and hands it the event; every rule lives further in.
Nothing is posted from $connect: API Gateway opens the socket only after it returns.
"""

from __future__ import annotations

import json
import os
from typing import Any

from aws_lambda_powertools import Logger, Metrics, single_metric
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from crossing.aws.config import Settings
from crossing.rooms.ports import Connections
from crossing.rooms.service import RoomService, Sent

logger = Logger()
# The namespace is read at import; a default keeps an import before configuration working.
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "Crossing"))

_service: RoomService | None = None
_connections: Connections | None = None  # the local stack's own sockets, if it set them


def service() -> RoomService:
    """The service for this container, built on first use (Lambda reuses containers)."""
    global _service
    if _service is None:
        settings = Settings.from_env()
        _service = RoomService(
            settings.store(),
            _connections or settings.connections(),
            settings.timers(),
            settings.packs(),
            push=settings.push(),
            accounts=settings.accounts(),
            # One process is the rooms' only writer on the local stack, not in the cloud.
            hold=settings.stage == "local",
        )
    return _service


def reset(connections: Connections | None = None) -> None:
    """Forget the built service (tests and the local stack change the environment).

    The local stack passes its own sockets as ``connections``, posting in-process.
    """
    global _service, _connections
    _service, _connections = None, connections


def _connection(event: dict[str, Any]) -> str:
    return event["requestContext"]["connectionId"]


def _ok() -> dict[str, Any]:
    return {"statusCode": 200}


@logger.inject_lambda_context(correlation_id_path="requestContext.connectionId")
@metrics.log_metrics
def connect(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    metrics.add_metric(name="Connections", unit=MetricUnit.Count, value=1)
    return _ok()


@logger.inject_lambda_context(correlation_id_path="requestContext.connectionId")
@metrics.log_metrics
def disconnect(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    service().disconnect(_connection(event))
    metrics.add_metric(name="Disconnections", unit=MetricUnit.Count, value=1)
    return _ok()


@logger.inject_lambda_context(correlation_id_path="requestContext.connectionId")
@metrics.log_metrics
def message(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    body = event.get("body")
    # API Gateway hands a binary frame over base64-encoded; the protocol is JSON text.
    binary = bool(event.get("isBase64Encoded"))
    # When API Gateway took the frame: the rooms' pace counts frames by their arrival.
    arrived = event.get("requestContext", {}).get("requestTimeEpoch")
    arrived = arrived if isinstance(arrived, int) else None
    sent = service().receive(_connection(event), body, binary=binary, arrived=arrived)
    action = _action_of(body)
    logger.append_keys(action=action, version=sent.version)
    metrics.add_metric(name="Messages", unit=MetricUnit.Count, value=1)
    if action == "type" and sent.wrote:
        metrics.add_metric(name="LettersTyped", unit=MetricUnit.Count, value=1)
    _count_game(sent)
    return _ok()


@logger.inject_lambda_context
@metrics.log_metrics
def timer(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """EventBridge Scheduler's one-time schedule: ``{"room": code, "version": n}``."""
    room = str(event.get("room", ""))
    if not room:
        logger.warning("timer event without a room", extra={"event": event})
        return {"applied": False}
    sent = service().timer(room, event.get("version"))
    metrics.add_metric(name="TimersFired", unit=MetricUnit.Count, value=1)
    if sent.wrote:
        metrics.add_metric(name="TimersApplied", unit=MetricUnit.Count, value=1)
    _count_game(sent)
    if sent.late_ms is not None:  # the backstop's own lateness: the alarm watches it
        metrics.add_metric(name="TimerLateness", unit=MetricUnit.Milliseconds, value=sent.late_ms)
    return {"applied": sent.wrote}


def _count_game(sent: Sent) -> None:
    """The game's own figures for the dashboard (docs/operations.md)."""
    if sent.started:
        mode, size = sent.started
        _dimensioned("RoomsStarted", MetricUnit.Count, 1, mode=mode, size=size)
    if sent.checked:
        _dimensioned("Checks", MetricUnit.Count, 1, mode=sent.checked)
    if sent.bot_actions:
        _dimensioned("BotActions", MetricUnit.Count, sent.bot_actions, game="crossword")
    if sent.duel_started:
        _dimensioned("DuelGamesStarted", MetricUnit.Count, 1)
    if sent.duel_finished:
        _dimensioned("DuelGamesFinished", MetricUnit.Count, 1)
    if sent.duel_moves:
        _dimensioned("DuelMoves", MetricUnit.Count, sent.duel_moves)
    if sent.duel_bot_moves:
        _dimensioned("BotActions", MetricUnit.Count, sent.duel_bot_moves, game="duel")


def _dimensioned(name: str, unit: MetricUnit, value: float, **dimensions: str) -> None:
    # A metric with its own dimensions goes out as its own EMF blob, so the shared
    # `metrics` object's dimensions stay the same for every other metric.
    with single_metric(name=name, unit=unit, value=value, namespace=metrics.namespace) as one:
        one.add_dimension(name="service", value=metrics.service or "crossing")
        for key, dimension in dimensions.items():
            one.add_dimension(name=key, value=dimension)


def _action_of(body: str | None) -> str:
    """The action named in a frame, for logs and metrics only (the service parses for real)."""
    try:
        data = json.loads(body or "")
    except ValueError:
        return "?"
    action = data.get("action") if isinstance(data, dict) else None
    return action if isinstance(action, str) and len(action) <= 20 else "?"
