"""The Lambda runtime's Python, for the tests that run the built asset
(tests/infra/test_asset_plays.py): they ask for the ``lambda_python`` fixture.

A developer's machine may not have that Python (a stock Debian has 3.11): there those
tests leave the run (deselected), and the run says so once, before the first test, with
how to get it. Under CI (``CI=true``) they are required: without it they fail. The
conftest of tests/infra takes the fixture and the hooks from here.
"""

from __future__ import annotations

import os

import pytest

from infra import build_asset

_FOUND = pytest.StashKey[str | None]()


def runtime_python(config: pytest.Config) -> str | None:
    """Looked for once a session (the finder starts interpreters to ask their version)."""
    if _FOUND not in config.stash:
        config.stash[_FOUND] = build_asset.find_runtime_python()
    return config.stash[_FOUND]


def required() -> bool:
    return os.environ.get("CI") == "true"


def not_run(files: list[str], count: int, required: bool) -> str:
    """What the run says when the runtime is missing: which tests, why, how to get it."""
    version = build_asset.PYTHON_VERSION
    what = f"{', '.join(files)} ({count} test{'s' if count != 1 else ''})"
    why = f"they run the Lambda asset on its runtime, Python {version}, not found here"
    if required:
        return f"{what} FAIL: {why}, and CI=true requires them; {build_asset.how_to_get_runtime()}"
    return f"{what} not run: {why}; to run them, {build_asset.how_to_get_runtime()}"


_SAID = pytest.StashKey[list[str]]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without the runtime, its tests leave the run (CI keeps them, to fail)."""
    needing = [item for item in items if "lambda_python" in getattr(item, "fixturenames", ())]
    if not needing or runtime_python(config) is not None:
        return
    files = sorted({item.nodeid.split("::")[0] for item in needing})
    config.stash[_SAID] = [not_run(files, len(needing), required())]
    if not required():
        config.hook.pytest_deselected(items=needing)
        items[:] = [item for item in items if item not in needing]


def pytest_report_collectionfinish(config: pytest.Config) -> list[str]:
    """Shown once, before the first test runs, whatever the verbosity."""
    return config.stash.get(_SAID, [])


@pytest.fixture(scope="session")
def lambda_python(request: pytest.FixtureRequest) -> str:
    """The runtime's interpreter. Without it the tests that ask for it fail: only CI
    runs them then (elsewhere they left the run); the failure is kept for the session, so
    each reports the same one line."""
    python = runtime_python(request.config)
    if python is None:
        pytest.fail(
            f"no Python {build_asset.PYTHON_VERSION}: {build_asset.how_to_get_runtime()}",
            pytrace=False,
        )
    return python
