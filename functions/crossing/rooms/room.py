"""A room: who is in it, where they are, who hosts, and the game it is playing.

Pure, like the games: ``step(room, action, now) -> (room, notes)``. The room turns
presence into game commands (a dropped phone is ``Away``; two minutes away, or
going back to the lobby, is ``Leave``), deals puzzles it is handed, and keeps the
phases: lobby → table (everyone on the game screen; the host picks mode and size)
→ playing → results → table again for the next game.

What a room is (its state, actions and notes) lives in ``room_state.py``, and the game
inside it in ``room_game.py``; this module re-exports the names its callers use
(``__all__``), so ``from crossing.rooms import room as R`` reads as one vocabulary.
"""

from __future__ import annotations

from dataclasses import replace

from crossing.crossword.commands import Away, Back, End, Join, Leave, Refused, Tick
from crossing.crossword.sizes import Size
from crossing.rooms.room_game import (
    bot_acts,
    freeze,
    game_step,
    keeping,
    saved_kind,
    start_game,
)
from crossing.rooms.room_state import (
    BOT_LEVELS,
    BOT_NAMES,
    COLORS,
    GRACE_MS,
    HOST_ONLY_COMMANDS,
    MAX_PLAYERS,
    NAME_LIMIT,
    AddBot,
    BotTurn,
    Choose,
    Close,
    Connect,
    Disconnect,
    JoinRoom,
    Keep,
    Member,
    Mode,
    Notify,
    Phase,
    Play,
    RemoveBot,
    Rename,
    Room,
    RoomAction,
    Start,
    ToGame,
    ToLobby,
    WatchRoom,
    bot_dues,
    bot_seed,
    clean_name,
    new_room,
)

__all__ = [
    "BOT_LEVELS",
    "BOT_NAMES",
    "COLORS",
    "GRACE_MS",
    "HOST_ONLY_COMMANDS",
    "MAX_PLAYERS",
    "NAME_LIMIT",
    "AddBot",
    "BotTurn",
    "Choose",
    "Close",
    "Connect",
    "Disconnect",
    "JoinRoom",
    "Keep",
    "Member",
    "Mode",
    "Notify",
    "Phase",
    "Play",
    "RemoveBot",
    "Rename",
    "Room",
    "RoomAction",
    "Size",
    "Start",
    "Tick",
    "ToGame",
    "ToLobby",
    "WatchRoom",
    "advance",
    "bot_dues",
    "bot_seed",
    "clean_name",
    "freeze",
    "new_room",
    "notify",
    "saved_kind",
    "step",
    "waiting_only_for_away",
]


def step(room: Room, action: RoomAction, now: int) -> tuple[Room, list[object]]:
    """Apply everything due by ``now``, then the action.

    Returns the room, the game's events, ``Keep`` notes for the saved games and
    ``Notify`` notes for away players the game now waits for alone.
    """
    before = room
    room, events = advance(room, now)
    if room.phase is Phase.CLOSED and not isinstance(action, Connect | Disconnect | WatchRoom):
        raise Refused("closed", "The host has closed this room.")
    room, more = _apply(room, action, now)
    room, notes = notify(room, now)
    return room, events + more + keeping(before, room, action, now) + notes


def waiting_only_for_away(room: Room, now: int) -> list[str]:
    """Away players who are all the game still waits for, once everyone else is done.

    Empty unless at least one other player is in the game and done, and every player
    not done is away within their grace period (a player on their own is never told).
    """
    game = room.game
    if room.phase is not Phase.PLAYING or game is None or game.over:
        return []
    seats = {p: s for p, s in game.players.items() if not s.gone}
    undone = [p for p, s in seats.items() if not s.done]
    if not undone or len(undone) == len(seats):
        return []
    away = set(room.waiting_for(now))
    return undone if all(p in away for p in undone) else []


def notify(room: Room, now: int) -> tuple[Room, list[object]]:
    """``Notify`` notes for players newly waited for alone, recorded in ``room.notified``."""
    fresh = [p for p in waiting_only_for_away(room, now) if p not in room.notified]
    humans = [p for p in fresh if room.bot_level(p) is None]
    if not humans:
        return room, []
    room = replace(room, notified=room.notified | frozenset(humans))
    return room, [Notify(p, room.code) for p in humans]


