"""The rooms' Store on one DynamoDB table, with optimistic concurrency on rooms.

Every method makes exactly one DynamoDB request (the keystroke budget is at most
three: the connection, the room read, the room write). ``requests`` counts them
per method, like ``MemoryStore.requests``, so tests can hold code to the budget.

JSON documents (room state, profiles, saves) are stored as one compact JSON
*string* attribute rather than as DynamoDB maps: boto3 would turn every number
into a ``Decimal`` on the way back and refuses floats on the way in, a map is
bigger on the wire (type tags on every value), and the store never needs to
read inside a document. The string is counted against the item size limit.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from botocore.exceptions import ClientError

from crossing.aws import clients, table
from crossing.rooms.ports import Conflict, Json

_CONDITION_FAILED = "ConditionalCheckFailedException"
_FIELD = "f."  # a profile field's attribute name prefix


class DynamoStore(table.KeyedDocuments):
    """``Store`` on the table named ``table_name`` (see ``crossing.aws.table``)."""

    def __init__(self, table_name: str, client: Any = None) -> None:
        if client is None:
            client = clients.client("dynamodb")
        self.table_name = table_name
        self.client = client
        self.requests: Counter[str] = Counter()

    def delete_doc(self, kind: str, name: str, seen: int) -> None:
        key = table.doc_key(kind, name)
        self.requests["delete_doc"] += 1
        try:
            self.client.delete_item(
                TableName=self.table_name,
                Key=self._key(key),
                ConditionExpression="version = :seen",
                ExpressionAttributeValues={":seen": {"N": str(seen)}},
            )
        except ClientError as error:
            if _code(error) == _CONDITION_FAILED:
                raise Conflict(f"{key[0]} {key[1]} is no longer at version {seen}") from error
            raise

    def list_docs(self, kind: str) -> list[tuple[str, Json, int]]:
        pk, prefix = table.listed(kind)
        request: dict[str, Any] = {
            "TableName": self.table_name,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": {":pk": {"S": pk}, ":prefix": {"S": prefix}},
            "ConsistentRead": True,  # a seek just taken is not offered again
        }
        found: list[tuple[str, Json, int]] = []
        while True:  # one page holds up to 1 MB: a few thousand seeks
            self.requests["list_docs"] += 1
            response = self.client.query(**request)
            found += [
                (
                    item[table.SORT_KEY]["S"][len(prefix) :],
                    json.loads(item["state"]["S"]),
                    int(item["version"]["N"]),
                )
                for item in response.get("Items", [])
            ]
            if "LastEvaluatedKey" not in response:
                return found
            request["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def _load(self, method: str, key: tuple[str, str]) -> tuple[Json, int] | None:
        item = self._get(method, key)
        if item is None:
            return None
        return json.loads(item["state"]["S"]), int(item["version"]["N"])

    def _save(
        self,
        method: str,
        key: tuple[str, str],
        doc: Json,
        seen: int | None,
        expires_at: int | None,
        what: str = "",
    ) -> int:
        version = 1 if seen is None else seen + 1
        item = {
            "state": {"S": table.encode(doc, what or f"{key[0]} {key[1]}")},
            "version": {"N": str(version)},
        }
        if expires_at is not None:
            item[table.TTL_ATTRIBUTE] = {"N": str(table.ttl_seconds(expires_at))}
        if seen is None:
            condition: dict[str, Any] = {"ConditionExpression": "attribute_not_exists(pk)"}
        else:
            condition = {
                "ConditionExpression": "version = :seen",
                "ExpressionAttributeValues": {":seen": {"N": str(seen)}},
            }
        try:
            self._put(method, key, item, **condition)
        except ClientError as error:
            if _code(error) == _CONDITION_FAILED:
                raise Conflict(f"{key[0]} is no longer at version {seen}") from error
            raise
        return version

    # Connections

    def put_connection(self, connection: str, room: str, player: str, expires_at: int) -> None:
        item = {
            "room": {"S": room},
            "player": {"S": player},
            table.TTL_ATTRIBUTE: {"N": str(table.ttl_seconds(expires_at))},
        }
        self._put("put_connection", table.connection_key(connection), item)

    def get_connection(self, connection: str) -> tuple[str, str] | None:
        item = self._get("get_connection", table.connection_key(connection))
        if item is None:
            return None
        return item["room"]["S"], item["player"]["S"]

    def delete_connection(self, connection: str) -> None:
        self._delete("delete_connection", table.connection_key(connection))

    # Profiles and saved games

    # A profile is one attribute per field (``f.<name>``, its value as JSON text), so
    # ``update_profile`` sets one field without reading or rewriting the others. An
    # older profile written whole as ``data`` is read underneath the fields.

    def get_profile(self, player: str) -> Json | None:
        item = self._get("get_profile", table.profile_key(player))
        if item is None:
            return None
        profile = json.loads(item["data"]["S"]) if "data" in item else {}
        for name, value in item.items():
            if name.startswith(_FIELD):
                profile[name[len(_FIELD) :]] = json.loads(value["S"])
        return {k: v for k, v in profile.items() if v is not None}

    def put_profile(self, player: str, profile: Json) -> None:
        what = f"player {player}'s profile"
        table.encode(profile, what)  # the whole profile must fit in the item
        item = {_FIELD + k: {"S": table.encode(v, what)} for k, v in profile.items()}
        self._put("put_profile", table.profile_key(player), item)

    def update_profile(self, player: str, changes: Json, expect: Json | None = None) -> bool:
        if not changes:
            raise ValueError("update_profile needs at least one field to change")
        names: dict[str, str] = {}
        values: dict[str, Any] = {}
        sets, conditions = [], []
        for i, (field, value) in enumerate(changes.items()):
            names[f"#f{i}"] = _FIELD + field
            # A removed field is set to null (it may also be in an older ``data``).
            values[f":f{i}"] = {"S": table.encode(value, f"player {player}'s {field}")}
            sets.append(f"#f{i} = :f{i}")
        for i, (field, value) in enumerate((expect or {}).items()):
            names[f"#e{i}"] = _FIELD + field
            if value is None:
                values[":null"] = {"S": "null"}
                conditions.append(f"(attribute_not_exists(#e{i}) OR #e{i} = :null)")
            else:
                values[f":e{i}"] = {"S": table.encode(value, f"player {player}'s {field}")}
                conditions.append(f"#e{i} = :e{i}")
        request: dict[str, Any] = {
            "TableName": self.table_name,
            "Key": self._key(table.profile_key(player)),
            "UpdateExpression": "SET " + ", ".join(sets),
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
        }
        if conditions:
            request["ConditionExpression"] = " AND ".join(conditions)
        self.requests["update_profile"] += 1
        try:
            self.client.update_item(**request)
        except ClientError as error:
            if _code(error) == _CONDITION_FAILED:
                return False
            raise
        return True

    def get_save(self, player: str, kind: str) -> Json | None:
        item = self._get("get_save", table.save_key(player, kind))
        return None if item is None else json.loads(item["data"]["S"])

    def put_save(self, player: str, kind: str, save: Json, expires_at: int) -> None:
        item = {
            "data": {"S": table.encode(save, f"player {player}'s {kind} save")},
            table.TTL_ATTRIBUTE: {"N": str(table.ttl_seconds(expires_at))},
        }
        self._put("put_save", table.save_key(player, kind), item)

    def delete_save(self, player: str, kind: str) -> None:
        self._delete("delete_save", table.save_key(player, kind))

    # One request each

    def _key(self, key: tuple[str, str]) -> dict[str, Any]:
        return {table.PARTITION_KEY: {"S": key[0]}, table.SORT_KEY: {"S": key[1]}}

    def _get(self, method: str, key: tuple[str, str]) -> dict[str, Any] | None:
        self.requests[method] += 1
        # Strongly consistent everywhere: a connection, profile or room written by
        # one Lambda must be seen by the next message's Lambda, and items are small.
        response = self.client.get_item(
            TableName=self.table_name, Key=self._key(key), ConsistentRead=True
        )
        return response.get("Item")

    def _put(
        self, method: str, key: tuple[str, str], item: dict[str, Any], **condition: Any
    ) -> None:
        self.requests[method] += 1
        self.client.put_item(
            TableName=self.table_name, Item={**self._key(key), **item}, **condition
        )

    def _delete(self, method: str, key: tuple[str, str]) -> None:
        self.requests[method] += 1
        self.client.delete_item(TableName=self.table_name, Key=self._key(key))


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))
