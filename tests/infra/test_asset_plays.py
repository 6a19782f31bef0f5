"""The asset that deploys plays whole games (the test that would have caught the missing
``requests``).

The asset is built as ``python3 infra/build_asset.py`` builds it (once per session: it
downloads the Lambda wheels from PyPI), the app is synthesized on it, and every function
of the template runs in its own clean interpreter of the runtime's Python (``-I -S``:
the staged asset and the standard library only) with the environment the template gives
it. Players are API Gateway events into those processes; what the functions post to
@connections, write to DynamoDB or arm in Scheduler lands in moto's server. The test
plays the Scheduler too: it invokes the timer function with a schedule's input once
the schedule's time has come, and Lambda's SQS event source: it hands the consumer
function what the frame queue delivers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from crossing.duel.game import RULES
from crossing.game_files import default_lexicon
from crossing.local.events import http_api_event, websocket_event
from crossing.tiles.board import Board
from crossing.tiles.movegen import generate

from infra import build_asset
from infra.functions import RUNTIME
from tests.infra.lambda_asset import PACKS, Cloud, Function, Synth, synth
from tests.rooms.fakes import apply_patch

WAIT_S = 90  # the longest a bot may think in these games (Scheduler's own slack aside)


@pytest.fixture(scope="session")
def built(lambda_python: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once per session, exactly as deploy builds it."""
    return build_asset.build(tmp_path_factory.mktemp("asset") / "lambda", lambda_python)


@pytest.fixture(scope="module")
def synthesized(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Synth:
    return synth(built, tmp_path_factory.mktemp("cdk.out"))


@pytest.fixture(scope="module")
def cloud(synthesized: Synth) -> Iterator[Cloud]:
    cloud = Cloud(synthesized.template)
    yield cloud
    cloud.stop()


@pytest.fixture(scope="module")
def functions(
    lambda_python: str,
    synthesized: Synth,
    cloud: Cloud,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Function]]:
    """Every function of the template, imported, by its handler less ``crossing.handlers.``."""
    logs = tmp_path_factory.mktemp("logs")
    started: dict[str, Function] = {}
    try:
        for logical, properties in synthesized.functions.items():
            env = cloud.environment(properties, logical)
            fn = Function(lambda_python, synthesized.staged, env, log=logs / f"{logical}.log")
            started[properties["Handler"].removeprefix("crossing.handlers.")] = fn
        yield started
    finally:
        for fn in started.values():
            fn.close()


def test_every_function_of_the_template_imports_its_handler_from_the_asset(
    synthesized: Synth, functions: dict[str, Function]
) -> None:
    handlers = sorted(p["Handler"] for p in synthesized.functions.values())
    assert handlers == [
        "crossing.handlers.connect.handler",
        "crossing.handlers.rules.handler",
        "crossing.handlers.solve.handler",
        "crossing.handlers.ws.consume",
        "crossing.handlers.ws.disconnect",
        "crossing.handlers.ws.message",
        "crossing.handlers.ws.timer",
    ]
    for properties in synthesized.functions.values():
        assert properties["Runtime"] == RUNTIME.name
    assert len(functions) == len(handlers)
    # The heavy Web Push stack stays out of every cold start (imported on the first send).
    for name, fn in functions.items():
        assert not {"pywebpush", "aiohttp", "requests"} & set(fn.modules), name
    # $connect's cold start: nothing of the rooms, no AWS client, pydantic or X-Ray SDK.
    heavy = {"crossing.rooms.service", "boto3", "botocore.client", "pydantic", "aws_xray_sdk"}
    assert not heavy & set(functions["connect.handler"].modules)


def deliver(cloud: Cloud, consume: Function) -> int:
    """Lambda's SQS event source: hand the consumer function what the frame queue gives
    (up to ten at a time), delete what it did not report failed. Returns the frames."""
    sqs = cloud.client("sqs")
    [url] = [u for u in cloud.queues.values() if "Frames" in u and "DeadLetters" not in u]
    done = 0
    while got := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages"):
        records = [
            {"messageId": m["MessageId"], "body": m["Body"], "eventSource": "aws:sqs"} for m in got
        ]
        answer = consume({"Records": records})
        assert answer == {"batchItemFailures": []}, answer
        for m in got:
            sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
        done += len(got)
    return done


