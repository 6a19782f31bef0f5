"""Rule-set facts a player would notice: bag sizes, letter values, the centre row."""

from __future__ import annotations

import pytest
from crossing.tiles.rules import CROSSPLAY, DUEL, RULE_SETS, SCRABBLE, WWF, get_rules


def test_bags_hold_the_documented_number_of_tiles():
    assert (CROSSPLAY.bag_size, CROSSPLAY.blanks) == (100, 3)
    assert (SCRABBLE.bag_size, SCRABBLE.blanks) == (100, 2)
    assert (WWF.bag_size, WWF.blanks) == (104, 2)
    assert (DUEL.bag_size, DUEL.blanks) == (98, 0)
    assert DUEL.counts == SCRABBLE.counts


def test_nine_crossplay_letter_values_differ_from_scrabble():
    differ = [x for x in CROSSPLAY.values if CROSSPLAY.values[x] != SCRABBLE.values[x]]
    assert differ == list("BGHJKLUVW")


def test_crossplay_centre_row_matches_the_turn_procedure():
    row = 7
    assert [CROSSPLAY.letter_multiplier(row, c) for c in (5, 9)] == [2, 2]
    assert [CROSSPLAY.word_multiplier(row, c) for c in (3, 11)] == [2, 2]
    assert all(CROSSPLAY.word_multiplier(row, c) < 3 for c in range(15))
    assert CROSSPLAY.word_multiplier(7, 7) == 1


def test_crossplay_board_off_the_centre_row():
    # Corners are triple letter, not Scrabble's triple word.
    assert (CROSSPLAY.letter_multiplier(0, 0), CROSSPLAY.word_multiplier(0, 0)) == (3, 1)
    assert CROSSPLAY.word_multiplier(0, 3) == 3
    assert CROSSPLAY.word_multiplier(3, 0) == 3
    assert CROSSPLAY.word_multiplier(1, 1) == 2
    assert CROSSPLAY.letter_multiplier(1, 6) == 3
    assert CROSSPLAY.letter_multiplier(0, 7) == 2
    assert CROSSPLAY.word_multiplier(3, 7) == 2
    # No triple word anywhere on the centre column either.
    assert all(CROSSPLAY.word_multiplier(r, 7) < 3 for r in range(15))


def test_centre_star_doubles_only_where_the_game_says_so():
    assert SCRABBLE.word_multiplier(7, 7) == 2
    assert DUEL.word_multiplier(7, 7) == 2
    assert WWF.word_multiplier(7, 7) == 1
    assert CROSSPLAY.word_multiplier(7, 7) == 1


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_layouts_are_symmetric_15_by_15(rules):
    layout = rules.layout
    assert len(layout) == 15
    assert all(len(row) == 15 for row in layout)
    for r in range(15):
        for c in range(15):
            assert layout[r][c] == layout[c][r] == layout[14 - r][c] == layout[r][14 - c]


def test_premium_square_counts():
    def count(rules, mark):
        return sum(row.count(mark) for row in rules.layout)

    assert [count(SCRABBLE, m) for m in "dtDT"] == [24, 12, 16, 8]
    assert [count(WWF, m) for m in "dtDT"] == [24, 16, 12, 8]
    assert [count(CROSSPLAY, m) for m in "dtDT"] == [20, 20, 8, 8]


def test_rack_bonuses_and_duel_bonuses():
    assert (CROSSPLAY.rack_bonus_name, CROSSPLAY.rack_bonus) == ("sweep", 40)
    assert (SCRABBLE.rack_bonus, WWF.rack_bonus, DUEL.rack_bonus) == (50, 35, 0)
    assert [DUEL.tiles_bonus(n) for n in range(1, 8)] == [0, 0, 0, 4, 8, 20, 50]
    assert [DUEL.words_bonus(n) for n in range(1, 8)] == [0, 6, 20, 50, 100, 100, 100]


def test_unknown_rule_set_names_the_choices():
    with pytest.raises(ValueError, match="crossplay, scrabble, wwf, duel"):
        get_rules("lexulous")
