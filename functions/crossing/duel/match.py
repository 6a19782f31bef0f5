"""A Duel as it is stored: the game, who plays it, their phones, and the bot's next move.

The game itself (``duel.game``) knows seats and tiles; a match adds what the
server needs around it: names and ratings as shown, which seat is a bot and when
its move falls due, which connections watch, each player's applied seqs (``crossing.seqs``), and the
rating changes once they are written. Pure: ``step(match, action, now)``; the
bot's move and every flag fall are due events applied as of the moment they fell
(DESIGN "Time").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from crossing.duel import bots, elo
from crossing.duel import game as G
from crossing.presence import Connect as Connect
from crossing.presence import Disconnect as Disconnect
from crossing.refusals import Refused
from crossing.seqs import Applied
from crossing.tiles.lexicon import Lexicon


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    rating: int  # as shown at the start: an account's rating, 1000 for guests and bots
    rated: bool = False  # a registered account
    bot: str | None = None  # the level, for a bot
    games: int | None = None  # an account's rated games when the game began

    @property
    def provisional(self) -> bool:
        """An account with fewer than ``elo.PROVISIONAL_GAMES`` rated games."""
        return self.rated and elo.provisional(self.games)


@dataclass(frozen=True)
class Match:
    id: str
    players: tuple[Player, Player]  # in seat order: seat 0 moves first
    duel: G.Duel
    started_at: int
    connections: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    bot_due: int | None = None  # when the bot to move makes its move
    applied: Mapping[str, Applied] = field(default_factory=dict)  # each player's seqs
    ended_at: int | None = None
    ratings: tuple[tuple[int, int] | None, tuple[int, int] | None] | None = None
    """(before, after) per seat once written to the accounts; None for a guest or a bot."""
    watchers: tuple[str, ...] = ()  # watch screens' connections: they see no rack

    @property
    def over(self) -> bool:
        return self.duel.over

    @property
    def settled(self) -> bool:
        """Over, and every rating change is written (or there is none to write)."""
        return self.over and self.ratings is not None

    def seat_of(self, player: str) -> int | None:
        return next((i for i, p in enumerate(self.players) if p.id == player), None)

    def due_at(self) -> int | None:
        """The next due event: a flag fall, the bot's move, or ratings still to write."""
        if self.over:
            return None if self.settled else self.ended_at
        times = [t for t in (self.duel.due_at(), self.bot_due) if t is not None]
        return min(times) if times else None


# --- ratings (pure): which games count, and by how much ----------------------------------------

MOVES = frozenset({"play", "swap", "skip"})  # what counts as having moved; a flag fall does not


def rated(match: Match) -> bool:
    """Whether the game counts for ratings once played: two registered players, no bot."""
    return all(p.rated and not p.bot for p in match.players)


def aborted(match: Match) -> bool:
    """Over before each player made a move: no rating moves, whoever resigned or timed out."""
    moved = {t.player for t in match.duel.moves if t.kind in MOVES}
    return match.over and not all(p.id in moved for p in match.players)


def rating_steps(match: Match) -> tuple[int | None, int | None]:
    """Each seat's Elo step from the ratings both showed at the start; None: not rated.

    A game with a guest is unrated for both: a guest always shows 1000, so rating the
    account against them would let anyone farm points off a throwaway guest. For the
    same reason a provisional opponent (an account of fewer than
    ``elo.PROVISIONAL_GAMES`` rated games) moves a rating by nothing: the game is rated
    and counts towards both players' games, but a rating not yet known says nothing of
    a win against it. So two provisional players move neither, and an established
    player against a newcomer moves only the newcomer.
    """
    result = match.duel.result
    if result is None or not rated(match) or aborted(match):
        return None, None
    steps = []
    for i, player in enumerate(match.players):
        opponent = match.players[1 - i]
        if opponent.provisional:
            steps.append(0)
            continue
        score = 0.5 if result.winner is None else (1.0 if result.winner == player.id else 0.0)
        steps.append(elo.updated(player.rating, opponent.rating, score) - player.rating)
    return steps[0], steps[1]


def start_match(
    match_id: str,
    players: tuple[Player, Player],
    now: int,
    *,
    seed: int,
    limit_ms: int | None,
) -> Match:
    """Who moves first comes from the seed; a bot to move gets its move due."""
    if random.Random(f"first:{seed}").random() < 0.5:
        players = (players[1], players[0])
    if players[0].id == players[1].id:
        raise Refused("two-players", "A duel is between two players.")
    duel = G.start_duel([p.id for p in players], now, seed=seed, limit_ms=limit_ms)
    return _after_turn(Match(match_id, players, duel, now), now)


# --- actions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Watch:
    """A watch screen follows the game, live or after it ends."""

    connection: str


MAX_WATCHERS = 50  # the game's item stays small; the oldest screen makes way


@dataclass(frozen=True)
class Settle:
    """The rating changes, written to the accounts: (before, after) per seat."""

    ratings: tuple[tuple[int, int] | None, tuple[int, int] | None]


@dataclass(frozen=True)
class Paused:
    """The server was away from ``since`` until this action is applied (a restart, a
    crash): the game's clocks stood still for that time. A restart shows as a pause on
    the clocks, never as time charged to the player to move."""

    since: int


