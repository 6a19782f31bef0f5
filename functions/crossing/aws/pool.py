"""The Cognito user pool of registered accounts: its definition as plain data, and the
name and password rules.

Three callers read the same definition, as with the table (``table.py``): the CDK
stack, the local stack and the tests (``create_pool``). Both ``Accounts`` adapters
(``CognitoAccounts`` and the memory fake) check names and passwords here first, so a
bad one never reaches Cognito and both refuse it in the same words.

An account is a name and a password, nothing more: no email, no phone, so no
verification step (sign-up confirms the account at once with AdminConfirmSignUp)
and no self-service recovery (a forgotten password is a new account).

Names are case-insensitive: ``Alice`` and ``alice`` are one account. The adapter
sends Cognito the lower-case name as the username (so moto, which ignores the pool's
``CaseSensitive`` setting, behaves like AWS) and keeps the name as typed, for
display, in the standard ``name`` attribute.
"""

from __future__ import annotations

import re
from typing import Any

from crossing.crossword.commands import Refused

NAME_MIN = 3
NAME_MAX = 20
NAME = re.compile(rf"[A-Za-z0-9_-]{{{NAME_MIN},{NAME_MAX}}}")
"""What a name may be (docs/protocol.md, "Accounts")."""

PASSWORD_MIN = 8
PASSWORD_MAX = 128
"""Our own bound; Cognito allows 256. Checked before Cognito is asked."""

PASSWORD_POLICY: dict[str, Any] = {
    "MinimumLength": PASSWORD_MIN,
    "RequireUppercase": False,
    "RequireLowercase": False,
    "RequireNumbers": False,
    "RequireSymbols": False,
}
"""Length only: a long passphrase beats a short password with a symbol in it, and
rules about character classes push people to ``Password1!`` (NIST SP 800-63B)."""

REFRESH_TOKEN_DAYS = 365
"""How long a browser stays signed in without the password. A rating is low stakes;
typing a password on every visit is not."""

DISPLAY_ATTRIBUTE = "name"
"""The standard attribute holding the name as typed (the username is lower case)."""

POOL: dict[str, Any] = {
    "Policies": {"PasswordPolicy": PASSWORD_POLICY},
    "UsernameConfiguration": {"CaseSensitive": False},
    "AutoVerifiedAttributes": [],
    "AdminCreateUserConfig": {"AllowAdminCreateUserOnly": False},  # self sign-up
    "AccountRecoverySetting": {"RecoveryMechanisms": [{"Name": "admin_only", "Priority": 1}]},
    "UserPoolTier": "LITE",  # none of Essentials' features is used; Lite costs least
}
"""CreateUserPool's arguments, as the CDK stack builds them too."""

CLIENT: dict[str, Any] = {
    "GenerateSecret": False,  # called from our Lambda with no secret to keep
    "ExplicitAuthFlows": ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
    "PreventUserExistenceErrors": "ENABLED",
    "RefreshTokenValidity": REFRESH_TOKEN_DAYS,
    "TokenValidityUnits": {"RefreshToken": "days"},
    "ReadAttributes": [DISPLAY_ATTRIBUTE],
    "WriteAttributes": [DISPLAY_ATTRIBUTE],
}
"""CreateUserPoolClient's arguments. ``name`` must be writable for SignUp to set it; a
player could change its case only (the adapter shows it only if it still folds to the
username)."""


def create_pool(client: Any, name: str) -> tuple[str, str]:
    """Create the pool and its app client with a boto3 ``cognito-idp`` client.

    Returns ``(user_pool_id, client_id)``.
    """
    pool_id = client.create_user_pool(PoolName=name, **POOL)["UserPool"]["Id"]
    client_id = client.create_user_pool_client(
        UserPoolId=pool_id, ClientName=f"{name}-server", **CLIENT
    )["UserPoolClient"]["ClientId"]
    return pool_id, client_id


def username(name: str) -> str:
    """The key an account is found by: the name, case folded (names are ASCII)."""
    return name.lower()


def check_name(name: object) -> str:
    """The name, or ``Refused("bad-name")``."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise Refused(
            "bad-name",
            f"A name is {NAME_MIN} to {NAME_MAX} letters, digits, _ or -.",
        )
    return name


def check_new_password(password: object) -> str:
    """A password good enough to sign up with, or ``Refused("weak-password")``."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refused(
            "weak-password",
            f"A password is {PASSWORD_MIN} to {PASSWORD_MAX} characters; "
            "a few words make a good one.",
        )
    if password != password.strip():
        # Cognito's own pattern for a password, ^[\S]+.*[\S]+$, refuses these.
        raise Refused("weak-password", "A password can't start or end with a space.")
    return password


def could_be_password(password: object) -> bool:
    """Whether a sign-in password is worth asking about (no account has any other)."""
    return isinstance(password, str) and PASSWORD_MIN <= len(password) <= PASSWORD_MAX


WRONG_PASSWORD = "Wrong name or password."
NAME_TAKEN = "That name is taken; pick another."
SIGNED_OUT = "You are signed out; sign in again."
