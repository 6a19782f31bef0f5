"""Who a connection is: hello (a guest id, a returning guest, a resumed sign-in),
signing up and in. The router hands it ``hello``, ``sign_up`` and ``sign_in``."""

from __future__ import annotations

import secrets
from typing import Any

from crossing.crossword.commands import Refused
from crossing.duel.elo import Standing
from crossing.rooms import pace
from crossing.rooms import protocol as P
from crossing.rooms import room as R
from crossing.rooms.ports import Session
from crossing.rooms.sent import Sent, limit, send, token_hash
from crossing.rooms.storage import load_room
from crossing.rooms.writer import RoomWriter

CONNECTION_TTL_MS = 24 * 3600_000
# Sign-in and sign-up attempts from one source (each costs a password hash), per
# connection and, where the network says where it came from, per address (households and
# schools share one, hence more).
TRIES_FROM = {"connection": (10, 60_000), "address": (30, 60_000)}
SIGN_UPS_FROM = {"connection": (5, 3_600_000), "address": (20, 3_600_000)}
WRONG_KEPT = 200  # wrong passwords remembered per name: more waits no longer
TOO_MANY_TRIES = "Too many sign-in tries from here; wait a minute."
TOO_MANY_SIGN_UPS = "Too many new accounts from here; wait an hour."
ACCOUNT_PREFIX = "acct."  # a registered player's id is this and the account's stable id


def account_shown(name: str, standing: Standing) -> dict[str, Any]:
    """What a page is told of the account it is signed in to (welcome, signed_in)."""
    return {
        "name": name,
        "rating": standing.rating,
        "games": standing.games,
        "provisional": standing.provisional,
    }


class Identity:
    def __init__(self, rooms: RoomWriter) -> None:
        self.rooms = rooms

    def hello(self, connection: str, m: P.Hello) -> Sent:
        rooms = self.rooms
        store = rooms.store
        account = self._resume(m.refresh) if m.refresh else None
        player: str | None
        token: str | None
        profile = store.get_profile(m.player) if m.player and m.token else None
        if account is not None:
            player, token = account
            profile = store.get_profile(player) or {}
        elif profile and secrets.compare_digest(
            profile.get("token_hash", ""), token_hash(m.token or "")
        ):
            player, token = m.player, m.token
        else:
            player, token = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
            profile = {"token_hash": token_hash(token), "room": "", "dealt": []}
            store.update_profile(player, profile)
        assert player is not None and token is not None
        now = rooms.clock()
        code = self._seat_of(player, profile.get("room", ""))
        store.put_connection(connection, code, player, now + CONNECTION_TTL_MS)
        saved = {kind: store.get_save(player, kind) is not None for kind in ("race", "together")}
        welcome = P.Welcome(
            player=player,
            token=token,
            saved=saved,
            room=code or None,
            push_key=rooms.push.public_key if rooms.push else None,
            notify=bool(profile.get("push")),
            account=account_shown(profile.get("account", ""), rooms.duel.standing(player))
            if account
            else None,
            duel=rooms.duel.unfinished(player, profile.get("duel", "")),
        )
        send(rooms.connections, connection, welcome)
        send(rooms.connections, connection, P.Ack(seq=m.seq))
        if not code:
            return Sent()
        # Back in their seat: the fan-out sends this new connection the full view.
        connect = R.Connect(player, connection)
        return rooms.mutate(code, lambda room, now: R.step(room, connect, now))

    def _resume(self, refresh: str) -> tuple[str, str] | None:
        """(player, "") for a refresh token the identity service still accepts, else None:
        a stale sign-in falls back to the guest identity rather than failing the hello."""
        if self.rooms.accounts is None:
            return None
        try:
            account = self.rooms.accounts.resume(refresh)
        except Refused:
            return None
        return ACCOUNT_PREFIX + account.id, ""

    def sign_in(
        self, connection: str, code: str, m: P.SignUp | P.SignIn, source: str | None = None
    ) -> Sent:
        """Sign up or in; the connection becomes the account's player, out of any room.

        Limited per source (the connection, and ``source``, its network address, where
        known) before any password is hashed; wrong passwords for a name slow every
        attempt on it (``pace.backoff_ms``) rather than lock its owner out."""
        rooms = self.rooms
        store, accounts = rooms.store, rooms.accounts
        if accounts is None:
            raise Refused("no-accounts", "Accounts are not set up on this server.")
        sources = {"connection": connection, "address": source}
        for kind, rule in TRIES_FROM.items():
            if sources[kind]:
                limit(store, rooms.clock, f"tries:{sources[kind]}", rule, TOO_MANY_TRIES)
        if isinstance(m, P.SignUp):
            for kind, rule in SIGN_UPS_FROM.items():
                if sources[kind]:
                    limit(store, rooms.clock, f"sign-ups:{sources[kind]}", rule, TOO_MANY_SIGN_UPS)
            session = accounts.sign_up(m.name, m.password)
        else:
            session = self._checked(m.name, m.password)
        player = ACCOUNT_PREFIX + session.account.id
        # "account" is the name signed up with; "name" stays what the player types in rooms.
        store.update_profile(player, {"account": session.account.name})
        store.update_profile(player, {"name": session.account.name}, expect={"name": None})
        guest = (store.get_connection(connection) or ("", ""))[1]
        if code:
            rooms.drop(code, connection)
        store.put_connection(connection, "", player, rooms.clock() + CONNECTION_TTL_MS)
        if guest and guest != player:
            rooms.duel.signed_in(guest, player)
        signed = P.SignedIn(
            **account_shown(session.account.name, rooms.duel.standing(player)),
            player=player,
            refresh=session.refresh,
        )
        send(rooms.connections, connection, signed)
        send(rooms.connections, connection, P.Ack(seq=m.seq))
        return Sent()

    def _checked(self, name: str, password: str) -> Session:
        """The account's session for the right password, after waiting out the name's
        recent wrong ones; a wrong one is counted against the name."""
        store, now = self.rooms.store, self.rooms.clock()
        key = f"wrong:{name.lower()}"
        wait = pace.backoff_ms(store.attempts(key, pace.FAILURES_KEPT_MS, now), now)
        if wait:
            seconds = -(-wait // 1000)
            raise Refused(
                "too-many",
                f"Too many wrong passwords for that name; try again in {seconds} "
                f"second{'s' if seconds > 1 else ''}.",
            )
        assert self.rooms.accounts is not None
        try:
            return self.rooms.accounts.sign_in(name, password)
        except Refused as refusal:
            if refusal.code == "wrong-password":
                store.take(key, WRONG_KEPT, pace.FAILURES_KEPT_MS, now)
            raise

    def _seat_of(self, player: str, code: str) -> str:
        """The room a returning player still has a seat in, or ""."""
        loaded = self.rooms.store.load_room(code) if code else None
        if loaded is None:
            return ""
        room = load_room(loaded[0])
        member = room.members.get(player)
        return code if member and not member.left and room.phase is not R.Phase.CLOSED else ""
