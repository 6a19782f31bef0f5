"""``view(room, viewer, now)``: the only way room state leaves the server.

Secrecy is enforced here, once, and every view is held to the allow-list of
``view_models`` before it leaves:
- no answer leaves before the check (the puzzle goes out without its solution);
- no racer's letters reach anyone else (others get squares-only progress);
- who earned what in Together stays on the server until the check.

``viewer`` is a player id, or None for a watch screen (a TV: it sees what every
player may see, and nothing of anyone's own).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from crossing.clock import Clock
from crossing.crossword import bots
from crossing.crossword.grid import Direction
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.race import Race, RaceResult
from crossing.crossword.together import Together, TogetherResult
from crossing.crossword.views import race_progress
from crossing.rooms.room_state import Phase, Room, bot_seed
from crossing.rooms.view_models import allowed, allowed_game, allowed_puzzle

Json = dict[str, Any]
PUZZLE_VIEWS = 256  # puzzles whose view is kept (rooms held in memory share theirs)
_puzzle_views: dict[int, tuple[Puzzle, Json]] = {}
_puzzle_views_lock = threading.Lock()


def view(room: Room, viewer: str | None, now: int) -> Json:
    return views(room, [viewer], now)[viewer]


def views(room: Room, viewers: Iterable[str | None], now: int) -> dict[str | None, Json]:
    """Each viewer's view of the room. What every viewer of a Together game sees alike
    (the board, the clock, the members) is built and checked once, not once a viewer:
    a keystroke in a room of eight is one view and eight small differences."""
    members = [
        {
            "player": m.player,
            "name": m.name,
            "color": m.color,
            "bot": m.bot,
            "present": m.present,
            "on_game_screen": m.on_game_screen,
        }
        for m in room.members.values()
        if not m.left
    ]
    shared: Json = {
        "code": room.code,
        "you": None,
        "host": room.host,
        "host_was": room.host_was,
        "solo": room.solo,
        "phase": room.phase.value,
        "mode": room.mode.value,
        "size": room.size.value,
        "members": members,
        "waiting_for": room.waiting_for(now),
        "due_at": room.due_at(),
    }
    game = room.game
    if game is None or room.phase not in (Phase.PLAYING, Phase.RESULTS, Phase.CLOSED):
        allowed(shared)
        return {viewer: {**shared, "you": viewer} for viewer in viewers}
    if isinstance(game, Together):
        common = _game_common(game) | _together_view(game, now)
        allowed(shared | {"game": common})
        out = {}
        for viewer in viewers:
            own = common
            seat = game.players.get(viewer) if viewer is not None else None
            if seat is not None:
                # Only changes of theirs that still stand can be undone (others' overwrites
                # skip). Newest first: the last change nearly always stands, so this stops
                # at once instead of walking a long game's history.
                board = game.board
                can_undo = any(board[c.square].stamp == c.stamp for c in reversed(seat.history))
                own = common | allowed_game({"can_undo": can_undo})
            out[viewer] = {**shared, "you": viewer, "game": own}
        return out
    out = {}
    for viewer in viewers:
        # A race differs viewer by viewer: each is built whole.
        race = _game_common(game) | _race_view(game, viewer, now)
        if not game.over:
            _add_race_bots(race, room, game, now)
        out[viewer] = allowed({**shared, "you": viewer, "game": race})
    return out


def _add_race_bots(game_view: Json, room: Room, race: Race, now: int) -> None:
    """A race bot's progress comes from its plan, so it fills in between messages too:
    clients get each square's moment (race-clock ms), never a letter."""
    clock = race.clock.read(now)
    squares = len(race.puzzle.white_squares)
    fills: Json = {}
    for player in race.players:
        level = room.bot_level(player)
        if level is None:
            continue
        plan = bots.race_plan(race.puzzle, level, bot_seed(room, player))
        fills[player] = [[at, sq] for at, sq, _ in plan.fills]
        filled = plan.filled_at(clock)
        game_view["progress"][player] = {
            "filled": filled,
            "fraction": round(len(filled) / squares, 4),
        }
    if fills:
        game_view["bot_fills"] = fills


