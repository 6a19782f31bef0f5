"""A phone that plays Duel through the service, as the Duel page does."""

from __future__ import annotations

from typing import Any

from crossing.duel.game import RULES
from crossing.game_files import default_lexicon
from crossing.tiles.board import Board
from crossing.tiles.movegen import generate

from tests.rooms.fakes import Phone


class DuelPhone(Phone):
    """Keeps the last lobby list and the last game it was sent."""

    def __init__(self, service, connection):
        super().__init__(service, connection)
        self.lobby: dict[str, Any] = {}
        self.game: dict[str, Any] = {}
        self.welcome: dict[str, Any] = {}

    def take(self) -> list[dict]:
        new = super().take()
        for message in new:
            if message["type"] == "lobby":
                self.lobby = message
            elif message["type"] == "duel":
                self.game, self.version = message["game"], message["version"]
            elif message["type"] == "welcome":
                self.welcome = message
        return new

    @property
    def seat(self) -> int:
        return self.game["you"]

    @property
    def my_turn(self) -> bool:
        return self.game["turn"] == self.seat

    def best_play(self) -> list[dict]:
        """The top play for this phone's rack, found as the Solver would."""
        board = Board(tuple(self.game["board"]))
        move = generate(board, self.game["rack"], RULES, default_lexicon(), top=1)[0]
        return [{"row": t.row, "col": t.col, "letter": t.letter} for t in move.tiles]


def duel_phone_maker(service):
    count = iter(range(10_000))

    def make() -> DuelPhone:
        p = DuelPhone(service, f"duel-conn-{next(count)}")
        p.send("hello")
        return p

    return make


def errors(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["type"] == "error"]
