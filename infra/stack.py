"""The stack only composes: it builds each unit, wires the grants and adds the outputs."""

from __future__ import annotations

from pathlib import Path

from aws_cdk import Aws, CfnOutput, RemovalPolicy, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra.accounts import Accounts
from infra.frames import Frames
from infra.functions import retention
from infra.monitoring import Monitoring
from infra.nag import acknowledge
from infra.settings import SERVICE, StageSettings
from infra.site import PACKS_PREFIX, Site, SiteContent
from infra.sockets import Sockets
from infra.solver_api import SolverApi
from infra.table import GameTable
from infra.timers import Timers

ROOT = Path(__file__).resolve().parent.parent
TABLE_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:Query",
)
"""Every call ``crossing.aws.dynamo`` makes: one item at a time, and one Query (the Duel
lobby's open seeks, one partition); never a Scan or a Batch."""


def packs_dir(root: Path = ROOT) -> Path:
    """The built packs when there are any, else the small packs written for the tests."""
    built = root / "puzzles" / "packs"
    return built if any(built.glob("*.json")) else root / "tests" / "data" / "packs"


class CrossingStack(Stack):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        settings: StageSettings,
        code: lambda_.Code,
        frontend_dir: Path = ROOT / "frontend",
        packs: Path | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(scope, id, **kwargs)  # type: ignore[arg-type]
        keep = RemovalPolicy.RETAIN if settings.production else RemovalPolicy.DESTROY
        secrets = f"arn:{Aws.PARTITION}:secretsmanager:{Aws.REGION}:{Aws.ACCOUNT_ID}"
        logs = retention(settings.log_retention_days)

        table = GameTable(self, "Data", table_name=settings.table_name, removal_policy=keep).table
        accounts = Accounts(
            self, "Accounts", pool_name=settings.user_pool_name, removal_policy=keep
        )
        timers = Timers(
            self,
            "Timers",
            group_name=settings.schedule_group,
            timer_function_name=settings.timer_function_name,
        )
        frames = Frames(self, "Frames")
        powertools = {
            "POWERTOOLS_SERVICE_NAME": SERVICE,
            "POWERTOOLS_METRICS_NAMESPACE": settings.metrics_namespace,
            "POWERTOOLS_LOG_LEVEL": settings.log_level,
        }
        solver = SolverApi(
            self,
            "Solver",
            code=code,
            environment={"CROSSING_STAGE": settings.stage, **powertools},
            log_retention=logs,
            removal_policy=keep,
            solve_concurrency=settings.solve_concurrency,
            rules_concurrency=settings.rules_concurrency,
        )
        site = Site(self, "Site", api_endpoint=solver.url, removal_policy=keep)
        sockets = Sockets(
            self,
            "Sockets",
            stage_name=settings.stage,
            code=code,
            environment={
                # Exactly what crossing.aws.config reads (CROSSING_CONNECTIONS_URL: Sockets).
                "CROSSING_STAGE": settings.stage,
                "CROSSING_TABLE": table.table_name,
                "CROSSING_SCHEDULER_GROUP": timers.group_name,
                "CROSSING_TIMER_TARGET_ARN": timers.timer_function_arn,
                "CROSSING_SCHEDULER_ROLE_ARN": timers.role.role_arn,
                "CROSSING_TIMER_DLQ_ARN": timers.dead_letters.queue_arn,
                "CROSSING_QUEUE_URL": frames.queue.queue_url,
                "CROSSING_PACKS_BUCKET": site.bucket.bucket_name,
                "CROSSING_PACKS_PREFIX": PACKS_PREFIX,
                # Web Push: the key pair is read from this secret at run time, never put in
                # the function's configuration (CROSSING_VAPID_*_KEY are for the local stack).
                "CROSSING_VAPID_SECRET": settings.vapid_secret,
                "CROSSING_VAPID_SUBJECT": settings.vapid_subject,
                **accounts.environment,  # CROSSING_USER_POOL_ID and _CLIENT_ID
                **powertools,
            },
            timer_function_name=settings.timer_function_name,
            log_retention=logs,
            removal_policy=keep,
            access_log=settings.websocket_access_logs,
        )
        # Least privilege: $connect touches nothing; the room functions read and write
        # items of the table, read packs, post to connections and arm timers.
        for function in sockets.room_functions:
            table.grant(function, *TABLE_ACTIONS)
            site.grant_read_packs(function)
            sockets.grant_post(function)
            timers.grant_arm(function)
            function.add_to_role_policy(
                iam.PolicyStatement(
                    actions=["secretsmanager:GetSecretValue"],
                    # The bare name as well as the name plus the six characters Secrets
                    # Manager appends: asked for by name, a secret that does not exist yet
                    # is then ResourceNotFound (notifications off, quietly), and
                    # AccessDenied always means a real permission problem.
                    resources=[
                        f"{secrets}:secret:{settings.vapid_secret}",
                        f"{secrets}:secret:{settings.vapid_secret}-??????",
                    ],
                )
            )
            # The group is named, not referenced, in the environment: create it first.
            function.node.add_dependency(timers.group)

        # $default queues a room's frames; the consumer only takes them (its event source).
        frames.grant_send(sockets.message)
        frames.consume_with(sockets.consume)

        # Sign-up and sign-in arrive as messages; only sign-up's confirmation needs IAM.
        accounts.grant_confirm(sockets.message)

        SiteContent(
            self,
            "Content",
            site=site,
            frontend_dir=str(frontend_dir),
            packs_dir=str(packs or packs_dir()),
            config={"stage": settings.stage, "websocket": sockets.url, "solver": solver.url},
        )
        Monitoring(
            self,
            "Monitoring",
            dashboard_name=f"crossing-{settings.stage}",
            functions={**sockets.functions, **solver.functions},
            table=table,
            dead_letters=timers.dead_letters,
            frames=frames.queue,
            frame_dead_letters=frames.dead_letters,
            socket_api_id=sockets.api.api_id,
            socket_stage=settings.stage,
            namespace=settings.metrics_namespace,
            service=SERVICE,
            alarm_email=settings.alarm_email,
        )
        acknowledge(
            self,
            accounts=accounts,
            timers=timers,
            frames=frames,
            site=site,
            sockets=sockets,
            solver=solver,
            stage=settings.stage,
            group=settings.schedule_group,
        )
        CfnOutput(self, "WebUrl", value=site.url, description="the game, in a browser")
        CfnOutput(self, "WebSocketUrl", value=sockets.url, description="wss:// for the client")
        CfnOutput(self, "HttpApiUrl", value=solver.url, description="the Solver's HTTP API")
        CfnOutput(self, "TableName", value=table.table_name)
        CfnOutput(self, "UserPoolId", value=accounts.pool.user_pool_id)
        # What the runbook's dead-letter replays name (docs/operations.md, Alarms).
        CfnOutput(self, "ConsumeFunctionName", value=sockets.consume.function_name)
        CfnOutput(self, "FrameDeadLetterQueueUrl", value=frames.dead_letters.queue_url)
        CfnOutput(self, "TimerDeadLetterQueueUrl", value=timers.dead_letters.queue_url)
