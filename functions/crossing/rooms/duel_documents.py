"""The Duel's documents as the runner sees them: games, open seeks, the lobby's
watchers and ratings, each a ``Kind`` (how to load, save and compare it, and what
follows a write). ``DuelDesk`` holds one of each and decides what to write.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol

from crossing.duel import elo
from crossing.duel import lobby as L
from crossing.duel import match as M
from crossing.rooms import protocol as P
from crossing.rooms.bot_moves import BotMoves
from crossing.rooms.fanout import FanOut
from crossing.rooms.ports import Store, Timers
from crossing.rooms.runner import Batch, Step
from crossing.rooms.storage import dump_match, load_match, plain
from crossing.tiles.lexicon import Lexicon

GAME_TTL_MS = 7 * 24 * 3600_000
GAME_KEPT_MS = 90 * 24 * 3600_000
"""A finished game is kept this long after its last write, so My games can replay it
(an unfinished one, GAME_TTL_MS: a game nobody moves in for a week is gone)."""
MY_GAMES = 50  # finished games remembered in a player's list, the newest
WATCHERS_TTL_MS = 24 * 3600_000  # a lobby nobody has entered for a day is forgotten


class Desk(Protocol):
    """What the documents ask of the Duel's desk (``DuelDesk``) once a write has settled:
    its ports, and the three follow-ups it owns. Given as this, not imported, so the
    desk imports the documents and never the other way round."""

    store: Store
    timers: Timers
    fan_out: FanOut
    bot_moves: BotMoves
    lexicon: Lexicon

    def show_game(self, game: str, match: M.Match, version: int) -> list[str]:
        """Send the game's phones the game as written; the connections that are gone."""
        ...

    def record_ratings(
        self, game: str, match: M.Match
    ) -> tuple[tuple[int, int] | None, tuple[int, int] | None] | None:
        """Write each registered player's rating change once, (before, after) per seat;
        None if that failed."""
        ...

    def seek_moved(
        self, before: L.Seek | None, after: L.Seek | None, now: int, version: int, quiet: set[str]
    ) -> None:
        """Tell the lobby's watchers of a seek written, and move the lobby's timer."""
        ...


@dataclass
class Outcome:
    """What one Duel write did, for the handler's metrics."""

    version: int | None = None
    wrote: bool = False
    started: str | None = None  # "bot" or "human", when a game began
    finished: str | None = None  # the reason, when a game ended
    moves: int = 0  # turns made (plays, swaps, skips, resignations, flag falls)
    bot_moves: int = 0


class Games:
    """Duel games as documents of the runner: one writer per game, like a room."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def load(self, game: str) -> tuple[M.Match, int] | None:
        loaded = self.desk.store.load_doc("game", game)
        return (load_match(loaded[0]), loaded[1]) if loaded else None

    def save(self, game: str, match: M.Match, seen: int, now: int) -> int:
        kept = now + (GAME_KEPT_MS if match.over else GAME_TTL_MS)
        return self.desk.store.save_doc("game", game, dump_match(match), seen, kept)

    def visible(self, before: M.Match, after: M.Match) -> bool:
        return before != after

    def settled(self, game: str, batch: Batch[M.Match]) -> list[Any]:
        desk, before, after, version = self.desk, batch.before, batch.after, batch.version
        answers: list[tuple[str, Any]] = []
        for job in batch.jobs:
            step = job.step
            if step is None or step.note is None or (step.refused is not None and job.told):
                continue  # nobody to answer, or answered by its caller
            connection, seq = step.note
            if step.refused is not None:  # refused only now (written from elsewhere)
                answer: Any = P.refused(step.refused, seq)
            else:
                answer = P.Ack(seq=seq, version=version, duplicate=step.duplicate)
            answers.append((connection, answer.model_dump(mode="json")))
        desk.fan_out.send(answers)
        if not batch.wrote:
            return []
        if after.due_at() != before.due_at():
            due = after.due_at()
            if due is None:
                desk.timers.disarm(game)
            else:
                desk.timers.arm(game, due, version)
        desk.bot_moves.prepare(after)  # a bot to move: its search starts now, elsewhere
        gone = desk.show_game(game, after, version)
        bots = {p.id for p in after.players if p.bot}
        turns = batch.events
        first = next((job for job in batch.jobs if job.wrote), batch.jobs[0])
        result = after.duel.result if after.over else None
        first.report = Outcome(
            version,
            True,
            finished=result.reason if result is not None and not before.over else None,
            moves=len(turns),
            bot_moves=sum(1 for t in turns if t.player in bots),
        )
        follow: list[Any] = []
        for connection in gone:
            desk.store.delete_connection(connection)
            follow.append(game_step(M.Disconnect(connection), desk.lexicon, desk.bot_moves.choose))
        if after.over and not after.settled:
            # The ratings are other documents; recording them in this game is its next step.
            ratings = desk.record_ratings(game, after)
            if ratings is not None:
                follow.append(game_step(M.Settle(ratings), desk.lexicon, desk.bot_moves.choose))
        return follow


@dataclass(frozen=True)
class Taken:
    """A seek taken by a challenger, and the phones about to hear of its game instead
    of the list (the challenger's, then the owner's)."""

    seek: L.Seek
    phones: tuple[str, ...]


class Seeks:
    """One open seek as a runner document (None: gone, or never written); deleting it
    is conditional on the version read, like every other write."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def load(self, seek_id: str) -> tuple[L.Seek | None, int]:
        loaded = self.desk.store.load_doc("seek", seek_id)
        if not loaded:
            return None, 0  # 0: not written
        return L.Seek(**plain("seek", loaded[0])), loaded[1]

    def save(self, seek_id: str, seek: L.Seek | None, seen: int, now: int) -> int:
        if seek is None:
            self.desk.store.delete_doc("seek", seek_id, seen)
            return seen + 1
        return self.desk.store.save_doc(
            "seek", seek_id, asdict(seek), seen or None, seek.expires_at()
        )

    def visible(self, before: L.Seek | None, after: L.Seek | None) -> bool:
        return before != after

    def settled(self, seek_id: str, batch: Batch[L.Seek | None]) -> list[Any]:
        if batch.wrote:
            quiet = {
                c
                for job in batch.jobs
                if job.step is not None and isinstance(job.step.note, Taken)
                for c in job.step.note.phones
            }
            self.desk.seek_moved(batch.before, batch.after, batch.now, batch.version, quiet)
        return []


