"""Every stored format the code has ever written still reads as the release that wrote it
read it: fixtures written by each of those releases (``tests/rooms/stored/write.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from crossing.aws.memory import MemoryStore
from crossing.duel.lobby import Seek
from crossing.rooms import storage as S
from crossing.rooms.duel_documents import Seeks, Watchers, rating_documents

from tests.rooms.stored.write import documents

STORED = Path(__file__).parent / "stored"
FIXTURES = sorted(STORED.glob("*@*.json"))
NAME = re.compile(r"^(?P<what>[a-z]+)-(?P<format>\d+)-(?P<which>[a-z]+)@(?P<commit>[0-9a-f]+)$")
LOAD = {"room": S.load_room, "match": S.load_match, "race": S.load_game, "together": S.load_game}
GONE = {
    ("room", "seqs"): "applied",
    ("match", "seqs"): "applied",
    ("room", "rates"): None,
}
"""Fields an earlier release wrote that a later one no longer reads, and what took their
place: each player's last seq (``seqs``) became a window of seqs (``applied``) in rooms
at cfec2fd and in Duel games at da62466; a room's per-player rate counts (``rates``)
left the room for the store's pace at cfec2fd. Nothing is lost while they are empty, as
in these fixtures; a non-empty one would be (docs/operations.md, Rolling back)."""


def differences(old: Any, new: Any, kind: str, at: str = "") -> list[str]:
    """Where ``new`` does not hold what ``old`` held (fields added since are fine)."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{at}: not an object"]
        out = []
        for key, value in old.items():
            if key in new:
                out += differences(value, new[key], kind, f"{at}.{key}")
            elif (kind, key) in GONE and value in ({}, [], None):  # nothing was lost
                now = GONE[kind, key]
                assert now is None or not new.get(now)
            else:
                out.append(f"{at}.{key}: not read")
        return out
    if isinstance(old, list):
        if not isinstance(new, list) or len(old) != len(new):
            return [f"{at}: {len(old)} items, now {len(new) if isinstance(new, list) else new}"]
        return [
            d
            for i, (a, b) in enumerate(zip(old, new, strict=True))
            for d in differences(a, b, kind, f"{at}[{i}]")
        ]
    return [] if old == new else [f"{at}: {old!r}, now {new!r}"]


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_a_document_an_earlier_release_wrote_reads_as_that_release_read_it(path: Path) -> None:
    fixture = json.loads(path.read_text())
    kind = fixture["kind"]
    name = NAME.match(path.stem)
    assert name and int(name["format"]) == fixture["stored"]["format"]
    loaded = LOAD[kind](fixture["stored"])
    now = json.loads(S.adapter(kind).dump_json(loaded))
    assert differences(fixture["reads_as"], now, kind) == []


def test_every_format_written_today_has_a_fixture() -> None:
    """A new format comes with its fixture (written by ``write.py``), so the release
    after it is held to reading it too."""
    kept = {(m["what"], m["format"], m["which"]) for p in FIXTURES if (m := NAME.match(p.stem))}
    for what, (_, stored, _) in documents().items():
        kind, which = what.split("-")
        assert (kind, str(stored["format"]), which) in kept, what
    formats = {int(m["format"]) for p in FIXTURES if (m := NAME.match(p.stem))}
    assert formats == {S.FORMAT, S.ROOM_PARTS, S.ROOM_CHUNKS, S.ROOM_APART, S.ROOM_BOARD}


def test_a_format_this_release_does_not_know_is_refused_by_name() -> None:
    """As a rolled-back release meets a newer release's document: it says so, rather than
    reading it wrong."""
    fixture = json.loads(next(STORED.glob("room-5-*")).read_text())
    newer = {**fixture["stored"], "format": 6}
    with pytest.raises(ValueError, match="cannot read stored 'room' of format 6"):
        S.load_room(newer)


@pytest.mark.parametrize("said", [{}, {"format": 1}], ids=["unsaid", "said"])
def test_a_plain_document_is_format_1_whether_or_not_it_says_so(said: dict[str, int]) -> None:
    """So the release that starts writing ``format`` into seeks, watchers and ratings can
    be rolled back to this one."""
    store = MemoryStore()
    seek = {"id": "s1", "owner": "p1", "owner_name": "Ann", "limit_ms": None, "created_at": 5}
    store.save_doc("seek", "s1", {**seek, **said}, None, None)
    store.save_doc("rating", "p1", {"rating": 1016, "games": {"g": 16}, **said}, None, None)
    desk = SimpleNamespace(store=store)
    assert Seeks(desk).load("s1") == (Seek(**seek), 1)  # type: ignore[arg-type]
    assert rating_documents(desk).load("p1") == ({"rating": 1016, "games": {"g": 16}}, 1)  # type: ignore[arg-type]


def test_a_plain_document_of_a_later_format_is_refused_by_name() -> None:
    store = MemoryStore()
    store.save_doc("lobby", "DUEL", {"format": 2, "watchers": {"c1": "p1"}}, None, None)
    with pytest.raises(ValueError, match="cannot read stored 'lobby' of format 2"):
        Watchers(SimpleNamespace(store=store)).load("DUEL")  # type: ignore[arg-type]
