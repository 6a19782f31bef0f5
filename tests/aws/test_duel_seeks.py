"""The Duel lobby on each store (memory, DynamoDB on moto, SQLite): one item per open
seek, taken by a conditional delete, listed by one Query."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.aws.conftest import STORES
from tests.duel.phones import DuelPhone, errors
from tests.rooms.fakes import Clock, make_service

pytestmark = pytest.mark.parametrize("store", STORES, indirect=True)

MIN = 60_000


class Lambdas:
    """Two servers on one store, each with its own runner holding nothing between
    messages, as two Lambda containers are."""

    def __init__(self, store: Any) -> None:
        clock = Clock(int(time.time() * 1000))  # SQLite's TTLs follow the real clock
        self.store = store
        self.a = make_service(clock, store=_Racing(store), hold=False)
        self.b = make_service(clock, store=store, hold=False)
        self.count = 0

    def phone(self, service: Any) -> DuelPhone:
        self.count += 1
        p = DuelPhone(service, f"seeks-conn-{self.count}")
        p.send("hello")
        return p


class _Racing:
    """The store, with a hook run just before the next seek is deleted: another
    server's whole request lands between this one's read and its write."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.before_delete: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def delete_doc(self, kind: str, name: str, seen: int) -> None:
        hook, self.before_delete = self.before_delete, None
        if hook is not None:
            hook()
        self._store.delete_doc(kind, name, seen)


def test_two_challengers_racing_for_one_seek_one_gets_it_and_the_other_nothing(store):
    servers = Lambdas(store)
    ann, cat = servers.phone(servers.b), servers.phone(servers.b)
    bob = servers.phone(servers.a)
    ann.send("duel_seek", limit=5 * MIN, name="Ann")
    seek = ann.lobby["mine"]["id"]
    bob.send("duel_lobby")
    cat_answer: list[dict] = []
    # Bob's server has read the seek; Cat's takes it before Bob's delete is tried.
    servers.a.store.before_delete = lambda: cat_answer.extend(
        cat.send("duel_accept", seek=seek, name="Cat")
    )
    refused = errors(bob.send("duel_accept", seek=seek, name="Bob"))
    assert not errors(cat_answer)
    assert [e["code"] for e in refused] == ["no-seek"]
    ann.take()
    assert cat.game["id"] == ann.game["id"]
    assert {s["name"] for s in ann.game["seats"]} == {"Ann", "Cat"}
    assert bob.game == {}  # the loser: no game, still in the lobby, nothing else changed
    assert store.get_connection(bob.connection)[0] == "lobby"
    assert "duel" not in (store.get_profile(bob.player) or {})
    assert store.list_docs("seek") == []


def test_a_lobby_of_many_seeks_is_listed_whole_with_one_query(store):
    servers = Lambdas(store)
    for i in range(30):
        servers.phone(servers.b).send("duel_seek", limit=3 * MIN, name=f"P{i}")
    servers.phone(servers.b).send("duel_seek", limit=None, private=True, name="Fran")
    viewer = servers.phone(servers.a)
    before = store.requests["list_docs"]
    viewer.send("duel_lobby")
    assert store.requests["list_docs"] - before == 1
    assert sorted(s["name"] for s in viewer.lobby["seeks"]) == sorted(f"P{i}" for i in range(30))


def test_an_accepted_seek_is_gone_for_every_watcher(store):
    servers = Lambdas(store)
    watchers = [servers.phone(servers.b) for _ in range(4)]
    for p in watchers:
        p.send("duel_lobby")
    ann, bob = servers.phone(servers.b), servers.phone(servers.b)
    ann.send("duel_seek", limit=10 * MIN, name="Ann")
    second = ann.send("duel_seek", limit=10 * MIN, name="Ann")
    assert [e["code"] for e in errors(second)] == ["already-waiting"]  # one game each
    dan = servers.phone(servers.b)
    dan.send("duel_seek", limit=3 * MIN, name="Dan")
    for p in watchers:
        p.take()
        assert sorted(s["name"] for s in p.lobby["seeks"]) == ["Ann", "Dan"]
    assert not errors(bob.send("duel_accept", seek=ann.lobby["mine"]["id"], name="Bob"))
    for p in watchers:
        p.take()
        assert [s["name"] for s in p.lobby["seeks"]] == ["Dan"]
    late = servers.phone(servers.a)
    late.send("duel_lobby")
    assert [s["name"] for s in late.lobby["seeks"]] == ["Dan"]
    assert [doc["owner_name"] for _, doc, _ in store.list_docs("seek")] == ["Dan"]
