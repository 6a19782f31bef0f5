"""What the SQLite ports keep beyond the shared contracts: TTLs acted on, guests expiring,
everything surviving a reopen, nothing secret kept in the clear, one winner per version,
and a round's writes committed together or not at all."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from crossing.aws import table
from crossing.local import sqlite as sqlite_module
from crossing.local.backend import SqliteBackend
from crossing.local.sqlite import (
    GUEST_TTL_S,
    Database,
    SqliteAccounts,
    SqliteStore,
    SqliteTimers,
)
from crossing.rooms.ports import Conflict

DAY = 24 * 3600
PASSWORD = "correct horse battery"


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db(tmp_path: Path, clock: Clock):
    opened = Database(tmp_path / "crossing.sqlite3", clock=clock)
    yield opened
    opened.close()


def ms(seconds: float) -> int:
    return int(seconds * 1000)


def test_an_item_past_its_ttl_is_gone_and_its_key_is_free_again(db, clock):
    store = SqliteStore(db)
    store.save_room("ABCD", {"n": 1}, None, ms(clock.now + 60))
    store.put_connection("c1", "ABCD", "p1", ms(clock.now + 60))
    store.put_save("p1", "race", {"board": "AB"}, ms(clock.now + 60))
    clock.now += 61
    assert store.load_room("ABCD") is None
    assert store.get_connection("c1") is None
    assert store.get_save("p1", "race") is None
    assert store.save_room("ABCD", {"n": 9}, None, ms(clock.now + 60)) == 1, "a new room"
    with pytest.raises(Conflict):
        store.save_room("WXYZ", {}, 3, ms(clock.now + 60))  # nothing there to update
    assert db.sweep() == 2  # the expired connection and save; the new room stays
    assert store.load_room("ABCD") == ({"n": 9}, 1)


def test_guests_expire_after_the_documented_time_since_last_seen_and_accounts_never(db, clock):
    store = SqliteStore(db)
    store.put_profile("guest1", {"name": "Ann"})
    store.put_profile("guest2", {"name": "Bea"})
    store.put_profile("acct.1234", {"account": "Cy"})
    clock.now += GUEST_TTL_S - 2 * DAY
    assert store.get_profile("guest2") == {"name": "Bea"}  # seen again: lives on
    clock.now += 3 * DAY
    assert store.get_profile("guest1") is None
    assert store.get_profile("guest2") == {"name": "Bea"}
    clock.now += 10 * GUEST_TTL_S
    assert store.get_profile("guest2") is None
    assert store.get_profile("acct.1234") == {"account": "Cy"}


def test_the_account_prefix_is_the_rooms_own():
    from crossing.local import sqlite
    from crossing.rooms import service

    assert sqlite.ACCOUNT_PREFIX == service.ACCOUNT_PREFIX


def test_everything_is_there_after_a_reopen(tmp_path, clock):
    path = tmp_path / "crossing.sqlite3"
    db = Database(path, clock=clock)
    store, timers, accounts = SqliteStore(db), SqliteTimers(db), SqliteAccounts(db)
    store.save_room("ABCD", {"letters": "CAT"}, None, ms(clock.now + DAY))
    store.save_doc("rating", "acct.1", {"rating": 1016}, None, None)
    timers.arm("ABCD", ms(clock.now + 30), 1)
    session = accounts.sign_up("Ann", PASSWORD)
    db.close()

    db = Database(path, clock=clock)
    store, timers, accounts = SqliteStore(db), SqliteTimers(db), SqliteAccounts(db)
    assert store.load_room("ABCD") == ({"letters": "CAT"}, 1)
    assert store.load_doc("rating", "acct.1") == ({"rating": 1016}, 1)
    assert timers.pending() == {"ABCD": (ms(clock.now + 30), 1)}
    assert accounts.resume(session.refresh) == session.account
    assert accounts.sign_in("ann", PASSWORD).account == session.account
    db.close()


def test_the_file_holds_no_password_and_no_refresh_token(tmp_path, db):
    accounts = SqliteAccounts(db)
    session = accounts.sign_up("Ann", PASSWORD)
    accounts.sign_in("Ann", PASSWORD)
    db.close()
    kept = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"Ann" in kept  # the file is what was read
    assert PASSWORD.encode() not in kept
    assert session.refresh.encode() not in kept


def test_two_sign_ups_for_one_name_make_one_account(db):
    accounts = SqliteAccounts(db)
    outcomes: list[str] = []
    for i in range(4):
        try:
            accounts.sign_up("Twin", f"passphrase {i}")
            outcomes.append("made")
        except Exception as error:
            outcomes.append(getattr(error, "code", repr(error)))
    assert sorted(outcomes) == ["made", "name-taken", "name-taken", "name-taken"]


def test_writers_of_one_version_have_one_winner(db):
    store = SqliteStore(db)
    store.save_room("ABCD", {"n": 0}, None, ms(2e9))
    won: list[int] = []
    for i in range(8):
        try:
            store.save_room("ABCD", {"n": i}, 1, ms(2e9))
            won.append(i)
        except Conflict:
            pass
    assert won == [0]
    assert store.load_room("ABCD") == ({"n": 0}, 2)


def test_a_due_event_that_fell_due_while_down_is_due_at_the_start_then_is_forgotten(
    tmp_path, clock
):
    backend = SqliteBackend(tmp_path, None, clock=clock)
    backend.timers.arm("ABCD", ms(clock.now + 30), 4)
    backend.timers.arm("WXYZ", ms(clock.now + 600), 2)
    backend.stop()
    clock.now += 120  # the server was down when ABCD's event fell due

    backend = SqliteBackend(tmp_path, None, clock=clock)
    due = backend.due(ms(clock.now))
    assert [event for event, _ in due] == [{"room": "ABCD", "version": 4}]
    for _, done in due:
        done()
    assert backend.due(ms(clock.now)) == [], "once"
    assert set(backend.timers.pending()) == {"WXYZ"}
    backend.stop()


def test_an_event_whose_handling_armed_the_room_again_keeps_the_new_one(db, clock):
    timers = SqliteTimers(db)
    timers.arm("ABCD", ms(clock.now), 4)
    ((room, at, version),) = timers.due(ms(clock.now))
    timers.arm("ABCD", ms(clock.now + 30), 5)  # what the timer handler did
    timers.fired(room, at, version)
    assert timers.pending() == {"ABCD": (ms(clock.now + 30), 5)}


def test_a_second_server_on_the_same_folder_is_refused(tmp_path):
    from crossing.local.backend import BackendError

    first = SqliteBackend(tmp_path, None)
    with pytest.raises(BackendError, match="another crossing serve is using"):
        SqliteBackend(tmp_path, None)
    first.stop()
    SqliteBackend(tmp_path, None).stop()  # free again once the first has stopped


def test_the_web_push_keys_are_made_once_and_kept_with_the_data(tmp_path):
    first = SqliteBackend(tmp_path, None)
    keys = {k: v for k, v in first.environment("http://x").items() if "VAPID_P" in k}
    first.stop()
    again = SqliteBackend(tmp_path, None)
    assert {k: v for k, v in again.environment("http://x").items() if "VAPID_P" in k} == keys
    again.stop()
    assert len(keys) == 2
    assert (tmp_path / "vapid.json").stat().st_mode & 0o077 == 0, "only its user reads it"


def test_a_rounds_writes_are_on_disk_together_at_its_end_or_not_at_all(db, tmp_path):
    # The engine writes every room of a round in one transaction (one fsync): another
    # reader sees none of them before the commit and all of them after; a round that
    # fails leaves the file as it was, and a write refused inside it undoes only itself.
    store = SqliteStore(db)
    rooms = [f"R{i:03d}" for i in range(12)]
    for room in rooms:
        store.save_room(room, {"n": 0}, None, ms(2e9))
    other = sqlite3.connect(tmp_path / "crossing.sqlite3")
    other.execute("PRAGMA query_only = ON")

    def seen(room: str) -> int:
        query = "SELECT version FROM items WHERE pk = ? AND sk = ?"
        return int(other.execute(query, table.room_key(room)).fetchone()[0])

    with db.transaction():
        for room in rooms:
            store.save_room(room, {"n": 1}, 1, ms(2e9))
            with pytest.raises(Conflict):  # a stale writer in the same round
                store.save_room(room, {"n": -1}, 1, ms(2e9))
        assert [seen(room) for room in rooms] == [1] * 12
    assert [seen(room) for room in rooms] == [2] * 12

    def failing_round() -> None:
        with db.transaction():
            store.save_room(rooms[0], {"n": 2}, 2, ms(2e9))
            raise RuntimeError("the round failed")

    with pytest.raises(RuntimeError):
        failing_round()
    assert store.load_room(rooms[0]) == ({"n": 1}, 2) and seen(rooms[0]) == 2
    other.close()


def part_rows(db: Database, room: str) -> dict[str, int]:
    pk = table.room_key(room)[0]
    rows = db.read("SELECT sk, length(data) FROM items WHERE pk = ? AND sk LIKE 'PART#%'", (pk,))
    return {sk.removeprefix("PART#"): size for sk, size in rows}


def test_a_rooms_parts_are_rows_of_their_own_written_once_and_dropped_when_unnamed(db):
    store = SqliteStore(db)
    store.save_room("ABCD", {"n": 1, "parts": {"k1": "one" * 100, "k2": "two"}}, None, ms(2e9))
    assert part_rows(db, "ABCD") == {"k1": 300, "k2": 3}
    state = db.read("SELECT data FROM items WHERE pk = ? AND sk = ?", table.room_key("ABCD"))
    assert "one" not in state[0][0], "the state names its parts, it does not hold them"
    store.save_room("ABCD", {"n": 2, "parts": {"k1": "one" * 100, "k3": "three"}}, 1, ms(2e9))
    assert part_rows(db, "ABCD") == {"k1": 300, "k3": 5}


def test_a_room_written_by_two_stores_in_turn_keeps_every_part(tmp_path, clock):
    # Each store knows the rows it wrote; a write by the other (a round taken back, or
    # another connection) moves the version on, and then neither may trust what it knew.
    path = tmp_path / "crossing.sqlite3"
    first = Database(path, clock=clock)
    second = Database(path, clock=clock)
    a, b = SqliteStore(first), SqliteStore(second)
    a.save_room("ABCD", {"n": 1, "parts": {"k1": "one", "k2": "two"}}, None, ms(2e9))
    b.load_room("ABCD")
    b.save_room("ABCD", {"n": 2, "parts": {"k2": "two", "k3": "three"}}, 1, ms(2e9))
    # ``a`` wrote k1 and k2 at version 1: at version 2 it must not take k2's row as there
    # because it wrote it, nor skip k1's because it once did.
    assert a.load_room("ABCD") == ({"n": 2, "parts": {"k2": "two", "k3": "three"}}, 2)
    a.save_room("ABCD", {"n": 3, "parts": {"k1": "one", "k3": "three"}}, 2, ms(2e9))
    assert b.load_room("ABCD") == ({"n": 3, "parts": {"k1": "one", "k3": "three"}}, 3)
    assert set(part_rows(first, "ABCD")) == {"k1", "k3"}
    first.close()
    second.close()


def test_the_parts_of_a_room_past_its_ttl_are_swept_with_it(db, clock):
    store = SqliteStore(db)
    store.save_room("GONE", {"parts": {"k1": "one"}}, None, ms(clock() + 60))
    store.save_room("KEPT", {"parts": {"k1": "one"}}, None, ms(clock() + 3600))
    clock.now += 120
    assert db.sweep() == 2  # GONE's state and its part
    assert part_rows(db, "GONE") == {} and part_rows(db, "KEPT") == {"k1": 3}
    assert store.load_room("GONE") is None


def test_a_room_whose_parts_the_store_forgot_still_keeps_them(db, monkeypatch):
    monkeypatch.setattr(sqlite_module, "ROOMS_KNOWN", 2)
    store = SqliteStore(db)
    for room in ("AAAA", "BBBB", "CCCC"):  # AAAA's rows are forgotten
        store.save_room(room, {"parts": {"k1": room}}, None, ms(2e9))
    store.save_room("AAAA", {"n": 2, "parts": {"k1": "AAAA", "k2": "two"}}, 1, ms(2e9))
    assert store.load_room("AAAA") == ({"n": 2, "parts": {"k1": "AAAA", "k2": "two"}}, 2)
