"""Duel: a one-on-one, turn-based tile game with chess clocks.

98 tiles, no blanks, the standard premium board; a play is scored by the tile
engine's ``duel`` rule set (tiles-used and words-formed bonuses). Each player has
a total time that runs only on their turn; a player out of time gets no more
turns and the other plays on. Pure: ``step(duel, command, now)``; the bag's order
comes from the seed kept in the state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from crossing.clock import Clock
from crossing.refusals import Refused
from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.play import IllegalPlay, NewTile, check_play
from crossing.tiles.rules import get_rules
from crossing.tiles.scoring import score_play

RULES = get_rules("duel")
RACK_SIZE = RULES.rack_size
ZERO_TURNS_TO_END = 4  # four consecutive zero-score turns, two each

# Each way a game ends, as ``Result.reason``.
ENDINGS = {
    "tiles": "the bag is empty and a player has played out their rack",
    "time": "both flags have fallen",
    "resigned": "a player resigned",
    "zeros": "four turns in a row scored nothing, two by each player",
    "zeros_alone": "one flag had fallen and the player left scored nothing two turns in a row",
}


@dataclass(frozen=True)
class Seat:
    player: str
    rack: str  # letters, sorted
    score: int = 0
    clock: Clock = field(default_factory=Clock)  # time used: runs only on their own turn
    out_of_time: bool = False


@dataclass(frozen=True)
class Turn:
    """One entry of the move list."""

    player: str
    kind: str  # "play" | "swap" | "skip" | "resign" | "time"
    score: int = 0
    words: tuple[str, ...] = ()
    tiles: tuple[tuple[int, int, str], ...] = ()  # (row, col, letter), 0-based
    at: str = ""  # a play's main word: "8H" across from row 8 column H, "H8" down


@dataclass(frozen=True)
class Result:
    reason: str  # "tiles" | "time" | "resigned" | "zeros" | "zeros_alone" (see ENDINGS)
    winner: str | None  # None for a draw
    scores: tuple[int, int]


@dataclass(frozen=True)
class Duel:
    seats: tuple[Seat, Seat]
    board: Board
    bag: str  # tiles still in the bag, in the order they will be drawn
    limit_ms: int | None  # each player's total time; None is unlimited
    seed: int
    turn: int = 0  # index of the seat whose turn it is
    zero_turns: int = 0  # consecutive turns that scored nothing
    moves: tuple[Turn, ...] = ()
    result: Result | None = None

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def to_move(self) -> str:
        return self.seats[self.turn].player

    def seat_of(self, player: str) -> int:
        for i, seat in enumerate(self.seats):
            if seat.player == player:
                return i
        raise Refused("not-a-player", "You are not in this game.")

    def time_left(self, player: str, now: int) -> int | None:
        if self.limit_ms is None:
            return None
        return max(0, self.limit_ms - self.seats[self.seat_of(player)].clock.read(now))

    def due_at(self) -> int | None:
        """When the player to move runs out of time (their flag falls)."""
        if self.over or self.limit_ms is None:
            return None
        return self.seats[self.turn].clock.reaches_at(self.limit_ms)

    def tiles_in_play(self) -> Counter[str]:
        """Every tile in the game: the racks, the bag and the board (always the 98)."""
        on_board = Counter(ch.upper() for row in self.board.rows for ch in row if ch != ".")
        return Counter(self.bag) + on_board + sum((Counter(s.rack) for s in self.seats), Counter())


def square_name(row: int, col: int, direction: str) -> str:
    """Where a word starts, as players write it: row number first for across ("8H"),
    column letter first for down ("H8")."""
    letter, number = chr(ord("A") + col), str(row + 1)
    return number + letter if direction == "across" else letter + number


def full_bag() -> str:
    return "".join(letter * count for letter, count in sorted(RULES.counts.items()))


def start_duel(players: Sequence[str], now: int, *, seed: int, limit_ms: int | None = None) -> Duel:
    """Shuffle the bag from the seed, deal two racks, start the first player's clock."""
    if len(players) != 2 or players[0] == players[1]:
        raise Refused("two-players", "A duel is between two players.")
    if limit_ms is not None and limit_ms <= 0:
        raise Refused("bad-limit", "A time limit must be more than zero (or unlimited).")
    tiles = list(full_bag())
    random.Random(f"duel:{seed}").shuffle(tiles)
    bag = "".join(tiles)
    first, second = bag[:RACK_SIZE], bag[RACK_SIZE : 2 * RACK_SIZE]
    seats = (
        Seat(players[0], "".join(sorted(first)), clock=Clock().start(now)),
        Seat(players[1], "".join(sorted(second))),
    )
    return Duel(seats, Board.empty(), bag[2 * RACK_SIZE :], limit_ms, seed)


