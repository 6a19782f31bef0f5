"""One contract for the Store: MemoryStore, DynamoStore (on moto) and SqliteStore keep it."""

from __future__ import annotations

import time

import pytest
from crossing.aws.table import MAX_DOCUMENT_BYTES, DocumentTooLarge
from crossing.rooms import pace
from crossing.rooms.ports import Conflict

from tests.aws.conftest import STORES

pytestmark = pytest.mark.parametrize("store", STORES, indirect=True)

HOUR = 3_600_000
LATER = 1_800_000_000_000  # an expires_at in ms


@pytest.fixture
def now() -> int:
    """The time now: limits and paces expire on the store's own clock."""
    return time.time_ns() // 1_000_000


def test_a_missing_room_loads_as_none(store):
    assert store.load_room("NOPE") is None


def test_a_new_room_is_version_1_and_loads_back(store):
    state = {"mode": "race", "boards": {"p1": "AB.#"}, "seq": {"p1": 3}, "ratio": 0.5}
    assert store.save_room("ABCD", state, None, LATER) == 1
    assert store.load_room("ABCD") == (state, 1)


def test_each_save_adds_one_to_the_version(store):
    store.save_room("ABCD", {"n": 1}, None, LATER)
    assert store.save_room("ABCD", {"n": 2}, 1, LATER) == 2
    assert store.save_room("ABCD", {"n": 3}, 2, LATER) == 3
    assert store.load_room("ABCD") == ({"n": 3}, 3)


def test_two_writers_who_read_the_same_version_the_second_conflicts(store):
    store.save_room("ABCD", {"letters": ""}, None, LATER)
    _, seen_by_first = store.load_room("ABCD")
    _, seen_by_second = store.load_room("ABCD")
    assert seen_by_first == seen_by_second == 1

    assert store.save_room("ABCD", {"letters": "A"}, seen_by_first, LATER) == 2
    with pytest.raises(Conflict):
        store.save_room("ABCD", {"letters": "B"}, seen_by_second, LATER)

    assert store.load_room("ABCD") == ({"letters": "A"}, 2)


def test_creating_a_room_that_exists_conflicts(store):
    store.save_room("ABCD", {"host": "p1"}, None, LATER)
    with pytest.raises(Conflict):
        store.save_room("ABCD", {"host": "p2"}, None, LATER)
    assert store.load_room("ABCD") == ({"host": "p1"}, 1)


def test_updating_a_room_that_does_not_exist_conflicts(store):
    with pytest.raises(Conflict):
        store.save_room("ABCD", {"host": "p1"}, 4, LATER)
    assert store.load_room("ABCD") is None


def test_callers_cannot_change_stored_state_through_their_copies(store):
    state = {"players": ["p1"]}
    store.save_room("ABCD", state, None, LATER)
    state["players"].append("p2")
    loaded, _ = store.load_room("ABCD")
    loaded["players"].append("p3")
    assert store.load_room("ABCD") == ({"players": ["p1"]}, 1)


def test_a_state_too_big_for_one_item_is_refused_and_nothing_changes(store):
    store.save_room("ABCD", {"n": 1}, None, LATER)
    with pytest.raises(DocumentTooLarge, match="room ABCD"):
        store.save_room("ABCD", {"pad": "x" * MAX_DOCUMENT_BYTES}, 1, LATER)
    assert store.load_room("ABCD") == ({"n": 1}, 1)


def test_a_rooms_parts_come_back_as_the_last_save_named_them(store):
    first = {"n": 1, "parts": {"k1": "one", "k2": "two"}}
    store.save_room("ABCD", first, None, LATER)
    assert store.load_room("ABCD") == (first, 1)
    # A later save drops one part and adds another: only those it names come back.
    second = {"n": 2, "parts": {"k2": "two", "k3": "three"}}
    store.save_room("ABCD", second, 1, LATER)
    assert store.load_room("ABCD") == (second, 2)


def test_a_save_that_conflicts_changes_no_part(store):
    state = {"n": 1, "parts": {"k1": "one"}}
    store.save_room("ABCD", state, None, LATER)
    with pytest.raises(Conflict):
        store.save_room("ABCD", {"n": 9, "parts": {"k9": "nine"}}, 7, LATER)
    assert store.load_room("ABCD") == (state, 1)


def test_parts_count_toward_the_item_limit_as_the_cloud_keeps_them(store):
    store.save_room("ABCD", {"n": 1}, None, LATER)
    half = MAX_DOCUMENT_BYTES // 2
    big = {"n": 2, "parts": {"k1": "x" * half, "k2": "y" * half}}
    with pytest.raises(DocumentTooLarge, match="room ABCD"):
        store.save_room("ABCD", big, 1, LATER)
    assert store.load_room("ABCD") == ({"n": 1}, 1)


