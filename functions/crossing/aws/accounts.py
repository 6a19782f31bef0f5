"""The rooms' Accounts on an Amazon Cognito user pool (``pool.py`` defines it).

SignUp, InitiateAuth and GetUser are public app-client calls (no IAM); only
AdminConfirmSignUp needs the Lambda's role. A password goes to Cognito and nowhere
else: it is never stored, logged, or put in an exception's message.

The account id is the user's ``sub``, asked of Cognito with GetUser rather than read
from the ID token, so it is the same on moto and on AWS and needs no JWT code.
"""

from __future__ import annotations

import logging
from typing import Any, NoReturn

from botocore.exceptions import ClientError

from crossing.aws import clients, pool
from crossing.crossword.commands import Refused
from crossing.rooms.ports import Account, Session

log = logging.getLogger(__name__)

MAX_REFRESH_CHARS = 8192
"""Longer than any refresh token Cognito issues (about 1.8 kB); longer ones are not sent."""

_NOT_SIGNED_IN = {"NotAuthorizedException", "UserNotFoundException"}
_TOO_MANY = {"TooManyRequestsException", "LimitExceededException"}


class CognitoAccounts:
    """``Accounts`` on one user pool and its app client (no client secret)."""

    def __init__(self, user_pool_id: str, client_id: str, client: Any = None) -> None:
        if client is None:
            client = clients.client("cognito-idp")
        self.user_pool_id = user_pool_id
        self.client_id = client_id
        self.client = client

    def sign_up(self, name: str, password: str) -> Session:
        pool.check_name(name)
        pool.check_new_password(password)
        username = pool.username(name)
        try:
            self.client.sign_up(
                ClientId=self.client_id,
                Username=username,
                Password=password,
                UserAttributes=[{"Name": pool.DISPLAY_ATTRIBUTE, "Value": name}],
            )
        except ClientError as error:
            code = _code(error)
            if code == "UsernameExistsException":
                raise Refused("name-taken", pool.NAME_TAKEN) from None
            if code == "InvalidPasswordException":
                raise Refused("weak-password", _policy_message()) from None
            if code == "InvalidParameterException":
                # Our checks mirror Cognito's; if it still objects, say which part.
                if "password" in _message(error).lower():
                    raise Refused("weak-password", _policy_message()) from None
                raise Refused("bad-name", "That name can't be used; pick another.") from None
            _unexpected("SignUp", error)
        # No email to verify: an account is a name and a password, confirmed at once.
        self._confirm(username)
        return self._authenticate(username, password)

    def sign_in(self, name: str, password: str) -> Session:
        pool.check_name(name)
        if not pool.could_be_password(password):
            raise Refused("wrong-password", pool.WRONG_PASSWORD)
        return self._authenticate(pool.username(name), password)

    def resume(self, refresh: str) -> Account:
        if not isinstance(refresh, str) or not 0 < len(refresh) <= MAX_REFRESH_CHARS:
            raise Refused("signed-out", pool.SIGNED_OUT)
        try:
            result = self.client.initiate_auth(
                ClientId=self.client_id,
                AuthFlow="REFRESH_TOKEN_AUTH",
                AuthParameters={"REFRESH_TOKEN": refresh},
            )["AuthenticationResult"]
        except ClientError as error:
            if _code(error) in _NOT_SIGNED_IN:
                raise Refused("signed-out", pool.SIGNED_OUT) from None
            _unexpected("InitiateAuth (refresh)", error)
        return self._account(result["AccessToken"], signed_out="signed-out")

    def _authenticate(self, username: str, password: str, confirmed: bool = False) -> Session:
        try:
            response = self.client.initiate_auth(
                ClientId=self.client_id,
                AuthFlow="USER_PASSWORD_AUTH",
                AuthParameters={"USERNAME": username, "PASSWORD": password},
            )
        except ClientError as error:
            code = _code(error)
            if code in _NOT_SIGNED_IN:
                # One message for a wrong password and an unknown name, so names can't
                # be probed (the app client also has PreventUserExistenceErrors on;
                # moto ignores that and answers UserNotFoundException).
                raise Refused("wrong-password", pool.WRONG_PASSWORD) from None
            if code == "UserNotConfirmedException" and not confirmed:
                # A sign-up cut off between SignUp and AdminConfirmSignUp. Cognito says
                # "not confirmed" only once the password is right, so finish it now.
                self._confirm(username)
                return self._authenticate(username, password, confirmed=True)
            _unexpected("InitiateAuth", error)
        if "AuthenticationResult" not in response:
            # A challenge (a new password required, MFA): never set up on this pool.
            log.error("InitiateAuth answered challenge %s", response.get("ChallengeName"))
            raise Refused("accounts-down", "Signing in is not working; try again later.")
        result = response["AuthenticationResult"]
        account = self._account(result["AccessToken"], signed_out="wrong-password")
        return Session(account, result["RefreshToken"])

    def _account(self, access_token: str, signed_out: str) -> Account:
        try:
            user = self.client.get_user(AccessToken=access_token)
        except ClientError as error:
            if _code(error) in _NOT_SIGNED_IN:  # deleted or disabled a moment ago
                message = pool.SIGNED_OUT if signed_out == "signed-out" else pool.WRONG_PASSWORD
                raise Refused(signed_out, message) from None
            _unexpected("GetUser", error)
        attributes = {a["Name"]: a["Value"] for a in user["UserAttributes"]}
        username = user["Username"]
        shown = attributes.get(pool.DISPLAY_ATTRIBUTE, "")
        # The attribute is writable by its owner; show it only while it is their name.
        name = shown if pool.username(shown) == username else username
        return Account(attributes["sub"], name)

    def _confirm(self, username: str) -> None:
        try:
            self.client.admin_confirm_sign_up(UserPoolId=self.user_pool_id, Username=username)
        except ClientError as error:
            _unexpected("AdminConfirmSignUp", error)


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _message(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Message", ""))


def _policy_message() -> str:
    return f"A password is {pool.PASSWORD_MIN} to {pool.PASSWORD_MAX} characters."


def _unexpected(operation: str, error: ClientError) -> NoReturn:
    """Cognito refused for a reason a player can do nothing about (or too often)."""
    code = _code(error)
    if code in _TOO_MANY:
        raise Refused("too-many", "Too many tries; wait a minute and try again.") from None
    # The code only: Cognito's messages can quote what was sent.
    log.error("Cognito %s failed: %s", operation, code)
    raise Refused("accounts-down", "Accounts are not working; try again later.") from None
