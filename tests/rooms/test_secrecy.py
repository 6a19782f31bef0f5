"""Secrecy, as a property: before the check, what a viewer is sent does not depend on
what they may not know (hypothesis builds the games).

Two rooms are played with the same moves; they differ only in hidden state:
- the answers (same grid and clues, another solution), so who earned what in Together
  and which letters are right differ too;
- in a race, every other racer's letters (the same squares, other letters).
Every view a phone or a watch screen gets must be the same in both, until the check.
The moves include whole words typed right, so Together words are earned in most games.
"""

from __future__ import annotations

import string
from dataclasses import replace

import pytest
from crossing.crossword.commands import Clear, Done, Refused, TakeBack, Type, Undo
from crossing.rooms import room as R
from crossing.rooms.views import view
from hypothesis import Phase, find, given, settings
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


def a_move(player, kind, square, letter, wait_ms):
    return [(player, kind, square, letter, wait_ms)]


def a_word(player, slot_id, wait_ms):
    """One player typing a whole slot's answer: finished words (and in Together, earned
    ones) come often, which single letters at random squares almost never give."""
    return [(player, "type", sq, RIGHT, wait_ms) for sq in MINI.grid.slot(slot_id).squares]


moves = st.lists(
    st.one_of(
        st.builds(
            a_move,
            st.sampled_from(PLAYERS),
            st.sampled_from(["type", "type", "type", "clear", "undo", "done", "take_back"]),
            st.sampled_from(WHITE),
            # Mostly the real answer's letter: right letters that the other room has wrong.
            st.one_of(st.just(RIGHT), st.just(RIGHT), st.sampled_from(string.ascii_uppercase)),
            st.integers(min_value=0, max_value=4000),  # ms since the last move
        ),
        st.builds(
            a_word,
            st.sampled_from(PLAYERS),
            st.sampled_from([s.id for s in MINI.slots]),
            st.integers(min_value=0, max_value=4000),
        ),
    ),
    max_size=30,
).map(lambda parts: [move for part in parts for move in part])


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


def first_difference(mode, viewer, shift, bots, script, *, hide_others, shown=view):
    """The first pair of views (real, other) that differ between the two rooms of
    ``play_both``, or None: the check the properties make, and the leak test breaks."""
    for real, other in play_both(
        mode, viewer, shift, bots, script, hide_others=hide_others, shown=shown
    ):
        if real != other:
            return real, other
    return None


EXAMPLES = 150  # each property's budget; the leak test holds the generator to the same
viewers = st.sampled_from([*PLAYERS, None])
shifts = st.integers(min_value=1, max_value=25)


@pytest.mark.parametrize("mode", ["race", "together"])
@settings(max_examples=EXAMPLES, deadline=None)
@given(viewer=viewers, shift=shifts, script=moves)
def test_a_view_before_the_check_does_not_depend_on_the_answers(mode, viewer, shift, script):
    assert first_difference(mode, viewer, shift, (), script, hide_others=False) is None


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    viewer=viewers,
    shift=shifts,
    bots=st.sampled_from([(), ("easy",), ("hard", "medium")]),
    script=moves,
)
def test_a_race_view_does_not_depend_on_other_racers_letters(viewer, shift, bots, script):
    assert first_difference("race", viewer, shift, bots, script, hide_others=True) is None


def with_game(shown, **fields):
    return shown | {"game": shown["game"] | fields}


def a_credit_field(room, viewer, now):
    return with_game(view(room, viewer, now), credit=sorted(room.game.earned))


def writers_that_say_a_square_is_earned(room, viewer, now):
    shown = view(room, viewer, now)
    writers = shown["game"]["writers"]
    marked = [f"{w} (earned)" if sq in room.game.owners else w for sq, w in enumerate(writers)]
    return with_game(shown, writers=marked)


def writers_tinted_by_who_earned(room, viewer, now):
    game = room.game
    shown = view(room, viewer, now)
    writers = shown["game"]["writers"]
    tints = [
        game.earned[game.owners[sq]].player if sq in game.owners else w
        for sq, w in enumerate(writers)
    ]
    return with_game(shown, writers=tints)


@pytest.mark.parametrize(
    "leaky", [a_credit_field, writers_that_say_a_square_is_earned, writers_tinted_by_who_earned]
)
def test_the_property_sees_a_leak(leaky):
    """The property is not blind: given a Together view that lets out who earned what (a
    new field, or the writers' tints), its own generator, within its own budget, finds
    moves after which the two rooms' views differ (``find`` fails if it finds none)."""

    def leaks(case):
        viewer, shift, script = case
        found = first_difference(
            "together", viewer, shift, (), script, hide_others=False, shown=leaky
        )
        return found is not None

    budget = settings(max_examples=EXAMPLES, phases=[Phase.generate], database=None)
    find(st.tuples(viewers, shifts, moves), leaks, settings=budget)


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
