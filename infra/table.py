"""The one DynamoDB table, built from ``crossing.aws.table``'s definition (never restated)."""

from __future__ import annotations

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct
from crossing.aws import table as definition

_TYPES = {
    "S": dynamodb.AttributeType.STRING,
    "N": dynamodb.AttributeType.NUMBER,
    "B": dynamodb.AttributeType.BINARY,
}
_BILLING = {
    "PAY_PER_REQUEST": dynamodb.BillingMode.PAY_PER_REQUEST,
    "PROVISIONED": dynamodb.BillingMode.PROVISIONED,
}


def _attribute(role: str) -> dynamodb.Attribute:
    """The key attribute whose KeyType is ``role`` (HASH or RANGE), with its declared type."""
    name = next(k["AttributeName"] for k in definition.KEY_SCHEMA if k["KeyType"] == role)
    kind = next(
        a["AttributeType"] for a in definition.ATTRIBUTE_DEFINITIONS if a["AttributeName"] == name
    )
    return dynamodb.Attribute(name=name, type=_TYPES[kind])


class GameTable(Construct):
    """Rooms, connections, profiles, saves and rate counters (docs/data.md)."""

    def __init__(
        self, scope: Construct, id: str, *, table_name: str, removal_policy: RemovalPolicy
    ) -> None:
        super().__init__(scope, id)
        has_sort_key = any(k["KeyType"] == "RANGE" for k in definition.KEY_SCHEMA)
        self.table = dynamodb.Table(
            self,
            "Table",
            table_name=table_name,
            partition_key=_attribute("HASH"),
            sort_key=_attribute("RANGE") if has_sort_key else None,
            billing_mode=_BILLING[definition.BILLING_MODE],
            time_to_live_attribute=definition.TTL_ATTRIBUTE,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            removal_policy=removal_policy,
            # A retained table (prod) cannot be deleted by accident, by CloudFormation
            # or by hand: turn this off first if you mean it (docs/operations.md).
            deletion_protection=removal_policy == RemovalPolicy.RETAIN,
        )
