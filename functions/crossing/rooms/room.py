"""A room: who is in it, where they are, who hosts, and the game it is playing.

Pure, like the games: ``step(room, action, now) -> (room, notes)``. The room turns
presence into game commands (a dropped phone is ``Away``; two minutes away, or
going back to the lobby, is ``Leave``), deals puzzles it is handed, and keeps the
phases: lobby → table (everyone on the game screen; the host picks mode and size)
→ playing → results → table again for the next game.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TypeVar

from crossing.crossword import bots
from crossing.crossword import race as race_rules
from crossing.crossword import together as together_rules
from crossing.crossword.commands import (
    Away,
    Back,
    Command,
    Done,
    End,
    Join,
    Leave,
    Pause,
    Refused,
    Resume,
    Tick,
    Type,
)
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.race import Race
from crossing.crossword.sizes import Size
from crossing.crossword.together import Together
from crossing.presence import Connect, Disconnect
from crossing.rooms.pace import Bucket
from crossing.seqs import Applied

GRACE_MS = 2 * 60_000
MAX_PLAYERS = 8
NAME_LIMIT = 24
COLORS = ("#e4572e", "#2e86ab", "#f3a712", "#29bf12", "#a23b72", "#6c4ab6", "#00a6a6", "#8f6a48")
BOT_LEVELS = ("easy", "medium", "hard")
BOT_NAMES = ("Ada", "Bram", "Cleo", "Dov", "Esme", "Finn", "Gus", "Hana")
_Game = TypeVar("_Game", Race, Together)  # a saved game resumes as the same kind


class Phase(StrEnum):
    LOBBY = "lobby"
    TABLE = "table"  # everyone on the game screen, the host choosing mode and size
    PLAYING = "playing"
    RESULTS = "results"
    CLOSED = "closed"  # the host left with ×


class Mode(StrEnum):
    RACE = "race"
    TOGETHER = "together"


@dataclass(frozen=True)
class Member:
    player: str
    name: str
    color: str
    bot: str | None = None  # the level, for a bot seat
    connections: tuple[str, ...] = ()
    away_since: int | None = None  # last connection dropped at; the grace period runs from here
    on_game_screen: bool = False
    left: bool = False  # closed the room with ×: no longer a member in any sense

    @property
    def present(self) -> bool:
        return self.bot is not None or bool(self.connections)


@dataclass(frozen=True)
class BotTurn:
    """A Together bot's next word: due at game-clock ``at_ms`` (pauses stop it), its ``n``th."""

    at_ms: int
    n: int = 0
    calm: int = 0  # board full: words it has re-read in a row and found right


@dataclass(frozen=True)
class Room:
    code: str
    host: str
    members: Mapping[str, Member]
    solo: bool = False  # "play on your own": nobody else may join
    phase: Phase = Phase.LOBBY
    mode: Mode = Mode.RACE
    size: Size = Size.MINI
    game: Race | Together | None = None
    applied: Mapping[str, Applied] = field(default_factory=dict)  # each player's applied seqs
    games_played: int = 0
    watchers: tuple[str, ...] = ()  # connections of watch screens (a TV only watches)
    seed: int = 0  # every bot's choices come from it, so a game replays exactly
    bot_turns: Mapping[str, BotTurn] = field(default_factory=dict)  # Together bots' next words
    paces: Mapping[str, Bucket] = field(default_factory=dict)  # each player's rate limit
    # Players already told (or due to be told) that this game waits only for them: reset at
    # each Start, and written in the same conditional write as the ``Notify`` note.
    notified: frozenset[str] = frozenset()
    # The host's last phone dropped at: the role passes on only once the grace has run
    # out, so a reload or a flaky connection keeps the host the host.
    host_away_since: int | None = None

    @property
    def humans(self) -> list[Member]:
        return [m for m in self.members.values() if m.bot is None and not m.left]

    @property
    def bots(self) -> list[Member]:
        return [m for m in self.members.values() if m.bot is not None and not m.left]

    def member(self, player: str) -> Member:
        member = self.members.get(player)
        if member is None or member.left:
            raise Refused("not-a-member", "You are not in this room.")
        return member

    def waiting_for(self, now: int) -> list[str]:
        """Players the game is waiting for: away, with their grace period still running."""
        if self.phase is not Phase.PLAYING or self.game is None:
            return []
        seats = self.game.players
        return [
            m.player
            for m in self.members.values()
            if m.away_since is not None
            and now < m.away_since + GRACE_MS
            and m.player in seats
            and not seats[m.player].gone
        ]

    def hand_over_at(self) -> int | None:
        """When the host role passes to another phone: the host's grace running out,
        if anyone else is here to take it."""
        if self.host_away_since is None or self.phase is Phase.CLOSED or _heir(self) is None:
            return None
        return self.host_away_since + GRACE_MS

    def due_at(self) -> int | None:
        """The earliest moment something happens by itself: a limit or a grace running out."""
        moments = [
            m.away_since + GRACE_MS
            for m in self.members.values()
            if m.away_since is not None and self.phase is Phase.PLAYING
        ]
        if (hand_over := self.hand_over_at()) is not None:
            moments.append(hand_over)
        if self.phase is Phase.PLAYING and self.game is not None:
            moments += [at for at, _ in bot_dues(self)]
            game_due = self.game.due_at()
            if game_due is not None:
                moments.append(game_due)
        return min(moments) if moments else None

    def bot_level(self, player: str) -> str | None:
        member = self.members.get(player)
        return member.bot if member else None


