"""The in-room rate limit counts every frame by when it arrived, and spares human speed."""

import json

from crossing import seqs
from crossing.rooms import pace

from tests.rooms.fakes import start_game


def codes(messages):
    return [m.get("code") for m in messages if m["type"] == "error"]


def test_typing_flat_out_for_a_minute_is_never_refused(service, phone, clock):
    _host, (ann,), _code = start_game(phone, mode="together")
    refused = []
    for i in range(600):  # ten a second, half of them in bursts of five at once
        clock.now += 0 if i % 10 < 5 else 200
        refused += codes(ann.send("type", square=i % 2 + 2, letter="AB"[i % 2]))
    assert "too-fast" not in refused


def test_a_backlog_handled_at_once_is_paced_by_when_it_arrived(service, phone, clock):
    _host, (ann,), _code = start_game(phone, mode="together")
    first = clock.now + 1000
    clock.now = first + 4000  # arrived over four seconds, all handled in this instant
    for i in range(40):
        body = json.dumps({"action": "type", "seq": ann.seq + 1 + i, "square": 2, "letter": "A"})
        service.receive(ann.connection, body, arrived=first + i * 100)
    assert "too-fast" not in codes(ann.take())


def test_refused_frames_and_ticks_count_too(service, phone, clock):
    _host, (ann,), _code = start_game(phone, mode="together")
    got = []
    for _ in range(60):
        got += codes(ann.send("type", square=0, letter="A"))  # a block: each refused
    assert got.count("too-fast") > 0
    clock.now += 60_000
    ticks = []
    for _ in range(60):
        ticks += codes(ann.send("tick"))
    assert ticks.count("too-fast") >= 60 - pace.BURST


def test_the_bucket_forgives_a_stopped_flood_within_seconds():
    bucket = None
    for _ in range(200):
        bucket, _ = pace.take(bucket, 1000)
    _, fits = pace.take(bucket, 1000 + 2 * pace.BURST * 1000 // pace.PER_SECOND + 100)
    assert fits


def test_the_seq_window_applies_each_seq_once_in_any_order():
    applied = None
    for seq in (5, 3, 9, 4, 8, 6, 7):
        assert seqs.seen(applied, seq) is seqs.Seen.NEW
        applied = seqs.record(applied, seq)
        assert seqs.seen(applied, seq) is seqs.Seen.APPLIED
    assert all(seqs.seen(applied, s) is seqs.Seen.APPLIED for s in range(3, 10))
    assert seqs.seen(applied, 2) is seqs.Seen.NEW
    for seq in range(200, 200 + seqs.WINDOW):  # a window's worth of newer ones
        applied = seqs.record(applied, seq)
    assert seqs.seen(applied, 9) is seqs.Seen.STALE
    assert seqs.seen(applied, 2) is seqs.Seen.STALE
    assert seqs.seen(applied, 200) is seqs.Seen.APPLIED


def test_the_window_holds_seqs_read_off_the_clock_microseconds_apart():
    """A page numbers its messages from the clock (two tabs of one player never share
    a seq): letters typed a fifth of a second apart still apply once in any order."""
    tab_a = [1_764_579_000_000_000 + 200_000 * i + 17 for i in range(40)]
    tab_b = [1_764_579_000_100_000 + 200_000 * i + 903 for i in range(40)]
    arriving = tab_b[::-1] + tab_a  # one tab's burst reordered, then the other's
    applied = None
    for seq in arriving:
        assert seqs.seen(applied, seq) is seqs.Seen.NEW
        applied = seqs.record(applied, seq)
    newest = sorted(arriving)[-seqs.WINDOW :]  # the window keeps the highest, by number
    assert all(seqs.seen(applied, seq) is seqs.Seen.APPLIED for seq in newest)


def test_frames_refused_before_any_room_count_in_the_connections_pace(service, phone, clock):
    ann = phone()
    got = []
    for body in ["{", '{"action":{"a":1},"seq":1}', '{"action":"type","seq":"x"}'] * 20:
        service.receive(ann.connection, body)
        got += codes(ann.take())
    assert got[: pace.BURST - 1].count("too-fast") == 0  # hello was one
    assert got[pace.BURST :] == ["too-fast"] * (60 - pace.BURST)
    clock.now += 10_000  # a stopped flood is forgiven
    service.receive(ann.connection, "{")
    assert codes(ann.take()) == ["bad-message"]


def test_a_flood_of_snapshots_is_answered_once_then_refused(service, phone, clock):
    host, (ann,), _code = start_game(phone, mode="together")
    answers = [ann.send("snapshot") for _ in range(100)]
    views = [m for got in answers for m in got if m["type"] == "room" and m["full"]]
    refused = [c for got in answers for c in codes(got)]
    assert len(views) == 1 and refused == ["too-fast"] * 99
    clock.now += 5_000  # the flood stopped: its bucket drains, and 2 s have passed
    ann.take()
    assert [m["type"] for m in ann.send("snapshot")] == ["room"]  # again, after a while
    host.send("type", square=2, letter="A")
    ann.take()
    assert [m["type"] for m in ann.send("snapshot")] == ["room"]  # a new version at once


def test_a_duel_flood_is_too_fast(service, phone, clock):
    ann = phone()
    ann.send("duel_bot", level="easy")
    got = [c for _ in range(60) for c in codes(ann.send("duel_skip"))]
    assert "too-fast" in got and "too-many" not in got
