"""The data file's one writer process (``crossing serve --workers N``): every write of
every serving process is made there, answers and refusals come back as if made here,
and a writer that has died leaves the file writable."""

from __future__ import annotations

import pickle
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from crossing.local import writer, writes
from crossing.local.sqlite import Database, SqliteStore, SqliteTimers
from crossing.refusals import Refused
from crossing.rooms.ports import Conflict

FAR = 2_000_000_000_000  # an expiry in ms, long after the tests


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "crossing.sqlite3"


@pytest.fixture
def the_writer(path: Path) -> Iterator[writer.subprocess.Popen[bytes]]:
    process = writer.start(path)
    yield process
    if process.poll() is None:
        process.communicate()


def test_writes_from_two_processes_stores_are_made_by_the_writer_in_turn(path, the_writer, caplog):
    first, second = Database(path, shared=True), Database(path, shared=True)
    a, b = SqliteStore(first), SqliteStore(second)
    assert a.save_room("ABCD", {"n": 1}, None, FAR) == 1
    assert b.load_room("ABCD") == ({"n": 1}, 1)
    assert b.save_room("ABCD", {"n": 2}, 1, FAR) == 2
    # The first's write at the version it read is refused as a conflict, as in DynamoDB.
    with pytest.raises(Conflict):
        a.save_room("ABCD", {"n": 99}, 1, FAR)
    assert a.load_room("ABCD") == ({"n": 2}, 2)
    SqliteTimers(first).arm("ABCD", 5, 2)
    assert SqliteTimers(second).due(10) == [("ABCD", 5, 2)]
    assert not caplog.records, "no write was made anywhere but in the writer"


def test_many_threads_writing_at_once_each_get_their_own_answer(path, the_writer):
    store = SqliteStore(Database(path, shared=True))
    versions: dict[str, list[int]] = {}

    def type_into(code: str) -> None:
        seen = None
        for n in range(20):
            seen = store.save_room(code, {"n": n}, seen, FAR)
            versions.setdefault(code, []).append(seen)

    threads = [threading.Thread(target=type_into, args=(f"R{i:03}",)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert versions == {f"R{i:03}": list(range(1, 21)) for i in range(16)}
    assert all(store.load_room(f"R{i:03}") == ({"n": 19}, 20) for i in range(16))


def test_an_error_in_the_writer_is_raised_where_the_write_was_asked(path, the_writer):
    db = Database(path, shared=True)
    # A refresh token for nobody: the foreign key refuses it, in the writer's process.
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        db.run(writes.add_token, "hash", "nobody", 0)
    assert db.read("SELECT * FROM refresh_tokens") == []


def test_an_error_the_asker_could_not_rebuild_comes_back_saying_what_it_was():
    # Refused takes two arguments and pickles one: it would not unpickle in the asker.
    sent = writer._portable(Refused("name-taken", "That name is taken."))
    assert isinstance(sent, RuntimeError)
    assert str(pickle.loads(pickle.dumps(sent))) == "Refused: That name is taken."


def test_when_the_writer_has_died_the_serving_process_writes_itself(path, the_writer, caplog):
    store = SqliteStore(Database(path, shared=True))
    assert store.save_room("ABCD", {"n": 1}, None, FAR) == 1
    the_writer.kill()
    the_writer.wait()
    assert store.save_room("ABCD", {"n": 2}, 1, FAR) == 2
    assert "writing here, not in the writer process" in caplog.text
    assert SqliteStore(Database(path)).load_room("ABCD") == ({"n": 2}, 2)


def test_a_writer_started_while_the_last_one_is_finishing_waits_for_it(path, the_writer):
    # A server killed and started again at once: its old writer may not have gone yet.
    started: list[writer.subprocess.Popen[bytes]] = []
    second = threading.Thread(target=lambda: started.append(writer.start(path)))
    second.start()
    second.join(0.5)
    assert second.is_alive(), "the second waits while the first listens"
    the_writer.communicate()
    second.join(10)
    assert started and started[0].poll() is None
    assert SqliteStore(Database(path, shared=True)).save_room("ABCD", {}, None, FAR) == 1
    started[0].communicate()


def test_a_process_told_to_write_itself_needs_no_writer(path, caplog):
    # The first serving process at light load: it writes the file itself.
    db = Database(path, shared=True)
    db.write_here = lambda: True
    assert SqliteStore(db).save_room("ABCD", {"n": 1}, None, FAR) == 1
    assert SqliteStore(Database(path)).load_room("ABCD") == ({"n": 1}, 1)
    assert not caplog.records, "not the fallback of a writer gone"


def test_a_thread_that_first_writes_after_the_writer_died_writes_itself(path, the_writer, caplog):
    db = Database(path, shared=True)
    the_writer.kill()
    the_writer.wait()
    # No connection to the writer yet: connecting is refused, and the write is made here.
    assert SqliteStore(db).save_room("ABCD", {"n": 1}, None, FAR) == 1
    assert "writing here, not in the writer process" in caplog.text
    assert SqliteStore(Database(path)).load_room("ABCD") == ({"n": 1}, 1)
