"""The figures docs/protocol.md and docs/solver-http.md state are the ones the code
enforces: a client written from the pages alone sizes its frames, paces, retries and
buffers by them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from crossing import seqs
from crossing.handlers import solve
from crossing.local.events import LambdaContext, http_api_event
from crossing.refusals import MEANING, Code
from crossing.rooms import pace
from crossing.rooms import protocol as P

PAGE = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text()


def numbers(pattern: str) -> list[int]:
    """Every number the page states where ``pattern`` (one group) matches."""
    found = [int(n.replace(",", "")) for n in re.findall(pattern, PAGE)]
    assert found, f"docs/protocol.md no longer says {pattern!r}"
    return found


def test_the_largest_frame_is_the_one_the_page_states():
    assert numbers(r"\*\*24 KiB\*\* \(([\d,]+) bytes") == [P.MAX_MESSAGE_BYTES]
    assert numbers(r"`too-large` \| frame over ([\d,]+) bytes") == [P.MAX_MESSAGE_BYTES]
    assert f"{P.MAX_MESSAGE_BYTES:,}" in MEANING[Code.TOO_LARGE]


def test_the_seq_window_is_the_one_the_page_states():
    assert set(numbers(r"\*\*(\d+)\*\* most recent seqs")) == {seqs.WINDOW}
    assert set(numbers(r"older than all (\d+) seqs")) == {seqs.WINDOW}


def test_the_pace_is_the_one_the_page_states():
    [(burst, per_second)] = re.findall(r"a bucket (\d+) deep that drains (\d+) a second", PAGE)
    assert (int(burst), int(per_second)) == (pace.BURST, pace.PER_SECOND)


def test_the_largest_seq_is_the_one_the_page_states():
    assert numbers(r"from 0 to 2\^(\d+)") == [P.MAX_SEQ.bit_length() - 1]


def test_the_solvers_largest_answer_is_the_one_its_page_states():
    page = (Path(__file__).resolve().parents[1] / "docs" / "solver-http.md").read_text()
    [(rack, plays, megabytes)] = re.findall(
        r"`(\S+)` on an empty board under any of the three rule sets, is \*\*([\d,]+) plays\s+"
        r"in about ([\d.]+) MB",
        page,
    )
    event = http_api_event(
        "POST",
        "/api/solve",
        {},
        json.dumps({"rules": "scrabble", "rack": rack, "all": True}).encode(),
    )
    answer = solve.handler(event, LambdaContext())
    assert answer["statusCode"] == 200
    assert json.loads(answer["body"])["count"] == int(plays.replace(",", ""))
    assert round(len(answer["body"].encode()) / 1e6, 1) == float(megabytes)
