"""Whole games through the service, with several phones and in-memory AWS stand-ins."""

import json

from crossing.rooms import protocol as P
from crossing.rooms.room import GRACE_MS
from crossing.rooms.service import RoomService
from crossing.rooms.storage import load_room

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import start_game

SEC = 1000


def solve(p, wrong=()):
    for sq in MINI.white_squares:
        letter = "Q" if sq in wrong else MINI.solution[sq]
        assert not p.errors(p.send("type", square=sq, letter=letter))


def room_of(service, code):
    return load_room(service.store.load_room(code)[0])


def test_hello_gives_an_identity_and_a_known_token_restores_it(service, phone):
    first = phone()
    assert first.player and first.token
    again = phone()
    again.send("hello", player=first.player, token=first.token)
    assert again.player == first.player
    forged = phone()
    forged.send("hello", player=first.player, token="not-the-token")
    assert forged.player != first.player


def test_a_two_player_race_to_the_end(service, phone, clock):
    host, (ann,), _code = start_game(phone)
    assert host.room["phase"] == "playing"
    assert "solution" not in json.dumps(host.room["game"]["puzzle"])
    solve(ann)
    clock.now += 40 * SEC
    ann.send("done")
    clock.now += 20 * SEC
    solve(host, wrong={MINI.white_squares[0]})
    host.send("done")
    ann.take()
    result = ann.room["game"]["result"]
    assert [(s["player"], s["place"], s["perfect"]) for s in result["standings"]] == [
        (ann.player, 1, True),
        (host.player, 2, False),
    ]
    assert result["misses"] == []
    assert host.room["game"]["result"]["misses"] == [
        {
            "square": MINI.white_squares[0],
            "answer": MINI.solution[MINI.white_squares[0]],
            "letter": "Q",
        }
    ]
    assert host.room["phase"] == "results"


def test_a_together_game_to_the_end(service, phone):
    host, (ann, bob), _code = start_game(phone, mode="together", guests=("Ann", "Bob"))
    for sq in MINI.grid.slot("1a").squares:
        ann.send("type", square=sq, letter=MINI.solution[sq])
    host.take()
    assert host.room["game"]["board"][2:5] == "SIR"
    assert host.room["game"]["writers"][2] == ann.player
    for p in (ann, bob, host):
        p.send("done")
    standings = bob.take() and bob.room["game"]["result"]["standings"]
    assert standings[0]["player"] == ann.player
    assert standings[0]["squares"] == 3


def test_solo_race_has_no_limit_and_is_picked_up_later(service, phone, clock):
    me = phone()
    me.send("host", name="Me", solo=True)
    assert me.room["phase"] == "table"
    me.send("start")
    assert me.room["game"]["limit_ms"] is None
    me.send("type", square=2, letter="S")
    clock.now += 60 * SEC
    service.disconnect(me.connection)  # put the phone down
    clock.now += 3600 * SEC
    back = phone()
    welcome = back.send("hello", player=me.player, token=me.token)
    assert any(m.get("saved", {}).get("race") for m in welcome)
    back.send("pick_up")
    game = back.room["game"]
    assert game["board"][2] == "S"
    assert game["my_clock"]["elapsed_ms"] == 60 * SEC  # the clock waited


def test_redelivered_message_is_applied_once(service, phone):
    _host, (ann,), code = start_game(phone)
    ann.send("type", square=2, letter="S")
    ann.send("type", square=2, letter="X")
    ann.send("undo")
    replay = ann.resend_last("undo")
    assert next(m for m in replay if m["type"] == "ack")["duplicate"] is True
    assert room_of(service, code).game.players[ann.player].letters[2] == "S"


