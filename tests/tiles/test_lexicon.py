"""The packed word graph: exact membership, deterministic bytes, fast load."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest
from crossing.game_files import LEXICON_FILE, read_lexicon
from crossing.tiles.lexicon import BadWordList, Lexicon, pack
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tiles.conftest import enable_words

REPO = Path(__file__).resolve().parents[2]


def test_shipped_graph_is_a_byte_identical_rebuild_of_the_committed_word_list():
    assert pack(enable_words()) == LEXICON_FILE.read_bytes()


def test_shipped_graph_holds_exactly_enable2k(enable):
    assert len(enable_words()) == 173_528
    assert list(enable.words()) == sorted(enable_words())
    assert "QUIXOTE" in enable
    assert "QUIZ" in enable
    # ENABLE2K has no QI, ZA or OK; the about page must say so.
    assert "QI" not in enable
    assert "ZA" not in enable
    assert "OK" not in enable


def test_shipped_graph_is_small_and_loads_in_milliseconds():
    assert LEXICON_FILE.stat().st_size < 2_000_000
    began = time.perf_counter()
    read_lexicon(LEXICON_FILE)
    assert time.perf_counter() - began < 0.1


def test_build_script_writes_the_same_bytes(tmp_path):
    spec = importlib.util.spec_from_file_location(
        "build_lexicon", REPO / "scripts/build_lexicon.py"
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    out = tmp_path / "out.bin"
    assert script.main([str(REPO / "functions/crossing/tiles/data/enable2k.txt.gz"), str(out)]) == 0
    assert out.read_bytes() == LEXICON_FILE.read_bytes()


words = st.lists(st.text(alphabet="ABCDEZ", min_size=1, max_size=6), max_size=40)


@settings(max_examples=60, deadline=None)
@given(words, st.text(alphabet="ABCDEZ", min_size=1, max_size=6))
def test_membership_is_exact_for_any_word_list(listed, probe):
    lexicon = Lexicon.from_words(listed)
    kept = {w for w in listed if len(w) > 1}
    assert sorted(lexicon.words()) == sorted(kept)
    assert (probe in lexicon) == (probe in kept)
    assert pack(reversed(listed)) == pack(listed)


def test_word_lists_are_case_blind_and_reject_non_letters():
    assert "CAT" in Lexicon.from_words(["cat", "", "  Dog  "])
    with pytest.raises(BadWordList, match="line 2"):
        Lexicon.from_words(["cat", "don't"])
