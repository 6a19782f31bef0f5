"""The Duel lobby: games waiting for an opponent, challenges, and private links.

A *seek* is a game someone created and is waiting in: public ones are listed for
anyone to Challenge; a private one (Play With Friend) is reached only through its
link, which carries a token nobody can guess. Accepting a seek starts the game.
Seeks expire when nobody takes them. Pure: the caller passes the time and the
tokens (drawn from a secure source at the edge).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from crossing.duel import elo
from crossing.refusals import Refused

SEEK_TTL_MS = 10 * 60_000  # a waiting game nobody takes is gone after ten minutes
MINUTE = 60_000
TIME_LIMITS_MS: tuple[int | None, ...] = (
    3 * MINUTE,
    5 * MINUTE,
    10 * MINUTE,
    20 * MINUTE,
    None,
)  # None: Unlimited


@dataclass(frozen=True)
class Seek:
    id: str
    owner: str
    owner_name: str
    limit_ms: int | None
    created_at: int
    private_token: str | None = None  # set for Play With Friend
    rating: int = 1000  # the owner's, shown in the list
    rated: bool = False  # the owner is a registered player
    games: int | None = None  # the owner's rated games, for an account

    @property
    def provisional(self) -> bool:
        return self.rated and elo.provisional(self.games)

    @property
    def public(self) -> bool:
        return self.private_token is None

    def expires_at(self) -> int:
        return self.created_at + SEEK_TTL_MS


@dataclass(frozen=True)
class Lobby:
    seeks: Mapping[str, Seek]

    def waiting(self, now: int) -> list[Seek]:
        """The public games still waiting, oldest first: the live list with Challenge."""
        live = [s for s in self.seeks.values() if s.public and now < s.expires_at()]
        return sorted(live, key=lambda s: (s.created_at, s.id))


@dataclass(frozen=True)
class Accepted:
    """A challenge taken: the game to start between ``owner`` and ``challenger``."""

    seek: Seek
    challenger: str


def create(
    lobby: Lobby,
    seek_id: str,
    owner: str,
    name: str,
    limit_ms: int | None,
    now: int,
    private_token: str | None = None,
    *,
    rating: int = 1000,
    rated: bool = False,
    games: int | None = None,
) -> tuple[Lobby, Seek]:
    if limit_ms not in TIME_LIMITS_MS:
        raise Refused("bad-limit", "Pick one of the time limits offered, or Unlimited.")
    if any(s.owner == owner and now < s.expires_at() for s in lobby.seeks.values()):
        raise Refused("already-waiting", "You already have a game waiting for an opponent.")
    seek = Seek(seek_id, owner, name, limit_ms, now, private_token, rating, rated, games)
    return replace(lobby, seeks={**expire(lobby, now).seeks, seek_id: seek}), seek


def accept(
    lobby: Lobby, seek_id: str, challenger: str, now: int, token: str | None = None
) -> tuple[Lobby, Accepted]:
    """Challenge a public seek, or follow a private link (its token must match)."""
    seek = lobby.seeks.get(seek_id)
    if seek is None or now >= seek.expires_at():
        raise Refused("no-seek", "That game is no longer waiting for an opponent.")
    if not seek.public and token != seek.private_token:
        raise Refused("no-seek", "That game is no longer waiting for an opponent.")
    if seek.owner == challenger:
        raise Refused("own-seek", "You cannot accept your own game.")
    rest = {k: s for k, s in lobby.seeks.items() if k != seek_id}
    return replace(lobby, seeks=rest), Accepted(seek, challenger)


def cancel(lobby: Lobby, seek_id: str, owner: str) -> Lobby:
    seek = lobby.seeks.get(seek_id)
    if seek is None or seek.owner != owner:
        raise Refused("no-seek", "You have no such game waiting.")
    return replace(lobby, seeks={k: s for k, s in lobby.seeks.items() if k != seek_id})


def will_be_rated(seek: Seek, challenger_rated: bool) -> bool:
    """Whether taking this seek starts a rated game: both players registered."""
    return seek.rated and challenger_rated


def hand_over(
    lobby: Lobby, guest: str, account: str, name: str, rating: int, games: int | None = None
) -> Lobby:
    """A guest who signs up keeps their waiting game (and its link), now as the account."""
    seeks = {
        k: replace(s, owner=account, owner_name=name, rating=rating, rated=True, games=games)
        if s.owner == guest
        else s
        for k, s in lobby.seeks.items()
    }
    if any(s.owner == account for s in lobby.seeks.values()):
        seeks = {k: s for k, s in lobby.seeks.items() if s.owner != guest}  # one at a time
    return replace(lobby, seeks=seeks)


def withdraw(lobby: Lobby, owner: str) -> Lobby:
    """The owner's waiting game taken down: they have started another game."""
    return replace(lobby, seeks={k: s for k, s in lobby.seeks.items() if s.owner != owner})


def mine(lobby: Lobby, owner: str, now: int) -> Seek | None:
    """The owner's own waiting game, public or private."""
    return next(
        (s for s in lobby.seeks.values() if s.owner == owner and now < s.expires_at()), None
    )


def next_expiry(lobby: Lobby) -> int | None:
    return min((s.expires_at() for s in lobby.seeks.values()), default=None)


def expire(lobby: Lobby, now: int) -> Lobby:
    return replace(lobby, seeks={k: s for k, s in lobby.seeks.items() if now < s.expires_at()})
