"""What an operator needs at a glance: one dashboard, a few alarms, one SNS topic.

The game's own metrics are Powertools EMF metrics in ``namespace`` with the dimension
``service`` (POWERTOOLS_SERVICE_NAME). ``EMITTED`` are what the handlers emit today;
``WANTED`` are graphed already and wait for the handlers (docs/operations.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from constructs import Construct

FIVE_MINUTES = Duration.minutes(5)
ONE_MINUTE = Duration.minutes(1)

EMITTED = (
    "Connections",
    "Disconnections",
    "Messages",
    "LettersTyped",
    "TimersFired",
    "TimersApplied",
    "Solved",
    "SolveFailed",
    "SolveRefused",
    "Posts",
    "PostsGone",
    "PostsFailed",
    "Refusals",
    "ActionLatency",
    "ColdStart",
    "KeepAlives",
    "FramesQueued",
    "FramesApplied",
    "FramesFailed",
    "ConsumeLatency",
)
LATENCY_ACTIONS = ("type", "hello", "join", "start", "done", "tick", "duel_play")
"""The actions whose latency the top row shows (every action is emitted)."""
REFUSAL_CODES = ("busy", "too-fast", "too-many", "no-puzzles", "bad-message", "full", "other")
"""``crossing.handlers.ws.ON_CALL_REFUSALS`` and ``other``."""
MODES = ("race", "together")
SIZES = ("mini", "small", "midi", "large")
WANTED = {
    "RoomsStarted": "Count; dimensions service, mode (race|together), size (mini|small|midi|large)",
    "Checks": "Count; dimensions service, mode",
    "BotActions": "Count; dimensions service, game (crossword|duel)",
    "TimerLateness": "Milliseconds, now minus the due time a fired timer applied; service",
    "DuelGamesStarted": "Count; service",
    "DuelGamesFinished": "Count; service",
    "DuelMoves": "Count; service",
}
TIMER_LATENESS_LIMIT_MS = 90_000
"""Scheduler promises the minute; half a minute more means timers are being retried."""
FRAME_AGE_LIMIT_S = 10
"""A frame is applied well within a second of its arrival; one still queued after ten
has a room frozen on the players' phones (handed back at least once: the visibility
timeout is seven seconds)."""
FAILED_FRAMES_LIMIT = 5
"""Frames the consumer handed back in five minutes, each after its own tries: one
room's blip is a frame or two; five is the store failing, or a bug."""


