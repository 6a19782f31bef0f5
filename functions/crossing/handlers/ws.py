"""The WebSocket API's handlers ($disconnect, $default), the rooms' queue consumer and
the timer's ($connect, which uses none of this, is ``connect.py``).

Each builds the rooms service once per container from the environment
(``crossing.aws.config``) and hands it the event; every rule lives further in.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger, Tracer, single_metric
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.metrics.functions import is_metrics_disabled
from aws_lambda_powertools.utilities.typing import LambdaContext

from crossing.aws import queue
from crossing.aws.config import Settings
from crossing.aws.gateway import ApiGatewayConnections
from crossing.aws.transient import transient
from crossing.handlers.metering import handler_metrics, metered
from crossing.rooms.router import KEEP_ALIVE
from crossing.rooms.sent import from_duel
from crossing.rooms.service import RoomService, Sent

logger = Logger()
# X-Ray: one subsegment per handler and per AWS call (botocore only: nothing else here
# talks to the network). Off outside Lambda (tests, the local stack).
tracer = Tracer(patch_modules=["botocore"])
metrics = handler_metrics()

_service: RoomService | None = None
_connections: ApiGatewayConnections | None = None
ON_CALL_REFUSALS = ("busy", "too-fast", "too-many", "no-puzzles", "bad-message", "full")
"""Refusals the dashboard graphs by code; every other code is counted as ``other``."""


def _metered(handler: Callable[..., Any]) -> Callable[..., Any]:
    return metered(metrics, handler, _counting_now)


def _counting_now(on: bool | None) -> None:
    global _on
    _on = on


_on: bool | None = None
"""Whether metrics are on, read from the environment once per invocation (None outside
one): Powertools reads it at every ``add_metric``, and with metrics off (the local
stack) keeps and clears each value anyway, a twentieth of a letter's CPU."""


def _counting() -> bool:
    return not is_metrics_disabled() if _on is None else _on


def _count(name: str, unit: MetricUnit, value: float) -> None:
    if _counting():
        metrics.add_metric(name=name, unit=unit, value=value)


def _traced(handler: Callable[..., Any]) -> Callable[..., Any]:
    """X-Ray's subsegment for each invocation, where tracing is on. Where it is off, the
    wrapper still built a dummy segment with fresh random ids for every frame, for
    nothing: a Large room's letter on the local stack took 2.9 ms of CPU with it, 2.7
    without (benchmarks/typists.py)."""
    if tracer.disabled:
        return handler
    return tracer.capture_lambda_handler(handler, capture_response=False)


def service() -> RoomService:
    """The service for this container, built once (Lambda reuses containers); on Lambda
    at import, see the end of this module."""
    global _service, _connections
    if _service is None:
        settings = Settings.from_env()
        _connections = settings.connections()
        _service = RoomService(
            settings.store(),
            _connections,
            settings.timers(),
            settings.packs(),
            push=settings.push(),
            accounts=settings.accounts(),
            # One process is the rooms' only writer on the local stack; in the cloud the
            # queue gives each room one writer at a time, but not always the same container.
            hold=settings.stage == "local",
            queue=settings.queue(),
        )
    return _service


def reset(service: RoomService | None = None) -> None:
    """Forget the built service (tests and the local stack change the environment), or
    use ``service`` from now on (the local stack's, on its SQLite ports)."""
    global _service, _connections
    _service, _connections = service, None


def _connection(event: dict[str, Any]) -> str:
    return event["requestContext"]["connectionId"]


def _correlate(event: dict[str, Any]) -> None:
    """Every log line of this invocation names its connection. Looked up directly: the
    decorator's ``correlation_id_path`` runs a JMESPath search every frame."""
    logger.set_correlation_id(event.get("requestContext", {}).get("connectionId"))


def _ok() -> dict[str, Any]:
    return {"statusCode": 200}


