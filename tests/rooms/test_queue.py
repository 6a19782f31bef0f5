"""The cloud's single writer per room: frames for a room go through an ordered queue
(SQS FIFO, here ``MemoryQueue``) and its consumer applies each room's as one batch."""

import json
import time

import pytest
from crossing.aws.memory import MemoryQueue, MemoryStore
from crossing.rooms import consuming
from crossing.rooms import protocol as P
from crossing.rooms.router import group_of
from crossing.rooms.sent import Sent
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import Clock, make_service, phone_maker, start_game
from tests.rooms.test_ordering import acks, frame, replay, stored, typing

WHITES = list(MINI.white_squares)


def cloud(clock, store=None):
    """A Lambda container's service: nothing held, frames for rooms queued."""
    queue = MemoryQueue()
    return make_service(clock, store=store, hold=False, queue=queue), queue


def drain(service, queue, most=10):
    """Consume everything queued, up to ``most`` frames of one room per invocation."""
    while batch := queue.take(most):
        assert all(isinstance(sent, Sent) for sent in service.consume(batch))


def test_a_letter_waits_in_the_queue_and_its_writer_acknowledges_it():
    clock = Clock()
    service, queue = cloud(clock)
    phone = phone_maker(service)
    host, (ann,), code = start_game(phone, mode="together")
    drain(service, queue)  # the start is the room's: it went through the queue too
    host.take(), ann.take()
    ann.seq += 1
    service.receive(ann.connection, frame(ann.seq, WHITES[0], "S"))
    assert ann.take() == [] and len(queue.waiting) == 1
    assert stored(service, code).game.letters()[WHITES[0]] != "S"
    drain(service, queue)
    assert {"type": "ack", "seq": ann.seq}.items() <= acks(ann)[-1].items()
    assert stored(service, code).game.letters()[WHITES[0]] == "S"
    host.take()
    assert host.room["game"]["board"][WHITES[0]] == "S"


def test_a_batch_of_letters_costs_one_read_and_one_write():
    clock = Clock()
    service, queue = cloud(clock)
    host, guests, code = start_game(phone_maker(service), mode="together", guests=("Ann", "Bo"))
    drain(service, queue)
    phones = [host, *guests]
    for i, square in enumerate(WHITES[:9]):
        p = phones[i % 3]
        p.seq += 1
        service.receive(p.connection, frame(p.seq, square, "E"))
    service.store.requests.clear()
    batch = queue.take(10)
    assert len(batch) == 9
    assert all(isinstance(sent, Sent) for sent in service.consume(batch))
    assert sum(service.store.requests.values()) == 2, service.store.requests
    assert all(stored(service, code).game.letters()[s] == "E" for s in WHITES[:9])
    for p in phones:
        assert [m["seq"] for m in acks(p)[-3:]] == list(range(p.seq - 2, p.seq + 1))


def test_frames_not_bound_to_a_room_are_answered_at_once():
    clock = Clock()
    service, queue = cloud(clock)
    host = phone_maker(service)()  # hello
    host.send("host", name="Hana")
    assert host.room["code"] and not queue.waiting
    host.send("snapshot")
    assert not queue.waiting and host.take() == []  # took already; nothing queued


def test_which_messages_go_through_the_queue_and_whose_writer_applies_them():
    room, game = "ABCDEF", "g-abc123"
    queued = [
        (P.TypeLetter(action="type", seq=1, square=0, letter="a"), room, room),
        (P.Simple(action="tick", seq=1), room, room),
        (P.Start(action="start", seq=1), room, room),
        (P.JoinByCode(action="join", seq=1, code=" qqqqqq", name="A"), room, "QQQQQQ"),
        (P.Watch(action="watch", seq=1, code="QQQQQQ"), "", "QQQQQQ"),
        (P.DuelSwap(action="duel_swap", seq=1, letter="a"), game, game),
        (P.Simple(action="duel_resign", seq=1), game, game),
        (P.Simple(action="tick", seq=1), game, game),
    ]
    direct = [
        (P.Hello(action="hello", seq=1), room),
        (P.Host(action="host", seq=1, name="H"), room),
        (P.Simple(action="snapshot", seq=1), room),
        (P.JoinByCode(action="join", seq=1, code="QQ QQ", name="A"), room),  # never a code
        (P.TypeLetter(action="type", seq=1, square=0, letter="a"), ""),
        (P.Simple(action="duel_lobby", seq=1), "lobby"),
        (P.DuelSwap(action="duel_swap", seq=1, letter="a"), "lobby"),
    ]
    assert [group_of(m, code) for m, code, _ in queued] == [group for _, _, group in queued]
    assert [group_of(m, code) for m, code in direct] == [None] * len(direct)


