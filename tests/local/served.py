"""``crossing serve`` as a player starts it, in a child process: for the tests that
drive the stack players run (the browser suite, restarts, faults)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

from tests.local.client import SocketPlayer

ROOT = Path(__file__).resolve().parents[2]
SERVE = [sys.executable, "-m", "crossing.cli", "serve", "--port", "0"]


class Served:
    """``crossing serve --data DIR [options]`` in a child process; what it prints is kept
    (``output``) and may be waited for (``wait_for``)."""

    def __init__(self, data: Path, *options: str, env: dict[str, str] | None = None) -> None:
        self.data = data
        self.options = options
        self.env = env or {}
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        """The page's address (``http://localhost:PORT/``)."""
        self.ws_url = ""
        self.output = ""
        self._printed = threading.Condition()
        self._reader: threading.Thread | None = None

    def start(self) -> None:
        self.output = ""
        self.process = subprocess.Popen(
            [*SERVE, "--data", str(self.data), *self.options],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT / "functions"), **self.env},
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output += line
            if found := re.search(r"running: open (http://\S+)", line):
                self.url = found.group(1)
                self.ws_url = self.url.replace("http", "ws") + "ws"
                self._reader = threading.Thread(target=self._read, daemon=True)
                self._reader.start()
                return
        raise AssertionError(f"crossing serve stopped before it was running:\n{self.output}")

    def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            with self._printed:
                self.output += line
                self._printed.notify_all()

    def wait_for(self, pattern: str, timeout: float = 20.0) -> str:
        """The first line it printed that matches ``pattern`` (waiting for it)."""
        with self._printed:
            found = self._printed.wait_for(lambda: re.search(pattern, self.output), timeout)
        assert found, f"{pattern!r} not printed; it printed:\n{self.output}"
        return found.group(0)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self, signum: int = signal.SIGTERM) -> int:
        """Stop it as an operator would; its exit code."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signum)
        code = self.process.wait(timeout=20)
        if self._reader is not None:
            self._reader.join(timeout=5)  # what it printed last is in ``output``
        return code

    def player(self, seq: int = 0, **hello: str) -> SocketPlayer:
        """A new connection; ``seq`` goes on from a reloaded page's (the client keeps it)."""
        p = SocketPlayer(self.ws_url)
        p.seq = seq
        p.act("hello", **hello)
        return p
