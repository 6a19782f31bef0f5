"""Settings every test shares, and one local stack for the whole session."""

import os
from collections.abc import Iterator

import pytest

# Powertools reads these when a handler module builds its Logger and Metrics,
# so they are set before any test imports a handler.
os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "crossing-test")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "CrossingWordsTest")


@pytest.fixture(scope="session")
def local_stack() -> Iterator[object]:
    """The local stack sets the handlers' environment, so two at once in one process
    would fight over it: every test that needs one shares this one. It runs on moto,
    so the AWS adapters (DynamoDB, Scheduler, S3, Cognito) are what the tests drive."""
    from crossing.local.serve import running

    with running(backend="moto") as stack:
        yield stack


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests on the local stack run last: a ``mock_aws`` test resets moto's backends in
    this process, which would wipe the running local stack's table and user pool."""
    items.sort(key=lambda item: "local_stack" in getattr(item, "fixturenames", ()))
