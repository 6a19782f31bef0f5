"""Each construct is synthesised in a bare Stack; the Lambda code is a tiny temporary
directory, so no test needs a real asset build (infra/build_asset.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import infra  # noqa: F401  (before aws_cdk: it quiets jsii's Node banner)

pytest.importorskip("aws_cdk", reason="install the infra extra: pip install -e '.[infra]'")

from aws_cdk import App, Stack
from aws_cdk import aws_lambda as lambda_

from tests.infra.lambda_python import (
    lambda_python,
    pytest_collection_modifyitems,
    pytest_report_collectionfinish,
)

__all__ = [  # pytest finds them here
    "lambda_python",
    "pytest_collection_modifyitems",
    "pytest_report_collectionfinish",
]


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