@logger.inject_lambda_context
@_metered
@_traced
def disconnect(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    _correlate(event)
    try:
        service().disconnect(_connection(event))
    finally:
        _count_posts()
    _count_games()
    _count("Disconnections", MetricUnit.Count, 1)
    return _ok()


@logger.inject_lambda_context
@_metered
@_traced
def message(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    _correlate(event)
    body = event.get("body")
    # API Gateway hands a binary frame over base64-encoded; the protocol is JSON text.
    binary = bool(event.get("isBase64Encoded"))
    # When API Gateway took the frame: the rooms' pace counts frames by their arrival.
    context_of = event.get("requestContext", {})
    arrived = context_of.get("requestTimeEpoch")
    arrived = arrived if isinstance(arrived, int) else None
    request = context_of.get("requestId")  # the queue's deduplication id
    request = request if isinstance(request, str) and request else None
    source = context_of.get("identity", {}).get("sourceIp")  # signing in is limited by it
    source = source if isinstance(source, str) and source else None
    began = time.perf_counter()
    try:
        sent = service().receive(
            _connection(event), body, binary=binary, arrived=arrived, request=request, source=source
        )
    finally:
        _count_posts()
    action = sent.action  # the router's reading of the frame: this handler parses nothing
    if action == KEEP_ALIVE:  # API Gateway's idle timer is reset: nothing else to do
        _count("KeepAlives", MetricUnit.Count, 1)
        return _ok()
    _count("Messages", MetricUnit.Count, 1)
    if sent.queued:  # its room's writer (``consume``) applies, answers and times it
        _count("FramesQueued", MetricUnit.Count, 1)
        return _ok()
    took = (time.perf_counter() - began) * 1000
    _dimensioned("ActionLatency", MetricUnit.Milliseconds, took, action=action)
    logger.append_keys(action=action, version=sent.version)
    if action == "type" and sent.wrote:
        _count("LettersTyped", MetricUnit.Count, 1)
    _count_games()
    return _ok()


@logger.inject_lambda_context
@_metered
@_traced
def consume(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """The queue's consumer (SQS FIFO, up to ten messages): each room's frames applied in
    order as one batch of its writer, and tried again here when the store failed for a
    passing reason (``transient``). Frames that still failed, and each later one of their
    room, are reported back for SQS to deliver again (``ReportBatchItemFailures``): the
    invocation itself succeeds, so ``FramesFailed`` is what tells on-call."""
    taken = queue.records(event)
    frames = [frame for _, frame in taken if frame is not None]
    began = time.perf_counter()
    try:
        results = service().consume(
            frames,
            worth_retrying=transient,
            time_left=lambda: context.get_remaining_time_in_millis() / 1000,
        )
    finally:
        _count_posts()
    took = (time.perf_counter() - began) * 1000
    _count("ConsumeLatency", MetricUnit.Milliseconds, took)
    failed, letters, at = [], 0, 0
    done = time.time_ns() // 1_000_000
    for position, (_, frame) in enumerate(taken):
        if frame is None:  # logged by ``queue.records``, handed back by ``queue.failures``
            continue
        sent = results[at]
        at += 1
        if not isinstance(sent, Sent):  # failed: SQS delivers it (and its room's next) again
            logger.error("a queued frame failed", exc_info=sent)
            failed.append(position)
            continue
        action = sent.action
        # From API Gateway's arrival to applied and answered: the queue's wait included.
        _dimensioned("ActionLatency", MetricUnit.Milliseconds, done - frame.arrived, action=action)
        letters += action == "type" and sent.wrote
    _count_games()
    if letters:
        _count("LettersTyped", MetricUnit.Count, letters)
    handed_back = queue.failures(taken, failed)
    # Every message is one or the other: a frame applied (and deleted from the queue), or
    # handed back: its own failure, one before it in its room's order, or no frame at all.
    _count("FramesApplied", MetricUnit.Count, len(taken) - len(handed_back))
    _count("FramesFailed", MetricUnit.Count, len(handed_back))
    return {"batchItemFailures": handed_back}


@logger.inject_lambda_context
@_metered
@_traced
def timer(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """EventBridge Scheduler's one-time schedule: ``{"room": code, "version": n}``."""
    room = str(event.get("room", ""))
    if not room:
        logger.warning("timer event without a room", extra={"event": event})
        return {"applied": False}
    try:
        sent = service().timer(room, event.get("version"))
    finally:
        _count_posts()
    _count("TimersFired", MetricUnit.Count, 1)
    if sent.wrote:
        _count("TimersApplied", MetricUnit.Count, 1)
    _count_games()
    if sent.late_ms is not None:  # the backstop's own lateness: the alarm watches it
        _count("TimerLateness", MetricUnit.Milliseconds, sent.late_ms)
    return {"applied": sent.wrote}


def _count_games() -> None:
    """The game's own figures for the dashboard (docs/operations.md): what each write of
    this invocation did (the runner's reports, taken so they do not pile up)."""
    for report in service().take_reports():
        _count_game(report if isinstance(report, Sent) else from_duel(report))


def _count_game(sent: Sent) -> None:
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


def _count_posts() -> None:
    """What this event posted: sent, gone (410) and failed, and the refusals by code."""
    if _connections is None:
        return
    posts, refusals = _connections.take_counts()
    for outcome, name in (("posted", "Posts"), ("gone", "PostsGone"), ("failed", "PostsFailed")):
        if posts[outcome]:
            _count(name, MetricUnit.Count, posts[outcome])
    for code, count in refusals.items():
        shown = code if code in ON_CALL_REFUSALS else "other"
        _dimensioned("Refusals", MetricUnit.Count, count, code=shown)


def _dimensioned(name: str, unit: MetricUnit, value: float, **dimensions: str) -> None:
    # A metric with its own dimensions goes out as its own EMF blob, so the shared
    # `metrics` object's dimensions stay the same for every other metric.
    if not _counting():  # single_metric prints its blob even with metrics off
        return
    with single_metric(name=name, unit=unit, value=value, namespace=metrics.namespace) as one:
        one.add_dimension(name="service", value=metrics.service or "crossing")
        for key, dimension in dimensions.items():
            one.add_dimension(name=key, value=dimension)


# On Lambda, build the service during the init phase (full CPU, before the first request
# is timed) rather than on the first request. Elsewhere (tests, the local stack) it is
# built on first use, once the environment is set.
if os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
    service()