def test_two_writers_racing_on_one_room_both_letters_are_kept(service, phone, clock):
    """Another process (another Lambda) writes the room between this one's read and write."""
    host, (ann,), code = start_game(phone, mode="together")
    rival = RoomService(
        service.store, service.connections, service.timers, service.packs, clock=clock
    )
    store = service.store
    real_save = store.save_room
    raced = []

    def save_with_a_rival(code_, state, seen, expires_at):
        if not raced:  # between our read and our write, the host's letter lands first
            raced.append(True)
            frame = {"action": "type", "seq": 99, "square": 3, "letter": "I"}
            rival.receive(host.connection, json.dumps(frame))
        return real_save(code_, state, seen, expires_at)

    store.save_room = save_with_a_rival
    ann.send("type", square=2, letter="S")
    store.save_room = real_save
    board = room_of(service, code).game.letters()
    assert board[2:4] == "SI"
    assert service.runner.conflicts == 1


def test_a_gone_connection_is_removed_and_its_grace_starts(service, phone, clock):
    host, (ann,), code = start_game(phone)
    service.connections.gone.add(ann.connection)
    host.send("type", square=2, letter="S")  # the fan-out finds ann gone
    room = room_of(service, code)
    assert room.members[ann.player].connections == ()
    assert room.waiting_for(clock.now) == [ann.player]
    assert service.store.get_connection(ann.connection) is None


def test_timers_arm_for_the_next_due_event_and_a_late_or_repeated_timer_is_harmless(
    service, phone, clock
):
    _host, (_ann,), code = start_game(phone)
    at, version = service.timers.armed[code]
    assert at == clock.now + 5 * 60 * SEC  # the Mini's limit
    clock.now = at + 47 * SEC  # Scheduler fires late
    sent = service.timer(code, version)
    assert sent.wrote
    result = room_of(service, code).game.result
    assert result.reason == "limit"
    assert {r.time_ms for r in result.standings} == {5 * 60 * SEC}  # as if on time
    assert service.timer(code, version).wrote is False  # fired twice: nothing changes
    assert code not in service.timers.armed


def test_a_tick_before_the_due_time_does_nothing(service, phone, clock):
    _host, (ann,), code = start_game(phone)
    version = service.store.rooms[code][1]
    ann.send("tick")
    assert service.store.rooms[code][1] == version
    clock.now += 5 * 60 * SEC
    ann.send("tick")
    assert room_of(service, code).game.over


def test_grace_runs_out_and_the_check_goes_ahead(service, phone, clock):
    host, (ann,), code = start_game(phone)
    service.disconnect(ann.connection)
    assert service.timers.armed[code][0] == clock.now + GRACE_MS
    solve(host)
    host.send("done")
    assert host.room["waiting_for"] == [ann.player]
    clock.now += GRACE_MS
    service.timer(code)
    host.take()
    assert host.room["phase"] == "results"


def test_host_hand_over_and_pause(service, phone, clock):
    host, (ann,), code = start_game(phone)
    service.disconnect(host.connection)
    ann.take()
    assert ann.room["host"] == host.player  # a reload or a flaky connection: still the host
    clock.now += GRACE_MS
    service.timer(code)
    ann.take()
    assert ann.room["host"] == ann.player
    ann.send("pause")
    assert ann.room["game"]["paused"] is True
    errors = ann.errors(ann.send("type", square=2, letter="S"))
    assert errors[0]["code"] == "paused"


def test_late_joiner(service, phone, clock):
    _host, _, code = start_game(phone, guests=())
    clock.now += 30 * SEC
    late = phone()
    late.send("join", code=code, name="Late")
    late.send("to_game")
    assert late.room["game"]["my_clock"]["elapsed_ms"] == 30 * SEC


def test_bad_input_gets_a_clear_error_and_changes_nothing(service, phone):
    _host, (ann,), code = start_game(phone)
    version = service.store.rooms[code][1]
    cases = [
        ("not json", "bad-message"),
        (json.dumps({"action": "fly", "seq": 99}), "bad-message"),
        (json.dumps({"action": "type", "seq": 99, "square": 2}), "bad-message"),
        (json.dumps({"action": "type", "seq": 99, "square": 0, "letter": "A"}), "bad-square"),
        (json.dumps({"action": "type", "seq": 99, "square": 2, "letter": "7"}), "bad-letter"),
        (json.dumps({"action": "end", "seq": 99}), "not-host"),
        ("x" * (P.MAX_MESSAGE_BYTES + 1), "too-large"),
    ]
    for body, code_ in cases:
        service.receive(ann.connection, body)
        error = ann.take()[-1]
        assert error["type"] == "error", body
        assert error["code"] == code_, body
        assert error["message"]
    assert service.store.rooms[code][1] == version


