"""Timers, Connections and Packs: each fake keeps the same contract as its AWS adapter.

(The Store's contract is test_store_contract.py; the local SQLite timers keep this one
too.) A Gone connection is not here: moto's management API never answers 410;
test_gateway.py stubs it instead.
"""

from __future__ import annotations

import json

import pytest
from crossing.aws.gateway import ApiGatewayConnections
from crossing.aws.memory import ManualTimers, MemoryPacks, RecordingConnections
from crossing.aws.packs import FilePacks, S3Packs, parse_pack
from crossing.aws.timers import SchedulerTimers
from crossing.crossword.sizes import Size
from crossing.local.sqlite import SqliteTimers
from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends
from moto.core import DEFAULT_ACCOUNT_ID

from tests.aws.conftest import PACKS, REGION

NOW = 1_800_000_000_000


class SchedulerProbe:
    """A SchedulerTimers on moto, and what its schedules say."""

    def __init__(self, boto_session):
        self.client = boto_session.client("scheduler")
        self.client.create_schedule_group(Name="contract")
        self.timers = SchedulerTimers(
            "contract", "arn:target", "arn:role", client=self.client, clock=lambda: NOW / 1000
        )

    def pending(self) -> dict[str, int]:
        names = [s["Name"] for s in self.client.list_schedules(GroupName="contract")["Schedules"]]
        payloads = [
            json.loads(self.client.get_schedule(GroupName="contract", Name=n)["Target"]["Input"])
            for n in names
        ]
        return {p["room"]: p["version"] for p in payloads}


class ManualProbe:
    def __init__(self):
        self.timers = ManualTimers()

    def pending(self) -> dict[str, int]:
        return {room: version for room, (_, version) in self.timers.armed.items()}


class SqliteProbe:
    def __init__(self, db):
        self.timers = SqliteTimers(db)

    def pending(self) -> dict[str, int]:
        return {room: version for room, (_, version) in self.timers.pending().items()}


@pytest.fixture(params=["manual", "scheduler", "sqlite"])
def probe(request):
    if request.param == "manual":
        return ManualProbe()
    if request.param == "sqlite":
        return SqliteProbe(request.getfixturevalue("sqlite_db"))
    request.getfixturevalue("aws")
    return SchedulerProbe(request.getfixturevalue("boto_session"))


def test_timers_keep_one_pending_schedule_per_room(probe):
    timers = probe.timers
    timers.arm("ABCD", NOW + 60_000, 3)
    timers.arm("WXYZ", NOW + 90_000, 1)
    timers.arm("ABCD", NOW + 30_000, 5)
    assert probe.pending() == {"ABCD": 5, "WXYZ": 1}
    timers.disarm("ABCD")
    timers.disarm("ABCD")
    timers.disarm("NONE")
    assert probe.pending() == {"WXYZ": 1}


ENDPOINT = f"https://contract.execute-api.{REGION}.amazonaws.com/prod"


@pytest.fixture(params=["recording", "gateway"])
def connections(request):
    """(connections, read) where read(id) gives the messages that connection received."""
    if request.param == "recording":
        fake = RecordingConnections()
        return fake, fake.messages
    request.getfixturevalue("aws")
    client = request.getfixturevalue("boto_session").client(
        "apigatewaymanagementapi", endpoint_url=ENDPOINT
    )
    backend = apigatewaymanagementapi_backends[DEFAULT_ACCOUNT_ID][REGION]

    def read(connection: str) -> list[dict]:
        raw = backend.connections[connection].data.decode()
        decoder, messages, at = json.JSONDecoder(), [], 0
        while at < len(raw):
            message, at = decoder.raw_decode(raw, at)
            messages.append(message)
        return messages

    return ApiGatewayConnections(ENDPOINT, client=client), read


def test_connections_deliver_json_in_order(connections):
    sender, read = connections
    assert sender.send("c1", {"type": "typed", "letter": "Ñ", "at": (1, 2)}) is True
    assert sender.send("c1", {"type": "tick", "version": 7}) is True
    assert read("c1") == [
        {"type": "typed", "letter": "Ñ", "at": [1, 2]},
        {"type": "tick", "version": 7},
    ]
    with pytest.raises(ValueError, match="Out of range float"):
        sender.send("c1", {"bad": float("inf")})


@pytest.fixture(params=["memory", "files", "s3"])
def packs(request):
    if request.param == "files":
        return FilePacks(PACKS)
    if request.param == "memory":
        mini, small = (
            parse_pack(json.loads((PACKS / f"{size}.json").read_text()), Size(size), size)
            for size in ("mini", "small")
        )
        return MemoryPacks([*small, *mini])  # filed by width, whatever the order given
    request.getfixturevalue("aws")
    s3 = request.getfixturevalue("boto_session").client("s3")
    s3.create_bucket(Bucket="contract")
    for size in ("mini", "small"):
        s3.put_object(
            Bucket="contract", Key=f"packs/{size}.json", Body=(PACKS / f"{size}.json").read_bytes()
        )
    return S3Packs("contract", client=s3)


def test_packs_give_every_puzzle_of_a_size_in_a_stable_order(packs):
    mini = packs.puzzles(Size.MINI)
    assert [p.id for p in mini] == ["pack-mini-1", "pack-mini-2", "pack-mini-3", "pack-mini-4"]
    assert [p.id for p in packs.puzzles(Size.MINI)] == [p.id for p in mini]
    assert [p.id for p in packs.puzzles(Size.SMALL)] == ["pack-small-1"]
    assert list(packs.puzzles(Size.LARGE)) == []
