"""The one table definition, and what fits in an item."""

from __future__ import annotations

import pytest
from crossing.aws import table

from tests.aws.conftest import TABLE


def test_create_table_makes_the_keys_on_demand_billing_and_ttl(dynamodb):
    described = dynamodb.describe_table(TableName=TABLE)["Table"]
    assert described["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ]
    assert {a["AttributeName"]: a["AttributeType"] for a in described["AttributeDefinitions"]} == {
        "pk": "S",
        "sk": "S",
    }
    assert described["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert not described.get("GlobalSecondaryIndexes")
    ttl = dynamodb.describe_time_to_live(TableName=TABLE)["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires_at"}


def test_create_table_also_takes_a_resource(aws, boto_session):
    resource = boto_session.resource("dynamodb")
    table.create_table(resource, "from-a-resource")
    assert resource.Table("from-a-resource").key_schema == table.KEY_SCHEMA


def test_the_definition_is_plain_data_for_the_stacks():
    assert table.TABLE == {
        "key_schema": table.KEY_SCHEMA,
        "attribute_definitions": table.ATTRIBUTE_DEFINITIONS,
        "billing_mode": "PAY_PER_REQUEST",
        "ttl_attribute": "expires_at",
    }


def test_keys():
    assert table.room_key("ABCD") == ("ROOM#ABCD", "STATE")
    assert table.connection_key("Zx1=") == ("CONN#Zx1=", "CONN")
    assert table.profile_key("p1") == ("PLAYER#p1", "PROFILE")
    assert table.save_key("p1", "race") == ("PLAYER#p1", "SAVE#race")
    assert table.rate_key("tick:p1") == ("RATE#tick:p1", "TIMES")
    assert table.pace_key("conn1=") == ("PACE#conn1=", "BUCKET")


@pytest.mark.parametrize(
    ("ms", "seconds"),
    [(0, 0), (1, 1), (999, 1), (1000, 1), (1001, 2), (1_700_000_000_000, 1_700_000_000)],
)
def test_ttl_is_epoch_seconds_rounded_up(ms, seconds):
    assert table.ttl_seconds(ms) == seconds


def test_encode_is_compact_and_refuses_what_cannot_fit():
    assert table.encode({"a": [1, 2], "é": "ü"}, "x") == '{"a":[1,2],"é":"ü"}'
    big = {"s": "é" * (table.MAX_DOCUMENT_BYTES // 2)}  # two bytes each in UTF-8
    with pytest.raises(table.DocumentTooLarge, match=r"the big one is \d+ bytes"):
        table.encode(big, "the big one")
    with pytest.raises(ValueError, match="Out of range float"):
        table.encode({"x": float("nan")}, "x")
