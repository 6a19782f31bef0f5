"""The figures docs/protocol.md states are the ones the code enforces: a client written
from the page alone sizes its frames, paces and retries by them."""

from __future__ import annotations

import re
from pathlib import Path

from crossing import seqs
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
