"""Duel through the service: the lobby's live list, challenges, private links, turns,
flag falls as due events, bot games, reconnecting, and nothing lost to a retry."""

import json

from crossing.duel.lobby import SEEK_TTL_MS

from tests.duel.phones import duel_phone_maker, errors

MIN = 60_000


def start_public(phone, limit=5 * MIN):
    ann, bob = phone(), phone()
    ann.send("duel_lobby")
    bob.send("duel_lobby")
    assert not errors(ann.send("duel_seek", limit=limit, name="Ann"))
    bob.take()
    seek = bob.lobby["seeks"][0]["id"]
    assert not errors(bob.send("duel_accept", seek=seek, name="Bob"))
    ann.take()
    return ann, bob


def mover(ann, bob):
    return (ann, bob) if ann.my_turn else (bob, ann)


def test_a_waiting_game_is_listed_live_and_a_challenge_starts_it_for_both(phone):
    ann, bob, cat = phone(), phone(), phone()
    for p in (ann, bob, cat):
        p.send("duel_lobby")
    assert bob.lobby["seeks"] == []
    ann.send("duel_seek", limit=3 * MIN, name="Ann")
    for p in (bob, cat):
        p.take()
        [seek] = p.lobby["seeks"]
        assert (seek["name"], seek["rating"], seek["limit"]) == ("Ann", 1000, 3 * MIN)
    assert ann.lobby["mine"]["id"] == seek["id"] and ann.lobby["mine"]["private"] is False

    assert not errors(bob.send("duel_accept", seek=seek["id"], name="Bob"))
    ann.take()
    cat.take()
    assert cat.lobby["seeks"] == []  # taken: gone from everyone's list
    assert ann.game["id"] == bob.game["id"]
    assert ann.game["turn"] == bob.game["turn"] in (0, 1)
    assert {ann.seat, bob.seat} == {0, 1}
    assert [s["name"] for s in ann.game["seats"]] == [s["name"] for s in bob.game["seats"]]
    assert len(ann.game["rack"]) == len(bob.game["rack"]) == 7
    assert ann.game["bag"] == 98 - 14
    assert all(s["time_left"] == 3 * MIN for s in ann.game["seats"])


def test_the_other_players_rack_never_reaches_a_phone(phone):
    ann, bob = start_public(phone)
    other = bob.game["seats"][ann.seat]
    assert other["rack_count"] == 7
    assert all("rack" not in seat for seat in bob.game["seats"])
    assert bob.game["rack"] != ann.game["rack"]  # each phone holds only its own letters
    assert isinstance(bob.game["bag"], int)  # a count, never the bag's order
    assert '"bag": "' not in json.dumps(bob.game)


def test_a_private_game_is_not_listed_and_only_its_link_opens_it(phone):
    ann, bob, cat = phone(), phone(), phone()
    cat.send("duel_lobby")
    ann.send("duel_seek", limit=None, private=True, name="Ann")
    mine = ann.lobby["mine"]
    assert mine["private"] and mine["token"]
    cat.take()
    assert cat.lobby["seeks"] == []
    wrong = bob.send("duel_accept", seek=mine["id"], token="guess", name="Bob")
    assert errors(wrong)[0]["code"] == "no-seek"
    assert not errors(bob.send("duel_accept", seek=mine["id"], token=mine["token"], name="Bob"))
    ann.take()
    assert ann.game["id"] == bob.game["id"] and ann.game["limit"] is None
    assert all(s["time_left"] is None for s in ann.game["seats"])  # Unlimited


def test_two_challengers_for_one_game_one_gets_it(phone):
    ann, bob, cat = phone(), phone(), phone()
    ann.send("duel_seek", limit=5 * MIN)
    seek = ann.lobby["mine"]["id"]
    assert not errors(bob.send("duel_accept", seek=seek))
    late = cat.send("duel_accept", seek=seek)
    assert errors(late)[0]["code"] == "no-seek"
    assert cat.game == {}