def test_join_attempts_by_code_are_rate_limited(service, phone):
    p = phone()
    codes = [p.send("join", code=f"ZZZZ{i:02d}", name="X")[-1]["code"] for i in range(11)]
    assert codes[:10] == ["no-room"] * 10
    assert codes[10] == "too-many"


def test_room_codes_are_six_unambiguous_characters(service, phone):
    codes = set()
    for _ in range(20):
        p = phone()
        p.send("host", name="H")
        codes.add(p.room["code"])
    assert len(codes) == 20
    assert all(len(c) == 6 and not set(c) & set("01OIL") for c in codes)


def test_a_keystroke_costs_at_most_three_store_requests(service, phone):
    _host, (ann,), _code = start_game(phone)
    service.store.requests.clear()
    ann.send("type", square=2, letter="S")
    assert sum(service.store.requests.values()) <= 3, service.store.requests


def keys_in(value):
    """Every key anywhere in a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_in(v)


def test_nothing_secret_leaves_the_server_before_the_check(service, phone):
    """Every message of a whole race and a whole Together game, as the phones got them."""
    host, (ann,), _code = start_game(phone)
    solve(ann)  # ann's board is the answers
    for sq in MINI.white_squares:  # the host types J everywhere: MINI has no J
        host.send("type", square=sq, letter="J")
    sent = service.connections.sent
    answers = {MINI.answer(s) for s in MINI.slots}
    for _connection, messages in sent.items():
        for m in messages:
            assert "solution" not in set(keys_in(m))
    to_host = [json.dumps(m) for m in sent[host.connection]]
    assert not any(answer in text for text in to_host for answer in answers)
    to_ann = [json.dumps(m) for m in sent[ann.connection]]
    assert not any(
        "J" in (m.get("room", {}).get("game") or {}).get("board", "")
        for m in sent[ann.connection]
        if m["type"] == "room"
    )
    assert not any("JJJ" in text for text in to_ann)

    host2, (bob,), code2 = start_game(phone, mode="together")
    for sq in MINI.grid.slot("4a").squares:
        bob.send("type", square=sq, letter=MINI.solution[sq])
    assert room_of(service, code2).game.earned  # bob earned ASIDE (and its crossings)...
    for messages in service.connections.sent.values():
        for m in messages:
            # ...and nobody is told who earned what before the check
            assert not {"earned", "owners", "standings", "result"} & set(keys_in(m))
    # After the check the answers and credit do go out.
    for p in (host2, bob):
        p.send("done")
    assert bob.room["game"]["result"]["owners"]
    assert bob.room["game"]["result"]["solution"] == MINI.solution


def test_updates_are_merge_patches_that_rebuild_the_full_view(service, phone):
    host, (ann,), _ = start_game(phone)
    before = len(service.connections.sent[host.connection])
    ann.send("type", square=2, letter="S")
    update = service.connections.sent[host.connection][before]
    assert update["full"] is False
    assert "puzzle" not in update["room"].get("game", {})  # clues are not sent again
    host.take()
    service.receive(host.connection, json.dumps({"action": "snapshot", "seq": 999}))
    snapshot = service.connections.sent[host.connection][-1]
    assert snapshot["full"] is True
    assert {k: v for k, v in host.room.items() if k != "due_at"} == {
        k: v for k, v in snapshot["room"].items() if k != "due_at"
    }


def test_a_stale_timer_re_arms_for_the_next_due_event(service, phone, clock):
    _, _, code = start_game(phone)
    due, version = service.timers.armed[code]
    service.timers.armed[code] = (clock.now, version - 1)  # a stale schedule won the race
    assert service.timer(code, version - 1).wrote is False
    assert service.timers.armed[code][0] == due


def test_a_hosts_together_board_is_kept_and_picked_up_after_asking(service, phone, clock):
    host, (ann,), _ = start_game(phone, mode="together")
    for sq in MINI.grid.slot("1a").squares:
        ann.send("type", square=sq, letter=MINI.solution[sq])
    host.send("close")  # the host's ×: the game ends for everyone, the board is kept
    assert host.room["phase"] == "closed"
    clock.now += 3600 * SEC
    start_game(phone, mode="race")  # a race does not touch the saved board
    again = phone()
    welcome = again.send("hello", player=host.player, token=host.token)
    assert next(m for m in welcome if m["type"] == "welcome")["saved"]["together"] is True
    again.send("host", name="Hana")
    code = again.room["code"]
    ann_back = phone()
    ann_back.send("hello", player=ann.player, token=ann.token)
    ann_back.send("join", code=code, name="Ann")
    again.send("to_game")
    again.send("choose", mode="together", size="mini")
    asked = again.send("start")
    assert asked[-1]["code"] == "saved-board"  # a new puzzle would replace it: ask first
    again.send("start", pick_up=True)
    board = again.room["game"]["board"]
    assert board[2:5] == "SIR"
    assert again.room["game"]["writers"][2] == ann.player
    again.send("end")
    standings = {s["player"]: s["squares"] for s in again.room["game"]["result"]["standings"]}
    assert standings[ann.player] == 3  # ann gets her own word back


def test_a_new_together_puzzle_replaces_the_saved_board_once_confirmed(service, phone):
    host, _, _ = start_game(phone, mode="together", guests=())
    host.send("close")
    again = phone()
    again.send("hello", player=host.player, token=host.token)
    again.send("host", name="Hana")
    again.send("to_game")
    again.send("choose", mode="together", size="mini")
    again.send("start", replace_saved=True)
    assert again.room["phase"] == "playing"
    assert service.store.get_save(host.player, "together") is None


def test_every_tick_is_acknowledged_and_an_early_one_writes_nothing(service, phone, clock):
    _, (ann,), code = start_game(phone)
    version = service.store.rooms[code][1]
    ack = [m for m in ann.send("tick") if m["type"] == "ack"]
    assert ack[0]["seq"] == ann.seq
    assert service.store.rooms[code][1] == version


def test_a_watch_screen_can_ask_for_a_snapshot(service, phone):
    _, _, code = start_game(phone)
    tv = phone()
    tv.send("watch", code=code)
    before = len(tv.inbox)
    service.receive(tv.connection, json.dumps({"action": "snapshot", "seq": 99}))
    assert tv.inbox[before]["full"] is True
    assert tv.inbox[before]["room"]["you"] is None


def test_together_tells_each_player_whether_they_can_undo(service, phone):
    host, (ann,), _ = start_game(phone, mode="together")
    assert ann.room["game"]["can_undo"] is False
    ann.send("type", square=2, letter="S")
    assert ann.room["game"]["can_undo"] is True
    host.send("type", square=2, letter="Q")  # written over: nothing of ann's stands
    ann.take()
    assert ann.room["game"]["can_undo"] is False


def test_the_service_reports_games_started_checks_bots_and_timer_lateness(service, phone, clock):
    host = phone()
    host.send("host", name="Hana")
    host.send("add_bot", level="hard")
    host.send("to_game")
    seq = host.seq + 1
    sent = service.receive(host.connection, json.dumps({"action": "start", "seq": seq}))
    assert sent.started == ("race", "mini")
    code = host.room["code"]
    due, version = service.timers.armed[code]
    clock.now = due + 1234  # the bot's Done, applied late by the backstop
    sent = service.timer(code, version)
    assert sent.late_ms == 1234
    assert sent.bot_actions >= 1
    host.take()
    end = service.receive(host.connection, json.dumps({"action": "end", "seq": seq + 1}))
    assert end.checked == "race"


def test_a_watch_screen_gets_the_room_once_and_watching_again_changes_nothing(service, phone):
    _, _, code = start_game(phone)
    tv = phone()
    tv.take()
    tv.send("watch", code=code)
    assert [m["full"] for m in tv.inbox if m["type"] == "room"] == [True]
    version = service.store.load_room(code)[1]
    again = [m for m in tv.send("watch", code=code) if m["type"] == "room"]
    assert [m["full"] for m in again] == [True]  # told the room again...
    assert service.store.load_room(code)[1] == version  # ...without writing it
    assert list(room_of(service, code).watchers).count(tv.connection) == 1


def test_each_room_gets_its_own_seed_so_bots_differ_between_rooms(service, phone):
    seeds = set()
    for _ in range(5):
        _, _, code = start_game(phone, guests=())
        seeds.add(room_of(service, code).seed)
    assert len(seeds) == 5


def test_a_players_room_and_notifications_do_not_overwrite_each_other(service, phone):
    host = phone()
    store = service.store
    real = store.update_profile
    raced = []

    def with_a_rival(player, changes, expect=None):
        if "room" in changes and not raced:  # the player turns notifications on meanwhile
            raced.append(True)
            real(player, {"push": {"endpoint": "https://push.example/1"}})
        return real(player, changes, expect)

    store.update_profile = with_a_rival
    host.send("host", name="Hana")
    store.update_profile = real
    profile = store.get_profile(host.player)
    assert profile["room"] == host.room["code"]
    assert profile["push"] == {"endpoint": "https://push.example/1"}


def test_a_post_that_fails_stops_no_other_phone_and_the_phone_repairs_by_the_gap(service, phone):
    host, (ann, bo), code = start_game(phone, mode="together", guests=("Ann", "Bo"))
    real = service.connections.send

    def flaky(connection, message):
        if connection == ann.connection:
            raise ConnectionError("the gateway failed this one post")
        return real(connection, message)

    service.connections.send = flaky
    sent = host.send("type", square=2, letter="S")  # nothing raises to the typist
    service.connections.send = real
    assert not host.errors(sent)
    assert service.fan_out.failed == 1
    bo.take()
    assert bo.room["game"]["board"][2] == "S"
    assert host.room["game"]["board"][2] == "S"
    assert room_of(service, code).members[ann.player].connections  # not taken for gone
    # Ann missed a version: the next patch shows the gap, and a snapshot repairs it.
    ann.take()
    missed = ann.version
    host.send("type", square=3, letter="I")
    patch = [m for m in ann.take() if m["type"] == "room"][-1]
    assert patch["version"] == missed + 2
    ann.send("snapshot")
    assert ann.room["game"]["board"][2:4] == "SI"


def test_every_stop_and_start_reaches_a_phone_that_holds_the_view(service, phone, clock):
    """A phone keeps its view up to date by diffs alone: what it holds after Done, a take
    back, a pause and a resume must read the server's time, not the last whole view's."""
    host, (ann,), _code = start_game(phone)

    def shown(p, key="my_clock"):
        reading = p.room["game"][key]
        since = reading.get("since")  # a merge patch's null takes the key away
        ran = clock.now - since if since is not None else 0
        return reading["elapsed_ms"] + ran

    clock.now += 7 * SEC
    ann.send("done")
    clock.now += 5 * SEC
    assert shown(ann) == 7 * SEC
    ann.send("take_back")
    clock.now += 3 * SEC
    host.send("pause")
    ann.take()
    clock.now += 60 * SEC
    assert shown(ann) == 10 * SEC
    assert shown(ann, "clock") == 15 * SEC
    host.send("resume")
    ann.take()
    clock.now += 2 * SEC
    assert shown(ann) == 12 * SEC
    assert shown(host, "clock") == 17 * SEC
