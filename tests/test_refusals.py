"""Refusal codes are one enum, every one documented for clients, every refusal a sentence."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from crossing.refusals import MEANING, Code, Refused

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "functions" / "crossing"


def documented_codes() -> dict[str, str]:
    text = (ROOT / "docs" / "protocol.md").read_text()
    table = text.split("| code | meaning |\n|---|---|\n", 1)[1].split("\n\n", 1)[0]
    return dict(re.findall(r"^\| `([a-z-]+)` \| (.+) \|$", table, re.M))


def refusals_in_source() -> list[tuple[str, int, ast.Call]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Refused":
                found.append((str(path.relative_to(PACKAGE)), node.lineno, node))
    return found


def test_every_code_is_documented_with_its_meaning():
    assert documented_codes() == {code.value: MEANING[code] for code in Code}


def test_every_code_has_a_meaning():
    assert set(MEANING) == set(Code)


def test_every_refusal_in_the_code_uses_a_known_code():
    literal = [
        (where, line, call.args[0].value)
        for where, line, call in refusals_in_source()
        if call.args and isinstance(call.args[0], ast.Constant)
    ]
    assert len(literal) > 80  # the scan sees the refusals (a broken scan would pass vacuously)
    unknown = [(where, line, code) for where, line, code in literal if code not in set(Code)]
    assert unknown == []


def test_every_written_refusal_is_a_sentence():
    loose = []
    for where, line, call in refusals_in_source():
        message = call.args[1] if len(call.args) > 1 else None
        parts = (
            [message.value]
            if isinstance(message, ast.Constant)
            else [v.value for v in message.values if isinstance(v, ast.Constant)]
            if isinstance(message, ast.JoinedStr)
            else []
        )
        if parts and not (parts[-1].rstrip().endswith((".", "?", "!", ".)")) and parts[0][:1]):
            loose.append((where, line, parts))
    assert loose == []


def test_a_code_missing_from_the_enum_cannot_be_raised():
    with pytest.raises(ValueError, match="not a valid Code"):
        Refused("no-such-code", "Never.")