def test_a_seek_whose_game_exists_already_leaves_the_list_when_someone_tries_it(service, phone):
    # As after a crash between starting the game and taking the seek off the list.
    ann, bob, cat = phone(), phone(), phone()
    cat.send("duel_lobby")
    ann.send("duel_seek", limit=5 * MIN)
    seek = ann.lobby["mine"]["id"]
    service.store.save_doc("game", "g-" + seek.removeprefix("s-"), {}, None, None)
    assert errors(bob.send("duel_accept", seek=seek))[0]["code"] == "no-seek"
    cat.take()
    assert cat.lobby["seeks"] == []


def test_you_cannot_take_your_own_game_and_cancel_takes_it_down(phone):
    ann, bob = phone(), phone()
    bob.send("duel_lobby")
    ann.send("duel_seek", limit=5 * MIN)
    seek = ann.lobby["mine"]["id"]
    assert errors(ann.send("duel_accept", seek=seek))[0]["code"] == "own-seek"
    assert errors(ann.send("duel_seek", limit=5 * MIN))[0]["code"] == "already-waiting"
    assert not errors(ann.send("duel_cancel", seek=seek))
    bob.take()
    assert bob.lobby["seeks"] == [] and ann.lobby["mine"] is None


def test_a_waiting_game_nobody_takes_expires_and_the_list_says_so(service, clock, phone):
    ann, bob = phone(), phone()
    bob.send("duel_lobby")
    ann.send("duel_seek", limit=5 * MIN)
    bob.take()
    assert len(bob.lobby["seeks"]) == 1
    clock.now += SEEK_TTL_MS
    for code, version in service.timers.due(clock.now):
        service.timer(code, version)
    bob.take()
    assert bob.lobby["seeks"] == []
    assert errors(bob.send("duel_accept", seek=ann.lobby["mine"]["id"]))[0]["code"] == "no-seek"


def test_a_bad_time_limit_or_message_is_refused(phone):
    ann = phone()
    assert errors(ann.send("duel_seek", limit=7 * MIN))[0]["code"] == "bad-message"
    assert errors(ann.send("duel_play", tiles=[]))[0]["code"] == "bad-message"
    assert errors(ann.send("duel_skip"))[0]["code"] == "no-game"


def test_a_play_scores_passes_the_turn_and_a_rejected_one_changes_nothing(phone, clock):
    ann, bob = start_public(phone)
    first, second = mover(ann, bob)
    version, rack = first.version, first.game["rack"]
    off = [{"row": 0, "col": c, "letter": rack[c]} for c in range(2)]
    bad = first.send("duel_play", tiles=off)
    [error] = errors(bad)
    assert error["code"] == "illegal-play" and "centre square" in error["message"]
    assert errors(second.send("duel_skip"))[0]["code"] == "not-your-turn"
    assert first.version == version and first.my_turn and first.game["rack"] == rack
    tiles = first.best_play()
    clock.now += 20_000
    assert not errors(first.send("duel_play", tiles=tiles))
    second.take()
    [move] = second.game["moves"]
    assert move["kind"] == "play" and move["score"] > 0 and move["seat"] == first.seat
    assert second.my_turn and not first.my_turn
    assert second.game["seats"][first.seat]["score"] == move["score"]
    assert first.game["seats"][first.seat]["time_left"] == 5 * MIN - 20_000
    assert len(first.game["rack"]) == 7 and first.game["bag"] == 98 - 14 - len(tiles)


def test_a_play_delivered_twice_is_applied_once(phone):
    ann, bob = start_public(phone)
    first, _ = mover(ann, bob)
    tiles = first.best_play()
    first.send("duel_play", tiles=tiles)
    again = first.resend_last("duel_play", tiles=tiles)
    assert [m.get("duplicate") for m in again if m["type"] == "ack"] == [True]
    assert len(first.game["moves"]) == 1


