"""One contract for Accounts: MemoryAccounts, CognitoAccounts (on moto) and SqliteAccounts."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from crossing.aws import pool
from crossing.aws.accounts import CognitoAccounts
from crossing.aws.memory import MemoryAccounts
from crossing.crossword.commands import Refused
from crossing.local.backend import allow_long_passwords
from crossing.local.sqlite import SqliteAccounts

from tests.aws.conftest import count_calls

PASSWORD = "correct horse battery"


class Cognito:
    """CognitoAccounts on a moto pool made by ``create_pool``, counting its calls."""

    def __init__(self, boto_session: Any) -> None:
        self.client = boto_session.client("cognito-idp")
        self.pool_id, self.client_id = pool.create_pool(self.client, "crossing-test")
        allow_long_passwords(self.pool_id)  # moto's own limit is 98
        self.calls = count_calls(self.client)
        self.accounts = CognitoAccounts(self.pool_id, self.client_id, client=self.client)


@pytest.fixture(params=["memory", "cognito", "sqlite"])
def setup(request: pytest.FixtureRequest) -> Any:
    if request.param == "memory":
        return MemoryAccounts()
    if request.param == "sqlite":
        return SqliteAccounts(request.getfixturevalue("sqlite_db"))
    request.getfixturevalue("aws")
    return Cognito(request.getfixturevalue("boto_session"))


@pytest.fixture
def accounts(setup: Any) -> Any:
    return setup.accounts if isinstance(setup, Cognito) else setup


def refused(code: str) -> Any:
    return pytest.raises(Refused, check=lambda e: e.code == code)


def test_sign_up_then_sign_in_is_the_same_account(accounts):
    session = accounts.sign_up("Alice_99", PASSWORD)
    assert session.account.name == "Alice_99"
    assert session.account.id and session.refresh
    again = accounts.sign_in("Alice_99", PASSWORD)
    assert again.account == session.account


def test_names_are_case_insensitive_and_shown_as_typed(accounts):
    session = accounts.sign_up("Alice", PASSWORD)
    assert accounts.sign_in("aLICE", PASSWORD).account == session.account
    with refused("name-taken") as caught:
        accounts.sign_up("alice", "another passphrase")
    assert str(caught.value) == "That name is taken; pick another."


def test_a_taken_name_is_refused_and_the_first_account_keeps_its_password(accounts):
    first = accounts.sign_up("bob", PASSWORD)
    with refused("name-taken"):
        accounts.sign_up("bob", "someone else's")
    assert accounts.sign_in("bob", PASSWORD).account == first.account
    with refused("wrong-password"):
        accounts.sign_in("bob", "someone else's")


def test_a_wrong_password_and_an_unknown_name_say_the_same(accounts):
    accounts.sign_up("carol", PASSWORD)
    with refused("wrong-password") as wrong:
        accounts.sign_in("carol", PASSWORD + "!")
    with refused("wrong-password") as unknown:
        accounts.sign_in("nobody", PASSWORD)
    assert str(wrong.value) == str(unknown.value) == "Wrong name or password."
    with refused("wrong-password"):
        accounts.sign_in("carol", "short")


@pytest.mark.parametrize("password", ["", "seven77", "x" * 129, " padded password", "trailing  "])
def test_weak_passwords_are_refused(accounts, password):
    with refused("weak-password"):
        accounts.sign_up("dave", password)
    with refused("wrong-password"):  # and no account was made
        accounts.sign_in("dave", "a fine passphrase")


def test_any_password_of_8_to_128_characters_will_do(accounts):
    accounts.sign_up("eve", "abcdefgh")
    accounts.sign_up("frank", "ñ" * 128)
    assert accounts.sign_in("frank", "ñ" * 128).account.name == "frank"


BAD_NAMES = ["", "ab", "x" * 21, "a b", "émile", "robert'); --", "tab\tname", None, 42]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_names_are_refused_before_cognito_is_asked(setup, accounts, name):
    with refused("bad-name") as caught:
        accounts.sign_up(name, PASSWORD)
    assert str(caught.value) == "A name is 3 to 20 letters, digits, _ or -."
    with refused("bad-name"):
        accounts.sign_in(name, PASSWORD)
    calls = setup.calls if isinstance(setup, Cognito) else setup.requests
    assert sum(calls.values()) == 0


def test_a_refresh_token_resumes_the_account_on_another_device(accounts):
    laptop = accounts.sign_up("grace", PASSWORD)
    phone = accounts.sign_in("grace", PASSWORD)
    assert accounts.resume(laptop.refresh) == laptop.account
    assert accounts.resume(phone.refresh) == laptop.account  # one id: one rating


@pytest.mark.parametrize("token", ["garbage", "", "x" * 10_000, None])
def test_a_refresh_token_not_accepted_is_signed_out(accounts, token):
    accounts.sign_up("heidi", PASSWORD)
    with refused("signed-out"):
        accounts.resume(token)


def test_the_fake_keeps_no_password_in_plain_text():
    accounts = MemoryAccounts()
    accounts.sign_up("ivan", PASSWORD)
    accounts.sign_in("ivan", PASSWORD)
    kept = pickle.dumps(vars(accounts)) + repr(vars(accounts)).encode()
    assert PASSWORD.encode() not in kept
    assert PASSWORD.encode("utf-16-le") not in kept


def test_a_revoked_refresh_token_is_signed_out_in_the_fake():
    accounts = MemoryAccounts()
    session = accounts.sign_up("judy", PASSWORD)
    accounts.revoke(session.refresh)
    with refused("signed-out"):
        accounts.resume(session.refresh)


@pytest.fixture
def cognito(aws: None, boto_session: Any) -> Cognito:
    return Cognito(boto_session)


def test_a_sign_up_cut_off_before_confirming_is_finished_by_signing_in(cognito):
    # SignUp went through, then the Lambda died before AdminConfirmSignUp.
    cognito.client.sign_up(ClientId=cognito.client_id, Username="kim", Password=PASSWORD)
    with refused("wrong-password"):  # Cognito checks the password before "not confirmed"
        cognito.accounts.sign_in("kim", "not the password")
    session = cognito.accounts.sign_in("kim", PASSWORD)
    assert cognito.accounts.resume(session.refresh) == session.account


def test_a_name_attribute_changed_by_its_owner_shows_only_if_it_is_still_their_name(cognito):
    session = cognito.accounts.sign_up("Leo", PASSWORD)
    tokens = cognito.client.initiate_auth(
        ClientId=cognito.client_id,
        AuthFlow="REFRESH_TOKEN_AUTH",
        AuthParameters={"REFRESH_TOKEN": session.refresh},
    )["AuthenticationResult"]

    def rename(shown: str) -> str:
        cognito.client.update_user_attributes(
            AccessToken=tokens["AccessToken"], UserAttributes=[{"Name": "name", "Value": shown}]
        )
        return cognito.accounts.resume(session.refresh).name

    assert rename("LEO") == "LEO"
    assert rename("Mallory") == "leo"  # not their name: the username is shown instead


def test_cognito_failing_is_accounts_down_and_the_log_has_no_password(cognito, caplog):
    broken = CognitoAccounts(cognito.pool_id, "no-such-client", client=cognito.client)
    for attempt in (
        lambda: broken.sign_up("mia", PASSWORD),
        lambda: broken.sign_in("mia", PASSWORD),
        lambda: broken.resume("some-token"),
    ):
        with refused("accounts-down") as caught:
            attempt()
        assert PASSWORD not in str(caught.value)
    assert "ResourceNotFoundException" in caplog.text
    assert PASSWORD not in caplog.text
