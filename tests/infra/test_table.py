from __future__ import annotations

import pytest
from aws_cdk import RemovalPolicy, Stack
from aws_cdk.assertions import Match, Template
from crossing.aws import table as definition

from infra.table import GameTable


def test_the_table_is_the_one_definition(stack: Stack) -> None:
    GameTable(stack, "Data", table_name="crossing-test", removal_policy=RemovalPolicy.DESTROY)
    Template.from_stack(stack).has_resource_properties(
        "AWS::DynamoDB::Table",
        {
            "TableName": "crossing-test",
            "KeySchema": definition.KEY_SCHEMA,
            "AttributeDefinitions": definition.ATTRIBUTE_DEFINITIONS,
            "BillingMode": definition.BILLING_MODE,
            "TimeToLiveSpecification": {
                "AttributeName": definition.TTL_ATTRIBUTE,
                "Enabled": True,
            },
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
        },
    )


@pytest.mark.parametrize(
    ("policy", "expected"),
    [(RemovalPolicy.RETAIN, "Retain"), (RemovalPolicy.DESTROY, "Delete")],
)
def test_removal_policy_is_the_stages(stack: Stack, policy: RemovalPolicy, expected: str) -> None:
    GameTable(stack, "Data", table_name="t", removal_policy=policy)
    Template.from_stack(stack).has_resource(
        "AWS::DynamoDB::Table", {"DeletionPolicy": expected, "Properties": Match.any_value()}
    )