class Monitoring(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        dashboard_name: str,
        functions: Mapping[str, lambda_.IFunction],
        table: dynamodb.ITable,
        dead_letters: sqs.IQueue,
        socket_api_id: str,
        socket_stage: str,
        namespace: str,
        service: str,
        frames: sqs.IQueue,
        frame_dead_letters: sqs.IQueue,
        alarm_email: str | None = None,
    ) -> None:
        super().__init__(scope, id)
        self.namespace = namespace
        self.service = service
        self.topic = sns.Topic(
            self, "Alarms", display_name="Crossing Words alarms", enforce_ssl=True
        )
        if alarm_email:
            self.topic.add_subscription(subscriptions.EmailSubscription(alarm_email))
        self.dashboard = cw.Dashboard(self, "Dashboard", dashboard_name=dashboard_name)
        self.alarms: list[cw.Alarm] = []

        socket = {"ApiId": socket_api_id, "Stage": socket_stage}
        self.dashboard.add_widgets(cw.TextWidget(markdown=_INTRO, width=24, height=2))
        self._frames_row(frames, frame_dead_letters, dead_letters)
        self._top_row(functions, table)
        self.dashboard.add_widgets(
            _graph(
                "WebSocket connections and messages",
                [
                    _aws("AWS/ApiGateway", "ConnectCount", socket),
                    _aws("AWS/ApiGateway", "MessageCount", socket),
                ],
            ),
            _graph(
                "WebSocket errors",
                [
                    _aws("AWS/ApiGateway", name, socket)
                    for name in ("ClientError", "ExecutionError", "IntegrationError")
                ],
            ),
            _graph(
                "WebSocket integration latency (p50, p99)",
                [
                    _aws("AWS/ApiGateway", "IntegrationLatency", socket, stat)
                    for stat in ("p50", "p99")
                ],
            ),
        )
        self._functions(functions)
        self._table(table)
        self._game()

    def _frames_row(
        self, frames: sqs.IQueue, frame_dead_letters: sqs.IQueue, dead_letters: sqs.IQueue
    ) -> None:
        """The first row: is a room stuck, or anything given up on? The consumer returns
        normally when frames fail (it hands them back to the queue), so its ``Errors``
        never say so: these alarms do."""
        g = self.game_metric
        age = frames.metric_approximate_age_of_oldest_message(
            statistic="Maximum", period=ONE_MINUTE, label="oldest frame (s)"
        )
        failed = g("FramesFailed", period=FIVE_MINUTES)
        alarms = [
            self._alarm(
                "FrameAge",
                age,
                threshold=FRAME_AGE_LIMIT_S,
                what="a room's frames wait in the queue (a room frozen)",
            ),
            self._alarm(
                "FramesFailed",
                failed,
                threshold=FAILED_FRAMES_LIMIT,
                what="the consumer hands frames back (the store failing, or a bug)",
            ),
            self._dead_letters_alarm(
                "FrameDeadLetters", frame_dead_letters, "a player's frame was given up on"
            ),
            self._dead_letters_alarm(
                "TimerDeadLetters", dead_letters, "a timer invocation was given up on"
            ),
        ]
        depths = [
            queue.metric_approximate_number_of_messages_visible(
                statistic="Maximum", period=ONE_MINUTE, label=f"{what} in the dead-letter queue"
            )
            for queue, what in ((frame_dead_letters, "frames"), (dead_letters, "timers"))
        ]
        self.dashboard.add_widgets(
            cw.AlarmStatusWidget(alarms=alarms, title="Rooms stuck or given up on", width=6),
            cw.AlarmWidget(alarm=alarms[0], title="Frame queue: oldest frame (s)", width=6),
            _graph(
                "Frames failed / 5 min (right: applied)",
                [failed],
                width=6,
                right=[g("FramesApplied", period=FIVE_MINUTES)],
                threshold=FAILED_FRAMES_LIMIT,
            ),
            _graph("Dead-letter queues: frames and timers", depths, width=6),
        )

    def _top_row(self, functions: Mapping[str, lambda_.IFunction], table: dynamodb.ITable) -> None:
        """On-call's minute: is the game answering, refusing, losing posts or timers?"""
        g = self.game_metric
        conflicts = table.metric_conditional_check_failed_requests(
            statistic="Sum", period=ONE_MINUTE
        )
        puts = table.metric(
            "SuccessfulRequestLatency",
            dimensions_map={"TableName": table.table_name, "Operation": "PutItem"},
            statistic="SampleCount",
            period=ONE_MINUTE,
        )
        self.dashboard.add_widgets(
            _graph("Letters typed / min", [g("LettersTyped", period=ONE_MINUTE)], width=4),
            _graph(
                "Latency by action p50 (ms)",
                [
                    g("ActionLatency", statistic="p50", period=ONE_MINUTE, action=a)
                    for a in LATENCY_ACTIONS
                ],
                width=5,
            ),
            _graph(
                "Latency by action p99 (ms)",
                [
                    g("ActionLatency", statistic="p99", period=ONE_MINUTE, action=a)
                    for a in LATENCY_ACTIONS
                ],
                width=5,
            ),
            _graph(
                "Refusals by code / min",
                [g("Refusals", period=ONE_MINUTE, code=c) for c in REFUSAL_CODES],
                width=5,
            ),
            _graph(
                "Posts failed and 410 Gone / min (right: all posts)",
                [g("PostsFailed", period=ONE_MINUTE), g("PostsGone", period=ONE_MINUTE)],
                width=5,
                right=[g("Posts", period=ONE_MINUTE)],
            ),
        )
        self.dashboard.add_widgets(
            _graph(
                "Write conflicts (% of writes); retries exhausted (busy)",
                [
                    cw.MathExpression(
                        expression="100 * conflicts / (conflicts + puts)",
                        using_metrics={"conflicts": conflicts, "puts": puts},
                        label="conflicts % of conditional writes",
                        period=ONE_MINUTE,
                    )
                ],
                width=8,
                right=[g("Refusals", period=ONE_MINUTE, code="busy")],
            ),
            _graph(
                "Cold starts / min",
                [
                    cw.Metric(
                        namespace=self.namespace,
                        metric_name="ColdStart",
                        dimensions_map={"service": self.service, "function_name": f.function_name},
                        statistic="Sum",
                        period=ONE_MINUTE,
                        label=name,
                    )
                    for name, f in functions.items()
                ],
                width=8,
            ),
            _graph(
                "Timer lateness p99 (ms)",
                [g("TimerLateness", statistic="p99", period=ONE_MINUTE)],
                width=8,
            ),
        )
        self._alarm(
            "TimersDropped",
            _aws("AWS/Scheduler", "InvocationDroppedCount", {}),
            threshold=1,
            what="Scheduler dropped a timer invocation (whole account)",
        )

    # Lambda: per function errors, throttles and duration percentiles, with alarms.
    def _functions(self, functions: Mapping[str, lambda_.IFunction]) -> None:
        errors, throttles, durations = [], [], []
        for name, function in functions.items():
            error = function.metric_errors(period=FIVE_MINUTES, label=name)
            throttle = function.metric_throttles(period=FIVE_MINUTES, label=name)
            errors.append(error)
            throttles.append(throttle)
            durations.append(
                cw.GraphWidget(
                    title=f"{name}: duration p50 / p90 / p99 (ms)",
                    left=[
                        function.metric_duration(statistic=p, period=FIVE_MINUTES, label=p)
                        for p in ("p50", "p90", "p99")
                    ],
                    width=6,
                )
            )
            self._alarm(f"{name}Errors", error, threshold=3, what=f"{name} function errors")
            self._alarm(f"{name}Throttles", throttle, threshold=1, what=f"{name} throttled")
        self.dashboard.add_widgets(
            _graph("Lambda errors", errors), _graph("Lambda throttles", throttles)
        )
        self.dashboard.add_widgets(*durations)

    def _table(self, table: dynamodb.ITable) -> None:
        throttled = cw.MathExpression(
            expression="reads + writes",
            using_metrics={
                "reads": table.metric("ReadThrottleEvents", statistic="Sum"),
                "writes": table.metric("WriteThrottleEvents", statistic="Sum"),
            },
            label="throttle events",
            period=FIVE_MINUTES,
        )
        conflicts = table.metric_conditional_check_failed_requests(
            statistic="Sum", period=FIVE_MINUTES, label="conditional-write conflicts"
        )
        self.dashboard.add_widgets(
            _graph("DynamoDB throttles", [throttled]),
            _graph("DynamoDB conditional-write conflicts (retried)", [conflicts]),
            _graph(
                "DynamoDB consumed capacity",
                [
                    table.metric_consumed_read_capacity_units(period=FIVE_MINUTES),
                    table.metric_consumed_write_capacity_units(period=FIVE_MINUTES),
                ],
            ),
        )
        self._alarm("TableThrottles", throttled, threshold=1, what="DynamoDB throttled")

    def _game(self) -> None:
        g = self.game_metric
        self.dashboard.add_widgets(
            _graph(
                "Players: connections, messages, letters",
                [
                    g("Connections"),
                    g("Disconnections"),
                    g("Messages"),
                    g("LettersTyped"),
                    g("KeepAlives"),
                ],
                width=6,
            ),
            _graph("Timers fired and applied", [g("TimersFired"), g("TimersApplied")], width=6),
            _graph(
                "Frame queue: queued, applied, failed (right: a consumer batch p99, ms)",
                [g("FramesQueued"), g("FramesApplied"), g("FramesFailed")],
                width=6,
                right=[g("ConsumeLatency", statistic="p99")],
            ),
            _graph("Solver", [g("Solved"), g("SolveFailed"), g("SolveRefused")], width=6),
        )
        lateness = g("TimerLateness", statistic="p99")
        self.dashboard.add_widgets(
            _graph(
                "Rooms started by mode and size",
                [g("RoomsStarted", mode=mode, size=size) for mode in MODES for size in SIZES],
                width=12,
            ),
            _graph("Checks", [g("Checks", mode=mode) for mode in MODES], width=6),
            _graph(
                "Bot actions",
                [g("BotActions", game=game) for game in ("crossword", "duel")],
                width=6,
            ),
        )
        self.dashboard.add_widgets(
            _graph(
                "Timer lateness p50 / p99 (ms)", [g("TimerLateness", statistic="p50"), lateness]
            ),
            _graph(
                "Duel games and moves",
                [g("DuelGamesStarted"), g("DuelGamesFinished"), g("DuelMoves")],
            ),
            _graph(
                "Scheduler (whole account)",
                [
                    _aws("AWS/Scheduler", name, {})
                    for name in (
                        "InvocationAttemptCount",
                        "TargetErrorCount",
                        "InvocationDroppedCount",
                    )
                ],
            ),
        )
        self._alarm(
            "TimerLateness",
            lateness,
            threshold=TIMER_LATENESS_LIMIT_MS,
            what="timers fire late",
            periods=3,
        )

    def game_metric(
        self,
        name: str,
        *,
        statistic: str = "Sum",
        period: Duration = FIVE_MINUTES,
        **dimensions: str,
    ) -> cw.Metric:
        """One of the handlers' Powertools metrics (dimension ``service`` plus any others)."""
        return cw.Metric(
            namespace=self.namespace,
            metric_name=name,
            dimensions_map={"service": self.service, **dimensions},
            statistic=statistic,
            period=period,
            label=" ".join([name, *dimensions.values()]),
        )

    def _dead_letters_alarm(self, id: str, queue: sqs.IQueue, what: str) -> cw.Alarm:
        """Anything at all in a dead-letter queue."""
        depth = queue.metric_approximate_number_of_messages_visible(
            statistic="Maximum", period=FIVE_MINUTES
        )
        return self._alarm(id, depth, threshold=1, what=f"{what} (dead-letter queue)")

    def _alarm(
        self, id: str, metric: cw.IMetric, *, threshold: float, what: str, periods: int = 1
    ) -> cw.Alarm:
        alarm = cw.Alarm(
            self,
            id,
            alarm_description=f"{what}: see docs/operations.md, Alarms",
            metric=metric,
            threshold=threshold,
            evaluation_periods=periods,
            comparison_operator=cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            # No data means nothing failed (and no game is running): not an alarm.
            treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
        )
        # OK too: on-call hears when it is over, not only when it starts.
        alarm.add_alarm_action(cw_actions.SnsAction(self.topic))
        alarm.add_ok_action(cw_actions.SnsAction(self.topic))
        self.alarms.append(alarm)
        return alarm


_INTRO = (
    "### Crossing Words\nWhat each widget means and what to do when an alarm fires: "
    "`docs/operations.md`."
)


def _aws(
    namespace: str, name: str, dimensions: Mapping[str, str], statistic: str = "Sum"
) -> cw.Metric:
    return cw.Metric(
        namespace=namespace,
        metric_name=name,
        dimensions_map=dict(dimensions),
        statistic=statistic,
        period=FIVE_MINUTES,
        label=f"{name} {statistic}" if statistic != "Sum" else name,
    )


def _graph(
    title: str,
    metrics: Sequence[cw.IMetric],
    *,
    width: int = 8,
    right: Sequence[cw.IMetric] = (),
    threshold: float | None = None,
) -> cw.GraphWidget:
    """A graph; ``threshold``: its alarm's, drawn as a line on the left axis."""
    lines = [] if threshold is None else [cw.HorizontalAnnotation(value=threshold, label="alarm")]
    return cw.GraphWidget(
        title=title, left=list(metrics), right=list(right), width=width, left_annotations=lines
    )