# --- commands -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    player: str
    tiles: tuple[tuple[int, int, str], ...]  # (row, col, letter), 0-based


@dataclass(frozen=True)
class Swap:
    player: str
    letter: str


@dataclass(frozen=True)
class Skip:
    player: str


@dataclass(frozen=True)
class Resign:
    player: str


@dataclass(frozen=True)
class Tick:
    pass


DuelCommand = Place | Swap | Skip | Resign | Tick


def step(duel: Duel, command: DuelCommand, now: int, lexicon: Lexicon) -> tuple[Duel, list[Turn]]:
    """Apply a flag fall that is due, then the command. Returns the turns it made."""
    duel, made = advance(duel, now)
    if isinstance(command, Tick):
        return duel, made
    if duel.over:
        raise Refused("over", "The game is over.")
    match command:
        case Resign(player):
            i = duel.seat_of(player)
            turn = Turn(player, "resign")
            winner = duel.seats[1 - i].player
            duel = _end(replace(duel, moves=(*duel.moves, turn)), now, "resigned", winner)
            return duel, [*made, turn]
        case Place(player, tiles):
            _their_turn(duel, player)
            duel, turn = _place(duel, tiles, now, lexicon)
        case Swap(player, letter):
            _their_turn(duel, player)
            duel, turn = _swap(duel, letter, now)
        case Skip(player):
            _their_turn(duel, player)
            turn = Turn(player, "skip")
            duel = _next(replace(duel, moves=(*duel.moves, turn)), 0, now)
        case _:
            raise Refused("unknown", f"A duel does not take {type(command).__name__}.")
    return duel, [*made, turn]


def advance(duel: Duel, now: int) -> tuple[Duel, list[Turn]]:
    """A flag that fell before ``now`` falls, as of the moment it fell."""
    made = []
    while (due := duel.due_at()) is not None and due <= now:
        i = duel.turn
        seat = replace(duel.seats[i], out_of_time=True, clock=duel.seats[i].clock.stop(due))
        turn = Turn(seat.player, "time")
        # From here only the player left counts zero turns: two of their own in a row.
        duel = replace(
            duel, seats=with_seat(duel.seats, i, seat), moves=(*duel.moves, turn), zero_turns=0
        )
        made.append(turn)
        if all(s.out_of_time for s in duel.seats):
            duel = _end(duel, due, "time")
        else:
            duel = _pass_turn(duel, due)
    return duel, made


def _their_turn(duel: Duel, player: str) -> None:
    i = duel.seat_of(player)
    if duel.seats[i].out_of_time:
        raise Refused("out-of-time", "Your time is up: you have no more turns.")
    if i != duel.turn:
        raise Refused("not-your-turn", "It is not your turn.")