def test_a_frame_handled_after_a_newer_one_is_still_applied_once(phone):
    # The page sends without waiting, and two Lambdas may handle its frames in either
    # order: the resign numbered before the play reaches the game after it.
    ann, bob = start_public(phone)
    first, second = mover(ann, bob)
    tiles, seq = first.best_play(), first.seq
    first.seq = seq + 1
    assert not errors(first.send("duel_play", tiles=tiles))  # seq + 2
    first.seq = seq
    late = first.send("duel_resign")  # seq + 1
    assert [m["duplicate"] for m in late if m["type"] == "ack"] == [False]
    again = first.resend_last("duel_resign")
    assert [m["duplicate"] for m in again if m["type"] == "ack"] == [True]
    second.take()
    assert [m["kind"] for m in second.game["moves"]] == ["play", "resign"]
    assert second.game["result"]["reason"] == "resigned"
    assert second.game["result"]["winner"] == second.seat


def test_swap_skip_and_four_zero_turns_end_the_game(phone):
    ann, bob = start_public(phone)
    first, second = mover(ann, bob)
    letter = first.game["rack"][0]
    assert not errors(first.send("duel_swap", letter=letter))
    second.send("duel_skip")
    first.send("duel_skip")
    second.send("duel_skip")
    first.take()
    result = first.game["result"]
    assert result["reason"] == "zeros" and result["winner"] is None
    assert [m["kind"] for m in first.game["moves"]] == ["swap", "skip", "skip", "skip"]
    assert errors(first.send("duel_skip"))[0]["code"] == "over"


def test_resigning_gives_the_other_the_game(phone):
    ann, bob = start_public(phone)
    assert not errors(ann.send("duel_resign"))
    bob.take()
    assert bob.game["result"]["reason"] == "resigned"
    assert bob.game["result"]["winner"] == bob.seat
    assert bob.game["turn"] is None


def test_a_flag_falls_at_its_moment_by_the_timer_and_the_other_plays_on(service, clock, phone):
    ann, bob = start_public(phone, limit=3 * MIN)
    first, second = mover(ann, bob)
    game = first.game["id"]
    at, _ = service.timers.armed[game]
    assert at == clock.now + 3 * MIN  # the flag-fall moment is the armed due event
    clock.now += 3 * MIN + 40_000  # the backstop fires late; the flag fell on time
    for code, version in service.timers.due(clock.now):
        service.timer(code, version)
    second.take()
    assert second.game["moves"][-1]["kind"] == "time"
    assert second.game["seats"][first.seat]["out_of_time"]
    assert second.game["seats"][first.seat]["time_left"] == 0
    assert second.my_turn
    assert second.game["seats"][second.seat]["time_left"] == 3 * MIN - 40_000
    assert errors(first.send("duel_skip"))[0]["code"] == "out-of-time"
    assert not errors(second.send("duel_play", tiles=second.best_play()))
    assert second.my_turn  # the other plays on
    clock.now += 3 * MIN
    second.send("tick")
    result = second.game["result"]
    assert result["reason"] == "time" and result["winner"] == second.seat


def test_a_bot_answers_within_a_second_and_a_half_and_its_clock_stands_still(phone, clock):
    ann = phone()
    assert not errors(ann.send("duel_bot", level="hard", limit=10 * MIN, name="Ann"))
    bot = 1 - ann.seat
    assert ann.game["seats"][bot]["bot"] == "hard"
    assert ann.game["seats"][bot]["name"] == "Hard bot"
    for _ in range(3):
        if not ann.my_turn:
            due = ann.game["due_at"]
            assert 0 < due - clock.now <= 1_200  # Hard's pause: its answer within 1.5 s
            assert ann.game["seats"][bot]["running"] is False
            left = ann.game["seats"][bot]["time_left"]
            clock.now = due
            ann.send("tick")
            assert ann.game["seats"][bot]["time_left"] == left  # the pause cost it nothing
            assert ann.game["moves"][-1]["seat"] == bot
            assert ann.game["moves"][-1]["kind"] in ("play", "swap")
        assert ann.my_turn
        ann.send("duel_play", tiles=ann.best_play())
    assert errors(ann.send("duel_skip"))[0]["code"] == "not-your-turn"
    ann.send("duel_resign")
    assert ann.game["result"]["winner"] == bot
    assert ann.game["result"]["ratings"] == [None, None]  # bot games are not rated