def test_joining_a_busy_room_waits_its_turn_in_the_rooms_queue():
    clock = Clock()
    service, queue = cloud(clock)
    phone = phone_maker(service)
    host, _guests, code = start_game(phone, mode="together")
    drain(service, queue)
    watcher = phone()
    host.seq += 1
    service.receive(host.connection, frame(host.seq, WHITES[0], "W"))
    watcher.seq += 1
    service.receive(
        watcher.connection, json.dumps({"action": "watch", "seq": watcher.seq, "code": code})
    )
    assert [f.group for f in queue.waiting] == [code, code]
    service.store.requests.clear()
    assert all(isinstance(sent, Sent) for sent in service.consume(queue.take(10)))
    assert service.store.requests["save_room"] == 1  # one write for the letter and the watch
    watcher.take()
    assert watcher.room["game"]["board"][WHITES[0]] == "W"
    assert service.store.get_connection(watcher.connection)[0] == code


def test_a_request_sent_twice_is_queued_once():
    clock = Clock()
    service, queue = cloud(clock)
    _host, (ann,), _code = start_game(phone_maker(service), mode="together")
    drain(service, queue)
    body = frame(ann.seq + 1, WHITES[0], "S")
    service.receive(ann.connection, body, request="req-1")
    service.receive(ann.connection, body, request="req-1")
    assert len(queue.waiting) == 1


class FailingOnce(MemoryStore):
    """A store whose next room write fails (a throttled request, a timeout)."""

    fail = False

    def save_room(self, code, state, seen, expires_at):
        if self.fail:
            self.fail = False
            raise RuntimeError("the store timed out")
        return super().save_room(code, state, seen, expires_at)


def test_a_batch_the_store_fails_is_delivered_again_and_applied_once():
    clock = Clock()
    store = FailingOnce()
    service, queue = cloud(clock, store)
    _host, (ann,), code = start_game(phone_maker(service), mode="together")
    drain(service, queue)
    for square in WHITES[:3]:
        ann.seq += 1
        service.receive(ann.connection, frame(ann.seq, square, "T"))
    batch = queue.take(10)
    store.fail = True
    failed = service.consume(batch)  # back on the queue for SQS to redeliver
    assert len(failed) == 3 and not any(isinstance(sent, Sent) for sent in failed)
    assert all(isinstance(sent, Sent) for sent in service.consume(batch))
    assert [stored(service, code).game.letters()[s] for s in WHITES[:3]] == ["T"] * 3
    assert [m["duplicate"] for m in acks(ann)[-3:]] == [False] * 3


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    letters=st.lists(typing, min_size=3, max_size=3),
    order=st.randoms(use_true_random=False),
    most=st.integers(1, 10),
)
def test_through_the_queue_every_letter_is_applied_once_in_the_queue_order(letters, order, most):
    clock = Clock()
    service, queue = cloud(clock)
    host, guests, code = start_game(phone_maker(service), mode="together", guests=("Ann", "Bo"))
    drain(service, queue)
    phones = [host, *guests]
    start = stored(service, code)
    frames = []  # (phone, seq, square, letter): each phone's next seqs
    for p, typed in zip(phones, letters, strict=True):
        frames += [(p, p.seq + n, sq, letter) for n, (sq, letter) in enumerate(typed, 1)]
    order.shuffle(frames)  # any interleaving, each player's own frames out of order too
    for p, seq, sq, letter in frames:
        clock.now += 7
        service.receive(p.connection, frame(seq, sq, letter))
    log = [(f.connection, json.loads(f.body)) for f in queue.waiting]
    drain(service, queue, most)
    by_connection = {p.connection: p for p in phones}
    in_order = [  # the queue's order is the room's log
        (by_connection[c].player, m["seq"], m["square"], m["letter"]) for c, m in log
    ]
    final = stored(service, code)
    assert final.game.letters() == replay(start, in_order).game.letters()
    for p in phones:
        mine = sorted(seq for q, seq, _, _ in frames if q is p)
        got = [m for m in acks(p) if m["seq"] in mine and not m["duplicate"]]
        assert sorted(m["seq"] for m in got) == mine
        p.take()
        assert p.room["game"]["board"] == final.game.letters()


