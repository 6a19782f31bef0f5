"""Settings from the environment, and adapters that talk where the settings say."""

from __future__ import annotations

import pytest
from crossing.aws import clients
from crossing.aws.accounts import CognitoAccounts
from crossing.aws.config import MissingSetting, Settings
from crossing.aws.dynamo import DynamoStore
from crossing.aws.packs import FilePacks, S3Packs
from crossing.aws.timers import SchedulerTimers

from tests.aws.conftest import PACKS

FULL = {
    "CROSSING_STAGE": "dev",
    "CROSSING_TABLE": "crossing-dev",
    "CROSSING_CONNECTIONS_URL": "https://abc.execute-api.eu-west-1.amazonaws.com/dev",
    "CROSSING_SCHEDULER_GROUP": "crossing-dev",
    "CROSSING_TIMER_TARGET_ARN": "arn:aws:lambda:eu-west-1:123456789012:function:timer",
    "CROSSING_SCHEDULER_ROLE_ARN": "arn:aws:iam::123456789012:role/scheduler",
    "CROSSING_PACKS_BUCKET": "packs-dev",
    "CROSSING_PACKS_PREFIX": "v1/",
    "CROSSING_USER_POOL_ID": "eu-west-1_AbCdEf123",
    "CROSSING_USER_POOL_CLIENT_ID": "1example23456789",
    "AWS_REGION": "eu-west-1",
}


def test_defaults_with_an_empty_environment():
    settings = Settings.from_env({})
    assert settings == Settings()
    assert (settings.stage, settings.table, settings.region) == ("local", "crossing", "us-east-1")
    assert settings.endpoint_url is None


def test_every_variable_is_read():
    settings = Settings.from_env(FULL)
    assert settings == Settings(
        stage="dev",
        table="crossing-dev",
        connections_url=FULL["CROSSING_CONNECTIONS_URL"],
        scheduler_group="crossing-dev",
        timer_target_arn=FULL["CROSSING_TIMER_TARGET_ARN"],
        scheduler_role_arn=FULL["CROSSING_SCHEDULER_ROLE_ARN"],
        packs_bucket="packs-dev",
        packs_prefix="v1/",
        region="eu-west-1",
        user_pool_id="eu-west-1_AbCdEf123",
        user_pool_client_id="1example23456789",
    )


def test_empty_variables_count_as_unset_and_aws_default_region_is_a_fallback():
    settings = Settings.from_env({"CROSSING_TABLE": "", "AWS_DEFAULT_REGION": "ap-south-1"})
    assert settings.table == "crossing"
    assert settings.region == "ap-south-1"


def test_adapters_talk_to_aws_in_the_configured_region():
    settings = Settings.from_env(FULL)
    store = settings.store()
    assert isinstance(store, DynamoStore)
    assert store.table_name == "crossing-dev"
    assert store.client.meta.endpoint_url == "https://dynamodb.eu-west-1.amazonaws.com"
    connections = settings.connections()
    assert connections.client.meta.endpoint_url == FULL["CROSSING_CONNECTIONS_URL"]
    timers = settings.timers()
    assert isinstance(timers, SchedulerTimers)
    assert (timers.group, timers.target_arn, timers.role_arn) == (
        "crossing-dev",
        FULL["CROSSING_TIMER_TARGET_ARN"],
        FULL["CROSSING_SCHEDULER_ROLE_ARN"],
    )
    packs = settings.packs()
    assert isinstance(packs, S3Packs)
    assert (packs.bucket, packs.prefix) == ("packs-dev", "v1/")
    accounts = settings.accounts()
    assert isinstance(accounts, CognitoAccounts)
    assert (accounts.user_pool_id, accounts.client_id) == (
        "eu-west-1_AbCdEf123",
        "1example23456789",
    )
    assert accounts.client.meta.endpoint_url == "https://cognito-idp.eu-west-1.amazonaws.com"


def test_a_cold_start_makes_only_the_clients_every_request_needs(monkeypatch):
    """DynamoDB and @connections in the init phase; Scheduler, SQS, S3 and Cognito, which
    most invocations never call, at their first call (a client is 5 to 25 ms of CPU)."""
    made = []
    make = clients.client

    def counted(service, **where):
        made.append(service)
        return make(service, **where)

    monkeypatch.setattr(clients, "client", counted)
    settings = Settings.from_env({**FULL, "CROSSING_QUEUE_URL": "https://sqs/frames.fifo"})
    store, connections = settings.store(), settings.connections()
    timers, queue, packs, accounts = (
        settings.timers(),
        settings.queue(),
        settings.packs(),
        settings.accounts(),
    )
    assert made == ["dynamodb", "apigatewaymanagementapi"]
    assert packs.client.meta.endpoint_url == "https://s3.eu-west-1.amazonaws.com"
    assert packs.client.meta.region_name == "eu-west-1"
    assert made == ["dynamodb", "apigatewaymanagementapi", "s3"]  # once, then kept
    assert accounts is not None and queue is not None
    for adapter in (timers, queue, accounts, store, connections):
        adapter.client.meta  # noqa: B018  # the first use
    assert sorted(made) == sorted(
        ["dynamodb", "apigatewaymanagementapi", "s3", "scheduler", "sqs", "cognito-idp"]
    )


