from __future__ import annotations

import gzip
import random
from functools import cache
from pathlib import Path

import pytest
from crossing.game_files import default_lexicon
from crossing.tiles.lexicon import Lexicon

WORD_LIST = Path(__file__).resolve().parents[2] / "functions/crossing/tiles/data/enable2k.txt.gz"


@cache
def enable_words() -> tuple[str, ...]:
    return tuple(gzip.decompress(WORD_LIST.read_bytes()).decode("ascii").upper().split())


def sample_words(seed: int, n: int) -> list[str]:
    """All two-letter words plus a seeded sample of short words: a small list that still plays."""
    words = enable_words()
    rng = random.Random(seed)
    twos = [w for w in words if len(w) == 2]
    others = [w for w in words if 3 <= len(w) <= 7]
    return twos + rng.sample(others, n)


@pytest.fixture(scope="session")
def enable() -> Lexicon:
    return default_lexicon()


def small_lexicon(words: list[str]) -> Lexicon:
    return Lexicon.from_words(words)
