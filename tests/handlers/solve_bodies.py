"""Bodies of every shape for the Solver's routes (hypothesis), and what any answer to
one must look like: the Lambda handler's tests and the local stack's share them."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

MAX_BODY = 64 * 1024
FIELDS = ["rules", "rack", "board", "words", "top", "bonus", "all", "play"]
PLAY_FIELDS = ["row", "col", "direction", "word"]
# What docs/solver-http.md promises, by status.
CODES = {400: {"bad_json", "invalid_request", "bad_request"}, 500: {"internal"}}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["crossplay", "duel", "QUIXOTE", "CAT", "A?", "across", "down", "", "\x00"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)
# Values that are often right, so that bodies also get past the shape to the engine.
plausible = {
    "rules": st.sampled_from(["crossplay", "scrabble", "wwf", "duel", "chess"]),
    "rack": st.sampled_from(["QUIXOTE", "CAT", "A", "", "AB1", "????", "quixot?"]),
    "board": st.sampled_from([None, ["." * 15] * 15, ["." * 15] * 14, ["#" * 15] * 15]),
    "words": st.sampled_from([None, ["cat", "at"], [], ["c4t"]]),
    "top": st.sampled_from([None, 1, 3, 0, 1001]),
    "bonus": st.booleans(),
    "all": st.sampled_from([None, False]),  # every play of a blank rack is slow: not here
    "play": st.one_of(
        st.none(),
        st.fixed_dictionaries(
            {
                "row": st.integers(0, 16),
                "col": st.integers(0, 16),
                "direction": st.sampled_from(["across", "down", "up"]),
                "word": st.sampled_from(["QUIXOTE", "CAT", "c4t", ""]),
            },
            optional={name: json_values for name in ("extra",)},
        ),
    ),
}
# Every field of any JSON type, or missing, or one too many.
any_fields = st.fixed_dictionaries(
    {},
    optional={name: st.one_of(plausible[name], json_values) for name in FIELDS}
    | {"bag": json_values},
)
# The right fields with values often right: the bodies that reach the engine.
likely = st.fixed_dictionaries(
    {"rules": plausible["rules"], "rack": plausible["rack"]},
    optional={name: plausible[name] for name in FIELDS[2:]},
)


def nested(depth: int, inside: str = "") -> str:
    return "[" * depth + inside + "]" * depth


def _deep(draw: Any) -> bytes:
    depth = draw(st.integers(min_value=50, max_value=60_000))
    field = draw(st.sampled_from([None, *FIELDS]))
    closed = draw(st.booleans())
    body = nested(depth) if closed else "[" * depth
    if field is not None:
        body = json.dumps({"rules": "crossplay", "rack": "CAT"})[:-1] + f', "{field}": {body}}}'
    return body.encode()


@st.composite
def bodies(draw: Any) -> bytes:
    """A request body: JSON of the right shape or any other, deep, huge, or not JSON."""
    kind = draw(st.sampled_from(["likely", "fields", "any", "deep", "huge", "bytes", "text"]))
    if kind in ("likely", "fields"):
        return json.dumps(draw(likely if kind == "likely" else any_fields)).encode()
    if kind == "any":
        return json.dumps(draw(json_values)).encode()
    if kind == "deep":
        return _deep(draw)
    if kind == "huge":
        size = draw(st.integers(min_value=MAX_BODY - 64, max_value=3 * MAX_BODY))
        filler = draw(st.sampled_from(["a", "é", "[", " "]))
        return json.dumps({"rules": "crossplay", "rack": "CAT", "words": [filler * size]}).encode()
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    return draw(st.text(max_size=200)).encode("utf-8", "surrogatepass")


def assert_documented(status: int, body: bytes) -> dict[str, Any]:
    """The answer is a documented status with a JSON body: plays, or one error sentence."""
    payload = json.loads(body)
    if status == 200:
        assert "plays" in payload
        return payload
    assert status in CODES, status
    error = payload["error"]
    assert error["code"] in CODES[status], error
    message = error["message"]
    assert message[:1].isupper() and message.endswith("."), message
    assert "\n" not in message
    return payload
