"""Stored API Gateway events and a stand-in Lambda context for the handler tests."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

EVENTS = Path(__file__).parent / "events"


@dataclass
class FakeLambdaContext:
    function_name: str = "crossing-test"
    memory_limit_in_mb: int = 256
    invoked_function_arn: str = "arn:aws:lambda:eu-west-1:123456789012:function:crossing-test"
    aws_request_id: str = "52fdfc07-2182-454f-963f-5f0f9a621d72"
    remaining_ms: int = 5_000  # the consumer's timeout

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms


def load_event(name: str) -> dict[str, Any]:
    return json.loads((EVENTS / f"{name}.json").read_text())


@pytest.fixture
def context() -> FakeLambdaContext:
    return FakeLambdaContext()
