"""The data file's one writer, for ``crossing serve --workers N``: a process of its own
that runs every write of every serving process, a batch of them to each commit.

    python -m crossing.local.writer --data-file=FILE

Why a process: in a serving process, a thread holding the database lock gives up the
interpreter at every SQLite call and system call, and gets it back only behind the
threads stepping other rooms (up to the 5 ms switch interval each time), while every
other writer waits on the lock; measured, a write waited 2.4 ms (p99 30) for the lock
and 4.3 ms (p99 48) for its group's commit, for 0.34 ms of statements. Here nothing
else runs Python, so a batch's statements and its commit run straight through, and a
serving thread waits once, for its answer, holding nothing.

A write is a function of ``local/writes.py`` (``sqlite.Database.run``), its
arguments and answer plain data: the serving thread sends ``(name, args)`` on its own
connection and reads back ``(True, answer)`` or ``(False, exception)``. Whatever
arrived while the last commit ran is the next batch: each write in a savepoint of one
transaction, one commit for all, then every answer.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import os
import pickle
import selectors
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from crossing.local.writes import WRITES

_HEAD = struct.Struct("!I")


def address(data_file: Path) -> str:
    """Where the writer of ``data_file`` listens: an abstract Unix socket named after
    the file, so every serving process finds it with no more than the data folder."""
    digest = hashlib.sha256(str(data_file.resolve()).encode()).hexdigest()[:24]
    return f"\0crossing-writer-{digest}"


def send(sock: socket.socket, message: Any) -> None:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(_HEAD.pack(len(body)) + body)


def receive(sock: socket.socket) -> Any:
    """One whole message, or EOFError if the other end has gone."""
    (size,) = _HEAD.unpack(_exactly(sock, _HEAD.size))
    return pickle.loads(_exactly(sock, size))


def _exactly(sock: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise EOFError("the other end has gone")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class Client:
    """A serving process's way to the writer: one connection per thread, so each
    thread's answer comes back on its own socket and nobody sorts them out."""

    def __init__(self, where: str) -> None:
        self.where = where
        self._mine = threading.local()

    def run(self, name: str, args: tuple[Any, ...]) -> Any:
        sock = getattr(self._mine, "sock", None)
        try:
            if sock is None:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(self.where)
                self._mine.sock = sock
            send(sock, (name, args))
            done, answer = receive(sock)
        except (OSError, EOFError) as error:
            if sock is not None:
                sock.close()
            self._mine.sock = None
            raise WriterGone(f"the data file's writer has gone: {error}") from None
        if not done:
            raise answer
        return answer


class WriterGone(RuntimeError):
    """The writer process cannot be reached: nothing can be written."""


def serve(db: sqlite3.Connection, listener: socket.socket, until: int) -> None:
    """Run every write sent to ``listener``, a batch to a commit, until the pipe ``until``
    (the parent's) closes."""
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(until, selectors.EVENT_READ, "until")
    while True:
        batch: list[tuple[socket.socket, str, tuple[Any, ...]]] = []
        for key, _ in selector.select():
            if key.data == "until":
                if not os.read(until, 4096):
                    return
                continue
            sock: socket.socket = key.fileobj  # type: ignore[assignment]
            if key.data == "accept":
                connection, _ = sock.accept()
                selector.register(connection, selectors.EVENT_READ, "write")
                continue
            try:
                name, args = receive(sock)
            except (OSError, EOFError):
                selector.unregister(sock)
                sock.close()
                continue
            batch.append((sock, name, args))
        if batch:
            _answer(batch, _apply(db, batch))


def _apply(
    db: sqlite3.Connection, batch: list[tuple[socket.socket, str, tuple[Any, ...]]]
) -> list[tuple[bool, Any]]:
    """Each write in a savepoint of one transaction, all committed at once (a write alone
    needs no savepoint: it fails with its transaction)."""
    answers: list[tuple[bool, Any]] = []
    alone = len(batch) == 1
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as error:
        return [(False, error)] * len(batch)
    for _, name, args in batch:
        if not alone:
            db.execute("SAVEPOINT one")
        try:
            answers.append((True, WRITES[name](db, *args)))
        except Exception as error:  # the writer's answer: raised again where it was asked
            db.execute("ROLLBACK" if alone else "ROLLBACK TO one")
            answers.append((False, _portable(error)))
            if alone:
                return answers
        if not alone:
            db.execute("RELEASE one")
    try:
        db.execute("COMMIT")
    except sqlite3.Error as error:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        return [(False, error)] * len(batch)
    return answers


def _portable(error: Exception) -> Exception:
    """``error``, or one that says the same, if the asking process could not rebuild it."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


def _answer(
    batch: list[tuple[socket.socket, str, tuple[Any, ...]]], answers: list[tuple[bool, Any]]
) -> None:
    for (sock, _, _), answer in zip(batch, answers, strict=True):
        with contextlib.suppress(OSError):  # a thread that has gone asks nothing more
            send(sock, answer)


def start(data_file: Path) -> subprocess.Popen[bytes]:
    """Start the writer of ``data_file`` and wait until it listens. It stops when this
    process closes its standard input (or dies)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "crossing.local.writer", f"--data-file={data_file}"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert process.stdout is not None
    if process.stdout.readline() != b"listening\n":
        process.kill()
        raise WriterGone(f"the writer of {data_file} did not start")
    return process


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-file", type=Path, required=True)
    args = parser.parse_args(argv)
    from crossing.local import sqlite

    db = sqlite.open_file(args.data_file)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    for _ in range(200):  # the writer of a server killed just now may still be finishing
        try:
            listener.bind(address(args.data_file))
            break
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
            time.sleep(0.05)
    else:
        raise SystemExit(f"another writer of {args.data_file} is still running")
    listener.listen(1024)
    sys.stdout.write("listening\n")
    sys.stdout.flush()
    try:
        serve(db, listener, sys.stdin.fileno())
    finally:
        db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
