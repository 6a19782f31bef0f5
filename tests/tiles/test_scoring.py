"""The worked examples of the turn procedure and the Duel help, square by square."""

from __future__ import annotations

import pytest
from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.play import ACROSS, DOWN, NewTile, check_play, tiles_for_word
from crossing.tiles.rules import CROSSPLAY, DUEL, SCRABBLE, WWF
from crossing.tiles.scoring import score_play

EMPTY = Board.empty()


def score(board, row, col, direction, word, rules, lexicon, premiums=True):
    """Score a word laid from 1-based (row, col)."""
    tiles = tiles_for_word(board, row - 1, col - 1, direction, word)
    checked = check_play(board, tiles, lexicon)
    return score_play(board, checked, rules, premiums)


def test_quixote_at_8_6_scores_110_under_crossplay(enable):
    breakdown = score(EMPTY, 8, 6, ACROSS, "QUIXOTE", CROSSPLAY, enable).to_json()
    assert breakdown["total"] == 110
    assert breakdown["bonuses"] == [{"name": "sweep", "points": 40}]
    (word,) = breakdown["words"]
    assert (word["word"], word["row"], word["col"], word["direction"]) == (
        "QUIXOTE",
        8,
        6,
        "across",
    )
    assert (word["score"], word["word_multiplier"]) == (70, 2)
    q, e = word["squares"][0], word["squares"][6]
    assert q == {
        "row": 8,
        "col": 6,
        "letter": "Q",
        "value": 10,
        "letter_multiplier": 2,
        "word_multiplier": 1,
        "new": True,
        "blank": False,
    }
    assert (e["col"], e["letter"], e["word_multiplier"]) == (12, "E", 2)
    # The star under I neither doubles nor triples anything in Crossplay.
    assert word["squares"][2]["word_multiplier"] == 1


def test_centred_quixote_misses_the_double_word_and_scores_67(enable):
    breakdown = score(EMPTY, 8, 5, ACROSS, "QUIXOTE", CROSSPLAY, enable)
    assert breakdown.total == 67
    assert breakdown.words[0].word_multiplier == 1


def test_the_same_openings_under_scrabble_double_on_the_star(enable):
    at_8_6 = score(EMPTY, 8, 6, ACROSS, "QUIXOTE", SCRABBLE, enable)
    assert (at_8_6.words[0].score, at_8_6.bonuses, at_8_6.total) == (48, (("bingo", 50),), 98)
    assert score(EMPTY, 8, 5, ACROSS, "QUIXOTE", SCRABBLE, enable).total == 96


def test_wwf_pays_35_and_leaves_the_centre_plain(enable):
    breakdown = score(EMPTY, 8, 6, ACROSS, "QUIXOTE", WWF, enable)
    assert breakdown.bonuses == (("bingo", 35),)
    assert breakdown.total == (10 + 2 + 1 + 8 + 1 + 1 + 1) * 2 + 35


def test_bonus_tiles_off_scores_face_values_and_still_sweeps(enable):
    breakdown = score(EMPTY, 8, 6, ACROSS, "QUIXOTE", CROSSPLAY, enable, premiums=False)
    assert breakdown.total == 24 + 40
    assert all(sq.letter_multiplier == 1 for sq in breakdown.words[0].squares)


def test_blank_on_a_double_letter_scores_zero(enable):
    # QUIZ across from 8,5 puts the blank U on the double letter at 8,6.
    breakdown = score(EMPTY, 8, 5, ACROSS, "QuIZ", CROSSPLAY, enable)
    u = breakdown.words[0].squares[1]
    assert (u.letter, u.value, u.letter_multiplier, u.blank) == ("U", 0, 2, True)
    assert breakdown.total == 10 + 0 + 1 + 10


def test_blank_on_a_word_square_still_multiplies_the_other_letters(enable):
    # Under Scrabble the blank U lands on the star, a double word.
    breakdown = score(EMPTY, 8, 7, ACROSS, "QuIZ", SCRABBLE, enable)
    assert breakdown.words[0].squares[1].word_multiplier == 2
    assert breakdown.total == (10 + 0 + 1 + 10) * 2


