"""Cold start of each Lambda function from the built asset: import (Lambda's init phase,
the service built included) plus the first request, in a fresh clean interpreter.

    python3 infra/build_asset.py            # or pass --asset to one built already
    python benchmarks/cold_start.py [--asset build/lambda] [--runs 3] [--logs DIR]

Each run starts the function's own ``python -I -S -X importtime`` of the runtime's
version (tests/infra/lambda_runtime.py, as the asset test does) with the template's
environment, against moto's server, and times the import and one request: wall clock
and CPU time (the import's from the interpreter's start), medians of the runs. On a busy
machine the CPU time is the steadier figure. Lambda's machines differ from this one:
compare handlers and releases, not absolute numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "functions")]

from crossing.aws.queue import encode  # noqa: E402
from crossing.local.events import http_api_event, websocket_event  # noqa: E402
from crossing.rooms.ports import Queued  # noqa: E402

from infra import build_asset  # noqa: E402
from tests.infra.lambda_asset import Cloud, Function, synth  # noqa: E402

FIRST = {
    "connect.handler": websocket_event("CONNECT", "cold1="),
    "ws.message": websocket_event("MESSAGE", "cold1=", body='{"action":"hello","seq":1}'),
    "ws.disconnect": websocket_event("DISCONNECT", "cold1="),
    # A frame for a room that is gone: read, refused to its sender, acknowledged.
    "ws.consume": {
        "Records": [
            {
                "messageId": "cold-1",
                "body": encode(Queued("cold1=", "NOROOM", "p1", '{"action":"type","seq":2}', 1)),
                "eventSource": "aws:sqs",
            }
        ]
    },
    "ws.timer": {"room": "NOROOM", "version": 1},
    "solve.handler": http_api_event(
        "POST", "/api/solve", {}, json.dumps({"rules": "crossplay", "rack": "RETAINS"}).encode()
    ),
    "rules.handler": http_api_event("GET", "/api/rules", {}, b""),
}
_IMPORT = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def heaviest(log: str, top: int = 4) -> str:
    """The top-level imports that took longest (cumulative, from -X importtime)."""
    rows = [
        (int(cumulative), name)
        for _, cumulative, indent, name in _IMPORT.findall(log)
        if len(indent) <= 1
    ]
    return ", ".join(f"{n} {us / 1000:.0f}" for us, n in sorted(rows, reverse=True)[:top])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asset", type=Path, default=ROOT / "build" / "lambda")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--logs", type=Path, help="keep each function's last log (-X importtime) here"
    )
    parser.add_argument(
        "--no-importtime",
        action="store_true",
        help="time the imports alone: -X importtime adds about 5 %% (no heaviest imports)",
    )
    args = parser.parse_args()
    try:
        python = build_asset.runtime_python()
    except build_asset.BuildError as missing:
        sys.exit(str(missing))
    with tempfile.TemporaryDirectory() as tmp:
        synthesized = synth(args.asset.resolve(), Path(tmp) / "cdk.out")
        size = sum(f.stat().st_size for f in synthesized.staged.rglob("*") if f.is_file())
        print(f"asset {synthesized.staged.name}: {size / 2**20:.1f} MiB unzipped")
        cloud = Cloud(synthesized.template)
        try:
            print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            print(
                f"{'function':15} {'import ms':>10} {'cpu':>5} {'first request ms':>17} {'cpu':>5}"
                "  heaviest imports (ms)"
            )
            for logical, properties in sorted(synthesized.functions.items()):
                name = properties["Handler"].removeprefix("crossing.handlers.")
                runs: list[tuple[float, float, float, float]] = []
                log_text = ""
                for run in range(args.runs):
                    log = Path(tmp) / f"{logical}-{run}.log"
                    fn = Function(
                        python,
                        synthesized.staged,
                        cloud.environment(properties, logical),
                        log=log,
                        flags=() if args.no_importtime else ("-X", "importtime"),
                    )
                    fn(FIRST[name])
                    fn.close()
                    runs.append((fn.init_ms, fn.init_cpu_ms, fn.durations[0], fn.cpu_durations[0]))
                    log_text = log.read_text()
                if args.logs:
                    args.logs.mkdir(parents=True, exist_ok=True)
                    (args.logs / f"{name}.log").write_text(log_text)
                init, init_cpu, first, first_cpu = (
                    statistics.median(c) for c in zip(*runs, strict=True)
                )
                print(
                    f"{name:15} {init:10.0f} {init_cpu:5.0f} {first:17.0f} {first_cpu:5.0f}"
                    f"  {heaviest(log_text)}"
                )
        finally:
            cloud.stop()


if __name__ == "__main__":
    main()
