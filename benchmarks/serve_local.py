"""``crossing serve`` from outside, as a player's machine sees it: how soon it answers,
and whether its memory stays flat while rooms are made and abandoned.

    python benchmarks/serve_local.py [--rooms 1000] [--backend sqlite|moto]

Starts ``crossing serve --port 0`` in a child process on a fresh ``--data`` folder and
prints the time from starting it to the first answered HTTP request and to the first
WebSocket ``welcome``; then ``--rooms`` times: a new player connects, says hello,
hosts a room and goes away; the server's resident memory (``/proc/<pid>/status``,
Linux) is printed every tenth of the way, and at the end after SIGTERM how long the
stop took.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024


def cpu_s(pid: int) -> float:
    """The process's own CPU time so far (user + system): steadier than wall time on a
    shared machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_answer(url: str, started: float) -> float:
    while True:
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                response.read()
            return time.perf_counter() - started
        except OSError:
            time.sleep(0.01)


def abandon_a_room(ws_url: str) -> None:
    with connect(ws_url) as ws:
        for seq, (action, fields) in enumerate((("hello", {}), ("host", {"name": "Bench"})), 1):
            ws.send(json.dumps({"action": action, "seq": seq, **fields}))
            while json.loads(ws.recv(timeout=10)).get("seq") != seq:
                pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--backend", choices=["sqlite", "moto"], default="sqlite")
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="crossing-bench-")
    command = [sys.executable, "-m", "crossing.cli", "serve", "--port", "0"]
    command += ["--backend", args.backend] + (["--data", data] if args.backend == "sqlite" else [])
    started = time.perf_counter()
    child = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "functions")},
    )
    url = ""
    for line in child.stdout:
        if found := re.search(r"running: open (http://\S+)", line):
            url = found.group(1)
            break
    print(f"backend {args.backend}: 'running' printed after {time.perf_counter() - started:.2f} s")
    answered = first_answer(url, started)
    print(f"first HTTP answer after {answered:.2f} s ({cpu_s(child.pid):.2f} s of CPU)")
    ws_url = url.replace("http", "ws") + "ws"
    with connect(ws_url) as ws:
        ws.send(json.dumps({"action": "hello", "seq": 1}))
        ws.recv(timeout=10)
    print(f"first WebSocket welcome after {time.perf_counter() - started:.2f} s")
    print(f"rooms made and abandoned -> server RSS (MB); start {rss_mb(child.pid):.1f}")
    step = max(1, args.rooms // 10)
    clock = time.perf_counter()
    for i in range(1, args.rooms + 1):
        abandon_a_room(ws_url)
        if i % step == 0:
            rate = step / (time.perf_counter() - clock)
            print(f"{i:6d}  {rss_mb(child.pid):7.1f}  ({rate:.0f} rooms/s)", flush=True)
            clock = time.perf_counter()
    stopping = time.perf_counter()
    child.send_signal(signal.SIGTERM)
    code = child.wait(timeout=60)
    print(f"SIGTERM -> exit {code} after {time.perf_counter() - stopping:.2f} s")
    if args.backend == "sqlite":
        size = sum(p.stat().st_size for p in Path(data).iterdir())
        print(f"data folder: {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
