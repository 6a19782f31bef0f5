"""Hostile frames through real WebSockets, on the stack players run (``crossing serve``)
and on ``--backend moto``: whatever a frame holds, it gets exactly one answer, an error
whose message is a sentence, the connection stays open, and the room it was sent into
does not change — with 2 phones connected and with 32.

Frames are written from docs/protocol.md alone (the actions and field types of its
tables) and every one is **invalid by construction**, so none may legally change
anything: not JSON (cut short, trailing bytes, numbers or nesting past what a parser
takes), JSON that is not an object, an ``action`` that is not a string the docs name
(an object, a list, a number, a near miss…), or a real action with at least one field
of a type the docs do not allow (``seq`` missing or out of 0..2^53 included; in
``tiles`` and ``subscription`` possibly a field inside), a binary frame (even one that
holds a valid frame), or a frame over 24,576 bytes. Every other field holds JSON of any
type: null, flags, whole numbers up to 10^300, floats with NaN and Infinity (which
Python's parser takes), text with control, bidirectional, private-use characters and
lone surrogates, lists, objects. Two things are never counted as wrong: ``null`` in a
field the docs mark optional, and a ``ping`` without ``seq`` (the docs leave it
unanswered).

So the one answer each must get is the error its kind names: ``binary-frame``,
``too-large``, else ``bad-message``. After each hostile frame the same socket sends
``{"action":"ping","seq":N}``: its ``ack`` shows the socket still carries frames both
ways, and whatever came before it is the hostile frame's answer.
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from crossing.refusals import Code
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from tests.local.client import SocketPlayer, two_in_a_game

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
MAX_BYTES = 24_576  # docs/protocol.md: "A frame is at most 24 KiB (24,576 bytes"
MAX_SEQ = 2**53
EXAMPLES = 90  # two frames each (the hostile one and the probe), per stack
CROWDED_EXAMPLES = 25  # again, with 30 more phones connected
CROWD = 30
FRAME_GAP_S = 1 / 12  # the pace drains 15 frames a second: never fill the bucket
SNAPSHOT_AGAIN_S = 2.2  # an unchanged room's snapshot is refused for 2 s after the last

# --- what the docs say a frame may hold -----------------------------------------------------

TEXT, FLAG, WHOLE, LIST, OBJECT, NULL = "text", "flag", "whole", "list", "object", "null"
OPTIONAL_FLAG = frozenset({FLAG, NULL})
OPTIONAL_TEXT = frozenset({TEXT, NULL})
ONLY_TEXT = frozenset({TEXT})


def documented_actions() -> dict[str, list[str]]:
    """Each action in docs/protocol.md's action tables, and its fields column in each."""
    named: dict[str, list[str]] = {}
    in_table = False
    for line in PROTOCOL.read_text().splitlines():
        if line.startswith("| action |"):
            in_table = True
        elif not line.startswith("|"):
            in_table = False
        elif in_table:
            cells = re.split(r"(?<!\\)\|", line)  # "\|" is a bar inside a cell
            for name in re.findall(r"`(\w+)`", cells[1]):
                named.setdefault(name, []).append(cells[2].strip())
    return named