def advance(room: Room, now: int) -> tuple[Room, list[object]]:
    """Apply due events in time order, each as of its own moment (and any ``Notify``)."""
    events: list[object] = []
    while (due := room.due_at()) is not None and due <= now:
        room, more = _apply_due(room, due)
        events += more
    room, notes = notify(room, now)
    return room, events + notes


def _apply_due(room: Room, at: int) -> tuple[Room, list[object]]:
    if room.hand_over_at() == at:
        return _hand_over(room, at), []
    game = room.game
    assert game is not None
    if game.due_at() == at:
        return game_step(room, Tick(), at)
    due_bot = next((bot for when, bot in bot_dues(room) if when == at), None)
    if due_bot is not None:
        return bot_acts(room, due_bot, at)
    # A grace period ran out: the check goes ahead without them.
    expired = [
        m
        for m in room.members.values()
        if m.away_since is not None and m.away_since + GRACE_MS == at
    ]
    events: list[object] = []
    for member in expired:
        room = _put(room, replace(member, away_since=None))
        if member.player in game.players and not game.players[member.player].gone:
            room, more = game_step(room, Leave(member.player), at)
            events += more
    return room, events


def _apply(room: Room, action: RoomAction, now: int) -> tuple[Room, list[object]]:
    match action:
        case Connect(player, connection):
            return _connect(room, player, connection, now)
        case Disconnect(connection):
            return _disconnect(room, connection, now)
        case WatchRoom(connection):
            if connection in room.watchers:
                return room, []
            return replace(room, watchers=(*room.watchers, connection)), []
        case JoinRoom(player, name):
            return _join(room, player, name, now)
        case Rename(player, name):
            return _put(room, replace(room.member(player), name=clean_name(name))), []
        case AddBot(player, level):
            return _add_bot(room, player, level, now)
        case RemoveBot(player, bot):
            _host(room, player)
            member = room.members.get(bot)
            if member is None or member.bot is None or member.left:
                raise Refused("not-a-bot", "There is no such bot in this room.")
            if room.phase is Phase.PLAYING:
                raise Refused("playing", "Bots can be removed between games.")
            return _put(room, replace(member, left=True)), []
        case ToGame(player):
            return _to_game(room, player, now)
        case ToLobby(player):
            member = room.member(player)
            room = _put(room, replace(member, on_game_screen=False))
            return _leave_game(room, player, now)
        case Choose(player, mode, size):
            _host(room, player)
            if room.phase not in (Phase.LOBBY, Phase.TABLE, Phase.RESULTS):
                raise Refused("playing", "Mode and size are picked between games.")
            return replace(room, mode=Mode(mode), size=Size(size)), []
        case Start(player, puzzle, saved):
            _host(room, player)
            room, events = start_game(room, puzzle, saved, now)
            return replace(room, host_was=None), events
        case Close(player):
            return _close(room, player, now)
        case Play(player, command):
            room.member(player)
            if isinstance(command, HOST_ONLY_COMMANDS):
                _host(room, player)
            if room.phase is not Phase.PLAYING:
                raise Refused("not-playing", "No game is being played in this room right now.")
            return game_step(room, command, now)
    raise Refused("unknown", f"Rooms do not take {type(action).__name__}.")


def _put(room: Room, member: Member) -> Room:
    return replace(room, members={**room.members, member.player: member})


def _host(room: Room, player: str) -> Member:
    member = room.member(player)
    if room.host != player:
        raise Refused("not-host", "Only the host can do that.")
    return member


def _connect(room: Room, player: str, connection: str, now: int) -> tuple[Room, list[object]]:
    member = room.member(player)
    was_away = not member.connections
    member = replace(member, connections=(*member.connections, connection), away_since=None)
    room = _put(room, member)
    if player == room.host:
        room = replace(room, host_away_since=None)
    room = _hand_over(room, now)  # a host gone past the grace, and now someone to take over
    events: list[object] = []
    if was_away and room.phase is Phase.PLAYING and room.game and player in room.game.players:
        seat = room.game.players[player]
        if member.on_game_screen:
            room, events = game_step(room, Join(player) if seat.gone else Back(player), now)
    return room, events


