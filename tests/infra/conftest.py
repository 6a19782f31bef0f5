"""Each construct is synthesised in a bare Stack; the Lambda code is a tiny temporary
directory, so no test needs a real asset build (infra/build_asset.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("aws_cdk", reason="install the infra extra: pip install -e '.[infra]'")
# jsii prints a banner when Node 20 is past its support date (docs/operations.md says to
# prefer Node 22+); in the test output it only buries the results.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

from aws_cdk import App, Stack
from aws_cdk import aws_lambda as lambda_


@pytest.fixture(scope="session")
def asset_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Shaped like the real asset, as far as infra/app.py checks it."""
    root = tmp_path_factory.mktemp("lambda")
    handlers = root / "crossing" / "handlers"
    handlers.mkdir(parents=True)
    (handlers / "ws.py").write_text("def connect(event, context):\n    return {}\n")
    return root


@pytest.fixture
def code(asset_dir: Path) -> lambda_.Code:
    return lambda_.Code.from_asset(str(asset_dir))


@pytest.fixture
def stack() -> Stack:
    return Stack(App(), "Test")
