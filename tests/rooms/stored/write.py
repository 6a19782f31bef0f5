"""Write stored-document fixtures with the code of one commit (not a test).

Run it in an export of that commit, so that the documents are what that release wrote::

    git archive <commit> functions tests | tar -x -C /tmp/old
    cd /tmp/old && PYTHONPATH=functions:. python <this file> <commit> <out dir> [names]

Each ``<kind>-<format>-<what>@<commit>.json`` holds what the storage wrote (``stored``)
and the game that release read back from it, as its pydantic JSON (``reads_as``):
``tests/rooms/test_stored_formats.py`` checks that today's code reads it to the same.
It uses only what every release since the rooms began has had (``start_game``, ``step``,
``dump_*``), so the same file serves old commits and new.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from crossing.crossword.commands import Type
from crossing.duel import match as M
from crossing.rooms import room as R
from crossing.rooms import storage as S

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import Clock, make_service, phone_maker, start_game

T0, MIN = 5_000_000, 60_000


def _lexicon() -> Any:
    try:
        from crossing.game_files import default_lexicon
    except ImportError:  # before the pure layer read no files
        from crossing.tiles.lexicon import default_lexicon  # type: ignore[no-redef]
    return default_lexicon()


def _room_in_play(mode: str, letters: int) -> Any:
    """A Mini of ``mode``, Hana and Ann typing ``letters`` letters between them: enough in
    Together for each undo history to be stored in chunks."""
    clock = Clock()
    service = make_service(clock)
    host, (ann,), code = start_game(phone_maker(service), mode=mode)
    room = S.load_room(service.store.load_room(code)[0])
    rng = random.Random(7)
    squares = list(MINI.white_squares)
    for _ in range(letters):
        player = rng.choice((host, ann)).player
        clock.now += 400
        typed = Type(player, rng.choice(squares), rng.choice("ABCDE"))
        room, _ = R.step(room, R.Play(player, typed), clock.now)
    return room


def _room_in_lobby() -> Any:
    service = make_service(Clock())
    host = phone_maker(service)()
    host.send("host", name="Hana")
    return S.load_room(service.store.load_room(host.room["code"])[0])


def _duel() -> Any:
    ann = M.Player("ann", "Ann", 1000, rated=True)
    bot = M.Player("bot:hard", "Hard bot", 1000, bot="hard")
    match = M.start_match("g-1", (ann, bot), T0, seed=4, limit_ms=3 * MIN)
    return M.advance(match, T0 + 20 * MIN, _lexicon())[0]


def documents() -> dict[str, tuple[str, dict[str, Any], Any]]:
    """By what it is: (adapter kind, stored document, what this release reads from it)."""
    out = {}
    together, race = _room_in_play("together", 240), _room_in_play("race", 12)
    for what, room in (("together", together), ("race", race), ("lobby", _room_in_lobby())):
        stored = S.dump_room(room)
        out[f"room-{what}"] = ("room", stored, S.load_room(json.loads(json.dumps(stored))))
    for kind, game in (("together", together.game), ("race", race.game)):
        stored = S.dump_game(game)
        out[f"save-{kind}"] = (kind, stored, S.load_game(json.loads(json.dumps(stored))))
    stored = S.dump_match(_duel())
    out["game-duel"] = ("match", stored, S.load_match(json.loads(json.dumps(stored))))
    return out


def main(commit: str, folder: str, names: list[str]) -> None:
    for what, (kind, stored, loaded) in documents().items():
        if names and what not in names:
            continue
        kind_name, which = what.split("-")
        name = f"{kind_name}-{stored['format']}-{which}@{commit}.json"
        reads_as = json.loads(S.adapter(kind).dump_json(loaded))
        document = {"kind": kind, "written_by": commit, "stored": stored, "reads_as": reads_as}
        Path(folder, name).write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
