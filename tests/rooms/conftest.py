import random

import pytest
from crossing.crossword.sizes import Size
from crossing.rooms.service import RoomService

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import (
    Clock,
    ListPacks,
    ManualTimers,
    MemoryStore,
    Phone,
    RecordingConnections,
)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def service(clock):
    return RoomService(
        MemoryStore(),
        RecordingConnections(),
        ManualTimers(),
        ListPacks({Size.MINI: [MINI]}),
        clock=clock,
        rng=random.Random(7),
        sleep=lambda seconds: None,
    )


@pytest.fixture
def phone(service):
    count = iter(range(1000))

    def make(name=None):
        p = Phone(service, f"conn-{next(count)}")
        p.send("hello")
        return p

    return make