DOCUMENTED = documented_actions()
NO_FIELDS = "—"
# The JSON types each field of the actions that have fields may take in those tables;
# an optional field may also take null (not a certain refusal).
TYPED: dict[str, dict[str, frozenset[str]]] = {
    "hello": {"player": OPTIONAL_TEXT, "token": OPTIONAL_TEXT, "refresh": OPTIONAL_TEXT},
    "host": {"name": ONLY_TEXT, "solo": OPTIONAL_FLAG},
    "join": {"code": ONLY_TEXT, "name": ONLY_TEXT},
    "watch": {"code": ONLY_TEXT},
    "notify": {"subscription": frozenset({OBJECT, NULL})},
    "rename": {"name": ONLY_TEXT},
    "add_bot": {"level": ONLY_TEXT},
    "remove_bot": {"bot": ONLY_TEXT},
    "choose": {"mode": ONLY_TEXT, "size": ONLY_TEXT},
    "start": {
        "pick_up": OPTIONAL_FLAG,
        "replace_saved": OPTIONAL_FLAG,
        "dealt": frozenset({LIST, NULL}),
    },
    "type": {"square": frozenset({WHOLE}), "letter": ONLY_TEXT},
    "clear": {"square": frozenset({WHOLE})},
    "sign_up": {"name": ONLY_TEXT, "password": ONLY_TEXT},
    "sign_in": {"name": ONLY_TEXT, "password": ONLY_TEXT},
    "duel_seek": {"limit": frozenset({WHOLE, NULL}), "private": OPTIONAL_FLAG},
    "duel_cancel": {"seek": ONLY_TEXT},
    "duel_accept": {"seek": ONLY_TEXT, "token": OPTIONAL_TEXT},
    "duel_bot": {"level": ONLY_TEXT, "limit": frozenset({WHOLE, NULL})},
    "duel_open": {"game": ONLY_TEXT},
    "duel_watch": {"game": ONLY_TEXT},
    "duel_play": {"tiles": frozenset({LIST})},
    "duel_swap": {"letter": ONLY_TEXT},
}
ACTIONS = TYPED | {name: {} for name, said in DOCUMENTED.items() if set(said) == {NO_FIELDS}}
ACTIONS["ping"] = {}  # the keep-alive, in a paragraph of its own
FIELDS = sorted({field for fields in ACTIONS.values() for field in fields} | {"row", "col"})


def test_the_frames_are_written_from_every_action_and_field_the_docs_list():
    assert set(ACTIONS) == {*DOCUMENTED, "ping"}
    for action, fields in TYPED.items():
        named = set(re.findall(r"`(\w+)\??`", " ".join(DOCUMENTED[action])))
        assert set(fields) <= named, action


# --- hostile JSON -------------------------------------------------------------------------

ODD_TEXT = [
    "",
    " ",
    "\x00",
    "A\x00",
    "\x1b[31m",
    "\u202eevil",
    "\u2066x\u2069",
    "\u200b",
    "\ufeff",
    "\ue000",
    "\ud800",
    "\udfff",
    "\u2028",
    "Ann\r\nHost: x",
    "𝔸",
    "é" * 40,
    "A",
    "mini",
    "together",
    "hard",
    "ABCDEF",
    "cw-0123456789ab",
    "__proto__",
    "constructor",
    "NaN",
    "null",
    "0",
    "1e999",
]
texts = st.one_of(
    st.text(max_size=16),
    st.text(st.characters(categories=["Cc", "Cf", "Co", "Cs", "Zl", "Zp", "Mn"]), max_size=6),
    st.sampled_from(ODD_TEXT),
)
whole_numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, MAX_SEQ, MAX_SEQ + 1, 2**63, 2**64, 10**100, -(10**300)]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    whole_numbers,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1.0, 0.0, -0.0, 1e308, 5e-324]),
    texts,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)),
    max_leaves=10,
)


def kind_of(value: Any) -> str:
    if value is None:
        return NULL
    if isinstance(value, bool):
        return FLAG
    if isinstance(value, int):
        return WHOLE
    if isinstance(value, str):
        return TEXT
    if isinstance(value, list):
        return LIST
    if isinstance(value, dict):
        return OBJECT
    return "float"


def is_seq(value: Any) -> bool:
    return kind_of(value) == WHOLE and 0 <= value <= MAX_SEQ


def not_of(kinds: frozenset[str]) -> st.SearchStrategy[Any]:
    """Any JSON value of a type outside ``kinds``."""
    return json_values.filter(lambda v: kind_of(v) not in kinds)