class Phone:
    """One player's WebSocket: frames go to the message function (and those it queued for
    their room's writer, through the consumer), and what the functions posted to it is
    read back from moto's @connections."""

    count = 0

    def __init__(self, functions: dict[str, Function], cloud: Cloud) -> None:
        Phone.count += 1
        self.id = f"phone{Phone.count}Q="  # API Gateway ids end in '='
        self.functions, self.cloud = functions, cloud
        self.seq = self.read = self.queued = 0
        self.room: dict[str, Any] = {}
        self.game: dict[str, Any] = {}
        self.player: str | None = None
        connected = functions["connect.handler"](websocket_event("CONNECT", self.id))
        assert connected == {"statusCode": 200}

    def take(self) -> list[dict[str, Any]]:
        data = self.cloud.posted(self.id).decode()
        frames, decoder, at = [], json.JSONDecoder(), 0
        while at < len(data):
            frame, at = decoder.raw_decode(data, at)
            frames.append(frame)
        new, self.read = frames[self.read :], len(frames)
        for frame in new:
            if frame["type"] == "welcome":
                self.player = frame["player"]
            elif frame["type"] == "room":
                full = frame["full"]
                self.room = frame["room"] if full else apply_patch(self.room, frame["room"])
            elif frame["type"] == "duel":
                self.game = frame["game"]
        return new

    def send(self, action: str, **fields: Any) -> dict[str, Any]:
        """The frame's ack (an error fails the test)."""
        self.seq += 1
        body = json.dumps({"action": action, "seq": self.seq, **fields})
        result = self.functions["ws.message"](websocket_event("MESSAGE", self.id, body=body))
        assert result == {"statusCode": 200}
        self.queued += deliver(self.cloud, self.functions["ws.consume"])
        replies = [f for f in self.take() if f.get("seq") == self.seq]
        assert replies, f"no answer to {action}"
        assert replies[0]["type"] == "ack", replies[0]
        return replies[0]

    def hang_up(self) -> None:
        event = websocket_event("DISCONNECT", self.id)
        assert self.functions["ws.disconnect"](event) == {"statusCode": 200}

    @property
    def phase(self) -> str | None:
        return self.room.get("phase")

    @property
    def crossword(self) -> dict[str, Any]:
        return self.room.get("game") or {}