def _disconnect(room: Room, connection: str, now: int) -> tuple[Room, list[object]]:
    if connection in room.watchers:
        return replace(room, watchers=tuple(c for c in room.watchers if c != connection)), []
    member = next((m for m in room.members.values() if connection in m.connections), None)
    if member is None:
        return room, []
    connections = tuple(c for c in member.connections if c != connection)
    member = replace(member, connections=connections)
    if connections or member.left:
        return _put(room, member), []
    game = room.game
    in_game = room.phase is Phase.PLAYING and game is not None and member.player in game.players
    member = replace(member, away_since=now if in_game else None)
    room = _put(room, member)
    if member.player == room.host:
        room = replace(room, host_away_since=now)
    if in_game and game is not None and not game.players[member.player].gone:
        return game_step(room, Away(member.player), now)
    return room, []


def _hand_over(room: Room, now: int) -> Room:
    """A host away past the grace hands the room to the first other phone still here."""
    at = room.hand_over_at()
    heir = room.heir()
    if at is None or at > now or heir is None:
        return room
    return replace(room, host=heir.player, host_away_since=None, host_was=room.host)


def _join(room: Room, player: str, name: str, now: int) -> tuple[Room, list[object]]:
    if player in room.members and not room.members[player].left:
        return _put(room, replace(room.members[player], name=clean_name(name))), []
    if room.solo:
        raise Refused("solo", "This room is for one player on their own.")
    if len(room.humans) + len(room.bots) >= MAX_PLAYERS:
        raise Refused("full", f"This room is full ({MAX_PLAYERS} players).")
    used = {m.color for m in room.members.values() if not m.left}
    color = next((c for c in COLORS if c not in used), COLORS[0])
    member = Member(player, clean_name(name), color)
    return _put(room, member), []


def _add_bot(room: Room, player: str, level: str, now: int) -> tuple[Room, list[object]]:
    _host(room, player)
    if level not in BOT_LEVELS:
        raise Refused("bad-level", "A bot's level is easy, medium or hard.")
    if room.phase is Phase.PLAYING:
        raise Refused("playing", "Bots can be added between games.")
    if len(room.humans) + len(room.bots) >= MAX_PLAYERS:
        raise Refused("full", f"This room is full ({MAX_PLAYERS} players).")
    number = sum(1 for m in room.members.values() if m.bot is not None) + 1
    used_names = {m.name for m in room.members.values() if not m.left}
    name = next((n for n in BOT_NAMES if n not in used_names), f"Bot {number}")
    used = {m.color for m in room.members.values() if not m.left}
    color = next((c for c in COLORS if c not in used), COLORS[0])
    bot = Member(f"bot{number}", name, color, bot=level, on_game_screen=True)
    return _put(room, bot), []


def _to_game(room: Room, player: str, now: int) -> tuple[Room, list[object]]:
    member = room.member(player)
    if room.phase is Phase.LOBBY:
        if player != room.host:
            raise Refused("not-host", "The host starts the game.")
        # Everyone gathers on the game screen.
        members = {
            p: replace(m, on_game_screen=True) if not m.left else m for p, m in room.members.items()
        }
        return replace(room, phase=Phase.TABLE, members=members), []
    room = _put(room, replace(member, on_game_screen=True))
    if room.phase is Phase.PLAYING and room.game is not None:
        # A late joiner, or someone back from the lobby, plays the same puzzle on the same clock.
        return game_step(room, Join(player), now)
    return room, []


def _leave_game(room: Room, player: str, now: int) -> tuple[Room, list[object]]:
    game = room.game
    playing = room.phase is Phase.PLAYING and game is not None and player in game.players
    if playing and game is not None and not game.players[player].gone:
        return game_step(room, Leave(player), now)
    return room, []


def _close(room: Room, player: str, now: int) -> tuple[Room, list[object]]:
    member = room.member(player)
    if player == room.host:
        events: list[object] = []
        playing = room.phase is Phase.PLAYING and room.game is not None and not room.game.over
        if playing and saved_kind(room) != "race":
            # The game ends for everyone; a race on your own is only put down, to pick up later.
            room, events = game_step(room, End(), now)
        return replace(room, phase=Phase.CLOSED), events
    room = _put(room, replace(member, left=True, on_game_screen=False, away_since=None))
    return _leave_game(room, player, now)