@pytest.mark.parametrize("most", [1, 10])
def test_rooms_consumed_side_by_side_keep_their_own_order(most):
    clock = Clock()
    service, queue = cloud(clock)
    phone = phone_maker(service)
    rooms = [start_game(phone, mode="together") for _ in range(2)]
    drain(service, queue)
    for i in range(6):
        for host, _, _ in rooms:
            host.seq += 1
            service.receive(host.connection, frame(host.seq, WHITES[0], "ABCDEF"[i]))
    drain(service, queue, most)
    for _host, _, code in rooms:
        assert stored(service, code).game.letters()[WHITES[0]] == "F"


def test_a_start_queued_behind_a_size_change_deals_the_size_chosen():
    clock = Clock()
    service, queue = cloud(clock)  # its packs have a Mini only
    host = phone_maker(service)()
    host.send("host", name="Hana")
    host.send("to_game")
    host.send("choose", mode="race", size="midi")
    host.send("start")
    assert all(isinstance(sent, Sent) for sent in service.consume(queue.take(10)))
    (refusal,) = host.errors(host.take())
    assert refusal["code"] == "no-puzzles" and refusal["seq"] == host.seq


def test_a_frame_slow_to_reach_its_writer_keeps_its_place(monkeypatch):
    from crossing.rooms import router

    clock = Clock()
    service, queue = cloud(clock)
    host, _guests, code = start_game(phone_maker(service), mode="together")
    drain(service, queue)
    parse = router.validate

    def slow_for_a(data):
        if data.get("letter") == "A":
            time.sleep(0.05)
        return parse(data)

    monkeypatch.setattr(router, "validate", slow_for_a)
    for letter in "AB":
        host.seq += 1
        service.receive(host.connection, frame(host.seq, WHITES[0], letter))
    assert all(isinstance(sent, Sent) for sent in service.consume(queue.take(10)))
    assert stored(service, code).game.letters()[WHITES[0]] == "B"  # the later letter stays


class Failing(MemoryStore):
    """A store whose room writes fail on the given turns (the store timing out)."""

    def __init__(self):
        super().__init__()
        self.failures: list[bool] = []

    def save_room(self, code, state, seen, expires_at):
        if self.failures and self.failures.pop(0):
            raise RuntimeError("the store timed out")
        return super().save_room(code, state, seen, expires_at)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    letters=st.lists(typing, min_size=2, max_size=2),
    failures=st.lists(st.booleans(), max_size=8),
    most=st.integers(1, 10),
)
def test_frames_delivered_again_after_a_failed_write_are_each_applied_once(letters, failures, most):
    clock = Clock()
    store = Failing()
    service, queue = cloud(clock, store)
    host, guests, code = start_game(phone_maker(service), mode="together")
    drain(service, queue)
    phones = [host, *guests]
    start = stored(service, code)
    for p, typed in zip(phones, letters, strict=True):
        for sq, letter in typed:
            p.seq += 1
            service.receive(p.connection, frame(p.seq, sq, letter))
    log = list(queue.waiting)
    store.failures = list(failures)
    while batch := queue.take(most):
        results = service.consume(batch)
        failed = [at for at, sent in enumerate(results) if not isinstance(sent, Sent)]
        again = [f for at, f in enumerate(batch) if failed and at >= failed[0]]
        queue.waiting[:0] = again  # SQS gives them back first, in order
    in_order = [(f.player, m["seq"], m["square"], m["letter"]) for f, m in with_bodies(log)]
    assert stored(service, code).game.letters() == replay(start, in_order).game.letters()
    for p in phones:
        fresh = [m["seq"] for m in acks(p) if not m["duplicate"]]
        assert len(fresh) == len(set(fresh))  # none applied twice
        assert set(range(p.seq - len(letters[phones.index(p)]) + 1, p.seq + 1)) <= set(fresh)


