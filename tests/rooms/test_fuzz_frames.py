"""Fuzzing the service with generated frames (hypothesis): whatever arrives, nothing
escapes, the sender hears back exactly once, and a refused frame changes nothing.

Each example is a room with a host, a guest and a watch screen, in a Together game,
then a burst of frames: JSON of any shape, real actions with fields of any type, real
actions with plausible fields from any of the three connections, and bytes that are
not text. Tens of thousands of frames a run: ``FUZZ_COUNT=1`` prints how many."""

from __future__ import annotations

import json
import os

from crossing.refusals import Code
from crossing.rooms import protocol as P
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.rooms.fakes import Clock, make_service, phone_maker, start_game

EXAMPLES = 400
FRAMES = 50  # per example
CODES = {code.value for code in Code}
SENT = [0]  # frames sent this run, for the record (FUZZ_COUNT=1 prints it)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["0", "A", "a", "", "\x00", "\u202e", "mini", "race", "hard", "ABCDEF"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "seq",
    "square",
    "letter",
    "name",
    "code",
    "solo",
    "mode",
    "size",
    "level",
    "bot",
    "tiles",
    "limit",
    "seek",
    "token",
    "game",
    "private",
    "subscription",
    "pick_up",
]


def plausible(draw_from_room):
    """A real action with fields that are often right: the frames that reach the rules."""
    return st.fixed_dictionaries(
        {"action": st.sampled_from(P.ACTIONS)},
        optional={
            "seq": st.integers(min_value=0, max_value=10_000),
            "square": st.integers(min_value=-2, max_value=30),
            "letter": st.sampled_from(["A", "Z", "s", "1", "", "AB"]),
            "name": st.sampled_from(["Ann", "", "B\u200bob", "x" * 30]),
            "code": draw_from_room,
            "mode": st.sampled_from(["race", "together", "duel"]),
            "size": st.sampled_from(["mini", "small", "huge"]),
            "level": st.sampled_from(["easy", "hard", "god"]),
            "solo": st.booleans(),
        },
    )


def frames(code: str):
    text_frame = st.one_of(
        json_values.map(lambda v: json.dumps(v, allow_nan=True)),
        st.fixed_dictionaries(
            {"action": st.sampled_from(P.ACTIONS)},
            optional={name: json_values for name in FIELDS},
        ).map(lambda d: json.dumps(d, allow_nan=True)),
        plausible(st.sampled_from([code, code.lower(), "ZZZZZZ"])).map(json.dumps),
        st.text(max_size=60),
        st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n + "]" * n),
    )
    return st.one_of(
        st.tuples(st.just(False), text_frame),
        st.tuples(st.just(True), st.binary(max_size=40)),
    )


def replies(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["type"] in ("ack", "error")]


def stored_version(service, code: str) -> int | None:
    loaded = service.store.load_room(code)
    return loaded[1] if loaded else None


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_generated_frames_are_each_answered_once_and_refusals_change_nothing(data):
    clock = Clock()
    service = make_service(clock)
    phone = phone_maker(service)
    host, (guest,), code = start_game(phone, mode="together")
    tv = phone()
    tv.send("watch", code=code)
    senders = [host, guest, tv]
    burst = data.draw(
        st.lists(
            st.tuples(st.sampled_from(senders), frames(code)), min_size=FRAMES, max_size=FRAMES
        )
    )
    for sender, (binary, body) in burst:
        before = stored_version(service, code)
        sender.take()
        service.receive(sender.connection, body, binary=binary)  # nothing may escape
        SENT[0] += 1
        answered = replies(sender.take())
        assert len(answered) == 1, (body, answered)
        if answered[0]["type"] == "error":
            assert stored_version(service, code) == before, body
            assert answered[0]["code"] in CODES
            assert isinstance(answered[0]["message"], str) and answered[0]["message"]
        clock.now += 37
    if os.environ.get("FUZZ_COUNT"):
        print(f"frames sent so far: {SENT[0]}")