# --- the room's own actions -------------------------------------------------------------


@dataclass(frozen=True)
class WatchRoom:
    connection: str


@dataclass(frozen=True)
class JoinRoom:
    player: str
    name: str


@dataclass(frozen=True)
class Rename:
    player: str
    name: str


@dataclass(frozen=True)
class AddBot:
    player: str  # who asks: must be the host
    level: str


@dataclass(frozen=True)
class RemoveBot:
    player: str
    bot: str


@dataclass(frozen=True)
class ToGame:
    """Go to the game screen; when the host does it from the lobby, everyone gathers."""

    player: str


@dataclass(frozen=True)
class ToLobby:
    player: str


@dataclass(frozen=True)
class Choose:
    player: str
    mode: Mode
    size: Size


@dataclass(frozen=True)
class Start:
    """Deal ``puzzle`` to everyone on the game screen (or pick up ``saved``)."""

    player: str
    puzzle: Puzzle | None = None
    saved: Race | Together | None = None


@dataclass(frozen=True)
class Close:
    """× : the host's ends the game for everyone; anyone else's is leaving the room."""

    player: str


@dataclass(frozen=True)
class Play:
    """A game command from a member (typing, undo, Done, pause, End...)."""

    player: str
    command: Command


RoomAction = (
    Connect
    | Disconnect
    | WatchRoom
    | JoinRoom
    | Rename
    | AddBot
    | RemoveBot
    | ToGame
    | ToLobby
    | Choose
    | Start
    | Close
    | Play
)

HOST_ONLY_COMMANDS = (End, Pause, Resume)  # pause is for everyone, but the host's to give


def new_room(code: str, host: str, name: str, *, solo: bool = False, seed: int = 0) -> Room:
    member = Member(host, clean_name(name), COLORS[0])
    return Room(code, host, {host: member}, solo=solo, seed=seed)


# --- bots ---------------------------------------------------------------------------------


def bot_seed(room: Room, bot: str) -> str:
    """Each bot's seed for this game: the room's, the game's number and the bot."""
    return f"{room.seed}:{room.games_played}:{bot}"


def bot_dues(room: Room) -> list[tuple[int, str]]:
    """(moment, bot) for each bot action that will fall due if the game runs on.

    A race bot's only due event is its Done; a Together bot's is its next word. Both
    are in game-clock time, so a pause stops them.
    """
    game = room.game
    if game is None or game.over:
        return []
    dues = []
    for player, seat in game.players.items():
        level = room.bot_level(player)
        if level is None or seat.gone or seat.done:
            continue
        if isinstance(game, Race):
            at = game.clock.reaches_at(
                bots.race_plan(game.puzzle, level, bot_seed(room, player)).done_ms
            )
        else:
            turn = room.bot_turns.get(player)
            at = game.clock.reaches_at(turn.at_ms) if turn else None
        if at is not None:
            dues.append((at, player))
    return dues


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


def _bot_acts(room: Room, bot: str, at: int) -> tuple[Room, list[object]]:
    game = room.game
    level = room.bot_level(bot)
    assert game is not None and level is not None
    if isinstance(game, Race):
        room = _bots_catch_up(room, at)
        return _game_step(room, Done(bot), at)
    turn = room.bot_turns[bot]
    rng = bots.rng_for(bot_seed(room, bot), turn.n)
    plan = bots.together_turn(game, bot, level, rng, turn.calm)
    events: list[object] = []
    for command in plan.commands:
        try:
            room, more = _game_step(room, command, at)
        except Refused:
            continue  # the board moved under it (a letter already there): skip that one
        events += more
    turns = dict(room.bot_turns)
    if plan.think_ms is None or room.game is None or room.game.over:
        turns.pop(bot, None)
    else:
        turns[bot] = BotTurn(room.game.clock.read(at) + plan.think_ms, turn.n + 1, plan.calm)
    return replace(room, bot_turns=turns), events


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
            turns[player] = BotTurn(game.clock.read(now) + int(first * rng.uniform(0.5, 1.5)))
    return replace(room, bot_turns=turns)