def with_bodies(frames):
    return [(f, json.loads(f.body)) for f in frames]


# --- tried again in the consumer ------------------------------------------------------------


class Passing(Exception):
    """A store failure that passes (what ``crossing.aws.transient`` says of throttling)."""


class Broken(MemoryStore):
    """A store whose reads of the rooms in ``failing`` raise ``error`` the next ``times``
    times (-1: until told otherwise)."""

    def __init__(self):
        super().__init__()
        self.failing: set[str] = set()
        self.error: Exception = Passing("throttled")
        self.times = 0
        self.reads: list[str] = []

    def load_room(self, code):
        self.reads.append(code)
        if code in self.failing and self.times:
            self.times -= self.times > 0
            raise self.error
        return super().load_room(code)


def typed_in_two_rooms(store):
    """Two rooms in play, each with a letter of its host's queued: the consumer's batch."""
    clock = Clock()
    service, queue = cloud(clock, store)
    phone = phone_maker(service)
    rooms = [start_game(phone, mode="together") for _ in range(2)]
    drain(service, queue)
    for host, _, _ in rooms:
        host.seq += 1
        service.receive(host.connection, frame(host.seq, WHITES[0], "Q"))
    batch = queue.take(10) + queue.take(10)  # an SQS batch may hold several rooms
    assert [f.group for f in batch] == [code for _, _, code in rooms]
    return service, batch, rooms


def passing(error):
    return isinstance(error, Passing)


def test_a_room_whose_read_failed_for_a_passing_reason_is_tried_again_and_no_other_room():
    store = Broken()
    service, batch, ((first, _, one), (second, _, two)) = typed_in_two_rooms(store)
    store.failing, store.times = {one}, 1
    slept = []
    service.sleep = slept.append
    store.reads.clear()
    results = service.consume(batch, worth_retrying=passing)
    assert all(isinstance(sent, Sent) for sent in results)
    assert store.reads == [one, two, one] and slept == [consuming.WAITS_S[0]]
    for code in (one, two):
        assert stored(service, code).game.letters()[WHITES[0]] == "Q"
    for host in (first, second):  # each acknowledged once: nothing applied twice
        assert [(m["seq"], m["duplicate"]) for m in acks(host)[-1:]] == [(host.seq, False)]
        assert len([m for m in acks(host) if m["seq"] == host.seq]) == 1


def test_a_failure_that_does_not_pass_goes_back_to_the_queue_at_once():
    store = Broken()
    service, batch, ((_, _, one), (_, _, two)) = typed_in_two_rooms(store)
    store.failing, store.times, store.error = {one}, -1, KeyError("a bug")
    slept = []
    service.sleep = slept.append
    results = service.consume(batch, worth_retrying=passing)
    assert isinstance(results[0], KeyError) and isinstance(results[1], Sent)
    assert slept == []  # not tried again: it would fail the same way
    assert stored(service, two).game.letters()[WHITES[0]] == "Q"


def test_tries_are_bounded_and_stop_when_the_time_left_is_short():
    store = Broken()
    service, batch, ((_, _, one), _) = typed_in_two_rooms(store)
    store.failing, store.times = {one}, -1  # down for good
    slept = []
    service.sleep = slept.append
    results = service.consume(batch, worth_retrying=passing)
    assert isinstance(results[0], Passing)
    assert slept == list(consuming.WAITS_S)  # three tries in all
    slept.clear()
    results = service.consume(batch, worth_retrying=passing, time_left=lambda: 1.5)
    assert isinstance(results[0], Passing) and slept == []  # no time for another try
