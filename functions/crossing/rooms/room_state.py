"""What a room is: who is in it, where they are, who hosts, the game it is playing, and
when something in it falls due by itself (a grace, the host's hand-over, a bot, the
game's own limit); the actions a room takes and the notes its step leaves for the
writer (``Keep``, ``Notify``). The step that changes a room is ``room.py``; the game
inside it, ``room_game.py``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from crossing.crossword import bots
from crossing.crossword.commands import Command, End, Pause, Refused, Resume
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
    look: bots.Look = field(
        default_factory=bots.Look
    )  # board full: what it has re-read and doubted


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
    # The host the role passed on from (their phone away past the grace), so every phone,
    # the new host's first, is told; old news once the next game starts.
    host_was: str | None = None

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
        if self.host_away_since is None or self.phase is Phase.CLOSED or self.heir() is None:
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

    def heir(self) -> Member | None:
        """Who takes over as host if the host's grace runs out: the first other phone here."""
        return next((m for m in self.humans if m.connections and m.player != self.host), None)

    def bot_level(self, player: str) -> str | None:
        member = self.members.get(player)
        return member.bot if member else None


# --- the room's own actions (with ``Connect`` and ``Disconnect`` from crossing.presence) ---


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

    A race bot's only due event is its Done; a Together bot's is its next word, or on a
    full board its Done once the board has stood still for its patience (so a change
    by anyone puts it off). Both are in game-clock time, so a pause stops them.
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
            at = (
                game.clock.reaches_at(bots.acts_at(game, level, turn.look, turn.at_ms))
                if turn
                else None
            )
        if at is not None:
            dues.append((at, player))
    return dues


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