def test_every_method_is_one_request_a_limit_or_a_pace_two(store, now):
    store.save_room("ABCD", {}, None, LATER)
    store.load_room("ABCD")
    store.put_connection("c1", "ABCD", "p1", LATER)
    store.get_connection("c1")
    store.delete_connection("c1")
    store.put_profile("p1", {})
    store.get_profile("p1")
    store.update_profile("p1", {"room": "ABCD"}, expect={"room": None})
    store.put_save("p1", "race", {}, LATER)
    store.get_save("p1", "race")
    store.delete_save("p1", "race")
    store.take("tick:p1", 5, 1000, now)
    with pytest.raises(Conflict):
        store.save_room("ABCD", {}, None, LATER)
    store.take("tick:p1", 1, 1000, now)  # over the limit: one request, nothing written
    store.pace("c1", now)  # the bucket read, then written under the version read
    store.save_doc("seek", "s-1", {}, None, LATER)
    store.list_docs("seek")
    store.delete_doc("seek", "s-1", 1)
    assert dict(store.requests) == {
        "save_doc": 1,
        "list_docs": 1,
        "delete_doc": 1,
        "save_room": 2,
        "load_room": 1,
        "put_connection": 1,
        "get_connection": 1,
        "delete_connection": 1,
        "put_profile": 1,
        "get_profile": 1,
        "update_profile": 1,
        "put_save": 1,
        "get_save": 1,
        "delete_save": 1,
        "take": 5,
    }


def test_a_connection_knows_its_room_and_player_until_deleted(store):
    assert store.get_connection("c1") is None
    store.put_connection("c1", "ABCD", "p1", LATER)
    store.put_connection("c2", "ABCD", "p2", LATER)
    assert store.get_connection("c1") == ("ABCD", "p1")
    store.put_connection("c1", "WXYZ", "p1", LATER)  # moved rooms: replaced
    assert store.get_connection("c1") == ("WXYZ", "p1")
    store.delete_connection("c1")
    assert store.get_connection("c1") is None
    assert store.get_connection("c2") == ("ABCD", "p2")
    store.delete_connection("c1")  # deleting again is fine


def test_profiles_round_trip_and_are_replaced_whole(store):
    assert store.get_profile("p1") is None
    profile = {"name": "Ada", "color": "teal", "token": "hash", "dealt": ["pack-mini-1"]}
    store.put_profile("p1", profile)
    assert store.get_profile("p1") == profile
    store.put_profile("p1", {"name": "Ada L."})
    assert store.get_profile("p1") == {"name": "Ada L."}
    assert store.get_profile("p2") is None


def test_saves_are_kept_per_kind_and_deleted_per_kind(store):
    assert store.get_save("p1", "race") is None
    store.put_save("p1", "race", {"board": "AB..", "elapsed": 61_000}, LATER)
    store.put_save("p1", "together", {"board": "...."}, LATER)
    assert store.get_save("p1", "race") == {"board": "AB..", "elapsed": 61_000}
    store.delete_save("p1", "race")
    assert store.get_save("p1", "race") is None
    assert store.get_save("p1", "together") == {"board": "...."}
    store.delete_save("p1", "race")  # nothing there: fine


def test_take_allows_the_limit_in_any_window_then_refuses(store, now):
    window = 10_000
    assert [store.take("tick:p1", 3, window, now + i) for i in range(5)] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert store.take("tick:p2", 3, window, now), "another key has its own count"
    assert not store.take("tick:p1", 3, window, now + window - 1), "the window slides"
    assert store.take("tick:p1", 3, window, now + window), "the first attempt has left it"


def test_a_burst_across_a_minute_boundary_gets_the_limit_once(store, now):
    minute = 60_000
    boundary = now - now % minute + minute
    before = [store.take("host:p1", 5, minute, boundary - 5 + i) for i in range(5)]
    after = [store.take("host:p1", 5, minute, boundary + i) for i in range(5)]
    assert before == [True] * 5 and after == [False] * 5


