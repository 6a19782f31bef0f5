"""Inside a crossword room: which room action a message is, applied by the room's writer
(``RoomWriter.mutate``). A start reads the room first, to deal by its size."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crossing.crossword.commands import (
    Clear,
    Done,
    End,
    Pause,
    Refused,
    Resume,
    TakeBack,
    Type,
    Undo,
)
from crossing.rooms import protocol as P
from crossing.rooms import room as R
from crossing.rooms.sent import Sent
from crossing.rooms.writer import Change, RoomWriter, room_step

_GAME_COMMANDS: dict[str, Callable[[str], Any]] = {
    "undo": Undo,
    "done": Done,
    "take_back": TakeBack,
    "pause": lambda p: Pause(),
    "resume": lambda p: Resume(),
    "end": lambda p: End(),
}


class RoomActions:
    def __init__(self, rooms: RoomWriter) -> None:
        self.rooms = rooms

    def act(self, connection: str, code: str, player: str, message: Any, arrived: int) -> Sent:
        """A message for the crossword room the connection is in."""
        rooms = self.rooms
        if code and message.action == "snapshot":  # a watch screen may ask too (no player)
            return rooms.snapshot(connection, code, player or None)
        if not code or not player:
            raise Refused("no-room", "Join or host a room first.")
        if message.action == "tick":
            # Checked against the server's own clock: an early or forged tick does nothing,
            # but it counts against the pace and is always acknowledged.
            return rooms.mutate(
                code,
                lambda room, now: R.advance(room, now),
                connection=connection,
                seq=message.seq,
                player=player,
                arrived=arrived,
            )
        if isinstance(message, P.Start):
            start, puzzle = rooms.start_action(code, player, message)
            sent = rooms.mutate(
                code,
                lambda room, now: R.step(room, start(room), now),
                connection=connection,
                seq=message.seq,
                player=player,
                arrived=arrived,
            )
            if puzzle is not None:  # the start was written: now the deal counts as seen
                rooms.dealt(player, puzzle, message.dealt)
            return sent
        action = _room_action(player, message)
        return rooms.mutate(
            code, action, connection=connection, seq=message.seq, player=player, arrived=arrived
        )


def _room_action(player: str, m: Any) -> Change:
    """The room action for an in-room message, resolved against the room as loaded."""
    match m.action:
        case "type":
            return _play(player, Type(player, m.square, m.letter))
        case "clear":
            return _play(player, Clear(player, m.square))
        case "rename":
            return room_step(R.Rename(player, m.name))
        case "add_bot":
            return room_step(R.AddBot(player, m.level))
        case "remove_bot":
            return room_step(R.RemoveBot(player, m.bot))
        case "to_game":
            return room_step(R.ToGame(player))
        case "to_lobby":
            return room_step(R.ToLobby(player))
        case "choose":
            return room_step(R.Choose(player, m.mode, m.size))
        case "close":
            return room_step(R.Close(player))
        case name if name in _GAME_COMMANDS:
            return _play(player, _GAME_COMMANDS[name](player))
    raise Refused("unknown", f"Unknown action {m.action!r}.")


def _play(player: str, command: Any) -> Change:
    return room_step(R.Play(player, command))
