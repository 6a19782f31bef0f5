"""Together bots finish like people (issue 36): once the board is full they look for
wrong words, fix what they find, and tap We're done once the board has stood still for
their level's time, so people who are done are not kept waiting for minutes."""

from crossing.crossword.commands import Done, Type
from crossing.crossword.events import Changed, DoneChanged
from crossing.rooms import room as R

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import start_game

T0 = 50_000_000
SECONDS_TO_DONE = {"easy": 60, "medium": 40, "hard": 20}  # after the board's last change


def with_bots(levels, seed):
    room = R.new_room("BOTSXY", "host", "Hana", seed=seed)
    room, _ = R.step(room, R.Connect("host", "c1"), T0)
    for level in levels:
        room, _ = R.step(room, R.AddBot("host", level), T0)
    room, _ = R.step(room, R.ToGame("host"), T0)
    room, _ = R.step(room, R.Choose("host", "together", "mini"), T0)
    room, _ = R.step(room, R.Start("host", puzzle=MINI), T0)
    return room


def play_until(room, until, timeline):
    """Apply due events up to ``until``, noting (game ms, event) in ``timeline``."""
    while room.phase is R.Phase.PLAYING and (due := room.due_at()) is not None and due <= until:
        room, events = R.advance(room, due)
        timeline += [(room.game.clock.read(due), e) for e in events]
    return room


def test_each_bot_taps_done_within_its_levels_time_after_the_board_last_changed():
    """Hana fills in what the bots have not, with one wrong letter, and taps We're
    done; whatever the bots then fix, each taps it at most its level's time after the
    last change (a Hard bot on a right Mini used to take 28 s, often far longer)."""
    for level, seconds in SECONDS_TO_DONE.items():
        for seed in range(10):
            room = with_bots([level, level], seed)
            timeline = []
            room = play_until(room, T0 + 30_000, timeline)
            now = T0 + 30_000
            wrong = MINI.white_squares[seed % len(MINI.white_squares)]
            for sq in MINI.white_squares:
                letter = "Q" if sq == wrong else MINI.solution[sq]
                if room.game.board[sq].letter != letter:
                    room, events = R.step(room, R.Play("host", Type("host", sq, letter)), now)
                    timeline += [(30_000, e) for e in events]
            room, _ = R.step(room, R.Play("host", Done("host")), now)
            room = play_until(room, now + 30 * 60_000, timeline)
            assert room.phase is R.Phase.RESULTS, (level, seed)
            for bot in ("bot1", "bot2"):
                done = next(
                    ms
                    for ms, e in timeline
                    if isinstance(e, DoneChanged) and e.player == bot and e.done
                )
                last = max(ms for ms, e in timeline if isinstance(e, Changed) and ms <= done)
                assert done - last <= seconds * 1000, (level, seed, bot, done - last)


def fire_timers(service, clock, phone, code, until):
    """The Scheduler backstop, firing each due moment of the room up to ``until`` or
    until ``phone`` is told the boards were checked: the moment it was told, or None."""
    while code in service.timers.armed and service.timers.armed[code][0] <= until:
        at, version = service.timers.armed[code]
        clock.now = max(clock.now, at)
        service.timer(code, version)
        phone.take()
        if phone.room["phase"] == "results":
            return clock.now
    clock.now = max(clock.now, until)
    return None


def test_people_done_on_a_right_board_with_bots_hear_the_check_within_a_minute(
    service, phone, clock
):
    """Hana and Ann put the board right and tap We're done while an Easy and a Hard bot
    play with them: the check comes within a minute (it came 573 s later with two Hard
    bots on a Large, and not within 90 s with one Easy bot on a Small)."""
    for _ in range(6):  # six rooms, each with its own seed
        host, (ann,), code = start_game(
            phone, mode="together", guests=("Ann",), bots=("easy", "hard")
        )
        assert fire_timers(service, clock, host, code, clock.now + 20_000) is None  # bots play
        board = host.room["game"]["board"]
        for i, sq in enumerate(MINI.white_squares):
            if board[sq] != MINI.solution[sq]:
                (host, ann)[i % 2].send("type", square=sq, letter=MINI.solution[sq])
        host.send("done")
        ann.send("done")
        done_at = clock.now
        checked_at = fire_timers(service, clock, host, code, done_at + 30 * 60_000)
        assert host.room["game"]["board"] == MINI.solution
        assert checked_at is not None and checked_at - done_at <= 60_000, checked_at - done_at