def test_a_pace_bucket_takes_a_burst_then_refuses_and_drains(store, now):
    burst = [store.pace("conn1", now) for _ in range(pace.BURST + 5)]
    assert burst == [True] * pace.BURST + [False] * 5
    assert store.pace("conn2", now), "each connection has its own"
    assert not store.pace("conn1", now + 1000 * 5 // pace.PER_SECOND), "over counts too"
    assert store.pace("conn1", now + 1000 * (pace.BURST + 6) // pace.PER_SECOND)


def test_take_counts_nothing_when_refused(store, now):
    assert store.take("join:ip", 2, 1000, now)
    assert not store.take("join:ip", 1, 1000, now + 1)  # a lower limit refuses...
    assert store.take("join:ip", 2, 1000, now + 2)  # ...without counting: 2 still allowed
    assert not store.take("join:ip", 2, 1000, now + 3)


def test_a_limit_below_one_never_allows(store):
    assert not store.take("x", 0, 1000, 0)
    assert store.requests["take"] == 0


def test_a_window_must_be_positive(store):
    with pytest.raises(ValueError, match="at least 1 ms"):
        store.take("x", 5, 0, 0)


def test_other_documents_are_versioned_like_rooms(store):
    assert store.load_doc("game", "g-1") is None
    assert store.save_doc("game", "g-1", {"turn": 0}, None, LATER) == 1
    with pytest.raises(Conflict):
        store.save_doc("game", "g-1", {"turn": 1}, None, LATER)  # two challengers: one game
    assert store.save_doc("game", "g-1", {"turn": 1}, 1, None) == 2
    with pytest.raises(Conflict):
        store.save_doc("game", "g-1", {"turn": 9}, 1, LATER)  # a stale writer changes nothing
    assert store.load_doc("game", "g-1") == ({"turn": 1}, 2)
    assert store.load_doc("game", "g-2") is None
    assert store.load_doc("rating", "g-1") is None  # each kind has its own keys
    with pytest.raises(ValueError, match="no document kind"):
        store.load_doc("puzzle", "g-1")


def test_a_profile_field_is_updated_alone_and_a_removed_one_reads_as_absent(store):
    store.put_profile("p1", {"name": "Ada", "dealt": ["m1"], "push": {"endpoint": "e"}})
    assert store.update_profile("p1", {"room": "ABCD", "push": None})
    assert store.get_profile("p1") == {"name": "Ada", "dealt": ["m1"], "room": "ABCD"}
    assert store.update_profile("p2", {"duel": "g-1"})  # a profile made by its first field
    assert store.get_profile("p2") == {"duel": "g-1"}


def test_two_writers_of_a_profile_lose_neither_field(store):
    """Each read the profile, then each writes its own field: both are kept."""
    store.put_profile("p1", {"name": "Ada"})
    first, second = store.get_profile("p1"), store.get_profile("p1")
    assert store.update_profile("p1", {"room": "ABCD", "name": first["name"]})
    assert store.update_profile("p1", {"push": {"endpoint": "https://push.example/1"}})
    assert second is not None
    assert store.get_profile("p1") == {
        "name": "Ada",
        "room": "ABCD",
        "push": {"endpoint": "https://push.example/1"},
    }


def test_two_writers_of_one_field_the_second_is_told_it_moved(store):
    store.put_profile("p1", {"dealt": ["m1"]})
    seen = store.get_profile("p1")["dealt"]
    assert store.update_profile("p1", {"dealt": [*seen, "m2"]}, expect={"dealt": seen})
    assert not store.update_profile("p1", {"dealt": [*seen, "m3"]}, expect={"dealt": seen})
    assert store.get_profile("p1") == {"dealt": ["m1", "m2"]}
    assert store.update_profile("p1", {"push": {"a": 1}}, expect={"push": None})
    assert not store.update_profile("p1", {"push": {"b": 2}}, expect={"push": None})
    assert store.update_profile("p1", {"push": None}, expect={"push": {"a": 1}})
    assert store.get_profile("p1") == {"dealt": ["m1", "m2"]}


def test_a_seek_taken_by_two_challengers_at_once_goes_to_one(store):
    """Both read the seek at version 1; the first conditional delete wins, the second is
    refused with Conflict and changes nothing (it cannot take another version away)."""
    store.save_doc("seek", "s-Ab1", {"owner": "ann"}, None, LATER)
    _, seen_by_bob = store.load_doc("seek", "s-Ab1")
    _, seen_by_cat = store.load_doc("seek", "s-Ab1")
    store.delete_doc("seek", "s-Ab1", seen_by_bob)
    with pytest.raises(Conflict):
        store.delete_doc("seek", "s-Ab1", seen_by_cat)
    assert store.load_doc("seek", "s-Ab1") is None
    assert store.list_docs("seek") == []


def test_a_document_that_moved_on_is_not_deleted(store):
    store.save_doc("seek", "s-1", {"owner": "ann"}, None, LATER)
    store.save_doc("seek", "s-1", {"owner": "acct.ann"}, 1, LATER)  # handed to an account
    with pytest.raises(Conflict):
        store.delete_doc("seek", "s-1", 1)
    assert store.load_doc("seek", "s-1") == ({"owner": "acct.ann"}, 2)


def test_a_lobby_of_many_seeks_lists_them_all_with_one_request(store):
    names = [f"s-{i:03d}{'aA'[i % 2]}" for i in range(120)]
    for name in names:
        store.save_doc("seek", name, {"owner": name, "pad": "x" * 200}, None, LATER)
    store.save_doc("lobby", "duel", {"watchers": {"c1": "ann"}}, None, LATER)  # its neighbour
    store.save_doc("game", "s-000a", {"turn": 0}, None, LATER)  # another kind, same name
    before = store.requests["list_docs"]
    listed = store.list_docs("seek")
    assert store.requests["list_docs"] - before == 1
    assert [name for name, _, _ in listed] == sorted(names)  # case kept, in name order
    assert listed[0][1:] == ({"owner": names[0], "pad": "x" * 200}, 1)


def test_only_a_listed_kind_can_be_listed(store):
    with pytest.raises(ValueError, match="not listed"):
        store.list_docs("game")
