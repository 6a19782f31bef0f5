"""Secrecy, as a property: before the check, what a viewer is sent does not depend on
what they may not know (hypothesis builds the games).

Two rooms are played with the same moves; they differ only in hidden state:
- the answers (same grid and clues, another solution), so who earned what in Together
  and which letters are right differ too;
- in a race, every other racer's letters (the same squares, other letters).
Every view a phone or a watch screen gets must be the same in both, until the check.
"""

from __future__ import annotations

import string
from dataclasses import replace

import pytest
from crossing.crossword.commands import Clear, Done, Refused, TakeBack, Type, Undo
from crossing.rooms import room as R
from crossing.rooms.views import view
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.crossword.puzzles import MINI

T0 = 10_000_000
PLAYERS = ("host", "ann", "bob")
WHITE = [sq for sq, ch in enumerate(MINI.solution) if ch != "#"]
RIGHT = "right"  # in a script: type the real answer's letter at that square


def shifted(letter: str, by: int) -> str:
    return string.ascii_uppercase[(string.ascii_uppercase.index(letter) + by) % 26]


def other_answers(by: int):
    """MINI with every answer letter shifted: a different, equally hidden solution."""
    solution = "".join(ch if ch == "#" else shifted(ch, by) for ch in MINI.solution)
    return replace(MINI, solution=solution)


def playing(mode: str, puzzle, bots: tuple[str, ...]) -> R.Room:
    room = R.new_room("QWERTY", "host", "Hana", seed=3)
    room, _ = R.step(room, R.Connect("host", "c-host"), T0)
    for g in PLAYERS[1:]:
        room, _ = R.step(room, R.JoinRoom(g, g.title()), T0)
        room, _ = R.step(room, R.Connect(g, f"c-{g}"), T0)
    for level in bots:
        room, _ = R.step(room, R.AddBot("host", level), T0)
    for action in (R.ToGame("host"), R.Choose("host", mode, "mini"), R.Start("host", puzzle)):
        room, _ = R.step(room, action, T0)
    return room


moves = st.lists(
    st.tuples(
        st.sampled_from(PLAYERS),
        st.sampled_from(["type", "type", "type", "clear", "undo", "done", "take_back"]),
        st.sampled_from(WHITE),
        # Mostly the real answer's letter, so words get finished and credit is earned.
        st.one_of(st.just(RIGHT), st.just(RIGHT), st.sampled_from(string.ascii_uppercase)),
        st.integers(min_value=0, max_value=4000),  # ms since the last move
    ),
    max_size=60,
)


def command(player: str, kind: str, square: int, letter: str):
    return {
        "type": Type(player, square, letter),
        "clear": Clear(player, square),
        "undo": Undo(player),
        "done": Done(player),
        "take_back": TakeBack(player),
    }[kind]


def play_both(mode, viewer, shift, bots, script, *, hide_others, shown=view):
    """Play ``script`` in a room with the real answers and in one with other answers (and,
    in a race with ``hide_others``, every other racer typing other letters); yield both
    rooms' views for ``viewer`` after every move, while neither game has been checked."""
    rooms = [playing(mode, MINI, bots), playing(mode, other_answers(shift), bots)]
    now = T0
    for player, kind, square, letter, wait_ms in script:
        now += wait_ms
        letter = MINI.solution[square] if letter == RIGHT else letter
        outcomes = []
        for i, room in enumerate(rooms):
            typed = letter
            if i == 1 and hide_others and player != viewer:
                typed = shifted(letter, shift)
            try:
                rooms[i], _ = R.step(
                    room, R.Play(player, command(player, kind, square, typed)), now
                )
                outcomes.append("ok")
            except Refused as refusal:
                outcomes.append(refusal.code)
        assert outcomes[0] == outcomes[1]  # a refusal must not depend on the answers either
        if any(room.game is not None and room.game.over for room in rooms):
            return
        yield [shown(room, viewer, now) for room in rooms]


@settings(max_examples=150, deadline=None)
@given(
    mode=st.sampled_from(["race", "together"]),
    viewer=st.sampled_from([*PLAYERS, None]),
    shift=st.integers(min_value=1, max_value=25),
    script=moves,
)
def test_a_view_before_the_check_does_not_depend_on_the_answers(mode, viewer, shift, script):
    for real, other in play_both(mode, viewer, shift, (), script, hide_others=False):
        assert real == other


@settings(max_examples=150, deadline=None)
@given(
    viewer=st.sampled_from([*PLAYERS, None]),
    shift=st.integers(min_value=1, max_value=25),
    bots=st.sampled_from([(), ("easy",), ("hard", "medium")]),
    script=moves,
)
def test_a_race_view_does_not_depend_on_other_racers_letters(viewer, shift, bots, script):
    for real, other in play_both("race", viewer, shift, bots, script, hide_others=True):
        assert real == other


def test_the_property_sees_a_leak():
    """The comparison is not blind: a view that let Together credit out (as a new field
    added carelessly would) differs between the two rooms for the same moves."""

    def leaky(room, viewer, now):
        return view(room, viewer, now) | {"credit": sorted(room.game.earned)}

    script = [("ann", "type", sq, MINI.solution[sq], 100) for sq in MINI.grid.slot("1a").squares]
    pairs = list(play_both("together", "ann", 1, (), script, hide_others=False, shown=leaky))
    assert pairs[-1][0] != pairs[-1][1]


def test_a_field_off_the_allow_list_never_leaves(monkeypatch):
    """Secrecy by structure: a new field in a live view, not on the allow-list of
    ``view_models``, stops the view from being built at all."""
    import crossing.rooms.views as views

    original = views._together_view
    monkeypatch.setattr(
        views, "_together_view", lambda game, now: original(game, now) | {"credit": {}}
    )
    room = playing("together", MINI, ())
    with pytest.raises(ValueError, match="credit"):
        view(room, "ann", T0)
    with pytest.raises(ValueError, match="solution"):  # nor may a puzzle carry its answers
        views.allowed_puzzle(views.puzzle_view(MINI) | {"solution": MINI.solution})