def test_the_local_stack_sets_one_endpoint_and_a_packs_folder():
    local = "http://127.0.0.1:5005"
    settings = Settings.from_env(
        {
            **FULL,
            "CROSSING_AWS_ENDPOINT_URL": local,
            "CROSSING_CONNECTIONS_URL": "http://127.0.0.1:8000",
            "CROSSING_PACKS_DIR": str(PACKS),
        }
    )
    assert settings.store().client.meta.endpoint_url == local
    assert settings.timers().client.meta.endpoint_url == local
    assert settings.accounts().client.meta.endpoint_url == local
    assert settings.connections().client.meta.endpoint_url == "http://127.0.0.1:8000"
    packs = settings.packs()
    assert isinstance(packs, FilePacks)
    assert len(packs.puzzles("mini")) == 4


@pytest.mark.parametrize(
    ("adapter", "variable"),
    [
        ("connections", "CROSSING_CONNECTIONS_URL"),
        ("timers", "CROSSING_TIMER_TARGET_ARN"),
        ("timers", "CROSSING_SCHEDULER_ROLE_ARN"),
        ("packs", "CROSSING_PACKS_BUCKET"),
    ],
)
def test_a_missing_setting_is_named(adapter, variable):
    settings = Settings.from_env({k: v for k, v in FULL.items() if k != variable})
    with pytest.raises(MissingSetting, match=variable):
        getattr(settings, adapter)()


def test_in_the_cloud_the_web_push_keys_come_from_the_secret():
    import json

    import boto3
    from crossing.aws.push import generate_keys
    from moto import mock_aws

    private, public = generate_keys()
    env = {"CROSSING_VAPID_SECRET": "crossing/test/vapid", "AWS_REGION": "us-east-1"}
    with mock_aws():
        settings = Settings.from_env(env)
        off = settings.push()
        assert off is not None and off.public_key is None  # no secret yet: notifications off
        boto3.client("secretsmanager", region_name="us-east-1").create_secret(
            Name="crossing/test/vapid",
            SecretString=json.dumps({"private_key": private, "public_key": public}),
        )
        push = Settings.from_env(env).push()
        assert push is not None
        assert push.public_key == public
        assert off.public_key is None  # read once a container, as before


def test_the_secret_is_read_at_the_first_hello_or_notification_not_at_a_cold_start(
    monkeypatch,
):
    asked = []

    class Secrets:
        def get_secret_value(self, SecretId):
            asked.append(SecretId)
            return {"SecretString": '{"private_key": "k", "public_key": "p"}'}

    monkeypatch.setattr(Settings, "client", lambda self, service, endpoint_url=None: Secrets())
    push = Settings.from_env({"CROSSING_VAPID_SECRET": "crossing/test/vapid"}).push()
    assert push is not None and asked == []
    assert (push.public_key, push.public_key) == ("p", "p")
    assert asked == ["crossing/test/vapid"]


@pytest.mark.parametrize("variable", ["CROSSING_USER_POOL_ID", "CROSSING_USER_POOL_CLIENT_ID"])
def test_without_both_user_pool_ids_accounts_are_off(variable):
    settings = Settings.from_env({**FULL, variable: ""})
    assert settings.accounts() is None
    assert Settings.from_env({}).accounts() is None


@pytest.mark.parametrize(
    ("answer", "level"),
    [
        ({"Error": {"Code": "AccessDeniedException", "Message": "no"}}, "ERROR"),
        ({"Error": {"Code": "ResourceNotFoundException", "Message": "none"}}, "WARNING"),
        ({"Error": {"Code": "ThrottlingException", "Message": "slow down"}}, "ERROR"),
        ({"SecretString": "not json"}, "ERROR"),
        ({"SecretString": "[1, 2]"}, "ERROR"),
    ],
    ids=["denied", "missing", "throttled", "not-json", "not-an-object"],
)
def test_a_secret_that_cannot_be_had_turns_notifications_off_and_says_so_once(
    monkeypatch, caplog, answer, level
):
    from botocore.exceptions import ClientError

    class Secrets:
        def get_secret_value(self, SecretId):
            if "Error" in answer:
                raise ClientError(answer, "GetSecretValue")
            return answer

    settings = Settings.from_env({"CROSSING_VAPID_SECRET": "crossing/test/vapid"})
    monkeypatch.setattr(Settings, "client", lambda self, service, endpoint_url=None: Secrets())
    push = settings.push()  # the rooms are built and play on without it
    assert push is not None
    with caplog.at_level("WARNING", logger="crossing.aws.config"):
        assert push.public_key is None  # a phone is told there are no notifications
        with pytest.raises(RuntimeError, match="notifications are off"):
            push.send({"endpoint": "https://push.example/x"}, {"title": "Your turn"})
    [record] = caplog.records
    assert record.levelname == level
    assert "notifications off" in record.getMessage()


def test_every_client_fails_fast_retries_in_standard_mode_and_has_a_connection_per_poster():
    """botocore's defaults waited 60 s on a stuck connection and kept a pool of 10 behind
    the fan-out's 16 posting threads: six posts of each round waited for a connection."""
    from crossing.rooms.fanout import WORKERS

    settings = Settings.from_env({**FULL, "CROSSING_QUEUE_URL": "https://sqs/frames.fifo"})
    made = {
        "dynamodb": settings.store().client,
        "apigatewaymanagementapi": settings.connections().client,
        "scheduler": settings.timers().client,
        "sqs": settings.queue().client,
        "s3": settings.packs().client,
        "cognito-idp": settings.accounts().client,
        "secretsmanager": settings.client("secretsmanager"),
    }
    for service, client in made.items():
        config = client.meta.config
        assert config.connect_timeout <= 5 and config.read_timeout <= 5, service
        assert config.retries["mode"] == "standard", service
        assert config.retries["total_max_attempts"] <= 3, service
        assert config.max_pool_connections >= WORKERS, service
