"""Each legality rule of the turn procedure, with the error a player sees."""

from __future__ import annotations

import pytest
from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.play import (
    ACROSS,
    DOWN,
    BadCrossWord,
    LetterMismatch,
    MissesCentre,
    NewTile,
    NoNewTile,
    NotAWord,
    NotConnected,
    NotContiguous,
    NotInLine,
    NotOnRack,
    OffBoard,
    SquareTaken,
    TooShort,
    check_play,
    tiles_for_word,
)

WORDS = Lexicon.from_words(["ON", "OX", "NO", "AX", "BOX", "FOX", "OXEN", "ONO", "ZA", "OF", "OFF"])


def board_with(*placements: tuple[int, int, str, str]) -> Board:
    board = Board.empty()
    for row, col, direction, word in placements:
        board = board.with_tiles(
            (t.row, t.col, t.text) for t in tiles_for_word(board, row, col, direction, word)
        )
    return board


ON = board_with((7, 7, ACROSS, "ON"))  # O at 8,8 and N at 8,9


def play(board, row, col, direction, word, rack=None):
    return check_play(board, tiles_for_word(board, row, col, direction, word), WORDS, rack)


def test_two_letter_opening_on_the_star_is_legal():
    checked = play(Board.empty(), 7, 7, ACROSS, "ON")
    assert checked.main.text == "ON"
    assert checked.cross == ()


def test_opening_must_cover_the_centre():
    with pytest.raises(MissesCentre, match="centre square"):
        play(Board.empty(), 6, 7, ACROSS, "ON")


def test_a_word_has_at_least_two_letters():
    with pytest.raises(TooShort, match="two letters"):
        check_play(Board.empty(), [NewTile(7, 7, "A")], WORDS)


def test_at_least_one_new_tile():
    with pytest.raises(NoNewTile):
        check_play(ON, [], WORDS)
    with pytest.raises(NoNewTile):
        play(ON, 7, 7, ACROSS, "ON")


def test_tiles_in_one_straight_line():
    with pytest.raises(NotInLine, match="straight line"):
        check_play(ON, [NewTile(6, 7, "B"), NewTile(8, 8, "X")], WORDS)


def test_no_gap_in_the_line():
    with pytest.raises(NotContiguous, match="unbroken"):
        check_play(ON, [NewTile(6, 7, "B"), NewTile(9, 7, "X")], WORDS)


def test_board_letters_in_the_line_must_match():
    with pytest.raises(LetterMismatch, match="board has O at 8,8"):
        play(ON, 6, 7, DOWN, "BAX")


def test_a_square_can_hold_one_tile():
    with pytest.raises(SquareTaken):
        check_play(ON, [NewTile(7, 7, "A")], WORDS)


def test_a_play_stays_on_the_board():
    with pytest.raises(OffBoard):
        play(ON, 7, 13, ACROSS, "FOX")


def test_play_through_a_board_letter():
    checked = play(ON, 6, 7, DOWN, "BOX")
    assert checked.main.text == "BOX"
    assert checked.main.direction == DOWN
    assert [t.letter for t in checked.tiles] == ["B", "X"]


def test_a_word_floating_in_open_space_is_rejected():
    with pytest.raises(NotConnected, match="touch"):
        play(ON, 2, 2, ACROSS, "OX")


def test_the_main_word_must_be_in_the_list():
    with pytest.raises(NotAWord, match="OOX is not in the word list"):
        play(ON, 6, 7, DOWN, "OOX")


def test_one_bad_hook_rejects_the_whole_play():
    # AX is a word, but its A under the O of ON makes OA downward, which is not.
    with pytest.raises(BadCrossWord, match="OA \\(formed down\\)"):
        play(ON, 8, 7, ACROSS, "AX")


def test_side_hooks_form_words_at_right_angles():
    # The procedure's example: X beside ON makes OX downward, ... and both must be words.
    checked = play(ON, 8, 6, ACROSS, "AX")
    assert checked.main.text == "AX"
    assert [w.text for w in checked.cross] == ["OX"]


def test_a_single_tile_scores_its_across_word_first():
    checked = check_play(ON, [NewTile(7, 9, "O")], WORDS)
    assert (checked.main.text, checked.main.direction) == ("ONO", ACROSS)
    checked = check_play(ON, [NewTile(8, 7, "X")], WORDS)
    assert (checked.main.text, checked.main.direction) == ("OX", DOWN)


def test_tiles_must_come_from_the_rack():
    with pytest.raises(NotOnRack, match="needs 1 X"):
        play(ON, 6, 7, DOWN, "BOX", rack="BQ")
    assert play(ON, 6, 7, DOWN, "BOx", rack="B?").tiles[1].blank
