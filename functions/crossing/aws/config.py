"""Settings from environment variables, and the adapters built from them.

The same code talks to AWS or to the local stack: only endpoints differ. Nothing
here names an account or a credential; boto3 finds credentials the usual way.

| variable | what | default |
|---|---|---|
| ``CROSSING_STAGE`` | deployment stage name (``local``, ``dev``, ``prod``) | ``local`` |
| ``CROSSING_TABLE`` | the DynamoDB table | ``crossing`` |
| ``CROSSING_CONNECTIONS_URL`` | WebSocket callback URL, or the local stack's | — |
| ``CROSSING_SCHEDULER_GROUP`` | EventBridge Scheduler schedule group | ``crossing`` |
| ``CROSSING_TIMER_TARGET_ARN`` | the timer handler Lambda's ARN | — |
| ``CROSSING_SCHEDULER_ROLE_ARN`` | the role Scheduler assumes to invoke it | — |
| ``CROSSING_QUEUE_URL`` | SQS FIFO queue of frames for the rooms' writers | — (none) |
| ``CROSSING_TIMER_DLQ_ARN`` | SQS queue for timer invocations Scheduler gave up on | — (none) |
| ``CROSSING_PACKS_BUCKET`` | S3 bucket of puzzle packs | — |
| ``CROSSING_PACKS_PREFIX`` | key prefix of the packs | ``packs/`` |
| ``CROSSING_PACKS_DIR`` | a local folder of packs; when set, used instead of S3 | — |
| ``CROSSING_VAPID_PRIVATE_KEY`` | Web Push VAPID private key (base64url; a secret) | — (no push) |
| ``CROSSING_VAPID_PUBLIC_KEY`` | its public key, handed to browsers | — |
| ``CROSSING_VAPID_SECRET`` | secret holding ``{"private_key", "public_key"}`` (cloud) | — |
| ``CROSSING_VAPID_SUBJECT`` | contact for push services (``mailto:``/``https:``) | see below |
| ``CROSSING_USER_POOL_ID`` | the Cognito user pool of accounts | — (no accounts) |
| ``CROSSING_USER_POOL_CLIENT_ID`` | its app client (no secret) | — (no accounts) |
| ``CROSSING_AWS_ENDPOINT_URL`` | the AWS services' endpoint (the local stack) | AWS's |
| ``AWS_REGION`` / ``AWS_DEFAULT_REGION`` | region | ``us-east-1`` |

Without both VAPID keys the service runs with Web Push off; without both user pool
variables it runs with accounts off (guests only). The subject defaults to
``mailto:crossing@example.com``.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crossing.aws import clients
from crossing.aws.accounts import CognitoAccounts
from crossing.aws.dynamo import DynamoStore
from crossing.aws.gateway import ApiGatewayConnections
from crossing.aws.packs import FilePacks, S3Packs
from crossing.aws.push import DeferredPush, WebPush
from crossing.aws.queue import SqsQueue
from crossing.aws.timers import SchedulerTimers

DEFAULT_REGION = "us-east-1"
logger = logging.getLogger(__name__)


class MissingSetting(RuntimeError):
    """An adapter was asked for whose environment variable is not set."""

    def __init__(self, variable: str, what: str) -> None:
        self.variable = variable
        super().__init__(f"set {variable} ({what})")


@dataclass(frozen=True)
class Settings:
    stage: str = "local"
    table: str = "crossing"
    connections_url: str | None = None
    scheduler_group: str = "crossing"
    timer_target_arn: str | None = None
    scheduler_role_arn: str | None = None
    timer_dlq_arn: str | None = None
    queue_url: str | None = None
    packs_bucket: str | None = None
    packs_prefix: str = "packs/"
    packs_dir: str | None = None
    endpoint_url: str | None = None
    region: str = DEFAULT_REGION
    vapid_private_key: str | None = None
    vapid_public_key: str | None = None
    vapid_subject: str = "mailto:crossing@example.com"
    vapid_secret: str | None = None
    user_pool_id: str | None = None
    user_pool_client_id: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            return env.get(name) or None  # an empty variable counts as unset

        return cls(
            stage=get("CROSSING_STAGE") or cls.stage,
            table=get("CROSSING_TABLE") or cls.table,
            connections_url=get("CROSSING_CONNECTIONS_URL"),
            scheduler_group=get("CROSSING_SCHEDULER_GROUP") or cls.scheduler_group,
            timer_target_arn=get("CROSSING_TIMER_TARGET_ARN"),
            scheduler_role_arn=get("CROSSING_SCHEDULER_ROLE_ARN"),
            timer_dlq_arn=get("CROSSING_TIMER_DLQ_ARN"),
            queue_url=get("CROSSING_QUEUE_URL"),
            packs_bucket=get("CROSSING_PACKS_BUCKET"),
            packs_prefix=get("CROSSING_PACKS_PREFIX") or cls.packs_prefix,
            packs_dir=get("CROSSING_PACKS_DIR"),
            endpoint_url=get("CROSSING_AWS_ENDPOINT_URL"),
            region=get("AWS_REGION") or get("AWS_DEFAULT_REGION") or DEFAULT_REGION,
            vapid_private_key=get("CROSSING_VAPID_PRIVATE_KEY"),
            vapid_public_key=get("CROSSING_VAPID_PUBLIC_KEY"),
            vapid_subject=get("CROSSING_VAPID_SUBJECT") or cls.vapid_subject,
            vapid_secret=get("CROSSING_VAPID_SECRET"),
            user_pool_id=get("CROSSING_USER_POOL_ID"),
            user_pool_client_id=get("CROSSING_USER_POOL_CLIENT_ID"),
        )

    def client(self, service: str, endpoint_url: str | None = None) -> Any:
        """A boto3 client for ``service`` in this region, at the configured endpoint if any,
        with the adapters' one configuration (``crossing.aws.clients``). Made now: for the
        services every room function calls (DynamoDB, @connections), in the init phase."""
        return clients.client(
            service, region=self.region, endpoint_url=endpoint_url or self.endpoint_url
        )

    def deferred(self, service: str) -> clients.Deferred:
        """The same, made at its first use: for the services few invocations call."""
        return clients.Deferred(service, region=self.region, endpoint_url=self.endpoint_url)

    def store(self) -> DynamoStore:
        return DynamoStore(self.table, client=self.client("dynamodb"))

    def connections(self) -> ApiGatewayConnections:
        if not self.connections_url:
            raise MissingSetting("CROSSING_CONNECTIONS_URL", "the WebSocket callback URL")
        # Its own endpoint always: the management API lives at the socket's stage URL.
        client = self.client("apigatewaymanagementapi", endpoint_url=self.connections_url)
        return ApiGatewayConnections(self.connections_url, client=client)

    def timers(self) -> SchedulerTimers:
        if not self.timer_target_arn:
            raise MissingSetting("CROSSING_TIMER_TARGET_ARN", "the timer handler's ARN")
        if not self.scheduler_role_arn:
            raise MissingSetting("CROSSING_SCHEDULER_ROLE_ARN", "the role Scheduler assumes")
        return SchedulerTimers(
            self.scheduler_group,
            self.timer_target_arn,
            self.scheduler_role_arn,
            client=self.deferred("scheduler"),
            dead_letter_arn=self.timer_dlq_arn,
        )

    def queue(self) -> SqsQueue | None:
        """The rooms' frame queue; None (each frame applied where it arrives) without it."""
        if not self.queue_url:
            return None
        return SqsQueue(self.queue_url, client=self.deferred("sqs"))

    def packs(self) -> FilePacks | S3Packs:
        if self.packs_dir:
            return FilePacks(self.packs_dir)
        if not self.packs_bucket:
            raise MissingSetting("CROSSING_PACKS_BUCKET", "the S3 bucket of puzzle packs")
        return S3Packs(self.packs_bucket, self.packs_prefix, client=self.deferred("s3"))

    def accounts(self) -> CognitoAccounts | None:
        """Accounts on the stage's user pool; None (guests only) without both ids."""
        if not self.user_pool_id or not self.user_pool_client_id:
            return None
        return CognitoAccounts(
            self.user_pool_id, self.user_pool_client_id, client=self.deferred("cognito-idp")
        )

    def push(self) -> WebPush | DeferredPush | None:
        """Web Push with the stage's VAPID keys; None (notifications off) without them.

        The keys come from the environment (the local stack) or, in the cloud, from the
        Secrets Manager secret ``CROSSING_VAPID_SECRET`` names, read at run time so the
        private key is never part of the function's configuration, and at the first use
        (a hello, a notification) so that no cold start waits for it otherwise. A secret
        that cannot be had turns notifications off then (``DeferredPush``).
        """
        private, public = self.vapid_private_key, self.vapid_public_key
        if private and public:
            return WebPush(private, public, self.vapid_subject)
        if self.vapid_secret:
            return DeferredPush(self._vapid_from_secret, self.vapid_subject)
        return None

    def _vapid_from_secret(self) -> tuple[str | None, str | None]:
        """``{"private_key": …, "public_key": …}`` from the secret; (None, None) if it cannot
        be had. Notifications are one feature: without them the rooms still play, so no
        answer from Secrets Manager may stop the service being built. Logged once (this
        runs once per container) at the level the cause deserves.
        """
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            client = self.client("secretsmanager")
            secret = client.get_secret_value(SecretId=self.vapid_secret)["SecretString"]
            keys = json.loads(secret)
            return keys.get("private_key"), keys.get("public_key")
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code == "ResourceNotFoundException":
                # Not made yet for this stage (docs/operations.md, Web Push).
                logger.warning("notifications off: no secret %s", self.vapid_secret)
            else:
                # The grant names the bare name too, so a missing secret is NotFound;
                # AccessDenied here is a real permission problem.
                logger.error("notifications off: secret %s: %s", self.vapid_secret, code)
        except (BotoCoreError, ValueError, TypeError, AttributeError, KeyError) as error:
            logger.error("notifications off: secret %s unreadable: %r", self.vapid_secret, error)
        return None, None
