"""The game inside a room: dealing it (or picking a saved one up), each game command
with the race bots' letters caught up first, the bots' own due moves, and which games
are kept for later (``Keep``). Pure, and called only by the room's step (``room.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from crossing.crossword import bots
from crossing.crossword import race as race_rules
from crossing.crossword import together as together_rules
from crossing.crossword.commands import Command, Done, Join, Pause, Refused, Type
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.race import Race
from crossing.crossword.sizes import Size
from crossing.crossword.together import Together
from crossing.rooms.room_state import (
    BotTurn,
    Close,
    Disconnect,
    Keep,
    Mode,
    Phase,
    Play,
    Room,
    RoomAction,
    Start,
    ToLobby,
    bot_seed,
)

_Game = TypeVar("_Game", Race, Together)  # a saved game resumes as the same kind


def _bots_catch_up(room: Room, now: int) -> Room:
    """Write race bots' letters up to ``now`` from their plans (never more than a plan says)."""
    game = room.game
    if not isinstance(game, Race) or game.over:
        return room
    clock = game.clock.read(now)
    for player, racer in game.players.items():
        level = room.bot_level(player)
        if level is None or racer.done or racer.gone:
            continue
        plan = bots.race_plan(game.puzzle, level, bot_seed(room, player))
        for sq, letter in plan.letters_at(clock).items():
            if game.players[player].letters[sq] != letter:
                game, _ = race_rules.step(game, Type(player, sq, letter), now)
    return replace(room, game=game)


def bot_acts(room: Room, bot: str, at: int) -> tuple[Room, list[object]]:
    game = room.game
    level = room.bot_level(bot)
    assert game is not None and level is not None
    if isinstance(game, Race):
        room = _bots_catch_up(room, at)
        return game_step(room, Done(bot), at)
    turn = room.bot_turns[bot]
    rng = bots.rng_for(bot_seed(room, bot), turn.n)
    plan = bots.together_turn(
        game, bot, level, rng, game.clock.read(at), turn.look, _waited_for(room)
    )
    events: list[object] = []
    for command in plan.commands:
        try:
            room, more = game_step(room, command, at)
        except Refused:
            continue  # the board moved under it (a letter already there): skip that one
        events += more
    turns = dict(room.bot_turns)
    if plan.think_ms is None or room.game is None or room.game.over:
        turns.pop(bot, None)
    else:
        turns[bot] = BotTurn(room.game.clock.read(at) + plan.think_ms, turn.n + 1, plan.look)
    return replace(room, bot_turns=turns), events


def _waited_for(room: Room) -> bool:
    """Every person still in the game has tapped Done: the check waits only for bots."""
    assert room.game is not None
    people = [
        seat
        for player, seat in room.game.players.items()
        if room.bot_level(player) is None and not seat.gone
    ]
    return bool(people) and all(seat.done for seat in people)


def _first_bot_turns(room: Room, now: int) -> Room:
    """Together bots start thinking when the clock starts."""
    game = room.game
    if not isinstance(game, Together):
        return replace(room, bot_turns={})
    turns = {}
    for player in game.players:
        level = room.bot_level(player)
        if level is not None:
            rng = bots.rng_for(bot_seed(room, player), "first")
            first = bots.solve_ms(game.puzzle, level) / len(game.puzzle.slots)
            at = game.clock.read(now) + int(first * rng.uniform(0.5, 1.5))
            turns[player] = BotTurn(at, look=bots.first_look(level, rng))
    return replace(room, bot_turns=turns)


# Moments when a phone may be put down for good: keep the game as it stands.
_PUTTING_DOWN = (Disconnect, ToLobby, Close)