Action = Connect | Disconnect | Watch | Settle | Paused | G.DuelCommand


Choose = Callable[[G.Duel, str, Lexicon], G.DuelCommand]
"""How a bot's move is chosen: ``bots.choose``, or the same move chosen ahead."""


def step(
    match: Match, action: Action, now: int, lexicon: Lexicon, choose: Choose = bots.choose
) -> tuple[Match, list[G.Turn]]:
    """Catch up on what fell due, then apply the action. Returns the turns made."""
    if isinstance(action, Paused):  # what fell due while the server was away did not
        return paused(match, action.since, now, lexicon, choose)
    match, made = advance(match, now, lexicon, choose)
    match action:
        case Connect(player, connection):
            if match.seat_of(player) is None:
                raise Refused("not-a-player", "You are not playing in this game.")
            held = match.connections.get(player, ())
            if connection not in held:
                match = _connections(match, player, (*held, connection))
        case Disconnect(connection):
            for player, held in match.connections.items():
                if connection in held:
                    match = _connections(match, player, tuple(c for c in held if c != connection))
            if connection in match.watchers:
                match = replace(match, watchers=tuple(c for c in match.watchers if c != connection))
        case Watch(connection):
            if connection not in match.watchers:
                kept = match.watchers[-(MAX_WATCHERS - 1) :]
                match = replace(match, watchers=(*kept, connection))
        case Settle(ratings):
            if match.over and match.ratings is None:
                match = replace(match, ratings=ratings)
        case G.Tick():
            pass
        case _:
            seat = match.seat_of(action.player)
            if seat is None:
                raise Refused("not-a-player", "You are not playing in this game.")
            if match.players[seat].bot:
                raise Refused("not-a-player", "That seat is a bot's.")
            duel, turns = G.step(match.duel, action, now, lexicon)
            match = _after_turn(replace(match, duel=duel), now)
            made += turns
    return match, made


def advance(
    match: Match, now: int, lexicon: Lexicon, choose: Choose = bots.choose
) -> tuple[Match, list[G.Turn]]:
    """Apply, in order and each as of its own moment, every bot move and flag fall due."""
    made: list[G.Turn] = []
    while not match.over:
        flag, bot = match.duel.due_at(), match.bot_due
        if bot is not None and bot <= now and (flag is None or bot <= flag):
            duel, turns = _bot_move(match, bot, lexicon, choose)
            match = _after_turn(replace(match, duel=duel, bot_due=None), bot)
        elif flag is not None and flag <= now:
            duel, turns = G.advance(match.duel, flag)
            match = _after_turn(replace(match, duel=duel, bot_due=None), flag)
        else:
            break
        made += turns
    return match, made


def paused(
    match: Match, since: int, until: int, lexicon: Lexicon, choose: Choose = bots.choose
) -> tuple[Match, list[G.Turn]]:
    """The server was away from ``since`` to ``until``: what fell due before it went
    away happens as of its moment; then every running clock reads at ``until`` what it
    read at ``since``, and a bot's move that fell due meanwhile falls due on its return
    (so the human's clock starts then, not while nobody could see the move). Applied
    twice, the same pause counts once."""
    match, made = advance(match, since, lexicon, choose)
    if match.over or until <= since:
        return match, made
    duel = match.duel
    seats = tuple(replace(s, clock=s.clock.paused(since, until)) for s in duel.seats)
    bot_due = None if match.bot_due is None else max(match.bot_due, until)
    duel = replace(duel, seats=(seats[0], seats[1]))
    return replace(match, duel=duel, bot_due=bot_due), made


def _bot_move(
    match: Match, at: int, lexicon: Lexicon, choose: Choose
) -> tuple[G.Duel, list[G.Turn]]:
    level = match.players[match.duel.turn].bot or "hard"
    command = choose(match.duel, level, lexicon)
    try:
        return G.step(match.duel, command, at, lexicon)
    except Refused:  # never expected: the generator only offers legal plays
        return G.step(match.duel, G.Skip(match.duel.to_move), at, lexicon)


def _after_turn(match: Match, now: int) -> Match:
    """Note the end, or give a bot to move its move's due time (kept if already set)."""
    if match.over:
        return replace(match, bot_due=None, ended_at=match.ended_at or now)
    level = match.players[match.duel.turn].bot
    if level is None:
        return replace(match, bot_due=None)
    if match.bot_due is not None:
        return match
    rng = random.Random(f"duel-think:{match.duel.seed}:{len(match.duel.moves)}")
    # A bot's clock stands still while it waits: its pause is for the human's eye and
    # choosing takes milliseconds, so the bot's time is never what decides a game.
    duel = match.duel
    turn = duel.seats[duel.turn]
    duel = replace(
        duel, seats=G.with_seat(duel.seats, duel.turn, replace(turn, clock=turn.clock.stop(now)))
    )
    return replace(match, duel=duel, bot_due=now + bots.think_ms(level, duel.limit_ms, rng))


def _connections(match: Match, player: str, held: tuple[str, ...]) -> Match:
    rest = {p: c for p, c in match.connections.items() if p != player}
    return replace(match, connections={**rest, player: held} if held else rest)
