"""Settings every test shares, and one local stack for the whole session."""

import os
from collections.abc import Iterator

import pytest

# Powertools reads these when a handler module builds its Logger and Metrics,
# so they are set before any test imports a handler.
os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "crossing-test")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "CrossingWordsTest")


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """``crossing serve`` as the README starts it (one process, SQLite in a folder of its
    own), in a child process: what the browser tests and the protocol tests play on."""
    from tests.local.served import Served

    # Seeded: the same deals and Duel bags every run, so a browser test that reads a
    # board (the screenshot reader's) meets the same board each time.
    server = Served(tmp_path_factory.mktemp("served") / "data", env={"CROSSING_TEST_SEED": "7"})
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def local_stack() -> Iterator[object]:
    """The stack on moto in this process: the cloud's adapters (DynamoDB, Scheduler,
    S3, Cognito) end to end through real WebSockets. It sets the handlers' environment,
    so two at once would fight over it: every test that needs one shares this one."""
    from crossing.local.serve import running

    with running(backend="moto") as stack:
        yield stack


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests on the moto stack run last: a ``mock_aws`` test resets moto's backends in
    this process, which would wipe the running stack's table and user pool."""

    def on_moto(item: pytest.Item) -> bool:
        return "local_stack" in getattr(item, "fixturenames", ()) or "[moto]" in item.nodeid

    items.sort(key=on_moto)
