"""``crossing serve`` as players run it, when things go wrong around it: a full disk, a
stop by Ctrl-C or SIGTERM, and what an attacker on the same machine could reach.

The full disk is real: the data folder is a small tmpfs mounted for the test, which
needs root (CI runs as root; elsewhere the test says so and skips)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.local.client import SocketPlayer, two_in_a_game, white_squares
from tests.local.served import Served

PACKS = Path(__file__).resolve().parents[2] / "tests" / "data" / "packs"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        why = f"a full disk needs a small tmpfs, which needs root: {mounted.stderr.strip()}"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Fill the file system the folder is on, to the last byte."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 1):
            while True:
                try:
                    os.write(fd, b"\0" * size)
                except OSError:
                    break
    finally:
        os.close(fd)
    return filler


def game(p: SocketPlayer) -> dict:
    return p.room.get("game") or {}


def type_letter(p: SocketPlayer, seq: int, square: int, letter: str) -> None:
    p.ws.send(json.dumps({"action": "type", "seq": seq, "square": square, "letter": letter}))


def answers(p: SocketPlayer, seqs: set[int], timeout: float = 20.0) -> dict[int, dict]:
    """The answer (ack or error) each of ``seqs`` got, waiting until every one has one."""
    got: dict[int, dict] = {}
    deadline = time.monotonic() + timeout
    while set(got) < seqs:
        left = deadline - time.monotonic()
        assert left > 0, f"unanswered: {sorted(seqs - set(got))}"
        m = p.read(left)
        if m["type"] in ("ack", "error") and m.get("seq") in seqs:
            assert m["seq"] not in got, f"answered twice: {m}"
            got[m["seq"]] = m
    return got


def test_a_full_disk_refuses_every_letter_once_then_takes_them_again(small_disk):
    server = Served(small_disk / "data", "--packs", str(PACKS))
    server.start()
    try:
        hana, ann = two_in_a_game(server.ws_url, "together")
        ann.until(lambda p: game(p).get("board"))
        squares = white_squares(ann.room)
        for sq in squares[:3]:
            assert ann.act("type", square=sq, letter="A")["type"] == "ack"

        filler = fill(small_disk)
        seqs = {}
        for sq in squares[3:8]:
            ann.seq += 1
            seqs[ann.seq] = sq
            type_letter(ann, ann.seq, sq, "B")
        refused = answers(ann, set(seqs))
        assert {m["type"] for m in refused.values()} == {"error"}
        assert {m["code"] for m in refused.values()} == {"storage"}
        server.wait_for(r"ERROR.*data file cannot be written|data file cannot be written")
        assert server.output.count("data file cannot be written") == 1, server.output

        filler.unlink()
        for seq, sq in seqs.items():  # as the page does: the same frame, the same seq
            type_letter(ann, seq, sq, "B")
        again = answers(ann, set(seqs))
        assert {m["type"] for m in again.values()} == {"ack"}, again
        server.wait_for(r"data file is written again")
        hana.until(lambda p: all(game(p)["board"][sq] == "B" for sq in squares[3:8]))
        assert [game(hana)["board"][sq] for sq in squares[:3]] == ["A"] * 3
        assert "Traceback" not in server.output, server.output
    finally:
        server.stop()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_keeps_every_seat_and_prints_no_traceback(tmp_path, signum):
    server = Served(tmp_path / "data", "--packs", str(PACKS))
    server.start()
    hana = server.player()
    hana.act("host", name="Hana")
    code, player = hana.room["code"], hana.player
    asked = time.monotonic()
    assert server.stop(signum) == 0
    took = time.monotonic() - asked
    assert "Traceback" not in server.output and "KeyboardInterrupt" not in server.output
    assert server.output.strip().endswith("Stopping."), server.output
    assert took < 10
    server.start()
    back = server.player(hana.seq, player=player, token=hana.token)
    assert back.welcome["room"] == code  # the seat was kept
    server.stop()


def listening(pid: int) -> list[str]:
    """Every socket the process listens on: ``tcp:PORT`` or ``unix:NAME``."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.append(f"tcp:{int(fields[1].rsplit(':', 1)[1], 16)}")
    for line in Path(f"/proc/{pid}/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        # Flags 00010000: __SO_ACCEPTCON, a listening socket.
        if fields[6] in inodes and int(fields[3], 16) & 0x10000:
            found.append(f"unix:{fields[7] if len(fields) > 7 else '?'}")
    return found


def test_nothing_listens_but_the_http_port_and_it_is_one_process(tmp_path):
    server = Served(tmp_path / "data", "--packs", str(PACKS))
    server.start()
    try:
        p = server.player()
        p.act("host", name="Hana")
        assert server.process is not None
        pid = server.process.pid
        port = int(server.url.rsplit(":", 1)[1].strip("/"))
        assert listening(pid) == [f"tcp:{port}"]
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        assert children == [], "no other process"
    finally:
        server.stop()
