"""Hostile frames: each gets exactly one error with a sentence for a player, and nothing
changes (the room, the profile) — whatever the frame holds."""

from __future__ import annotations

import json
import re

import pytest
from crossing.crossword.commands import Refused
from crossing.rooms import protocol as P
from crossing.rooms import router

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import Clock, make_service, phone_maker, start_game


@pytest.fixture
def service():
    return make_service(Clock())


@pytest.fixture
def phone(service):
    return phone_maker(service)


def raw(phone, body, *, binary=False) -> list[dict]:
    phone.service.receive(phone.connection, body, binary=binary)
    return phone.take()


def only_error(messages: list[dict]) -> dict:
    assert [m["type"] for m in messages] == ["error"], messages
    error = messages[0]
    assert "Input should" not in error["message"]  # a sentence for a player, not pydantic's
    assert error["message"].endswith(".")
    return error


def test_json_nested_past_the_parser_is_answered(phone):
    ann = phone()
    deep = "[" * 2000 + "]" * 2000
    assert only_error(raw(ann, deep))["code"] == "bad-message"
    deep_object = '{"action":"type","seq":1,"x":' + "[" * 100_000 + "]" * 100_000 + "}"
    assert only_error(raw(ann, deep_object[:4000]))["code"] in ("bad-message", "too-large")


@pytest.mark.parametrize("seq", ['"abc"', "NaN", "7.5", "[1]", "true", "-1", "9007199254740993"])
def test_a_seq_that_is_no_whole_number_is_answered_without_one(phone, seq):
    ann = phone()
    error = only_error(raw(ann, '{"action":"host","name":"Ann","seq":' + seq + "}"))
    assert error["code"] == "bad-message"
    assert error.get("seq") is None
    assert "seq" in error["message"]


@pytest.mark.parametrize("square", ['"0"', "0.0", "true", "null", "[0]"])
def test_a_square_must_be_an_integer(phone, square):
    host, (ann,), _code = start_game(phone, mode="together")
    first = MINI.grid.slot("1a").squares[0]
    ann.send("type", square=first, letter=MINI.solution[first])
    host.take()
    before = host.room["game"]["board"]
    body = f'{{"action":"clear","seq":{ann.seq + 1},"square":{square}}}'
    ann.seq += 1
    assert only_error(raw(ann, body))["code"] == "bad-message"
    assert not host.take()  # nobody else heard of anything
    assert host.room["game"]["board"] == before


@pytest.mark.parametrize(
    "name",
    ["Ann\x00", "A\u200bnn", "Ann\u202eeviL", "\u2066Ann", "Ann\x1b[31m", "\ufeffAnn", "\ue000"],
)
def test_names_with_invisible_characters_are_refused(phone, name):
    ann = phone()
    error = only_error(ann.send("host", name=name))
    assert error["code"] == "bad-message"
    assert "Names" in error["message"]
    assert not ann.room


def test_names_are_normalised_to_nfc(phone):
    ann = phone()
    ann.send("host", name="Zoe\u0301")  # e + combining acute
    assert [m["name"] for m in ann.room["members"]] == ["Zo\u00e9"]


def test_a_binary_frame_is_answered_and_changes_nothing(phone):
    ann = phone()
    assert only_error(raw(ann, b"\x00\x01binary", binary=True))["code"] == "binary-frame"
    assert not ann.errors(ann.send("host", name="Ann"))  # the connection still works


@pytest.mark.parametrize(
    "body",
    [
        "",
        "null",
        "[]",
        '"type"',
        "42",
        '{"action": 7, "seq": 1}',
        '{"action": "fly", "seq": 1}',
        '{"action": "type", "seq": 1, "square": 0, "letter": "A", "extra": 1}',
        '{"action": "host", "seq": 1, "name": "Ann", "solo": "yes"}',
        '{"action": "host", "seq": 1, "name": ["Ann"]}',
        '{"action": "choose", "seq": 1, "mode": 1, "size": "mini"}',
        '{"action": "duel_play", "seq": 1, "tiles": [{"row": 1.0, "col": 1, "letter": "A"}]}',
    ],
)
def test_every_malformed_frame_gets_one_error_in_words(phone, body):
    ann = phone()
    error = only_error(raw(ann, body))
    assert error["code"] == "bad-message"
    json.dumps(error)  # and it is itself valid JSON


def test_a_start_mid_game_is_refused_as_playing(phone, service):
    host, (_ann,), code = start_game(phone, mode="together")
    version = service.store.load_room(code)[1]
    (error,) = host.errors(host.send("start"))
    assert error["code"] == "playing"
    assert service.store.load_room(code)[1] == version


SENTENCE = re.compile(r"^[A-Z'\"].*[.?!]$")
WRONG_VALUES = [None, True, -1, 2**60, 1.5, "", "x" * 300, "\u202e", [], [1, "a"], {}, {"a": 1}]


def test_every_refusal_of_a_malformed_field_reads_as_a_sentence():
    """Each action with each of its fields set to each kind of wrong JSON value: the error
    a player sees is an English sentence (not 'a bad the tiles', not pydantic's words)."""
    said = set()
    for action in P.ACTIONS:
        model = next(m for m in P.MESSAGE_MODELS if action in P.actions_of(m))
        for field in ["seq", "nonsense", *model.model_fields]:
            for value in WRONG_VALUES:
                frame = {"action": action, "seq": 1, field: value}
                try:
                    router.validate(frame)
                except Refused as refusal:
                    said.add(str(refusal))
    assert len(said) > 15  # the frames were refused, in many words
    doubled = re.compile(r"\b(a|an) (\w+ )?(the|a|an)\b")  # "a bad the tiles"
    loose = [m for m in said if not SENTENCE.match(m) or doubled.search(m)]
    assert loose == []
    assert all("Input should" not in m and "input_value" not in m for m in said)