def _place(
    duel: Duel, tiles: Sequence[tuple[int, int, str]], now: int, lexicon: Lexicon
) -> tuple[Duel, Turn]:
    seat = duel.seats[duel.turn]
    new = [NewTile(r, c, str(letter).upper(), False) for r, c, letter in tiles]
    try:
        play = check_play(duel.board, new, lexicon, rack=seat.rack)
    except IllegalPlay as error:
        message = str(error)
        raise Refused("illegal-play", message[0].upper() + message[1:] + ".") from None
    scored = score_play(duel.board, play, RULES)
    board = duel.board.with_tiles((t.row, t.col, t.letter) for t in play.tiles)
    kept = "".join((Counter(seat.rack) - Counter(t.letter for t in play.tiles)).elements())
    drawn, bag = duel.bag[: len(play.tiles)], duel.bag[len(play.tiles) :]
    seat = replace(seat, rack="".join(sorted(kept + drawn)), score=seat.score + scored.total)
    turn = Turn(
        seat.player,
        "play",
        scored.total,
        tuple(w.word for w in scored.words),
        tuple((t.row, t.col, t.letter) for t in play.tiles),
        square_name(play.main.row, play.main.col, play.main.direction),
    )
    duel = replace(
        duel,
        board=board,
        bag=bag,
        seats=with_seat(duel.seats, duel.turn, seat),
        moves=(*duel.moves, turn),
    )
    if not bag and not seat.rack:
        return _end(duel, now, "tiles"), turn
    return _next(duel, scored.total, now), turn


def _swap(duel: Duel, letter: str, now: int) -> tuple[Duel, Turn]:
    seat = duel.seats[duel.turn]
    letter = str(letter).upper()
    if letter not in seat.rack:
        raise Refused("not-on-rack", f"There is no {letter!r} on your rack to swap.")
    if not duel.bag:
        raise Refused("bag-empty", "The bag is empty: there is nothing to swap for.")
    # The tile goes back to a place in the bag fixed by the seed and the move number.
    spot = random.Random(f"swap:{duel.seed}:{len(duel.moves)}").randrange(len(duel.bag) + 1)
    drawn, rest = duel.bag[0], duel.bag[1:]
    bag = rest[:spot] + letter + rest[spot:]
    rack = seat.rack.replace(letter, "", 1) + drawn
    seat = replace(seat, rack="".join(sorted(rack)))
    turn = Turn(seat.player, "swap")
    duel = replace(
        duel, bag=bag, seats=with_seat(duel.seats, duel.turn, seat), moves=(*duel.moves, turn)
    )
    return _next(duel, 0, now), turn


def _next(duel: Duel, score: int, now: int) -> Duel:
    """After a turn: count zero-score turns, end on the fourth, else pass the turn."""
    zeros = duel.zero_turns + 1 if score == 0 else 0
    duel = replace(duel, zero_turns=zeros)
    playing = sum(not s.out_of_time for s in duel.seats)
    if zeros >= ZERO_TURNS_TO_END:
        return _end(duel, now, "zeros")
    # With one player out of time "two each" cannot happen: two of the other's own.
    if playing == 1 and zeros >= ZERO_TURNS_TO_END // 2:
        return _end(duel, now, "zeros_alone")
    return _pass_turn(duel, now)


def _pass_turn(duel: Duel, now: int) -> Duel:
    """The other player moves, unless their time is up: then the same player again."""
    i = duel.turn
    other = 1 - i
    nxt = i if duel.seats[other].out_of_time else other
    seats = with_seat(duel.seats, i, replace(duel.seats[i], clock=duel.seats[i].clock.stop(now)))
    seats = with_seat(seats, nxt, replace(seats[nxt], clock=seats[nxt].clock.start(now)))
    return replace(duel, seats=seats, turn=nxt)


def _end(duel: Duel, now: int, reason: str, winner: str | None = None) -> Duel:
    first, second = (replace(s, clock=s.clock.stop(now)) for s in duel.seats)
    a, b = first.score, second.score
    if winner is None and a != b:
        winner = first.player if a > b else second.player
    return replace(duel, seats=(first, second), result=Result(reason, winner, (a, b)))


def with_seat(seats: tuple[Seat, Seat], i: int, seat: Seat) -> tuple[Seat, Seat]:
    return (seat, seats[1]) if i == 0 else (seats[0], seat)
