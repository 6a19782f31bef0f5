"""$connect's cold start: a phone waits on it before its socket opens."""

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


def test_connect_imports_nothing_it_does_not_use() -> None:
    # A fresh interpreter as Lambda sets it up, tracing on: what the import pulls in.
    env = {
        **os.environ,
        "PYTHONPATH": str(FUNCTIONS),
        "LAMBDA_TASK_ROOT": str(FUNCTIONS),
        "AWS_LAMBDA_FUNCTION_NAME": "crossing-test-connect",
        "_HANDLER": "crossing.handlers.connect.handler",
    }
    env.pop("POWERTOOLS_TRACE_DISABLED", None)
    script = "import json, sys, crossing.handlers.connect; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    modules = json.loads(out.stdout.splitlines()[-1])
    assert "aws_lambda_powertools.logging.logger" in modules
    assert [m for m in modules if m in HEAVY or m.rpartition(".")[0] in HEAVY] == []
