"""DynamoStore's items and requests, as DynamoDB (moto) sees them."""

from __future__ import annotations

import json

import pytest
from crossing.aws.dynamo import DynamoStore
from crossing.rooms.ports import Conflict

from tests.aws.conftest import TABLE, count_calls


def item(dynamodb, pk, sk):
    return dynamodb.get_item(TableName=TABLE, Key={"pk": {"S": pk}, "sk": {"S": sk}}).get("Item")


def test_a_room_is_one_item_with_its_state_as_json_text(dynamodb, dynamo_store):
    dynamo_store.save_room("ABCD", {"b": "A.#", "n": 1.5}, None, 1_700_000_000_500)
    assert item(dynamodb, "ROOM#ABCD", "STATE") == {
        "pk": {"S": "ROOM#ABCD"},
        "sk": {"S": "STATE"},
        "state": {"S": '{"b":"A.#","n":1.5}'},
        "version": {"N": "1"},
        "expires_at": {"N": "1700000001"},
    }


def test_each_method_makes_exactly_one_dynamodb_request_a_limit_two(dynamodb):
    calls = count_calls(dynamodb)
    store = DynamoStore(TABLE, client=dynamodb)

    store.get_connection("c1")
    store.load_room("ABCD")
    store.save_room("ABCD", {}, None, 0)
    assert calls == {"GetItem": 2, "PutItem": 1}, "a keystroke's three requests"

    with pytest.raises(Conflict):
        store.save_room("ABCD", {}, 7, 0)
    store.take("k", 1, 1000, 0)  # read, then written under the version read
    store.take("k", 1, 1000, 0)  # over the limit: read, nothing written
    store.delete_connection("c1")
    assert calls == {"GetItem": 4, "PutItem": 3, "DeleteItem": 1}
    assert sum(store.requests.values()) == sum(calls.values())


def test_reads_are_strongly_consistent(dynamodb, dynamo_store):
    seen = []
    dynamodb.meta.events.register(
        "provide-client-params.dynamodb.GetItem",
        lambda params, **_: seen.append(params["ConsistentRead"]),
    )
    dynamo_store.load_room("ABCD")
    dynamo_store.get_connection("c1")
    dynamo_store.get_profile("p1")
    dynamo_store.get_save("p1", "race")
    assert seen == [True, True, True, True]


def test_a_limit_is_one_item_of_its_latest_times_that_expires_with_its_window(
    dynamodb, dynamo_store
):
    for now in (60_000, 60_500, 61_000):
        dynamo_store.take("tick:p1", 5, 60_000, now)
    stored = item(dynamodb, "RATE#tick:p1", "TIMES")
    assert json.loads(stored["state"]["S"]) == [60_000, 60_500, 61_000]
    assert stored["expires_at"] == {"N": "121"}  # a minute after the latest


def test_connection_and_save_items_carry_their_ttl_in_seconds(dynamodb, dynamo_store):
    dynamo_store.put_connection("c1", "ABCD", "p1", 7_200_000)
    dynamo_store.put_save("p1", "race", {"board": "AB"}, 86_400_000)
    dynamo_store.put_profile("p1", {"name": "Ada"})
    assert item(dynamodb, "CONN#c1", "CONN") == {
        "pk": {"S": "CONN#c1"},
        "sk": {"S": "CONN"},
        "room": {"S": "ABCD"},
        "player": {"S": "p1"},
        "expires_at": {"N": "7200"},
    }
    assert item(dynamodb, "PLAYER#p1", "SAVE#race")["expires_at"] == {"N": "86400"}
    assert "expires_at" not in item(dynamodb, "PLAYER#p1", "PROFILE"), "profiles are kept"


def test_other_dynamodb_errors_are_not_mistaken_for_conflicts(aws, boto_session):
    store = DynamoStore("no-such-table", client=boto_session.client("dynamodb"))
    with pytest.raises(Exception, match="ResourceNotFound") as raised:
        store.save_room("ABCD", {}, None, 0)
    assert not isinstance(raised.value, Conflict)
    with pytest.raises(Exception, match="ResourceNotFound"):
        store.take("k", 1, 1000, 0)
