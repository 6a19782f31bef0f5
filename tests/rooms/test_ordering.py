"""No letter lost in any order: frames reordered, redelivered, or handled side by side."""

import json

from crossing.crossword.commands import Type
from crossing.rooms import room as R
from crossing.rooms.sent import Sent
from crossing.rooms.storage import load_room
from crossing.rooms.work import Frame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import Clock, make_service, phone_maker, start_game

WHITES = list(MINI.white_squares)


def frame(seq, square, letter):
    return json.dumps({"action": "type", "seq": seq, "square": square, "letter": letter})


def acks(phone):
    return [m for m in phone.inbox if m["type"] == "ack"]


def stored(service, code):
    return load_room(service.store.load_room(code)[0])


def stored_version(service, code):
    return service.store.load_room(code)[1]


typing = st.lists(
    st.tuples(st.sampled_from(WHITES), st.sampled_from("ABCDE")), min_size=1, max_size=6
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    letters=st.lists(typing, min_size=3, max_size=3),
    order=st.randoms(use_true_random=False),
    redeliver=st.lists(st.integers(0, 17), max_size=4),
)
def test_every_acknowledged_letter_is_applied_once_and_the_board_is_the_replay(
    letters, order, redeliver
):
    clock = Clock()
    service = make_service(clock)
    host, guests, code = start_game(phone_maker(service), mode="together", guests=("Ann", "Bo"))
    phones = [host, *guests]
    start = stored(service, code)
    frames = [
        (p, p.seq + 1 + i, sq, letter)
        for p, typed in zip(phones, letters, strict=True)
        for i, (sq, letter) in enumerate(typed)
    ]
    shuffled = list(frames)
    order.shuffle(shuffled)  # any interleaving, and each player's own frames out of order
    deliveries = shuffled + [shuffled[i % len(shuffled)] for i in redeliver]
    before = {p.connection: len(acks(p)) for p in phones}
    applied = []  # the ordered log: the order the room took them in
    for p, seq, sq, letter in deliveries:
        clock.now += 7
        service.receive(p.connection, frame(seq, sq, letter))
        if not acks(p)[-1]["duplicate"]:
            applied.append((p.player, sq, letter))
    first_seen = list(dict.fromkeys(shuffled))
    assert len(applied) == len(frames)  # every frame applied, none twice
    assert [(p.player, sq, letter) for p, _, sq, letter in first_seen] == applied
    for p in phones:
        new = acks(p)[before[p.connection] :]
        assert all(m["type"] == "ack" for m in new)
        assert sorted(m["seq"] for m in new if not m["duplicate"]) == sorted(
            seq for q, seq, _, _ in frames if q is p
        )
    replay = start
    for player, sq, letter in applied:
        replay, _ = R.step(replay, R.Play(player, Type(player, sq, letter)), clock.now)
    final = stored(service, code)
    assert final.game.letters() == replay.game.letters()
    for p in phones:  # and every phone shows that board
        assert p.take() is not None
        assert p.room["game"]["board"] == final.game.letters()


def test_an_older_frame_arriving_after_a_newer_one_is_still_applied(service, phone):
    _host, (ann,), code = start_game(phone, mode="together")
    service.receive(ann.connection, frame(ann.seq + 2, 3, "I"))
    service.receive(ann.connection, frame(ann.seq + 1, 2, "S"))
    assert [m["duplicate"] for m in acks(ann)[-2:]] == [False, False]
    assert stored(service, code).game.letters()[2:4] == "SI"


def test_six_typists_at_once_lose_nothing_and_the_room_is_written_once_a_round(clock):
    # Everything that came since the last round is applied as one round: each letter its
    # own ack, in whatever seq order it came, and the room written once.
    service = make_service(clock)
    guests = ("Ann", "Bo", "Cy", "Di", "Ed")
    host, others, code = start_game(phone_maker(service), mode="together", guests=guests)
    phones = [host, *others]
    squares = {p.connection: WHITES[i::6] for i, p in enumerate(phones)}
    saves = service.store.requests["save_room"]
    work = [
        Frame(p.connection, frame(p.seq + 10 - i, sq, "ABCDEFGHIJ"[i]), clock())
        for p in phones
        for i, sq in enumerate(reversed(squares[p.connection]))  # newest seq first
    ]
    assert all(isinstance(sent, Sent) for sent in service.apply(work))
    board = stored(service, code).game.letters()
    for p in phones:
        for i, sq in enumerate(reversed(squares[p.connection])):
            assert board[sq] == "ABCDEFGHIJ"[i]
        assert not any(m["type"] == "error" for m in p.inbox)
        mine = acks(p)[-len(squares[p.connection]) :]
        assert all(not m["duplicate"] for m in mine)
        assert {m["version"] for m in mine} == {stored_version(service, code)}
    assert service.store.requests["save_room"] - saves == 1
    assert service.runner.conflicts == 0
