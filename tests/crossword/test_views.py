"""Views: what of a board others may see before the check."""

from dataclasses import asdict

from crossing.crossword import race as R
from crossing.crossword.commands import Done, Type
from crossing.crossword.views import race_progress

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
