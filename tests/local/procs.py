"""Which local process holds a socket, read from /proc (Linux only): for the tests and
benchmarks of ``crossing serve --workers N``."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path


def children(pid: int) -> list[int]:
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        if re.search(rf"^PPid:\s+{pid}$", text, re.M):
            found.append(int(status.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in state


def server_socket(port: int, client_port: int) -> str:
    """The inode of the server's end of the TCP connection from ``client_port``."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = fields[1], fields[2]
            if int(local.rsplit(":", 1)[1], 16) == port and (
                int(remote.rsplit(":", 1)[1], 16) == client_port
            ):
                return fields[9]
    raise AssertionError(f"no server socket for client port {client_port}")


def holder_of(workers: Sequence[int], port: int, client_port: int) -> int:
    """Which of the serving processes ``workers`` (pids, worker 0 first) holds the
    server's end of the connection from ``client_port``."""
    inode = server_socket(port, client_port)
    for index, pid in enumerate(workers):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) == f"socket:[{inode}]":
                    return index
            except OSError:
                continue
    raise AssertionError("no serving process holds that socket")


def serving(pid: int) -> list[int]:
    """The pids of ``crossing serve``'s processes, ``pid`` (worker 0) first, then its
    worker processes in their order (``--worker=N`` in each one's command line); not the
    data file's writer, which serves no phone."""
    numbered = {}
    for child in children(pid):
        line = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        found = [a for a in line if a.startswith(b"--worker=")]
        if found:
            numbered[int(found[0].split(b"=")[1])] = child
    return [pid, *(numbered[n] for n in sorted(numbered))]


def writer_of(pid: int) -> int | None:
    """The pid of ``crossing serve``'s data file writer, if it has one."""
    for child in children(pid):
        if b"crossing.local.writer" in Path(f"/proc/{child}/cmdline").read_bytes():
            return child
    return None
