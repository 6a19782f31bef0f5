"""The WebSocket API: $connect, $disconnect, $default, its stage and the five room functions.

Entry points are ``crossing.handlers.connect.handler`` (its own module: a cold start
that imports nothing of the rooms) and ``crossing.handlers.ws.disconnect``, ``.message``,
``.consume`` and ``.timer`` (the last two are not routes: the frame queue invokes the
consumer, see ``frames.py``, and Scheduler the timer, see ``timers.py``).
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Annotations, ArnFormat, RemovalPolicy, Stack
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.access_logs import WEBSOCKET_FIELDS, access_logs
from infra.frames import CONSUMER_TIMEOUT_S
from infra.functions import game_function

HANDLERS = "crossing.handlers.ws"
CONNECT_HANDLER = "crossing.handlers.connect.handler"
ACCESS_LOGS_OFF = (
    "The WebSocket stage writes no access logs: they need the account's API Gateway "
    "CloudWatch Logs role, which this stack does not set (it is one per account and "
    "region). Once `aws apigateway get-account` shows a cloudwatchRoleArn, deploy with "
    "-c websocketAccessLogs=true (docs/operations.md, Account prerequisites)."
)
THROTTLE = apigw.ThrottleSettings(rate_limit=2_000, burst_limit=1_000)
"""Every route of the stage, together: well under the account's 10,000 per second, so a
runaway client or a flood on one stage cannot take the region's other stages down.
Per player, the rooms rate-limit themselves (docs/operations.md, Scale)."""


class Sockets(Construct):
    """Every function gets ``environment`` plus ``CROSSING_CONNECTIONS_URL`` (the stage's
    https callback URL). Grants are the stack's: it knows which unit needs what."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        stage_name: str,
        code: lambda_.Code,
        environment: Mapping[str, str],
        timer_function_name: str,
        log_retention: logs.RetentionDays,
        removal_policy: RemovalPolicy,
        access_log: bool = True,
    ) -> None:
        """``access_log``: the stage writes access logs. Only where the account's API
        Gateway CloudWatch Logs role is set: without it the stage cannot be created."""
        super().__init__(scope, id)
        # Routes are added after the functions: their environment needs the API's id.
        self.api = apigw.WebSocketApi(self, "Api", description="Crossing Words rooms")
        self.stage = apigw.WebSocketStage(
            self,
            "Stage",
            web_socket_api=self.api,
            stage_name=stage_name,
            auto_deploy=True,
            throttle=THROTTLE,
            access_log_settings=access_logs(
                self,
                "AccessLogs",
                WEBSOCKET_FIELDS,
                retention=log_retention,
                removal_policy=removal_policy,
            )
            if access_log
            else None,
        )
        self.access_log = access_log
        if not access_log:
            Annotations.of(self.stage).add_warning_v2(
                "crossing:websocket-access-logs-off", ACCESS_LOGS_OFF
            )
        env = {**environment, "CROSSING_CONNECTIONS_URL": self.stage.callback_url}

        def make(name: str, handler: str, **knobs: object) -> lambda_.Function:
            return game_function(
                self,
                name,
                code=code,
                handler=handler,
                environment=env,
                log_retention=log_retention,
                removal_policy=removal_policy,
                **knobs,  # type: ignore[arg-type]
            )

        # $connect only counts the connection (nothing is posted before it returns).
        self.connect = make("Connect", CONNECT_HANDLER, memory_mb=256)
        self.disconnect = make("Disconnect", f"{HANDLERS}.disconnect")
        self.message = make("Message", f"{HANDLERS}.message")
        # Each room's queued frames, up to ten at a time: one read, one write, the posts.
        self.consume = make("Consume", f"{HANDLERS}.consume", timeout_seconds=CONSUMER_TIMEOUT_S)
        # A timer may apply several due events and fan out: give it more time.
        self.timer = make(
            "Timer", f"{HANDLERS}.timer", timeout_seconds=30, function_name=timer_function_name
        )

        for route, function in (
            ("$connect", self.connect),
            ("$disconnect", self.disconnect),
            ("$default", self.message),
        ):
            self.api.add_route(
                route,
                integration=integrations.WebSocketLambdaIntegration(
                    f"{function.node.id}Integration", function
                ),
            )

    def grant_post(self, grantee: iam.IGrantable) -> None:
        """Post to this stage's connections: the one @connections call the gateway makes."""
        iam.Grant.add_to_principal(
            grantee=grantee,
            actions=["execute-api:ManageConnections"],
            resource_arns=[
                Stack.of(self).format_arn(
                    service="execute-api",
                    resource=self.api.api_id,
                    resource_name=f"{self.stage.stage_name}/POST/@connections/*",
                    arn_format=ArnFormat.SLASH_RESOURCE_NAME,
                )
            ],
        )

    @property
    def room_functions(self) -> tuple[lambda_.Function, ...]:
        """The functions that load, step and write rooms, post to players and arm timers."""
        return (self.disconnect, self.message, self.consume, self.timer)

    @property
    def functions(self) -> dict[str, lambda_.Function]:
        return {
            "connect": self.connect,
            "disconnect": self.disconnect,
            "message": self.message,
            "consume": self.consume,
            "timer": self.timer,
        }

    @property
    def url(self) -> str:
        """wss:// URL for the client."""
        return self.stage.url

    @property
    def callback_url(self) -> str:
        """https:// URL the handlers post to (@connections)."""
        return self.stage.callback_url
