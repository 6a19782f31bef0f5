"""``crossing serve --workers 2``: two serving processes share the rooms out, and the
phones of one room are held by both; every phone hears everything, as with one.

The server runs as its own processes (the command a player types), on SQLite. Which
process holds a phone's socket is read from /proc (Linux only), so each test can make
sure it has phones in both.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from crossing.local.workers import LinkDown, Peers, link_addresses, owner
from websockets.exceptions import ConnectionClosed

from tests.local.client import SocketPlayer, white_squares
from tests.local.procs import alive, holder_of, serving, writer_of
from tests.local.test_restart import Server

ROOT = Path(__file__).resolve().parents[2]

# Which process holds a socket is read from /proc, which only Linux has (CI runs there);
# the links' own tests below run anywhere.
reads_proc = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc (Linux only)")


class Served(Server):
    """``crossing serve --workers 2 --data DIR`` in child processes, each serving the
    phones it accepts (``--funnel 0``) unless told otherwise."""

    def __init__(self, data: Path, funnel: int = 0) -> None:
        super().__init__(data, "--workers", "2", "--funnel", str(funnel))
        self.start()
        assert self.process is not None
        try:
            self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])
            self.workers = serving(self.process.pid)
            assert len(self.workers) == 2
            assert writer_of(self.process.pid) is not None, "the data file has its own writer"
        except BaseException:
            self.stop()  # the fixture never gets to: leave no server behind
            raise

    def worker_of(self, p: SocketPlayer) -> int:
        """Which serving process (0 or 1) holds ``p``'s socket."""
        return holder_of(self.workers, self.port, p.ws.socket.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    s = Served(tmp_path / "data")
    yield s
    s.stop()


def phones_in_both(served: Served, each: int) -> list[SocketPlayer]:
    """Phones, until each serving process holds at least ``each`` of them; in the order
    opened, with one held by the first process first."""
    held: dict[int, list[SocketPlayer]] = {0: [], 1: []}
    for _ in range(60):
        if min(len(v) for v in held.values()) >= each:
            break
        p = served.player()
        held[served.worker_of(p)].append(p)
    else:
        raise AssertionError("every phone landed in one process")
    first, second = held[0][:each], held[1][:each]
    for extra in held[0][each:] + held[1][each:]:
        extra.close()
    return [x for pair in zip(first, second, strict=True) for x in pair]


def host_room(phones: list[SocketPlayer]) -> str:
    host, *guests = phones
    host.act("host", name="Host")
    code = host.room["code"]
    for i, p in enumerate(guests):
        assert p.act("join", code=code, name=f"P{i}")["type"] == "ack"
    return code


def start_together(phones: list[SocketPlayer]) -> None:
    host = phones[0]
    host.act("to_game")
    host.act("choose", mode="together", size="mini")
    host.act("start")
    for p in phones:
        p.until(lambda p: p.room.get("phase") == "playing")


@reads_proc
def test_letters_typed_at_once_on_phones_held_by_both_processes_reach_every_phone(served):
    phones = phones_in_both(served, 2)
    host_room(phones)
    start_together(phones)
    squares = white_squares(phones[0].room)
    typed: dict[int, str] = {}
    acks: list[dict] = []

    def type_in(p: SocketPlayer, mine: list[int]) -> None:
        seqs = [p.send("type", square=sq, letter="ABCDE"[sq % 5]) for sq in mine]
        while seqs:  # sent without waiting, as the browser does
            m = p.read()
            if m["type"] in ("ack", "error") and m.get("seq") in seqs:
                seqs.remove(m["seq"])
                acks.append(m)

    shares = {p: squares[i :: len(phones)][:4] for i, p in enumerate(phones)}
    threads = [threading.Thread(target=type_in, args=item) for item in shares.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert [m["type"] for m in acks] == ["ack"] * sum(len(v) for v in shares.values())
    for mine in shares.values():
        typed.update({sq: "ABCDE"[sq % 5] for sq in mine})
    for p in phones:
        p.until(lambda p: all(p.room["game"]["board"][sq] == ch for sq, ch in typed.items()))


@reads_proc
def test_rooms_owned_by_either_process_play_alike(served):
    owners = set()
    for _ in range(12):  # a room for each owner: rooms are shared out by their code
        pair = [served.player(), served.player()]
        code = host_room(pair)
        owners.add(owner(code, 2))
        start_together(pair)
        square = white_squares(pair[0].room)[0]
        assert pair[1].act("type", square=square, letter="Q")["type"] == "ack"
        pair[0].until(lambda p, sq=square: p.room["game"]["board"][sq] == "Q")
        for p in pair:
            p.close()
        if owners == {0, 1}:
            break
    assert owners == {0, 1}


@reads_proc
def test_at_light_load_the_first_process_serves_every_phone_and_their_rooms(tmp_path):
    served = Served(tmp_path / "data", funnel=24)
    try:
        phones = [served.player() for _ in range(12)]  # half would land in each, unfunnelled
        assert [served.worker_of(p) for p in phones] == [0] * 12
        code = host_room(phones[:6])
        # Each owned where it was made: by chance, all seven would be 1 in 128.
        others = [host_room([p]) for p in phones[6:]]
        assert [owner(c, 2) for c in [code, *others]] == [0] * 7
        start_together(phones[:6])
        square = white_squares(phones[0].room)[0]
        assert phones[5].act("type", square=square, letter="Q")["type"] == "ack"
        phones[0].until(lambda p: p.room["game"]["board"][square] == "Q")
    finally:
        served.stop()


@reads_proc
def test_past_the_funnel_each_process_serves_what_it_accepts_and_below_it_again(tmp_path):
    served = Served(tmp_path / "data", funnel=3)
    try:
        first = [served.player() for _ in range(3)]
        assert [served.worker_of(p) for p in first] == [0, 0, 0]
        more = []
        for _ in range(40):  # each lands in either process now
            more.append(served.player())
            if served.worker_of(more[-1]) == 1:
                break
        assert served.worker_of(more[-1]) == 1
        for p in first + [p for p in more if served.worker_of(p) == 0]:
            p.close()
        time.sleep(0.5)  # the first tells the other it takes phones again
        assert [served.worker_of(served.player()) for _ in range(3)] == [0, 0, 0]
    finally:
        served.stop()


@reads_proc
def test_a_phone_closed_in_one_process_is_seen_leaving_by_the_others(served):
    phones = phones_in_both(served, 2)
    host_room(phones)
    start_together(phones)
    gone = phones[-1]  # held by the second process
    assert served.worker_of(gone) == 1
    name = gone.player
    gone.close()
    for p in phones[:-1]:
        p.until(
            lambda p: not next(m for m in p.room["members"] if m["player"] == name)["present"],
            timeout=10,
        )


@reads_proc
def test_a_stop_closes_every_phone_in_both_processes_for_a_restart(served):
    phones = phones_in_both(served, 1)
    worker = served.workers[1]
    assert served.stop() == 0
    for p in phones:
        with pytest.raises(ConnectionClosed) as closed:
            read_until_closed(p)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    assert not alive(worker)


def read_until_closed(p: SocketPlayer) -> None:
    while True:
        p.read(timeout=10)


@reads_proc
def test_the_second_process_ends_when_the_first_is_killed(served, tmp_path):
    worker = served.workers[1]
    served.process.send_signal(signal.SIGKILL)
    served.process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(worker)
    again = Served(tmp_path / "data")  # the data folder is free for the next server
    try:
        again.player().act("host", name="Back")
    finally:
        again.stop()


# --- the links, in one process --------------------------------------------------------------


def linked_pair() -> tuple[Peers, Peers]:
    links, _ = link_addresses()
    first = Peers(0, 2, links, b"k" * 32)
    second = Peers(1, 2, links, b"k" * 32)
    second.connect()
    assert first.wait_for_all(5) and second.wait_for_all(5)
    return first, second


def test_what_one_worker_tells_another_arrives_in_order_and_calls_are_answered():
    first, second = linked_pair()
    heard: list[int] = []
    second.tells["note"] = heard.append
    second.calls["double"] = lambda n: 2 * n
    try:
        for n in range(500):
            first.tell(1, "note", n)
        assert first.call(1, "double", 21) == 42  # answered after every earlier tell
        assert heard == list(range(500))
    finally:
        first.close()
        second.close()


def test_a_call_to_a_worker_that_has_gone_raises_link_down_at_once():
    first, second = linked_pair()
    second.calls["slow"] = lambda: time.sleep(30)
    answered: list[BaseException] = []

    def call() -> None:
        try:
            first.call(1, "slow")
        except LinkDown as error:
            answered.append(error)

    t = threading.Thread(target=call)
    t.start()
    time.sleep(0.2)
    second.close()
    t.join(timeout=5)
    assert answered and not t.is_alive()
    with pytest.raises(LinkDown):
        first.tell(1, "anything")
    first.close()


def test_an_event_loop_awaits_a_call_answered_after_every_earlier_tell_or_link_down():
    first, second = linked_pair()
    heard: list[int] = []
    first.tells["note"] = heard.append
    second.calls["note_then_double"] = lambda n: [second.tell(0, "note", k) for k in range(n)]
    second.calls["slow"] = lambda: time.sleep(30)

    async def play() -> None:
        await first.call_soon(1, "note_then_double", 300)
        assert heard == list(range(300))  # what was told before the answer came first
        slow = first.call_soon(1, "slow")
        await asyncio.sleep(0.2)
        second.close()
        with pytest.raises(LinkDown):
            await asyncio.wait_for(slow, 5)
        with pytest.raises(LinkDown):
            first.call_soon(1, "note_then_double", 1)

    try:
        asyncio.run(play())
    finally:
        first.close()
        second.close()


def test_rooms_are_shared_out_evenly_and_alike_in_every_process():
    codes = [f"R{n:05d}" for n in range(2000)]
    shares = [sum(owner(c, 2) == w for c in codes) for w in (0, 1)]
    assert min(shares) > 900
    there = subprocess.run(
        [
            sys.executable,
            "-c",
            "from crossing.local.workers import owner; "
            f"print([owner(c, 3) for c in {codes[:50]!r}])",
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "functions")},
    ).stdout.strip()
    assert there == str([owner(c, 3) for c in codes[:50]])


def test_an_answer_for_a_loop_that_has_closed_leaves_the_link_working():
    first, second = linked_pair()
    second.calls["slow"] = lambda: time.sleep(0.3) or "late"
    second.calls["double"] = lambda n: 2 * n

    async def ask() -> None:
        first.call_soon(1, "slow")  # its loop closes before the answer comes

    try:
        asyncio.run(ask())
        time.sleep(0.5)
        assert first.call(1, "double", 4) == 8  # the reader read the late answer and goes on
    finally:
        first.close()
        second.close()
