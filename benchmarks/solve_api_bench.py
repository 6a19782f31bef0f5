"""Benchmark (not a test): POST /api/solve through the local stack, as the Solver page asks.

    python3 benchmarks/solve_api_bench.py [--rounds 10] [--top 10] [--blanks 2] [--all]

Starts ``crossing serve``'s stack in this process (real HTTP, the Lambda handler on
the searches' threads) and sends every committed mid-game position (benchmarks/positions/) with
its rack of ``--blanks`` blanks, ``--rounds`` times over after one warm-up
round. Times are wall clock from the request to the parsed answer. ``--all`` asks
for every play instead of the top ones (the Solver page's full list).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import urllib.request
from pathlib import Path

POSITIONS = Path(__file__).parent / "positions"


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--blanks", type=int, default=2, choices=(0, 1, 2))
    parser.add_argument("--all", action="store_true", help="every play, not the top ones")
    args = parser.parse_args(argv)
    bodies = []
    for line in (POSITIONS / "racks.txt").read_text().splitlines():
        name, *racks = line.split()
        board = (POSITIONS / name).read_text().split()
        body = {"rules": "crossplay", "rack": racks[args.blanks], "board": board}
        body.update({"all": True} if args.all else {"top": args.top})
        bodies.append(json.dumps(body).encode())
    # Powertools reads these when the handler modules are imported, as `crossing serve` sets them.
    os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "crossing-bench")
    os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "CrossingBench")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    from crossing.local.serve import running

    times = []
    with running() as stack:
        url = stack.url + "api/solve"
        for round_ in range(args.rounds + 1):
            for data in bodies:
                request = urllib.request.Request(
                    url, data=data, method="POST", headers={"content-type": "application/json"}
                )
                began = time.perf_counter()
                with urllib.request.urlopen(request) as response:
                    plays = json.loads(response.read())["plays"]
                elapsed = (time.perf_counter() - began) * 1000
                if round_:  # the first round warms the process, as a warm Lambda would be
                    times.append(elapsed)
                assert len(plays) == args.top or args.all
    asked = "all" if args.all else f"top {args.top}"
    print(
        f"POST /api/solve, {asked}, {len(bodies)} mid-game positions with "
        f"{args.blanks} blank(s), {args.rounds} rounds: median {statistics.median(times):.1f} ms, "
        f"p95 {percentile(times, 95):.1f} ms, max {max(times):.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
