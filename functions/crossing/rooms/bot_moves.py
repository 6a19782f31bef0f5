"""Duel bots' moves chosen ahead, off the rooms' thread.

A bot's move falls due a moment after the human's (``bots.think_ms``), and choosing it
is a search of the board (``bots.choose``). Where the server has threads to spare (the
local stack), the search starts as soon as a write leaves a bot to move, on one of
them, so the round that applies the move finds it made and no room waits on it. The
choice is the same whoever makes it (it depends only on the game), so a move not ready
in time, or asked for after a restart, is chosen then, in the step, as before.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from crossing.duel import bots
from crossing.duel.game import Duel, DuelCommand
from crossing.duel.match import Match
from crossing.tiles.lexicon import Lexicon

READY_KEPT = 1000  # moves chosen ahead and not yet taken, the latest kept

Key = tuple[int, int, str]


class BotMoves:
    def __init__(self, lexicon: Lexicon, think: Callable[[Callable[[], None]], Any] | None) -> None:
        """``think`` runs a function on another thread (None: every move is chosen in
        its step, as on Lambda, whose invocation has nothing else to do meanwhile)."""
        self.lexicon = lexicon
        self.think = think
        self._ready: OrderedDict[Key, tuple[Duel, DuelCommand]] = OrderedDict()
        self._asked: set[Key] = set()
        self.taken = 0  # moves a step found made ahead (for the tests)

    def prepare(self, match: Match) -> None:
        """Start choosing the move of the bot to move, if one is to move."""
        if self.think is None or match.over or match.bot_due is None:
            return
        duel = match.duel
        level = match.players[duel.turn].bot
        if level is None:
            return
        key = _key(duel, level)
        if key in self._ready or key in self._asked:
            return
        self._asked.add(key)
        self.think(lambda: self._choose(key, duel, level))

    def _choose(self, key: Key, duel: Duel, level: str) -> None:
        try:
            self._ready[key] = (duel, bots.choose(duel, level, self.lexicon))
            while len(self._ready) > READY_KEPT:
                self._ready.popitem(last=False)
        finally:
            self._asked.discard(key)

    def choose(self, duel: Duel, level: str, lexicon: Lexicon) -> DuelCommand:
        """``bots.choose``, from the move made ahead where it was made for this game as
        it is now."""
        ready = self._ready.pop(_key(duel, level), None)
        if ready is not None and ready[0] == duel:
            self.taken += 1
            return ready[1]
        return bots.choose(duel, level, lexicon)


def _key(duel: Duel, level: str) -> Key:
    return (duel.seed, len(duel.moves), level)