ABSENT = object()  # a field left out of the frame
seqs = st.one_of(st.integers(min_value=0, max_value=MAX_SEQ), st.sampled_from([0, MAX_SEQ]))
wrong_seqs = st.one_of(
    st.just(ABSENT),
    json_values.filter(lambda v: not is_seq(v)),
    st.integers(max_value=-1),
    st.integers(min_value=MAX_SEQ + 1),
)
wrong_ping_seqs = wrong_seqs.filter(lambda v: v is not ABSENT)  # unnumbered: no answer
wrong_tiles = st.one_of(
    not_of(frozenset({LIST})),
    st.tuples(
        st.lists(json_values, max_size=2),
        st.one_of(
            not_of(frozenset({OBJECT})),
            st.fixed_dictionaries({"row": not_of(frozenset({WHOLE})), "col": json_values}),
            st.fixed_dictionaries({"row": st.integers(0, 14), "col": not_of(frozenset({WHOLE}))}),
            st.fixed_dictionaries(
                {"row": st.integers(0, 14), "col": st.integers(0, 14), "letter": not_of(ONLY_TEXT)}
            ),
        ),
    ).map(lambda t: [*t[0], t[1]]),
)
wrong_subscriptions = st.one_of(
    not_of(frozenset({OBJECT, NULL})),
    st.fixed_dictionaries({"endpoint": not_of(ONLY_TEXT), "keys": json_values}),
)


def wrong_value(field: str, kinds: frozenset[str]) -> st.SearchStrategy[Any]:
    """A value the docs do not allow in ``field``: its type is wrong, at once or inside."""
    if field == "tiles":
        return wrong_tiles
    if field == "subscription":
        return wrong_subscriptions
    return not_of(kinds)


# --- hostile frames -----------------------------------------------------------------------


