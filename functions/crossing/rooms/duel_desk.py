"""The Duel side of the rooms service: the lobby's live list, games, their due events, ratings.

Same shape as the rooms service: load, step the pure state, write back only if
nobody wrote since (the stored version), retry on a conflict, then tell every
phone. Four kinds of document (``crossing.aws.table``), each written through the one
runner: one per open seek (taking it is a conditional delete, so two challengers
cannot both get it; the list is one Query of them all), the connections watching the
list (one bounded item), one per game, one rating per account. The RoomService
routes Duel messages, ticks and timers here; the documents themselves (how each is
loaded, saved and followed up) are in ``duel_documents``.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from crossing import seqs
from crossing.crossword.commands import Refused
from crossing.duel import elo
from crossing.duel import game as G
from crossing.duel import lobby as L
from crossing.duel import match as M
from crossing.duel.views import finished, view
from crossing.game_files import default_lexicon
from crossing.rooms import protocol as P
from crossing.rooms.bot_moves import BotMoves
from crossing.rooms.duel_documents import (
    GAME_KEPT_MS,
    GAME_TTL_MS,
    MY_GAMES,
    Games,
    Outcome,
    Seeks,
    Taken,
    Watchers,
    game_lists,
    games_played,
    rating_documents,
)
from crossing.rooms.fanout import FanOut
from crossing.rooms.ports import Conflict, Connections, Store, Timers
from crossing.rooms.runner import Runner, Step
from crossing.rooms.sent import limit
from crossing.rooms.storage import dump_match, load_match
from crossing.tiles.lexicon import Lexicon

LOBBY = "lobby"  # the lobby's code: in connection records and its timer's name
GAME_PREFIX = "g-"
SEEK_PREFIX = "s-"
MAX_TRIES = 6
MAX_WATCHERS = 500  # the watchers' item stays small; the oldest watcher makes way
RECENT_RATED = 20  # games remembered on a rating, so a retried write counts once
LOBBY_LIMIT = (20, 60_000)  # seeks, challenges and bot games per player per minute
MANY_GAMES = "Too many games at once; wait a minute."
WATCH_LIMIT = (20, 60_000)  # codes tried by one watch screen per minute
BOT_NAMES = {"easy": "Easy bot", "medium": "Medium bot", "hard": "Hard bot"}

log = logging.getLogger(__name__)
T = TypeVar("T")


def is_duel_code(code: str) -> bool:
    return code == LOBBY or code.startswith(GAME_PREFIX)


def is_account(player: str) -> bool:
    return player.startswith("acct.")


class DuelDesk:
    def __init__(
        self,
        store: Store,
        connections: Connections,
        timers: Timers,
        *,
        clock: Callable[[], int],
        rng: random.Random,
        sleep: Callable[[float], None],
        leave: Callable[[str, str], None],
        lexicon: Lexicon | None = None,
        runner: Runner | None = None,
        fan_out: FanOut | None = None,
        think: Callable[[Callable[[], None]], Any] | None = None,
    ) -> None:
        self.store = store
        self.connections = connections
        self.timers = timers
        self.clock = clock
        self.rng = rng
        self.sleep = sleep
        self.leave = leave  # take a connection out of the room or game it was in
        self.lexicon = lexicon or default_lexicon()  # the games read no files: given it here
        self.bot_moves = BotMoves(self.lexicon, think)
        self.runner = runner or Runner(clock=clock, sleep=sleep, rng=rng)
        self.fan_out = fan_out or FanOut(connections)
        self.games = Games(self)
        self.seeks = Seeks(self)
        self.watchers = Watchers(self)
        self.ratings = rating_documents(self)
        self.my_games = game_lists(self)

    # --- messages -----------------------------------------------------------------------

    def receive(self, connection: str, player: str, code: str, m: Any) -> Outcome:
        if not player:
            raise Refused("no-hello", "Say hello first: the connection has no player yet.")
        match m.action:
            case "duel_lobby":
                return self._enter_lobby(connection, player, code, m.seq)
            case "duel_games":
                return self._send_my_games(connection, player, m.seq)
            case "duel_seek":
                return self._seek(connection, player, code, m)
            case "duel_cancel":
                return self._cancel(connection, player, m)
            case "duel_accept":
                return self._accept(connection, player, code, m)
            case "duel_bot":
                return self._bot_game(connection, player, code, m)
            case "duel_open":
                return self._open(connection, player, code, m)
            case "duel_watch":
                return self._watch(connection, player, code, m)
        if not code.startswith(GAME_PREFIX):
            raise Refused("no-game", "Open a game first.")
        if m.action == "tick":  # checked against the server's clock, like a room's
            return self._write(code, G.Tick(), connection=connection, seq=m.seq)
        command: G.DuelCommand
        match m.action:
            case "duel_play":
                command = G.Place(player, tuple((t.row, t.col, t.letter.upper()) for t in m.tiles))
            case "duel_swap":
                command = G.Swap(player, m.letter.upper())
            case "duel_skip":
                command = G.Skip(player)
            case "duel_resign":
                command = G.Resign(player)
            case _:
                raise Refused("unknown", f"Unknown action {m.action!r}.")
        return self._write(code, command, connection=connection, seq=m.seq, player=player)

    def snapshot(self, connection: str, code: str, player: str) -> Outcome:
        if code == LOBBY:
            now = self.clock()
            self._send(connection, self._lobby_message(self._listed(now), player, now))
            return Outcome()
        loaded = self.store.load_doc("game", code)
        if loaded is None:
            raise Refused("no-game", "That game no longer exists.")
        match = load_match(loaded[0])
        viewer = None if connection in match.watchers else player  # a screen sees no rack
        self._send(
            connection, P.DuelMessage(version=loaded[1], game=view(match, viewer, self.clock()))
        )
        return Outcome(loaded[1])

    def drop(self, code: str, connection: str) -> None:
        """A connection gone or moving on: out of the lobby's watchers or the game's."""
        try:
            if code == LOBBY:
                self._unwatch([connection])
            elif code.startswith(GAME_PREFIX):
                self._write(code, M.Disconnect(connection))
        except Refused:
            pass  # gone already: nothing to take it out of

    def timer(self, code: str) -> Outcome:
        """The Scheduler's backstop: apply what fell due (seek expiry, flag falls, bot moves)."""
        if code == LOBBY:
            self._expire_seeks()
            return Outcome()
        try:
            outcome = self._write(code, G.Tick())
        except Refused:
            return Outcome()
        if not outcome.wrote:
            loaded = self.store.load_doc("game", code)
            if loaded is not None:
                match = load_match(loaded[0])
                if match.over and not match.settled:
                    self._settle(code, match)
                elif (due := match.due_at()) is not None:
                    self.timers.arm(code, due, loaded[1])
        return outcome

    def paused(self, code: str, since: int) -> Outcome:
        """The server is back after being away since ``since``: the game's clocks stood
        still meanwhile (``match.Paused``); what fell due before it went away happens."""
        if not code.startswith(GAME_PREFIX):
            return Outcome()
        try:
            return self._write(code, M.Paused(since))
        except Refused:  # gone meanwhile: nothing to pause
            return Outcome()

    def signed_in(self, guest: str, account: str) -> None:
        """A guest signed up or in: their waiting game is the account's now. A busy lobby
        does not fail the sign-in: the guest's game then waits on as the guest's."""
        name, standing, _ = self._who(account, None)
        listed = self._listed(self.clock())
        # One waiting game each: if the account has one, the guest's goes.
        keep = L.mine(listed, account, self.clock()) is None

        def hand_over(lobby: L.Lobby, now: int) -> tuple[L.Lobby, None]:
            if keep:
                return (
                    L.hand_over(lobby, guest, account, name, standing.rating, standing.games),
                    None,
                )
            return L.withdraw(lobby, guest), None

        try:
            for seek in listed.seeks.values():
                if seek.owner == guest:
                    self._seek_change(seek.id, hand_over)
        except Refused:
            log.warning("could not hand a waiting game to a new account")

    def unfinished(self, player: str, game: str) -> str | None:
        """``game`` if this player is in it and it is not over (for the welcome)."""
        loaded = self.store.load_doc("game", game) if game else None
        if loaded is None:
            return None
        match = load_match(loaded[0])
        return game if match.seat_of(player) is not None and not match.over else None

    # --- the lobby --------------------------------------------------------------------------

    def _enter_lobby(self, connection: str, player: str, code: str, seq: int) -> Outcome:
        self._move(connection, player, code, LOBBY)
        self._watch_lobby(connection, player)
        self._send(connection, P.Ack(seq=seq))
        self.snapshot(connection, LOBBY, player)
        return Outcome()

    def _seek(self, connection: str, player: str, code: str, m: P.DuelSeek) -> Outcome:
        limit(self.store, self.clock, f"duel-lobby:{player}", LOBBY_LIMIT, MANY_GAMES)
        name, standing, rated = self._who(player, m.name)
        seek_id = SEEK_PREFIX + secrets.token_urlsafe(9)
        token = secrets.token_urlsafe(12) if m.private else None
        self._move(connection, player, code, LOBBY)
        self._watch_lobby(connection, player)  # its owner hears when it is taken
        listed = self._listed(self.clock())  # to refuse a second waiting game of theirs

        def create(lobby: L.Lobby, now: int) -> tuple[L.Lobby, None]:
            _, seek = L.create(
                listed,
                seek_id,
                player,
                name,
                m.limit,
                now,
                token,
                rating=standing.rating,
                rated=rated,
                games=standing.games if rated else None,
            )
            return L.Lobby({seek_id: seek}), None

        self._seek_change(seek_id, create)
        self._send(connection, P.Ack(seq=m.seq))
        return Outcome()

    def _cancel(self, connection: str, player: str, m: P.DuelCancel) -> Outcome:
        self._seek_change(m.seek, lambda lobby, now: (L.cancel(lobby, m.seek, player), None))
        self._send(connection, P.Ack(seq=m.seq))
        return Outcome()

    def _accept(self, connection: str, player: str, code: str, m: P.DuelAccept) -> Outcome:
        limit(self.store, self.clock, f"duel-lobby:{player}", LOBBY_LIMIT, MANY_GAMES)
        name, standing, rated = self._who(player, m.name)
        watchers = self._load_watchers()

        def take(lobby: L.Lobby, now: int) -> tuple[L.Lobby, Taken]:
            rest, accepted = L.accept(lobby, m.seek, player, now, m.token)  # refuses first
            owner = accepted.seek.owner
            phones = (connection, *(c for c, p in watchers.items() if p == owner))
            return rest, Taken(accepted.seek, phones)

        # Taking the seek is the conditional delete two challengers race on: the loser
        # is refused here and nothing else happens. The game takes the seek's id, so
        # even a second taker could not start a second game.
        taken: Taken = self._seek_change(m.seek, take)
        seek, owner_connections = taken.seek, taken.phones[1:]
        now = self.clock()
        owner = M.Player(seek.owner, seek.owner_name, seek.rating, seek.rated, games=seek.games)
        challenger = M.Player(
            player, name, standing.rating, rated, games=standing.games if rated else None
        )
        game = GAME_PREFIX + seek.id.removeprefix(SEEK_PREFIX)
        phones: dict[str, tuple[str, ...]] = {player: (connection,)}
        if owner_connections:
            phones[seek.owner] = owner_connections
        try:
            version, match = self._open_game(
                game,
                (owner, challenger),
                seek.limit_ms,
                phones,
                taken="That game has just been taken by someone else.",
            )
        except Refused:  # its game exists (a crash after an earlier take): the seek is gone
            for c in owner_connections:
                self.snapshot(c, LOBBY, seek.owner)
            raise
        self._unwatch(list(taken.phones))
        self._withdraw(player)  # nobody is in two games at once by accident
        if code and code != LOBBY and code != game:
            self.leave(code, connection)
        for c in owner_connections:
            self.store.put_connection(c, game, seek.owner, now + GAME_TTL_MS)
        self.store.put_connection(connection, game, player, now + GAME_TTL_MS)
        self._remember(seek.owner, game)
        self._remember(player, game)
        self._send(connection, P.Ack(seq=m.seq, version=version))
        self._tell(game, match, version)
        return Outcome(version, True, started="human")

    def _bot_game(self, connection: str, player: str, code: str, m: P.DuelBot) -> Outcome:
        limit(self.store, self.clock, f"duel-lobby:{player}", LOBBY_LIMIT, MANY_GAMES)
        name, standing, rated = self._who(player, m.name)
        human = M.Player(
            player, name, standing.rating, rated, games=standing.games if rated else None
        )
        bot = M.Player(f"bot:{m.level}", BOT_NAMES[m.level], elo.START, False, m.level)
        for _ in range(MAX_TRIES):
            game = GAME_PREFIX + secrets.token_urlsafe(9)
            try:
                version, match = self._open_game(
                    game, (human, bot), m.limit, {player: (connection,)}
                )
                break
            except Refused:
                continue
        else:
            raise Refused("busy", "Could not start a game; please try again.")
        self._move(connection, player, code, game)
        self._withdraw(player)  # a game of theirs waiting for an opponent goes
        self._remember(player, game)
        self._send(connection, P.Ack(seq=m.seq, version=version))
        self._tell(game, match, version)
        return Outcome(version, True, started="bot")

    def _open(self, connection: str, player: str, code: str, m: P.DuelOpen) -> Outcome:
        outcome = self._write(
            m.game, M.Connect(player, connection), missing="That game no longer exists."
        )
        self._move(connection, player, code, m.game)
        self._send(connection, P.Ack(seq=m.seq, version=outcome.version))
        self.snapshot(connection, m.game, player)
        return outcome

    def _watch(self, connection: str, player: str, code: str, m: P.DuelWatch) -> Outcome:
        """A watch screen follows a game: the view nobody plays from (no rack, no seat)."""
        limit(
            self.store, self.clock, f"join:{player}", WATCH_LIMIT, "Too many tries; wait a minute."
        )
        outcome = self._write(
            m.game, M.Watch(connection), missing="There is no Duel with that code."
        )
        self._move(connection, player, code, m.game)
        self._send(connection, P.Ack(seq=m.seq, version=outcome.version))
        if not outcome.wrote:  # watching already: no fan-out sent it the game
            self.snapshot(connection, m.game, player)
        return outcome

    def _open_game(
        self,
        game: str,
        players: tuple[M.Player, M.Player],
        limit_ms: int | None,
        connections: dict[str, tuple[str, ...]],
        taken: str = "That game exists already.",
    ) -> tuple[int, M.Match]:
        """Create the game (only if its id is free) and arm its first due event: its
        version and the match."""
        now = self.clock()
        match = M.start_match(game, players, now, seed=self.rng.getrandbits(32), limit_ms=limit_ms)
        match = replace(match, connections=connections)
        try:
            version = self.store.save_doc("game", game, dump_match(match), None, now + GAME_TTL_MS)
        except Conflict:
            raise Refused("no-seek", taken) from None
        if (due := match.due_at()) is not None:
            self.timers.arm(game, due, version)
        self.bot_moves.prepare(match)  # a bot that moves first starts choosing now
        return version, match

    def _listed(self, now: int) -> L.Lobby:
        """Every open seek still live: one Query of their partition."""
        listed = self.store.list_docs("seek")
        return L.expire(L.Lobby({name: L.Seek(**doc) for name, doc, _ in listed}), now)

    def _seek_change(self, seek_id: str, change: Callable[[L.Lobby, int], tuple[L.Lobby, T]]) -> T:
        """Change one seek through its writer, as the pure lobby of that seek alone (empty
        if it is gone or expired); raise the lobby's refusal here, changing nothing."""

        def command(seek: L.Seek | None, now: int) -> Step[L.Seek | None]:
            alone = L.expire(L.Lobby({seek_id: seek} if seek else {}), now)
            after, note = change(alone, now)
            return Step(after.seeks.get(seek_id), note=note)

        job = self.runner.run(self.seeks, seek_id, command, at_once=True)
        assert job.step is not None
        if job.step.refused is not None:
            raise job.step.refused
        note: T = job.step.note
        return note

    def _withdraw(self, player: str) -> None:
        """Take down the player's waiting games: they have started another."""
        for seek in self._listed(self.clock()).seeks.values():
            if seek.owner == player:
                self._seek_change(seek.id, lambda lobby, now: (L.withdraw(lobby, player), None))

    def _expire_seeks(self) -> None:
        """The lobby's timer: seeks past their time go, and the timer moves to the next."""
        now = self.clock()
        listed = self.store.list_docs("seek")
        for name, doc, _ in listed:
            if now >= L.Seek(**doc).expires_at():
                self._seek_change(name, lambda lobby, now: (lobby, None))  # expired: gone
        due = L.next_expiry(self._listed(self.clock()))
        if due is not None:
            self.timers.arm(LOBBY, due, 0)

    def seek_moved(
        self, before: L.Seek | None, after: L.Seek | None, now: int, version: int, quiet: set[str]
    ) -> None:
        """After a seek was written: the watchers whose list it changed are sent theirs (a
        public seek is everyone's; a private one only its owner's, so nobody else learns
        one was made), and the lobby's timer follows the earliest expiry."""
        changed = [s for s in (before, after) if s is not None]
        listed = self._listed(now)  # the seek as written, and every other
        earlier = _without(listed.seeks, [changed[0].id])  # the list before this write
        if before is not None:
            earlier[before.id] = before
        if L.next_expiry(listed) != L.next_expiry(L.Lobby(earlier)):
            due = L.next_expiry(listed)
            if due is None:
                self.timers.disarm(LOBBY)
            else:
                self.timers.arm(LOBBY, due, version)
        messages = [
            (c, self._lobby_message(listed, p, now).model_dump(mode="json"))
            for c, p in self._load_watchers().items()
            if c not in quiet and any(s.public or s.owner == p for s in changed)
        ]
        gone = self.fan_out.send(messages)
        if gone:
            self._unwatch(gone)

    def _load_watchers(self) -> dict[str, str]:
        loaded = self.watchers.load("duel")
        return loaded[0]

    def _watch_lobby(self, connection: str, player: str) -> None:
        def watch(watchers: dict[str, str], now: int) -> Step[dict[str, str]]:
            rest = _without(watchers, [connection])
            kept = list(rest.items())[-(MAX_WATCHERS - 1) :]
            return Step({**dict(kept), connection: player})

        self.runner.run(self.watchers, "duel", watch, at_once=True)

    def _unwatch(self, gone: list[str]) -> None:
        self.runner.run(
            self.watchers,
            "duel",
            lambda watchers, now: Step(_without(watchers, gone)),
            at_once=True,
        )

    def _lobby_message(self, lobby: L.Lobby, player: str, now: int) -> P.LobbyMessage:
        seeks = [
            {
                "id": s.id,
                "name": s.owner_name,
                "rating": s.rating,
                "provisional": s.provisional,
                "rated": s.rated,
                "will_rate": L.will_be_rated(s, is_account(player)),
                "limit": s.limit_ms,
                "expires_at": s.expires_at(),
                "yours": s.owner == player,
            }
            for s in lobby.waiting(now)
        ]
        own = L.mine(lobby, player, now)
        mine = None
        if own is not None:
            mine = {
                "id": own.id,
                "limit": own.limit_ms,
                "private": not own.public,
                "token": own.private_token,
                "expires_at": own.expires_at(),
            }
        return P.LobbyMessage(seeks=seeks, mine=mine, now=now)

    # --- games ------------------------------------------------------------------------------

    def _write(
        self,
        game: str,
        action: M.Action,
        *,
        connection: str | None = None,
        seq: int | None = None,
        player: str | None = None,
        missing: str = "That game no longer exists.",
    ) -> Outcome:
        """Queue one action for the game's writer (``rooms.runner``); raise its refusal here."""
        reply = (connection, seq) if connection and seq is not None else None

        def command(match: M.Match, now: int) -> Step[M.Match]:
            # The same window as a room's: applied once, in whatever order they come.
            window = match.applied.get(player) if player else None
            if player and seq is not None:
                seen = seqs.seen(window, seq)
                if seen is seqs.Seen.APPLIED:  # delivered twice: applied once
                    return Step(match, duplicate=True, note=reply)
                if seen is seqs.Seen.STALE:
                    return Step(match, refused=seqs.STALE, note=reply)
            after, turns = M.step(match, action, now, self.lexicon, self.bot_moves.choose)
            if player and seq is not None:
                after = replace(after, applied={**after.applied, player: seqs.record(window, seq)})
            return Step(after, list(turns), note=reply)

        job = self.runner.run(self.games, game, command, at_once=True)
        if job.missing:
            raise Refused("no-game", missing)
        assert job.step is not None
        if job.step.refused is not None:
            raise job.step.refused
        return job.report or Outcome(job.version)

    def _tell(self, game: str, match: M.Match, version: int) -> None:
        """A new game to its phones (outside any batch: a gone phone is written out now)."""
        for connection in self.show_game(game, match, version):
            self.store.delete_connection(connection)
            self._write(game, M.Disconnect(connection))

    def show_game(self, game: str, match: M.Match, version: int) -> list[str]:
        """Send both players' phones the game as each may see it, as written at ``version``;
        return the connections that are gone."""
        now = self.clock()
        messages = [
            (c, P.DuelMessage(version=version, game=view(match, p, now)).model_dump(mode="json"))
            for p, held in match.connections.items()
            for c in held
        ]
        if match.watchers:  # watch screens: the view nobody plays from
            public = P.DuelMessage(version=version, game=view(match, None, now))
            messages += [(c, public.model_dump(mode="json")) for c in match.watchers]
        return self.fan_out.send(messages)

    # --- ratings ----------------------------------------------------------------------------

    def record_ratings(
        self, game: str, match: M.Match
    ) -> tuple[tuple[int, int] | None, tuple[int, int] | None] | None:
        """Write each registered player's rating change once; None if that failed.

        Each change is the Elo step from the ratings both players showed at the start,
        added to the account's rating as it is now (another game may have moved it), and
        remembered on the rating with the game's id: a retried settle counts it once.
        Which games count is ``match.rating_steps``: not bots', guests' or aborted ones;
        each rated game counts towards the account's games (``elo.Standing``), a step of
        nothing (against a provisional opponent) too. Then the game goes on each
        registered player's list of games (My games), once.
        """
        try:
            changes = [
                None if step is None else self._rate(player.id, game, step)
                for player, step in zip(match.players, M.rating_steps(match), strict=True)
            ]
            ratings = (changes[0], changes[1])
            rated = replace(match, ratings=ratings)
            kept_until = self.clock() + GAME_KEPT_MS
            for player in match.players:
                if is_account(player.id):
                    self._list_game(player.id, finished(rated, player.id, kept_until))
        except Refused:
            log.warning("could not record the ratings of %s; the timer retries", game)
            return None
        return ratings

    def _settle(self, game: str, match: M.Match) -> None:
        """Ratings first, then recorded in the game (a timer finding it unsettled)."""
        ratings = self.record_ratings(game, match)
        if ratings is None:
            return
        try:
            self._write(game, M.Settle(ratings))
        except Refused:
            log.warning("could not record the ratings of %s; the timer retries", game)

    def _list_game(self, player: str, shown: dict[str, Any]) -> None:
        """Put a finished game at the top of the player's list, once (a retried settle
        finds it there)."""

        def command(doc: dict[str, Any], now: int) -> Step[Any]:
            if any(g["id"] == shown["id"] for g in doc["games"]):
                return Step(doc)
            return Step({"games": [shown, *doc["games"]][:MY_GAMES]})

        self.runner.run(self.my_games, player, command, at_once=True)

    def _send_my_games(self, connection: str, player: str, seq: int) -> Outcome:
        """A signed-in player's finished games, newest first; a guest has none kept."""
        games = self.my_games.load(player)[0]["games"] if is_account(player) else []
        self._send(connection, P.DuelGames(games=games, now=self.clock()))
        self._send(connection, P.Ack(seq=seq))
        return Outcome()

    def _rate(self, player: str, game: str, delta: int) -> tuple[int, int]:
        """Add ``delta`` to the player's rating, and one to its games, once for ``game``:
        (before, after)."""

        def command(doc: dict[str, Any], now: int) -> Step[Any]:
            if game in doc["games"]:  # counted already (a retried settle)
                return Step(doc, note=tuple(doc["games"][game]))
            before = int(doc["rating"])
            games = dict(list(doc["games"].items())[-(RECENT_RATED - 1) :])
            games[game] = [before, before + delta]
            after = {"rating": before + delta, "games": games, "played": games_played(doc) + 1}
            return Step(after, note=(before, before + delta))

        job = self.runner.run(self.ratings, player, command, at_once=True)
        assert job.step is not None
        before, after = job.step.note
        return int(before), int(after)

    def standing(self, player: str) -> elo.Standing:
        """An account's rating and rated games; a guest's 1000 (never rated)."""
        loaded = self.store.load_doc("rating", player) if is_account(player) else None
        if loaded is None:
            return elo.Standing()
        return elo.Standing(int(loaded[0]["rating"]), games_played(loaded[0]))

    # --- helpers ------------------------------------------------------------------------

    def _who(self, player: str, name: str | None) -> tuple[str, elo.Standing, bool]:
        """The name, standing and rated-ness this player shows in a Duel."""
        profile = self.store.get_profile(player) or {}
        if is_account(player):
            return profile.get("account") or "Player", self.standing(player), True
        shown = (name or profile.get("name") or "Guest").strip() or "Guest"
        if name and name != profile.get("name"):
            self.store.update_profile(player, {"name": name})
        return shown, elo.Standing(), False

    def _move(self, connection: str, player: str, old: str, new: str) -> None:
        if old and old != new:
            self.leave(old, connection)
        self.store.put_connection(connection, new, player, self.clock() + GAME_TTL_MS)

    def _remember(self, player: str, game: str) -> None:
        """The player's profile names their game, so a reload or another tab finds it."""
        if player.startswith("bot:"):
            return
        self.store.update_profile(player, {"duel": game})

    def _send(self, connection: str, message: Any) -> bool:
        return self.connections.send(connection, message.model_dump(mode="json"))


def _without(items: Mapping[str, Any], keys: list[str]) -> dict[str, Any]:
    return {k: v for k, v in items.items() if k not in keys}
