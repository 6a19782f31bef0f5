"""Fixtures for the adapters: moto's mock_aws, never a real AWS account."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from crossing.aws.dynamo import DynamoStore
from crossing.aws.memory import MemoryStore
from crossing.aws.table import create_table
from crossing.local.sqlite import Database, SqliteStore
from moto import mock_aws

REGION = "us-east-1"
STORES = ["memory", "dynamo", "sqlite"]
TABLE = "crossing-test"
PACKS = Path(__file__).parent.parent / "data" / "packs"


@pytest.fixture(autouse=True)
def _fake_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    """Credentials that could never reach a real account, and no stray endpoint."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)


@pytest.fixture(scope="session")
def boto_session() -> boto3.Session:
    """One session for every test: making clients from it is fast (models are cached)."""
    return boto3.Session(
        aws_access_key_id="testing", aws_secret_access_key="testing", region_name=REGION
    )


@pytest.fixture
def aws() -> Iterator[None]:
    with mock_aws():
        yield


@pytest.fixture
def dynamodb(aws: None, boto_session: boto3.Session) -> Any:
    client = boto_session.client("dynamodb")
    create_table(client, TABLE)
    return client


@pytest.fixture
def dynamo_store(dynamodb: Any) -> DynamoStore:
    return DynamoStore(TABLE, client=dynamodb)


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[Database]:
    """The local stack's SQLite file, in a fresh folder."""
    db = Database(tmp_path / "crossing.sqlite3")
    yield db
    db.close()


@pytest.fixture(params=["memory", "dynamo"])
def store(request: pytest.FixtureRequest) -> MemoryStore | DynamoStore | SqliteStore:
    """Each test runs once on the fake and once on DynamoDB (moto); the contract tests
    also on the local SQLite (``parametrize("store", STORES, indirect=True)``: the other
    tests move a fake clock that SQLite's TTLs, read from the real one, would not follow)."""
    if request.param == "memory":
        return MemoryStore()
    if request.param == "sqlite":
        return SqliteStore(request.getfixturevalue("sqlite_db"))
    return request.getfixturevalue("dynamo_store")


def count_calls(client: Any) -> Counter[str]:
    """Count the API requests a boto3 client makes, by operation name."""
    calls: Counter[str] = Counter()

    def before_call(model: Any, **_: Any) -> None:
        calls[model.name] += 1

    client.meta.events.register("before-call", before_call)
    return calls