# Control, format (zero-width joiners, bidirectional overrides), surrogate, private-use
# and unassigned characters: none draws as itself beside a name, and some reorder or
# hide the text around it on other players' screens.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def clean_name(name: str) -> str:
    """A name as others will see it: NFC, single spaces, nothing invisible, or Refused.

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    >>> clean_name("Ann\u202eeviL")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    crossing.crossword.commands.Refused: Names can only hold letters, digits, ...
    """
    name = " ".join(unicodedata.normalize("NFC", str(name)).split())
    if not name:
        raise Refused("bad-name", "Please give a name.")
    if len(name) > NAME_LIMIT:
        raise Refused("bad-name", f"Names are at most {NAME_LIMIT} characters.")
    if any(unicodedata.category(c) in _INVISIBLE for c in name):
        raise Refused("bad-name", "Names can only hold letters, digits, spaces and punctuation.")
    return name


@dataclass(frozen=True)
class Keep:
    """Keep ``game`` for ``player`` to pick up later as ``kind``; ``game`` None forgets it."""

    player: str
    kind: str  # "race": a race on your own; "together": a host's shared board
    game: Race | Together | None


@dataclass(frozen=True)
class Notify:
    """Tell ``player`` (away) that everyone else is done: at most once per game.

    Emitted only by the step that adds ``player`` to ``Room.notified``, so it is sent
    only if the write recording it succeeds; a retried write or a due event applied
    again finds the player there already and emits nothing.
    """

    player: str
    room: str


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
    return room, events + more + _keeping(before, room, action, now) + notes


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


# Moments when a phone may be put down for good: keep the game as it stands.
_PUTTING_DOWN = (Disconnect, ToLobby, Close)


def _keeping(before: Room, after: Room, action: RoomAction, now: int) -> list[Keep]:
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
        return _game_step(room, Tick(), at)
    due_bot = next((bot for when, bot in bot_dues(room) if when == at), None)
    if due_bot is not None:
        return _bot_acts(room, due_bot, at)
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
            room, more = _game_step(room, Leave(member.player), at)
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
            return _start(room, player, puzzle, saved, now)
        case Close(player):
            return _close(room, player, now)
        case Play(player, command):
            room.member(player)
            if isinstance(command, HOST_ONLY_COMMANDS):
                _host(room, player)
            if room.phase is not Phase.PLAYING:
                raise Refused("not-playing", "No game is being played in this room right now.")
            return _game_step(room, command, now)
    raise Refused("unknown", f"Rooms do not take {type(action).__name__}.")


def _put(room: Room, member: Member) -> Room:
    return replace(room, members={**room.members, member.player: member})


def _host(room: Room, player: str) -> Member:
    member = room.member(player)
    if room.host != player:
        raise Refused("not-host", "Only the host can do that.")
    return member


def _game_step(room: Room, command: Command, now: int) -> tuple[Room, list[object]]:
    room = _bots_catch_up(room, now)
    rules = race_rules if isinstance(room.game, Race) else together_rules
    game, events = rules.step(room.game, command, now)
    room = replace(room, game=game)
    if game.over and room.phase is Phase.PLAYING:
        # Grace periods end with the game: nobody is waited for any more.
        members = {p: replace(m, away_since=None) for p, m in room.members.items()}
        room = replace(room, phase=Phase.RESULTS, members=members)
    return room, list(events)


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
            room, events = _game_step(room, Join(player) if seat.gone else Back(player), now)
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
        return _game_step(room, Away(member.player), now)
    return room, []


def _heir(room: Room) -> Member | None:
    return next((m for m in room.humans if m.connections and m.player != room.host), None)


def _hand_over(room: Room, now: int) -> Room:
    """A host away past the grace hands the room to the first other phone still here."""
    at = room.hand_over_at()
    heir = _heir(room)
    if at is None or at > now or heir is None:
        return room
    return replace(room, host=heir.player, host_away_since=None)


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
        return _game_step(room, Join(player), now)
    return room, []


def _leave_game(room: Room, player: str, now: int) -> tuple[Room, list[object]]:
    game = room.game
    playing = room.phase is Phase.PLAYING and game is not None and player in game.players
    if playing and game is not None and not game.players[player].gone:
        return _game_step(room, Leave(player), now)
    return room, []


def _start(
    room: Room,
    player: str,
    puzzle: Puzzle | None,
    saved: Race | Together | None,
    now: int,
) -> tuple[Room, list[object]]:
    _host(room, player)
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


def _close(room: Room, player: str, now: int) -> tuple[Room, list[object]]:
    member = room.member(player)
    if player == room.host:
        events: list[object] = []
        playing = room.phase is Phase.PLAYING and room.game is not None and not room.game.over
        if playing and saved_kind(room) != "race":
            # The game ends for everyone; a race on your own is only put down, to pick up later.
            room, events = _game_step(room, End(), now)
        return replace(room, phase=Phase.CLOSED), events
    room = _put(room, replace(member, left=True, on_game_screen=False, away_since=None))
    return _leave_game(room, player, now)


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
