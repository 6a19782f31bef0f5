"""Views: what of a board others may see before the check."""

from dataclasses import asdict

from crossing.crossword import race as R
from crossing.crossword import together as G
from crossing.crossword.commands import Done, Type
from crossing.crossword.views import race_progress, together_board

from tests.crossword.helpers import run
from tests.crossword.puzzles import MINI

T0 = 0


def test_progress_shows_which_squares_are_filled_and_how_much_never_the_letters():
    race = R.start_race(MINI, ["ann", "bob"], T0)
    race, _ = run(R, race, [Type("ann", 2, "S"), Type("ann", 3, "Q"), Done("ann")], T0)
    race, _ = run(R, race, [Type("bob", 2, "X"), Type("bob", 3, "Y")], T0)
    ann, bob = race_progress(race, "ann"), race_progress(race, "bob")
    assert ann.filled == {2, 3}
    assert ann.fraction == 2 / len(MINI.white_squares)
    assert ann.done and not bob.done
    # Same squares, different letters: nothing in the view tells them apart.
    assert asdict(ann) | {"player": "", "done": False} == asdict(bob) | {"player": ""}
    assert not any(
        "S" in repr(v) or "Q" in repr(v) for k, v in asdict(ann).items() if k != "player"
    )


def test_shared_board_shows_letters_and_writers_but_no_credit():
    game = G.start_together(MINI, ["ann", "bob"], T0)
    game, _ = run(
        G, game, [Type("ann", 2, c) for c in "S"] + [Type("bob", 3, "I"), Type("ann", 4, "R")], T0
    )
    assert game.earned  # SIR was earned...
    board = together_board(game)
    assert board[2].letter == "S" and board[2].writer == "ann"
    assert board[3].writer == "bob"
    assert board[5].letter == "." and board[5].writer is None
    assert "earn" not in repr(board).lower()  # ...but nothing in the view says by whom
