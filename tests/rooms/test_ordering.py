"""No letter lost in any order: frames reordered, redelivered, or handled side by side."""

import json

import pytest
from crossing import seqs
from crossing.crossword.commands import Type
from crossing.crossword.race import Race
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


def replay(room, log, now=0):
    """The room after the letters of ``log`` (player, seq, square, letter) in the order
    the room took them, by the rules alone, and the one rule of seqs: a letter older
    than its player's last change to the square (one that took effect) changes nothing."""
    last = {}  # (player, square): the seq of the player's last change there
    for player, seq, square, letter in log:
        if last.get((player, square), seq) > seq:
            continue
        before = room.game.letters()
        room, _ = R.step(room, R.Play(player, Type(player, square, letter)), now)
        if room.game.letters() != before:
            last[player, square] = seq
    return room


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
            applied.append((p.player, seq, sq, letter))
    first_seen = list(dict.fromkeys(shuffled))
    assert len(applied) == len(frames)  # every frame applied, none twice
    assert [(p.player, seq, sq, letter) for p, seq, sq, letter in first_seen] == applied
    for p in phones:
        new = acks(p)[before[p.connection] :]
        assert all(m["type"] == "ack" for m in new)
        assert sorted(m["seq"] for m in new if not m["duplicate"]) == sorted(
            seq for q, seq, _, _ in frames if q is p
        )
    final = stored(service, code)
    assert final.game.letters() == replay(start, applied, clock.now).game.letters()
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


# --- a player's own order on one square ---------------------------------------------------


def send_as(phone, seq, action, **fields):
    """A frame with the seq the phone gave it when typed, whenever it arrives."""
    body = json.dumps({"action": action, "seq": seq, **fields})
    phone.service.receive(phone.connection, body)
    return phone.take()


@pytest.mark.parametrize("mode", ["race", "together"])
def test_a_players_letter_arriving_after_their_newer_one_on_the_square_leaves_the_newer(
    service, phone, mode
):
    _host, (ann,), code = start_game(phone, mode=mode)
    square = WHITES[0]
    typed = ann.seq + 1  # X typed first, then Y: API Gateway handed them over reversed
    send_as(ann, typed + 1, "type", square=square, letter="Y")
    send_as(ann, typed, "type", square=square, letter="X")
    late = acks(ann)[-1]
    assert late["seq"] == typed and not late["duplicate"]  # applied: not an error
    assert board_of(stored(service, code), ann.player)[square] == "Y"
    assert ann.room["game"]["board"][square] == "Y"
    # and it was applied once: sent again, it is a duplicate, and still changes nothing
    send_as(ann, typed, "type", square=square, letter="X")
    assert acks(ann)[-1]["duplicate"]
    assert board_of(stored(service, code), ann.player)[square] == "Y"


def test_a_clear_that_came_first_is_not_undone_by_the_older_letter(service, phone):
    _host, (ann,), code = start_game(phone, mode="together")
    square = WHITES[1]
    typed = ann.seq + 1
    send_as(ann, typed + 1, "clear", square=square)  # nothing to clear yet
    send_as(ann, typed, "type", square=square, letter="X")
    # The clear changed nothing, so it marks nothing: the letter typed before it stays.
    assert stored(service, code).game.letters()[square] == "X"
    send_as(ann, typed + 3, "clear", square=square)
    send_as(ann, typed + 2, "type", square=square, letter="Z")
    assert stored(service, code).game.letters()[square] == "."


def test_an_older_letter_on_another_square_is_still_applied(service, phone):
    _host, (ann,), code = start_game(phone, mode="together")
    first = ann.seq + 1
    send_as(ann, first + 1, "type", square=WHITES[1], letter="B")
    send_as(ann, first, "type", square=WHITES[0], letter="A")
    assert stored(service, code).game.letters()[WHITES[0] : WHITES[1] + 1] == "AB"


def test_an_undo_arriving_after_the_players_newer_letter_does_not_take_that_letter_back(
    service, phone
):
    _host, (ann,), code = start_game(phone, mode="together")
    square, seq = WHITES[2], ann.seq + 1
    send_as(ann, seq, "type", square=square, letter="X")
    # Typed: undo (taking X back), then Y. Arrived: Y, then the undo.
    send_as(ann, seq + 2, "type", square=square, letter="Y")
    send_as(ann, seq + 1, "undo")
    assert not acks(ann)[-1]["duplicate"]
    assert stored(service, code).game.letters()[square] == "Y"
    # An undo is a change too: a letter older than it does not write over what it did.
    send_as(ann, seq + 4, "undo")  # takes Y back to X
    send_as(ann, seq + 3, "type", square=square, letter="Q")
    assert stored(service, code).game.letters()[square] == "X"


def test_across_players_the_later_letter_stays_whatever_their_seqs(service, phone):
    _host, (ann, bo), code = start_game(phone, mode="together", guests=("Ann", "Bo"))
    square = WHITES[3]
    ann_seq, bo_seq = 1_764_579_000_000_000, 12  # two players' counters: not comparable
    send_as(ann, ann_seq + 5, "type", square=square, letter="A")
    send_as(bo, bo_seq, "type", square=square, letter="B")
    assert stored(service, code).game.letters()[square] == "B"  # Bo's came later
    send_as(ann, ann_seq + 6, "type", square=square, letter="C")
    assert stored(service, code).game.letters()[square] == "C"
    # Ann's own older letter, arriving last, gives way to her newer one, not to Bo's.
    send_as(ann, ann_seq + 1, "type", square=square, letter="D")
    assert stored(service, code).game.letters()[square] == "C"


def board_of(room, player):
    """The board the player types on: their own in a race, the shared one in Together."""
    game = room.game
    return game.players[player].letters if isinstance(game, Race) else game.letters()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.booleans()), min_size=1, max_size=seqs.WINDOW + 20),
    st.randoms(use_true_random=False),
)
def test_the_window_tells_whether_a_newer_seq_changed_a_square(changes, order):
    """Any arrival order: ``overtaken`` says whether a newer seq already recorded
    changed the square, exactly, for every seq the window still takes."""
    numbered = [(10 * n + 7, square if changed else None) for n, (square, changed) in
                enumerate(changes)]  # fmt: skip
    order.shuffle(numbered)
    window, recorded = None, []
    for seq, square in numbered:
        if seqs.seen(window, seq) is not seqs.Seen.NEW:
            continue
        for asked in range(4):
            expected = any(s > seq and sq == asked for s, sq in recorded)
            assert seqs.overtaken(window, seq, asked) == expected
        window = seqs.record(window, seq, square)
        recorded.append((seq, square))
