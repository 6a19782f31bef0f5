"""The files the games are played with, read here and handed to the pure game code.

The packages ``crossword``, ``tiles`` and ``duel`` read no files: what they need (the
word graph, the fitted leave values) comes in as bytes or objects. This module is where
the Lambdas, ``crossing serve``, the CLI, the scripts and the tests get the shipped ones.
The files stay in ``tiles/data`` (package data, so the Lambda asset carries them).
Each is read once per process.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from crossing.tiles.api import Shipped
from crossing.tiles.lexicon import Lexicon

DATA = Path(__file__).parent / "tiles" / "data"
LEXICON_FILE = DATA / "enable2k.dawg.bin"  # scripts/build_lexicon.py writes it
LEAVES_FILE = DATA / "leaves.json"  # scripts/build_leaves.py writes it


def read_lexicon(path: str | Path) -> Lexicon:
    return Lexicon(Path(path).read_bytes())


@cache
def default_lexicon() -> Lexicon:
    """The shipped ENABLE2K graph."""
    return read_lexicon(LEXICON_FILE)


@cache
def leave_table() -> dict[str, Any]:
    """The fitted leave values per rule set, with the seed and game counts they came from."""
    table: dict[str, Any] = json.loads(LEAVES_FILE.read_text())
    return table


@cache
def shipped() -> Shipped:
    """What the Solver plays with unless a request brings its own word list."""
    return Shipped(default_lexicon(), leave_table()["values"])
