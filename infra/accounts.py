"""The Cognito user pool of registered accounts and the app client the game's Lambda
uses, built from ``crossing.aws.pool``'s definition (never restated).

The pool holds a name (the username, lower case, and the ``name`` attribute as typed)
and a password; nothing else. No email or phone, so nothing to verify and no
self-service recovery. The app client has no secret: SignUp, InitiateAuth and GetUser
are public calls; only AdminConfirmSignUp needs IAM (``grant_confirm``).
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_iam as iam
from constructs import Construct
from crossing.aws import pool as definition

_POLICY = definition.PASSWORD_POLICY
_AUTH_FLOWS = set(definition.CLIENT["ExplicitAuthFlows"])
_PLANS = {
    "LITE": cognito.FeaturePlan.LITE,
    "ESSENTIALS": cognito.FeaturePlan.ESSENTIALS,
    "PLUS": cognito.FeaturePlan.PLUS,
}
_ATTRIBUTES = {"name": "fullname"}
"""Cognito's standard attribute names -> CDK's StandardAttributesMask fields."""


def _attributes(names: list[str]) -> cognito.ClientAttributes:
    mask = {_ATTRIBUTES[name]: True for name in names}
    return cognito.ClientAttributes().with_standard_attributes(**mask)


class Accounts(Construct):
    """The pool (``pool``) and the game's app client (``client``)."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        pool_name: str,
        removal_policy: RemovalPolicy,
    ) -> None:
        super().__init__(scope, id)
        recovery = definition.POOL["AccountRecoverySetting"]["RecoveryMechanisms"]
        if [m["Name"] for m in recovery] != ["admin_only"]:
            raise ValueError("infra/accounts.py builds admin_only recovery only")
        self.pool = cognito.UserPool(
            self,
            "Pool",
            user_pool_name=pool_name,
            self_sign_up_enabled=not definition.POOL["AdminCreateUserConfig"][
                "AllowAdminCreateUserOnly"
            ],
            sign_in_aliases=cognito.SignInAliases(username=True),
            sign_in_case_sensitive=definition.POOL["UsernameConfiguration"]["CaseSensitive"],
            auto_verify=cognito.AutoVerifiedAttrs(email=False, phone=False),
            password_policy=cognito.PasswordPolicy(
                min_length=_POLICY["MinimumLength"],
                require_uppercase=_POLICY["RequireUppercase"],
                require_lowercase=_POLICY["RequireLowercase"],
                require_digits=_POLICY["RequireNumbers"],
                require_symbols=_POLICY["RequireSymbols"],
            ),
            account_recovery=cognito.AccountRecovery.NONE,
            mfa=cognito.Mfa.OFF,
            feature_plan=_PLANS[definition.POOL["UserPoolTier"]],
            deletion_protection=removal_policy == RemovalPolicy.RETAIN,
            removal_policy=removal_policy,
        )
        self.client = self.pool.add_client(
            "Server",
            user_pool_client_name=f"{pool_name}-server",
            generate_secret=definition.CLIENT["GenerateSecret"],
            auth_flows=cognito.AuthFlow(
                user_password="ALLOW_USER_PASSWORD_AUTH" in _AUTH_FLOWS,
            ),  # CDK always adds ALLOW_REFRESH_TOKEN_AUTH
            prevent_user_existence_errors=(
                definition.CLIENT["PreventUserExistenceErrors"] == "ENABLED"
            ),
            refresh_token_validity=Duration.days(definition.REFRESH_TOKEN_DAYS),
            # The game signs in with USER_PASSWORD_AUTH only: no hosted UI, no OAuth
            # flows, no callback URL (CDK would otherwise add https://example.com).
            disable_o_auth=True,
            read_attributes=_attributes(definition.CLIENT["ReadAttributes"]),
            write_attributes=_attributes(definition.CLIENT["WriteAttributes"]),
        )

    def grant_confirm(self, grantee: iam.IGrantable) -> iam.Grant:
        """What sign-up needs beyond the public calls: confirming the new account."""
        return self.pool.grant(grantee, "cognito-idp:AdminConfirmSignUp")

    @property
    def environment(self) -> dict[str, str]:
        """Exactly what ``crossing.aws.config`` reads to build CognitoAccounts."""
        return {
            "CROSSING_USER_POOL_ID": self.pool.user_pool_id,
            "CROSSING_USER_POOL_CLIENT_ID": self.client.user_pool_client_id,
        }