def fire_due_schedules(cloud: Cloud, timer: Function) -> int:
    """Scheduler's part: invoke the timer function with each due schedule's input."""
    scheduler = cloud.client("scheduler")
    fired = 0
    for group in scheduler.list_schedule_groups()["ScheduleGroups"]:
        for summary in scheduler.list_schedules(GroupName=group["Name"])["Schedules"]:
            schedule = scheduler.get_schedule(Name=summary["Name"], GroupName=group["Name"])
            at = schedule["ScheduleExpression"]  # at(yyyy-mm-ddThh:mm:ss), UTC
            when = datetime.strptime(at[3:-1], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
            if when.timestamp() <= time.time():
                # Its target is the timer function the template names (by ARN).
                assert schedule["Target"]["Arn"].endswith(":function:crossing-dev-timer")
                scheduler.delete_schedule(Name=summary["Name"], GroupName=group["Name"])
                assert timer(json.loads(schedule["Target"]["Input"]))["applied"] in (True, False)
                fired += 1
    return fired


def wait_for(check: Any, phone: Phone) -> None:
    """Play Scheduler until ``check()`` holds (bots think in real time here)."""
    end = time.monotonic() + WAIT_S
    while not check():
        assert time.monotonic() < end, "the game did not move on"
        time.sleep(0.5)
        fire_due_schedules(phone.cloud, phone.functions["ws.timer"])
        phone.take()


def whites(puzzle: dict[str, Any]) -> list[int]:
    return [s for s in range(puzzle["width"] * puzzle["height"]) if s not in puzzle["blocks"]]


def solution_of(puzzle: dict[str, Any]) -> str:
    for path in PACKS.glob("*.json"):
        for entry in json.loads(path.read_text())["puzzles"]:
            if entry["uniqueid"] == puzzle["id"]:
                return "".join(ch for row in entry["solution"] for ch in row)
    raise AssertionError(f"puzzle {puzzle['id']} is in no test pack")


@pytest.fixture
def play(functions: dict[str, Function], cloud: Cloud) -> Iterator[Any]:
    phones: list[Phone] = []

    def phone() -> Phone:
        made = Phone(functions, cloud)
        made.send("hello")
        phones.append(made)
        return made

    yield phone
    for made in phones:
        made.hang_up()


def test_two_players_race_a_mini_to_the_check(play: Any) -> None:
    hana, ann = play(), play()
    hana.send("host", name="Hana")
    ann.send("join", code=hana.room["code"], name="Ann")
    hana.send("to_game")
    hana.send("choose", mode="race", size="mini")
    hana.send("start")
    ann.take()
    assert ann.phase == "playing"
    squares = whites(ann.crossword["puzzle"])
    for square in squares:  # Ann fills her board with A: surely some mistakes
        ann.send("type", square=square, letter="A")
    assert ann.queued, "the letters went through the frame queue"
    hana.take()
    assert len(hana.crossword["progress"][ann.player]["filled"]) == len(squares)
    ann.send("done")
    hana.send("done")
    for phone in (hana, ann):
        phone.take()
        assert phone.phase == "results"
    standings = ann.crossword["result"]["standings"]
    assert {s["player"] for s in standings} == {hana.player, ann.player}


def test_a_together_game_with_a_bot_reaches_the_check(play: Any) -> None:
    hana = play()
    hana.send("host", name="Hana")
    hana.send("add_bot", level="hard")
    hana.send("to_game")
    hana.send("choose", mode="together", size="mini")
    hana.send("start")
    puzzle = hana.crossword["puzzle"]
    answer = solution_of(puzzle)
    for square in whites(puzzle):
        hana.send("type", square=square, letter=answer[square])
    hana.send("done")
    # The bot finds the board full and right at its next turn, armed in Scheduler: only
    # the timer function can end this game.
    wait_for(lambda: hana.phase == "results", hana)
    players = {s["player"] for s in hana.crossword["result"]["standings"]}
    assert hana.player in players and len(players) == 2


def test_a_duel_move_against_a_bot_and_its_answer(play: Any) -> None:
    ann = play()
    ann.send("duel_bot", level="hard", limit=5 * 60_000, name="Ann")
    ann.take()
    you = ann.game["you"]
    wait_for(lambda: ann.game["turn"] == you, ann)  # the bot may open
    moves = len(ann.game["moves"])
    board = Board(tuple(ann.game["board"]))
    best = generate(board, ann.game["rack"], RULES, default_lexicon(), top=1)[0]
    ann.send(
        "duel_play", tiles=[{"row": t.row, "col": t.col, "letter": t.letter} for t in best.tiles]
    )
    assert ann.game["moves"][moves]["score"] == best.score
    wait_for(lambda: len(ann.game["moves"]) == moves + 2, ann)  # the bot's answer
    assert ann.game["moves"][-1]["seat"] != you


def test_the_solver_functions_answer(functions: dict[str, Function]) -> None:
    body = json.dumps({"rules": "crossplay", "rack": "RETAINS", "top": 3}).encode()
    event = http_api_event("POST", "/api/solve", {"content-type": "application/json"}, body)
    answer = functions["solve.handler"](event)
    assert answer["statusCode"] == 200, answer
    assert json.loads(answer["body"])["plays"]
    rules = functions["rules.handler"](http_api_event("GET", "/api/rules", {}, b""))
    assert rules["statusCode"] == 200
    assert "AA" in json.loads(rules["body"])["two_letter_words"]
