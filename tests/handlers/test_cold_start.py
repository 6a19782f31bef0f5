"""Cold starts: what a function's import costs. A phone waits on $connect before its
socket opens, and on the first answer of every other function (docs/performance.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import crossing

FUNCTIONS = Path(crossing.__file__).resolve().parents[1]
# Powertools imports the bare ``botocore`` package (for its user agent): cheap; its client
# machinery is not.
HEAVY = {"crossing.rooms", "crossing.aws", "boto3", "botocore.client", "pydantic", "aws_xray_sdk"}


def fresh(script: str) -> object:
    """What ``script`` prints last (as JSON), run in a fresh interpreter set up as Lambda
    sets one up, with tracing on."""
    env = {
        **os.environ,
        "PYTHONPATH": str(FUNCTIONS),
        "LAMBDA_TASK_ROOT": str(FUNCTIONS),
        "AWS_LAMBDA_FUNCTION_NAME": "crossing-test",
    }
    env.pop("POWERTOOLS_TRACE_DISABLED", None)
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


def test_connect_imports_nothing_it_does_not_use() -> None:
    script = "import json, sys, crossing.handlers.connect; print(json.dumps([*sys.modules]))"
    modules = fresh(script)
    assert isinstance(modules, list)
    assert "aws_lambda_powertools.logging.logger" in modules
    assert [m for m in modules if m in HEAVY or m.rpartition(".")[0] in HEAVY] == []


def test_the_frame_models_are_built_at_the_first_frame_not_at_import() -> None:
    script = """if True:
        import json
        from crossing.rooms import protocol as P
        import crossing.rooms.service
        before = [P.Hello.__pydantic_complete__, "CLIENT_MESSAGE" in vars(P)]
        frame = P.CLIENT_MESSAGE.validate_python({"action": "hello", "seq": 1})
        print(json.dumps([*before, type(frame).__name__, "CLIENT_MESSAGE" in vars(P)]))
    """
    assert fresh(script) == [False, False, "Hello", True]