def puzzle_view(puzzle: Puzzle) -> Json:
    """The grid and clues, without the solution: built once per puzzle object and shared
    by every view of it (never changed after), so a keystroke does not rebuild the clues
    for each viewer and the merge patch skips it by identity."""
    key = id(puzzle)
    cached = _puzzle_views.get(key)
    if cached is not None and cached[0] is puzzle:
        return cached[1]
    shown = _puzzle_view(puzzle)
    with _puzzle_views_lock:
        _puzzle_views[key] = (puzzle, shown)  # holding the puzzle keeps its id from reuse
        while len(_puzzle_views) > PUZZLE_VIEWS:
            del _puzzle_views[next(iter(_puzzle_views))]
    return shown


def _puzzle_view(puzzle: Puzzle) -> Json:
    grid = puzzle.grid
    return allowed_puzzle(
        {
            "id": puzzle.id,
            "title": puzzle.title,
            "width": puzzle.width,
            "height": puzzle.height,
            "blocks": sorted(grid.blocks),
            "numbers": {str(sq): n for sq, n in grid.numbers.items()},
            "clues": {
                d.value: [
                    {
                        "id": s.id,
                        "number": s.number,
                        "squares": list(s.squares),
                        "clue": puzzle.clues.get(s.id, ""),
                    }
                    for s in puzzle.slots
                    if s.direction is d
                ]
                for d in Direction
            },
        }
    )


def _game_common(game: Race | Together) -> Json:
    seats = {p: {"done": s.done, "gone": s.gone, "away": s.away} for p, s in game.players.items()}
    return {
        "mode": "race" if isinstance(game, Race) else "together",
        "puzzle": puzzle_view(game.puzzle),
        "paused": game.paused,
        "seats": seats,
        "over": game.over,
    }


def _progress(race: Race) -> Json:
    progress = {}
    for p in race.players:
        shown = race_progress(race, p)
        progress[p] = {"filled": sorted(shown.filled), "fraction": round(shown.fraction, 4)}
    return progress


def _race_view(race: Race, viewer: str | None, now: int) -> Json:
    out: Json = {
        "progress": _progress(race),
        "limit_ms": race.limit_ms,
        "clock": _clock(race.clock, now),
    }
    if viewer is not None and viewer in race.players:
        racer = race.players[viewer]
        out["board"] = racer.letters
        out["my_clock"] = _clock(racer.clock, now)
        out["can_undo"] = bool(racer.history)
    if race.result is not None:
        out["result"] = _race_result(race, race.result, viewer)
    return out


def _together_view(game: Together, now: int) -> Json:
    out: Json = {
        "board": game.letters(),
        "writers": [w.writer if w.letter != "." else None for w in game.board],
        "clock": _clock(game.clock, now),
    }
    if game.result is not None:
        out["result"] = _together_result(game, game.result)
    return out


def _clock(clock: Clock, now: int) -> Json:
    """A reading the client can run on: the time banked, and since when it has run on.

    Nothing in it moves with ``now`` but ``at``, so a stop or a start changes the
    reading itself and reaches every screen in the view's diff; ``at`` (the server's
    time, for the client's offset) moves with every view, so patches carry it too.
    """
    return {
        "elapsed_ms": clock.elapsed_ms,
        "running": clock.running,
        "since": clock.since,
        "at": now,
    }


def _race_result(race: Race, result: RaceResult, viewer: str | None) -> Json:
    standings = [
        {
            "player": r.player,
            "place": r.place,
            "perfect": r.perfect,
            "right": r.right,
            "squares": r.squares,
            "time_ms": r.time_ms,
            "done": r.done,
        }
        for r in result.standings
    ]
    out: Json = {"reason": result.reason, "standings": standings, "solution": race.puzzle.solution}
    if viewer is not None and viewer in race.players:
        mine = result.of(viewer)
        out["misses"] = [
            {"square": m.square, "answer": m.answer, "letter": m.letter} for m in mine.misses
        ]
    return out


def _together_result(game: Together, result: TogetherResult) -> Json:
    return {
        "reason": result.reason,
        "standings": [
            {
                "player": s.player,
                "place": s.place,
                "squares": s.squares,
                "words": list(s.words),
                "average_ms": s.average_ms,
                "first_word_ms": s.first_word_ms,
            }
            for s in result.standings
        ],
        "owners": {str(sq): p for sq, p in sorted(result.owners.items())},
        "misses": [
            {"square": m.square, "answer": m.answer, "letter": m.letter} for m in result.misses
        ],
        "solution": game.puzzle.solution,
    }
