from __future__ import annotations

import pytest
from aws_cdk import RemovalPolicy, Stack
from aws_cdk import aws_iam as iam
from aws_cdk.assertions import Match, Template
from crossing.aws import pool as definition

from infra.accounts import Accounts


def _accounts(stack: Stack, policy: RemovalPolicy = RemovalPolicy.DESTROY) -> Accounts:
    return Accounts(stack, "Accounts", pool_name="crossing-test", removal_policy=policy)


def test_the_pool_is_the_one_definition(stack: Stack) -> None:
    _accounts(stack)
    Template.from_stack(stack).has_resource_properties(
        "AWS::Cognito::UserPool",
        {
            "UserPoolName": "crossing-test",
            "Policies": {"PasswordPolicy": definition.PASSWORD_POLICY},
            "UsernameConfiguration": definition.POOL["UsernameConfiguration"],
            "AdminCreateUserConfig": definition.POOL["AdminCreateUserConfig"],
            "AccountRecoverySetting": definition.POOL["AccountRecoverySetting"],
            "AutoVerifiedAttributes": definition.POOL["AutoVerifiedAttributes"],  # none
            "UsernameAttributes": Match.absent(),  # the name is the username, not an email
            "AliasAttributes": Match.absent(),
            "MfaConfiguration": "OFF",
            "UserPoolTier": definition.POOL["UserPoolTier"],
        },
    )


def test_the_client_signs_in_with_a_password_and_a_refresh_token_and_has_no_secret(
    stack: Stack,
) -> None:
    _accounts(stack)
    template = Template.from_stack(stack)
    template.resource_count_is("AWS::Cognito::UserPoolClient", 1)
    client = next(iter(template.find_resources("AWS::Cognito::UserPoolClient").values()))
    props = client["Properties"]
    assert sorted(props["ExplicitAuthFlows"]) == sorted(definition.CLIENT["ExplicitAuthFlows"])
    assert props["GenerateSecret"] is False
    assert props["PreventUserExistenceErrors"] == definition.CLIENT["PreventUserExistenceErrors"]
    assert props["RefreshTokenValidity"] == definition.REFRESH_TOKEN_DAYS * 24 * 60
    assert props["TokenValidityUnits"]["RefreshToken"] == "minutes"
    assert props["ReadAttributes"] == definition.CLIENT["ReadAttributes"]
    assert props["WriteAttributes"] == definition.CLIENT["WriteAttributes"]


@pytest.mark.parametrize(
    ("policy", "expected", "protected"),
    [(RemovalPolicy.RETAIN, "Retain", "ACTIVE"), (RemovalPolicy.DESTROY, "Delete", "INACTIVE")],
)
def test_removal_policy_is_the_stages(
    stack: Stack, policy: RemovalPolicy, expected: str, protected: str
) -> None:
    _accounts(stack, policy)
    template = Template.from_stack(stack)
    template.has_resource("AWS::Cognito::UserPool", {"DeletionPolicy": expected})
    template.has_resource_properties("AWS::Cognito::UserPool", {"DeletionProtection": protected})


def test_confirming_is_the_only_grant(stack: Stack) -> None:
    accounts = _accounts(stack)
    role = iam.Role(stack, "Role", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"))
    accounts.grant_confirm(role)
    Template.from_stack(stack).has_resource_properties(
        "AWS::IAM::Policy",
        {
            "PolicyDocument": {
                "Statement": [
                    {
                        "Action": "cognito-idp:AdminConfirmSignUp",
                        "Effect": "Allow",
                        "Resource": {"Fn::GetAtt": [Match.string_like_regexp("Pool"), "Arn"]},
                    }
                ]
            }
        },
    )