def keeping(before: Room, after: Room, action: RoomAction, now: int) -> list[Keep]:
    if isinstance(action, Start):
        kind = saved_kind(after)
        if kind and action.saved is None:  # a new puzzle replaces the saved one
            return [Keep(_keeper(after, kind), kind, None)]
        return []
    kind = saved_kind(before)
    if kind is None or before.game is None:
        return []
    keeper = _keeper(before, kind)
    closing_host = isinstance(action, Close) and action.player == before.host
    if after.game is not None and after.game.over:
        # The host's × ends the game for everyone, but their Together board is kept.
        kept = freeze(before.game, now) if closing_host and kind == "together" else None
        return [Keep(keeper, kind, kept)]
    pausing = isinstance(action, Play) and isinstance(action.command, Pause)
    if isinstance(action, _PUTTING_DOWN) or pausing:
        assert after.game is not None
        return [Keep(keeper, kind, freeze(after.game, now))]
    return []


def _keeper(room: Room, kind: str) -> str:
    if kind == "race" and room.game is not None:
        return next(iter(room.game.players))
    return room.host


def freeze(game: Race | Together, now: int) -> Race | Together:
    """The game put down at ``now``: every clock stopped, to run again when picked up."""
    if isinstance(game, Together):
        return replace(game, clock=game.clock.stop(now))
    players = {p: replace(r, clock=r.clock.stop(now)) for p, r in game.players.items()}
    return replace(game, clock=game.clock.stop(now), players=players)


def game_step(room: Room, command: Command, now: int) -> tuple[Room, list[object]]:
    room = _bots_catch_up(room, now)
    rules = race_rules if isinstance(room.game, Race) else together_rules
    game, events = rules.step(room.game, command, now)
    room = replace(room, game=game)
    if game.over and room.phase is Phase.PLAYING:
        # Grace periods end with the game: nobody is waited for any more.
        members = {p: replace(m, away_since=None) for p, m in room.members.items()}
        room = replace(room, phase=Phase.RESULTS, members=members)
    return room, list(events)


def start_game(
    room: Room, puzzle: Puzzle | None, saved: Race | Together | None, now: int
) -> tuple[Room, list[object]]:
    """The host's ``Start``: deal ``puzzle`` to everyone on the game screen, or pick up
    ``saved``. That the host sent it, the room's step has checked already."""
    if room.phase is Phase.PLAYING:
        raise Refused("playing", "A game is already being played: end it first.")
    if room.phase not in (Phase.TABLE, Phase.RESULTS):
        raise Refused("not-ready", "Gather everyone on the game screen first.")
    seated = [m.player for m in room.members.values() if m.on_game_screen and not m.left]
    game: Race | Together
    if saved is not None:
        # Each kind resumes as itself (``_pick_up`` is one function per kind).
        if isinstance(saved, Race):
            game, mode = _pick_up(saved, seated, now), Mode.RACE
        else:
            game, mode = _pick_up(saved, seated, now), Mode.TOGETHER
        room = replace(room, mode=mode, size=Size.for_width(saved.puzzle.width))
    elif puzzle is None:
        raise Refused("no-puzzle", "There is no puzzle to deal.")
    elif room.mode is Mode.RACE:
        game = race_rules.start_race(puzzle, seated, now)
    else:
        game = together_rules.start_together(puzzle, seated, now)
    room = replace(
        room,
        game=game,
        phase=Phase.PLAYING,
        games_played=room.games_played + 1,
        notified=frozenset(),
    )
    return _first_bot_turns(room, now), []


def _pick_up(saved: _Game, seated: Sequence[str], now: int) -> _Game:
    """Resume a saved game: its clock runs again from now; returning players take their seats.

    A saved Together board keeps every earned word, so players who do not come back
    still hold theirs; a saved solo race is its one player's.
    """
    rules = race_rules if isinstance(saved, Race) else together_rules
    players = dict(saved.players)
    for p in players:
        if p not in seated:
            players[p] = replace(players[p], gone=True, away=False, done=False)
    game = replace(saved, players=players, paused=False)
    for p in seated:  # each step also sets the clocks running again from now
        game, _ = rules.step(game, Join(p), now)
    return game


def saved_kind(room: Room) -> str | None:
    """What, if anything, this room's game should be kept as for later.

    A race on your own (one racer, no bots) is kept for its player; a Together board
    is kept for its host. A race with anyone else is timed and never kept.
    """
    game = room.game
    if game is None or game.over:
        return None
    if isinstance(game, Race):
        return "race" if game.solo and not room.bots else None
    return "together"