class Watchers:
    """The connections watching the lobby's list (at most MAX_WATCHERS) as a runner
    document. The item before seeks had their own also held them: they are not read."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def load(self, name: str) -> tuple[dict[str, str], int]:
        loaded = self.desk.store.load_doc("lobby", name)
        if not loaded:
            return {}, 0
        return dict(plain("lobby", loaded[0]).get("watchers", {})), loaded[1]

    def save(self, name: str, watchers: dict[str, str], seen: int, now: int) -> int:
        doc = {"watchers": watchers}
        return self.desk.store.save_doc("lobby", name, doc, seen or None, now + WATCHERS_TTL_MS)

    def visible(self, before: Any, after: Any) -> bool:
        return before != after

    def settled(self, name: str, batch: Batch[Any]) -> list[Any]:
        return []


class PlayerDocument:
    """A registered player's JSON document, kept for good, as a runner document: their
    rating (``"rating"``: ``{rating, games, played}``) or their finished games
    (``"duels"``: ``{games}``, newest first, at most MY_GAMES, each ``views.finished``)."""

    def __init__(self, desk: Desk, kind: str, empty: dict[str, Any]) -> None:
        self.desk = desk
        self.kind = kind
        self.empty = empty

    def load(self, player: str) -> tuple[dict[str, Any], int]:
        loaded = self.desk.store.load_doc(self.kind, player)
        if not loaded:
            return dict(self.empty), 0
        return plain(self.kind, loaded[0]), loaded[1]

    def save(self, player: str, doc: dict[str, Any], seen: int, now: int) -> int:
        return self.desk.store.save_doc(self.kind, player, doc, seen or None, None)

    def visible(self, before: Any, after: Any) -> bool:
        return before != after

    def settled(self, name: str, batch: Batch[Any]) -> list[Any]:
        return []


def rating_documents(desk: Desk) -> PlayerDocument:
    return PlayerDocument(desk, "rating", {"rating": elo.START, "games": {}, "played": 0})


def game_lists(desk: Desk) -> PlayerDocument:
    return PlayerDocument(desk, "duels", {"games": []})


def games_played(doc: dict[str, Any]) -> int:
    """A rating document's rated games: ``played``, or for one written before it was kept,
    the games it remembers (each a rated game it counted)."""
    return int(doc.get("played", len(doc.get("games", {}))))


def game_step(action: M.Action, lexicon: Lexicon, choose: M.Choose) -> Any:
    def change(match: M.Match, now: int) -> Step[M.Match]:
        after, turns = M.step(match, action, now, lexicon, choose)
        return Step(after, list(turns))

    return change
