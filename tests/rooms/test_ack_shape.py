"""The acks of a room's letters are built as dicts, not models: they must be what the
model (the protocol's word) dumps to, or a client written from it would not read them."""

import pytest
from crossing.rooms import protocol as P

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import start_game


@pytest.mark.parametrize(
    ("seq", "version", "duplicate", "cursor"),
    [(1, 2, False, None), (7, 40, True, None), (9, 41, False, 17), (3, None, False, None)],
)
def test_an_ack_built_as_a_dict_is_the_ack_model_dumped(seq, version, duplicate, cursor):
    built = P.ack(seq, version, duplicate, cursor)
    model = P.Ack(seq=seq, version=version, duplicate=duplicate, cursor=cursor)
    assert built == model.model_dump(mode="json")
    assert P.Ack.model_validate(built) == model


def test_an_undo_is_acknowledged_with_the_square_it_changed_and_its_retry_without(phone, clock):
    _, (ann,), _ = start_game(phone, mode="together")
    square = list(MINI.white_squares)[3]
    clock.now += 700
    (typed,) = [m for m in ann.send("type", square=square, letter="Q") if m["type"] == "ack"]
    assert typed["cursor"] is None and not typed["duplicate"]
    clock.now += 700
    (undone,) = [m for m in ann.send("undo") if m["type"] == "ack"]
    assert undone["cursor"] == square and not undone["duplicate"]
    assert ann.room["game"]["board"][square] != "Q"
    # The same frame again (a phone that never heard the ack): applied once, and its ack
    # says so, with no square to move the cursor to.
    (again,) = [m for m in ann.resend_last("undo") if m["type"] == "ack"]
    assert again["duplicate"] and again["cursor"] is None
    for ack in (typed, undone, again):
        assert P.Ack.model_validate(ack).model_dump(mode="json") == ack