def test_an_early_tick_does_nothing(phone, clock):
    ann = phone()
    ann.send("duel_bot", level="easy", limit=None)
    if ann.my_turn:
        ann.send("duel_skip")
    moves = len(ann.game["moves"])
    clock.now = ann.game["due_at"] - 1
    acks = [m for m in ann.send("tick") if m["type"] == "ack"]
    assert acks and len(ann.game["moves"]) == moves


def test_a_reload_finds_the_game_and_carries_on(service, phone):
    ann, bob = start_public(phone)
    again = type(ann)(service, "ann-second-tab")
    again.send("hello", player=ann.player, token=ann.token)
    assert again.welcome["duel"] == ann.game["id"]
    assert not errors(again.send("duel_open", game=ann.game["id"]))
    assert again.game["rack"] == ann.game["rack"]
    bob.send("duel_resign")
    again.take()
    assert again.game["result"]["winner"] == ann.seat
    stranger = type(ann)(service, "stranger")
    stranger.send("hello")
    assert errors(stranger.send("duel_open", game=ann.game["id"]))[0]["code"] == "not-a-player"


def test_a_closed_tab_leaves_the_lobby_list_of_watchers(service, phone):
    ann, bob = phone(), phone()
    bob.send("duel_lobby")
    service.disconnect(bob.connection)
    ann.send("duel_seek", limit=5 * MIN)
    assert not [m for m in bob.take() if m["type"] == "lobby"]


def test_starting_a_game_takes_down_your_own_waiting_game(phone):
    ann, bob, cat, dan = phone(), phone(), phone(), phone()
    dan.send("duel_lobby")
    ann.send("duel_seek", limit=5 * MIN)
    bob.send("duel_seek", limit=3 * MIN)
    cat.send("duel_seek", limit=None)
    dan.take()
    assert len(dan.lobby["seeks"]) == 3
    assert not errors(bob.send("duel_accept", seek=ann.lobby["mine"]["id"]))
    assert not errors(cat.send("duel_bot", level="easy", limit=None))
    dan.take()
    assert dan.lobby["seeks"] == []  # Ann's was taken; Bob's and Cat's went with their games


def test_the_other_player_sees_when_your_phone_is_gone_and_back(service, phone):
    ann, bob = start_public(phone)
    assert bob.game["seats"][ann.seat]["connected"]
    service.disconnect(ann.connection)
    bob.take()
    assert bob.game["seats"][ann.seat]["connected"] is False
    back = type(ann)(service, "ann-back")
    back.send("hello", player=ann.player, token=ann.token)
    back.send("duel_open", game=back.welcome["duel"])
    bob.take()
    assert bob.game["seats"][ann.seat]["connected"] is True


def test_a_bots_move_chosen_ahead_elsewhere_is_the_move_it_would_have_made(clock):
    # Where the server has threads to spare, a bot's search starts as soon as it is to
    # move, off the rooms' thread; the tick that applies the move finds it made. Two
    # games from the same seed, one choosing ahead and one in the step, go the same way.
    from concurrent.futures import ThreadPoolExecutor

    from tests.rooms.fakes import make_service

    games = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        for think in (None, pool.submit):
            service = make_service(clock)
            service.duel.bot_moves.think = think
            ann = duel_phone_maker(service)()
            ann.send("duel_bot", level="hard", limit=None, name="Ann")
            for _ in range(3):
                if not ann.my_turn:
                    pool.submit(lambda: None).result()  # whatever was asked has been chosen
                    clock.now = ann.game["due_at"]
                    ann.send("tick")
                ann.send("duel_play", tiles=ann.best_play())
            games.append((ann.game["moves"], service.duel.bot_moves.taken))
    (alone, taken_alone), (ahead, taken_ahead) = games
    assert taken_alone == 0 and taken_ahead >= 2
    assert [m["tiles"] for m in ahead] == [m["tiles"] for m in alone]
