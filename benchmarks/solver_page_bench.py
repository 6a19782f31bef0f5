"""Benchmark (not a test): the Solver page from Show Me Best Move to the first results.

    python3 benchmarks/solver_page_bench.py [--blanks 2]

Starts the local stack in this process, opens the page in Chromium (CHROMIUM_PATH,
default /usr/bin/chromium) at phone size, loads each committed mid-game position
(benchmarks/positions/) as a saved board with its rack of ``--blanks`` blanks, and
times the button press to the first listed play: the whole path a player waits for
(every play found, sent, grouped and drawn).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

POSITIONS = Path(__file__).parent / "positions"
SAVED = "crossing.solver.boards"  # frontend/js/solver/storage.js


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blanks", type=int, default=2, choices=(0, 1, 2))
    args = parser.parse_args(argv)
    saved = {}
    for line in (POSITIONS / "racks.txt").read_text().splitlines():
        name, *racks = line.split()
        board = (POSITIONS / name).read_text().split()
        saved[name] = {"board": board, "rules": "crossplay", "rack": racks[args.blanks]}
    os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "crossing-bench")
    os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "CrossingBench")
    from crossing.local.serve import running

    times = []
    with running() as stack, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu"],
        )
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.add_init_script(f"localStorage.setItem({SAVED!r}, {json.dumps(json.dumps(saved))})")
        page.goto(stack.url + "solver.html")
        page.wait_for_selector("body[data-ready=true]")
        for round_, name in enumerate([next(iter(saved)), *saved]):
            page.get_by_label("Saved", exact=True).select_option(name)
            page.locator("#load").click()
            page.wait_for_selector("#plays > li", state="detached")
            began = time.perf_counter()
            page.get_by_role("button", name="Show Me Best Move").click()
            page.wait_for_selector("#plays > li")
            if round_:  # the first one warms the server and the page
                times.append((time.perf_counter() - began) * 1000)
        browser.close()
    print(
        f"Solver page, {len(times)} mid-game positions with {args.blanks} blank(s): "
        f"button to results median {statistics.median(times):.0f} ms, max {max(times):.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