def test_a_blank_already_on_the_board_scores_zero(enable):
    board = EMPTY.with_tiles([(7, 6, "Q"), (7, 7, "u"), (7, 8, "I"), (7, 9, "Z")])
    breakdown = score(board, 8, 7, ACROSS, "QUIZZES", CROSSPLAY, enable)
    assert [sq.value for sq in breakdown.words[0].squares[:4]] == [10, 0, 1, 10]
    assert breakdown.words[0].squares[1].blank


def test_the_sweep_follows_the_rack_not_the_word_length(enable):
    board = EMPTY.with_tiles([(7, 7, "O"), (7, 8, "N")])
    eight = score(board, 7, 8, DOWN, "NOTARIES", CROSSPLAY, enable)
    assert len(eight.words[0].squares) == 8
    assert eight.bonuses == (("sweep", 40),)
    six = score(board, 7, 8, DOWN, "NOTARY", CROSSPLAY, enable)
    assert six.bonuses == ()


def test_every_cross_word_is_scored_with_the_shared_premium(enable):
    # Under Scrabble, 8,4 is a double letter. A down play whose tile lands there beside
    # an across word scores that letter doubled in both words.
    board = EMPTY.with_tiles([(7, 4 + i, letter) for i, letter in enumerate("ATE")])
    tiles = [NewTile(6, 3, "H"), NewTile(7, 3, "H")]
    checked = check_play(board, tiles, Lexicon.from_words(["HH", "HATE"]))
    breakdown = score_play(board, checked, SCRABBLE)
    assert [w.word for w in breakdown.words] == ["HH", "HATE"]
    assert breakdown.words[0].score == 4 + 4 * 2
    assert breakdown.words[1].score == 4 * 2 + 1 + 1 + 1
    assert breakdown.total == breakdown.words[0].score + breakdown.words[1].score


def test_duel_for_and_no_scores_20():
    # The help's example: FOR (R on a double word) = 12, NO = 2, two words formed = 6.
    words = Lexicon.from_words(["FOR", "NO", "ON", "OF"])
    board = EMPTY.with_tiles([(6, 5, "O"), (6, 6, "N"), (7, 5, "F")])  # ON across, OF down
    tiles = [NewTile(7, 6, "O"), NewTile(7, 7, "R")]  # R on the star, a double word in Duel
    breakdown = score_play(board, check_play(board, tiles, words), DUEL).to_json()
    assert [(w["word"], w["score"]) for w in breakdown["words"]] == [("FOR", 12), ("NO", 2)]
    assert breakdown["bonuses"] == [{"name": "words_formed", "points": 6}]
    assert breakdown["total"] == 20


@pytest.mark.parametrize(("tiles_used", "bonus"), [(3, 0), (4, 4), (5, 8), (6, 20), (7, 50)])
def test_duel_tile_count_bonus_and_no_bingo(enable, tiles_used, bonus):
    word = "QUIXOTE"[:tiles_used] if tiles_used < 7 else "QUIXOTE"
    words = Lexicon.from_words([word])
    breakdown = score(EMPTY, 8, 8, ACROSS, word, DUEL, words)
    assert dict(breakdown.bonuses).get("tiles_used", 0) == bonus
    assert "bingo" not in dict(breakdown.bonuses)


def test_crossplay_corner_is_a_triple_letter_and_row_4_edge_a_triple_word(enable):
    # ABSOLUTE ends on the star; BANDANNA comes down column 1 onto its A.
    board = EMPTY.with_tiles((7, c, letter) for c, letter in enumerate("ABSOLUTE"))
    breakdown = score(board, 1, 1, DOWN, "BANDANNA", CROSSPLAY, enable).to_json()
    (word,) = breakdown["words"]
    b, d, a = word["squares"][0], word["squares"][3], word["squares"][7]
    assert (b["letter"], b["letter_multiplier"], b["word_multiplier"]) == ("B", 3, 1)
    assert (d["letter"], d["letter_multiplier"], d["word_multiplier"]) == ("D", 1, 3)
    # The A was already on row 8's double letter: it counts at face value.
    assert (a["new"], a["letter_multiplier"]) == (False, 1)
    # (B 4x3 + A N D A N N A 8) x 3 = 60, and seven tiles left the rack: +40.
    assert (word["score"], breakdown["total"]) == (60, 100)