@dataclass(frozen=True)
class Hostile:
    """A frame to send, and what its one answer must be."""

    why: str
    body: str | bytes
    seq: int | None = None
    """The frame's seq if it has a valid one (the error must repeat it, or may, below)."""
    parsed: bool = True
    """Whether any JSON parser takes it whole: if not (numbers or nesting past a parser's
    limits), or if it is too large to be read, the error may leave its seq out."""

    @property
    def code(self) -> str:
        if isinstance(self.body, bytes):
            return Code.BINARY_FRAME
        if len(self.body.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            return Code.TOO_LARGE
        return Code.BAD_MESSAGE

    def __repr__(self) -> str:
        shown = self.body if len(self.body) < 400 else self.body[:200] + self.body[-100:]
        return f"Hostile({self.why}, {len(self.body)} long, seq {self.seq}: {shown!r})"


def text_of(value: Any) -> str:
    """JSON as a browser would send it: UTF-8, except that a lone surrogate, which UTF-8
    cannot carry, goes as its ``\\u`` escape."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    try:
        text.encode()
    except UnicodeEncodeError:
        return json.dumps(value, allow_nan=True)
    return text


def framed(why: str, fields: dict[str, Any]) -> Hostile:
    seq = fields.get("seq")
    return Hostile(why, text_of(fields), seq if is_seq(seq) else None)


@st.composite
def extra_fields(draw: st.DrawFn) -> dict[str, Any]:
    names = st.one_of(st.sampled_from(FIELDS), texts)
    return draw(st.dictionaries(names, json_values, max_size=3))


@st.composite
def wrong_fields(draw: st.DrawFn) -> Hostile:
    """A real action whose fields hold anything, one of them (or ``seq``) certainly wrong."""
    action = draw(st.sampled_from(sorted(ACTIONS)))
    fields = ACTIONS[action]
    frame = draw(extra_fields())
    for field in fields:
        if draw(st.booleans()):
            frame[field] = draw(json_values)
    frame["seq"] = draw(st.one_of(seqs, wrong_seqs))
    frame["action"] = action
    wrong = draw(st.sampled_from([*sorted(fields), "seq"]))
    if wrong == "seq":
        frame["seq"] = draw(wrong_ping_seqs if action == "ping" else wrong_seqs)
    else:
        frame[wrong] = draw(wrong_value(wrong, fields[wrong]))
    frame = {k: v for k, v in frame.items() if v is not ABSENT}
    hostile = framed(f"{action} with a wrong {wrong}", frame)
    if wrong != "seq" and draw(st.booleans()):  # the same key twice, both wrong
        again = text_of({wrong: draw(wrong_value(wrong, fields[wrong]))})[1:-1]
        body = "{" + again + ", " + str(hostile.body)[1:]
        hostile = Hostile(hostile.why + ", twice", body, hostile.seq)
    return hostile


NEAR_MISSES = ["Type", "TYPE", " type", "type ", "type\x00", "typ", "ping\u200b", "PING", "hello\n"]
unknown_actions = st.one_of(
    not_of(ONLY_TEXT),
    st.sampled_from(NEAR_MISSES),
    texts.filter(lambda t: t not in ACTIONS),
    st.sampled_from([{"a": 1}, ["type"], {"action": "type"}, 1, 1.5, True, None]),
)


@st.composite
def wrong_actions(draw: st.DrawFn) -> Hostile:
    """Any fields, and an ``action`` that is not one the docs name."""
    frame = draw(extra_fields())
    frame["seq"] = draw(st.one_of(seqs, wrong_seqs))
    frame["action"] = draw(st.one_of(unknown_actions, st.just(ABSENT)))
    frame = {k: v for k, v in frame.items() if v is not ABSENT}
    return framed("an unknown action", frame)


def loads_to_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


not_json = st.one_of(
    st.text(max_size=40).filter(lambda t: not loads_to_object(t)),
    st.builds(
        lambda h, cut: h.body[: max(1, len(h.body) - cut)], wrong_fields(), st.integers(1, 9)
    ).filter(lambda t: not loads_to_object(t)),
    st.builds(
        lambda seq, tail: f'{{"action":"undo","seq":{seq}}}{tail}',
        seqs,
        st.sampled_from(["x", "}", "]", ",", "\x00", " {}", "{", "//"]),
    ),
).map(lambda t: Hostile("not JSON", t, parsed=False))
not_objects = json_values.filter(lambda v: kind_of(v) != OBJECT).map(
    lambda v: Hostile("not an object", text_of(v))
)


@st.composite
def nested(draw: st.DrawFn) -> Hostile:
    """A real frame with a field nested deep, the whole just under or at the limit, or
    just over it (sizes in bytes: padding of two-byte letters)."""
    seq = draw(seqs)
    wrong = draw(st.sampled_from(["square", "letter", "action"]))
    head = {"action": "type", "seq": seq, "square": 3, "letter": "A"}
    opened, closed = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
    target = MAX_BYTES - draw(st.sampled_from([0, 1, 17, 600])) + draw(st.sampled_from([0, 0, 1]))
    probe = text_of({**head, wrong: "@", "pad": ""})
    depth = draw(st.integers(min_value=1, max_value=(target - len(probe)) // (len(opened) + 1)))
    deep = opened * depth + ("0" if opened != "[" else "") + closed * depth
    base = probe.replace('"@"', deep)
    room = target - len(base.encode())
    twos = draw(st.integers(min_value=0, max_value=max(0, room) // 2))
    body = base.replace('"pad": ""', '"pad": "' + "é" * twos + "x" * (room - 2 * twos) + '"')
    return Hostile(f"{wrong} nested {depth} deep", body, seq, parsed=depth < 500)


@st.composite
def oversized(draw: st.DrawFn) -> Hostile:
    """Over the limit by a byte or more; whether its letters take one byte or two."""
    letter = draw(st.sampled_from(["x", "é", "€"]))
    over = draw(st.sampled_from([1, 2, 1000, 40_000]))
    head = text_of({"action": "type", "seq": draw(seqs), "square": 3, "letter": "AB", "pad": ""})
    room = MAX_BYTES + over - len(head)
    pad = letter * (room // len(letter.encode())) + "x" * (room % len(letter.encode()))
    return Hostile("over the limit", head.replace('"pad": ""', f'"pad": "{pad}"'), parsed=False)


@st.composite
def huge_numbers(draw: st.DrawFn) -> Hostile:
    """A number with more digits than a parser takes (Python's: 4,300), in a wrong field."""
    seq = draw(seqs)
    digits = "9" * draw(st.integers(min_value=4_301, max_value=20_000))
    where = draw(st.sampled_from(["seq", "square", "letter"]))
    frame = {"action": "type", "seq": seq, "square": 3, "letter": "AB"}
    body = text_of({**frame, where: "@"}).replace('"@"', digits)
    return Hostile(f"{where} of {len(digits)} digits", body, None if where == "seq" else seq, False)


binary = st.one_of(
    st.binary(max_size=64),
    seqs.map(lambda seq: json.dumps({"action": "undo", "seq": seq}).encode()),
).map(lambda b: Hostile("binary", b))

# Half of them real actions, each field's turn to be wrong (hypothesis's ``one_of`` leans
# to its first choices; a choice drawn evenly does not).
KINDS = [wrong_fields()] * 7 + [
    wrong_actions(),
    not_json,
    not_objects,
    binary,
    nested(),
    oversized(),
    huge_numbers(),
]
hostile_frames = st.sampled_from(range(len(KINDS))).flatmap(KINDS.__getitem__)

# --- the table the frames are sent to --------------------------------------------------------

QUOTES = "'\"“‘"
PYDANTIC = ("Input should", "a bad the", "Value error", "validation error", "Traceback")


def a_sentence(message: Any) -> bool:
    return (
        isinstance(message, str)
        and (message[:1].isupper() or message[:1] in QUOTES)
        and message.endswith(".")
        and not any(words in message for words in PYDANTIC)
    )


def steady(view: dict[str, Any]) -> dict[str, Any]:
    """A room's view without the time it was made (``game.clock.at`` moves with each)."""
    kept = copy.deepcopy(view)
    kept.get("game", {}).get("clock", {}).pop("at", None)
    return kept


class Table:
    """Hana hosts a Together game that Ann plays; Ann's socket sends the hostile frames."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.hana, self.ann = two_in_a_game(url, "together")
        self.sent = 0
        self.kinds: Counter[str] = Counter()
        self._last_frame = 0.0
        self._last_snapshot = 0.0
        self._previous: Hostile | None = None

    def close(self) -> None:
        for player in (self.hana, self.ann):
            player.close()

    def _paced(self) -> None:
        time.sleep(max(0.0, self._last_frame + FRAME_GAP_S - time.monotonic()))
        self._last_frame = time.monotonic()
        self.sent += 1

    def answers_to(self, frame: Hostile) -> list[dict[str, Any]]:
        """What Ann's socket hears before the ack of the ping sent after ``frame``."""
        said = f"after {frame!r} (the frame before: {self._previous!r})"
        self._previous = frame
        self.kinds[frame.why.split(" with")[0].split(" nested")[0]] += 1
        try:
            self._paced()
            self.ann.ws.send(frame.body)
            self._paced()
            probe = self.ann.send("ping")
            heard = []
            while True:
                text = self.ann.ws.recv(timeout=10)
                message = json.loads(text)
                if message.get("type") == "ack" and message.get("seq") == probe:
                    return heard
                heard.append(message)
        except ConnectionClosed as closed:
            raise AssertionError(f"the connection closed ({closed}) {said}") from None
        except TimeoutError:
            raise AssertionError(f"the ping's ack never came {said}") from None

    def host_heard(self) -> list[dict[str, Any]]:
        """Everything Hana's socket has been sent since last asked."""
        heard = []
        with contextlib.suppress(TimeoutError):
            while True:
                heard.append(self.hana.read(timeout=0))
        return heard

    def view(self) -> tuple[int, dict[str, Any]]:
        """The room's version and Hana's whole view of it, by ``snapshot``."""
        time.sleep(max(0.0, self._last_snapshot + SNAPSHOT_AGAIN_S - time.monotonic()))
        asked = self.hana.send("snapshot")
        self._last_snapshot = time.monotonic()
        while True:
            message = self.hana.read(timeout=10)
            assert not (message["type"] == "error" and message.get("seq") == asked), message
            if message["type"] == "room" and message["full"]:
                return message["version"], steady(message["room"])

    def check(self, frame: Hostile) -> None:
        """One hostile frame: one error in a sentence, the socket open, Hana told nothing."""
        answers = self.answers_to(frame)
        assert len(answers) == 1, f"{frame!r} was answered {len(answers)} times: {answers}"
        (answer,) = answers
        assert answer.get("type") == "error", f"{frame!r} was answered {answer}"
        assert answer.get("code") in set(Code), f"{frame!r}: unknown code in {answer}"
        assert answer["code"] == frame.code, f"{frame!r}: {frame.code} expected, got {answer}"
        assert a_sentence(answer.get("message")), f"{frame!r}: not a sentence: {answer}"
        repeated = answer.get("seq")
        assert repeated is None or repeated == frame.seq, f"{frame!r}: seq repeated: {answer}"
        if frame.parsed and frame.code == Code.BAD_MESSAGE and frame.seq is not None:
            assert repeated == frame.seq, f"{frame!r}: its seq not repeated: {answer}"
        rooms = [m for m in self.host_heard() if m["type"] == "room"]
        assert not rooms, f"the host was sent a change after {frame!r}: {rooms}"


NO_SHRINKING = (Phase.explicit, Phase.reuse, Phase.generate)
"""A socket's failure may end it, and every frame after would fail the same way: the
first failing frame is the one to report, not a smaller one shrunk from the wreck."""


def send_hostile_frames(table: Table, examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        phases=NO_SHRINKING,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(frame=hostile_frames)
    @example(frame=Hostile("the issue's object action", '{"action":{"a":1},"seq":1}', 1))
    @example(frame=Hostile("a list action", '{"action":["type"],"seq":2}', 2))
    @example(frame=Hostile("nested at the limit", "[" * MAX_BYTES, parsed=False))
    @example(frame=Hostile("binary holding a frame", b'{"action":"undo","seq":3}'))
    @example(frame=Hostile("a ping numbered wrong", '{"action":"ping","seq":"4"}'))
    def one(frame: Hostile) -> None:
        table.check(frame)

    one()


@pytest.fixture(params=["served", "moto"])
def table(request: pytest.FixtureRequest) -> Iterator[Table]:
    stack = request.getfixturevalue("served" if request.param == "served" else "local_stack")
    made = Table(stack.url.replace("http", "ws") + "ws")
    yield made
    made.close()


@contextlib.contextmanager
def crowd(url: str, phones: int) -> Iterator[list[SocketPlayer]]:
    """``phones`` more connections, each a player who said hello, idle."""
    connected = []
    try:
        for _ in range(phones):
            connected.append(SocketPlayer(url))
            connected[-1].act("hello")
        yield connected
    finally:
        for phone in connected:
            phone.close()


def test_every_hostile_frame_gets_one_error_keeps_its_socket_and_changes_nothing(table):
    before = table.view()
    started = time.monotonic()
    send_hostile_frames(table, EXAMPLES)
    with crowd(table.url, CROWD):
        send_hostile_frames(table, CROWDED_EXAMPLES)
    # Ann's refused ``pause`` (only the host may) goes the way a room's frames go (the
    # cloud's queue, in order): once it is answered, every frame before it has been.
    assert table.ann.act("pause")["code"] == Code.NOT_HOST
    assert table.view() == before, "the room changed"
    assert not [m for m in table.host_heard() if m["type"] == "room"]
    print(f"{table.sent} frames in {time.monotonic() - started:.1f} s: {table.kinds}")
