"""Signing in and up cannot be turned against an account's owner: limits per source (the
connection, and its network address where the stack knows it) before any password is
hashed, and wrong passwords for a name slow attempts on it rather than lock it."""

from __future__ import annotations

from crossing.rooms import pace

from tests.duel.test_ratings import PASSWORD, registered


def code_of(answers):
    errors = [a for a in answers if a["type"] == "error"]
    return errors[-1]["code"] if errors else "ok"


def test_ten_wrong_passwords_from_one_source_do_not_stop_the_owner(service, phone, clock):
    registered(phone, "Ann")
    guesser = phone()
    tried = [
        code_of(guesser.send("sign_in", name="Ann", password=f"guess{i}xx")) for i in range(12)
    ]
    assert tried[:10] == ["wrong-password"] * 10
    assert tried[10:] == ["too-many"] * 2  # the guesser's own source is spent
    owner = phone()
    assert code_of(owner.send("sign_in", name="Ann", password=PASSWORD)) == "ok"


def test_many_guessers_slow_the_name_and_the_owner_gets_in_after_the_wait(service, phone, clock):
    registered(phone, "Ann")
    for _ in range(3):  # three sources, ten wrong passwords each: a minute's worth
        guesser = phone()
        for i in range(10):
            guesser.send("sign_in", name="Ann", password=f"guess{i}xx")
    owner = phone()
    answer = owner.send("sign_in", name="Ann", password=PASSWORD)
    assert code_of(answer) == "too-many"
    assert "try again in" in answer[-1]["message"]
    clock.now += pace.MOST_WAIT_MS  # a backoff, not a lock: at most a minute
    assert code_of(owner.send("sign_in", name="Ann", password=PASSWORD)) == "ok"


def test_forty_names_from_one_source_meet_the_limit(service, phone, clock):
    guesser = phone()
    tried = []
    for i in range(40):
        clock.now += 100  # ten a second: within the pace, so only the limit answers
        tried.append(code_of(guesser.send("sign_in", name=f"name{i}", password="hunter22")))
    assert tried.count("too-many") == 30  # ten hashed, then refused before any hash


def test_fifteen_sign_ups_from_one_source_meet_the_limit(service, phone, clock):
    maker = phone()
    made = []
    for i in range(15):
        clock.now += 61_000  # slower than the tries limit: only the sign-up limit is met
        made.append(code_of(maker.send("sign_up", name=f"Player{i}", password=PASSWORD)))
    assert made[:5] == ["ok"] * 5
    assert made[5:] == ["too-many"] * 10


def test_sign_ups_from_one_address_over_many_connections_meet_its_limit(service, phone, clock):
    made = []
    for i in range(25):
        clock.now += 61_000
        p = phone()
        p.source = "203.0.113.9"  # one household's address, a new connection each time
        made.append(code_of(p.send("sign_up", name=f"Pl{i}", password=PASSWORD)))
    assert made.count("ok") == 20 and made[20:] == ["too-many"] * 5
