"""The Solver page end to end: the real handlers behind a local server, a real browser in front."""

from __future__ import annotations

import re

import pytest
from crossing.handlers.http import as_sentence
from crossing.tiles.api import BadRequest, solve_request
from playwright.sync_api import Page, expect

from tests.e2e.conftest import open_solver

YELLOW = "rgb(255, 225, 77)"
TILE = re.compile(r"\bsq-tile\b")
BLANK = re.compile(r"\bsq-blank\b")
ERROR = re.compile(r"\bstatus-error\b")


def square(page: Page, row: int, col: int):
    """A board square by its 1-based row and column, as the page names them."""
    return page.locator(f'.sq[data-row="{row - 1}"][data-col="{col - 1}"]')


def show_best_move(page: Page, rack: str) -> None:
    page.get_by_label("Rack").fill(rack)
    page.get_by_role("button", name="Show Me Best Move").click()


def test_quixote_opening_shows_places_and_empties_the_rack(page: Page):
    show_best_move(page, "QUIXOTE")
    best = page.locator(".play").first
    expect(best.locator(".play-word")).to_have_text("QUIXOTE")
    expect(best.locator(".play-score")).to_have_text("110")
    expect(best.locator(".play-where")).to_have_text("Across at 8,6")

    best.click()
    expect(page.locator(".sq-preview")).to_have_count(7)
    expect(square(page, 8, 6)).to_have_css("background-color", YELLOW)
    expect(square(page, 8, 6)).to_contain_text("Q")
    breakdown = page.locator("#breakdown")
    expect(breakdown).to_contain_text("Sweep: +40")
    expect(breakdown).to_contain_text("Total: 110")

    breakdown.get_by_role("button", name="Place").click()
    for col, letter in enumerate("QUIXOTE", start=6):
        expect(square(page, 8, col)).to_have_class(TILE)
        expect(square(page, 8, col).locator(".sq-letter")).to_have_text(letter)
    expect(page.get_by_label("Rack")).to_have_value("")
    expect(page.locator(".sq-preview")).to_have_count(0)


def test_a_bad_rack_shows_the_solvers_message(page: Page):
    with pytest.raises(BadRequest) as refused:
        solve_request({"rules": "crossplay", "rack": "QU1X"})
    show_best_move(page, "QU1X")
    status = page.get_by_role("status")
    expect(status).to_have_text(as_sentence(str(refused.value)))
    expect(status).to_have_class(ERROR)
    expect(page.locator(".play")).to_have_count(0)


def test_bonus_tiles_off_scores_face_value(page: Page):
    page.get_by_label("Bonus tiles").uncheck()
    show_best_move(page, "QUIXOTE")
    # Q10 U2 I1 X8 O1 T1 E1 at face value, and the sweep still counts.
    expect(page.locator(".play-score").first).to_have_text("64")


def test_a_saved_board_survives_a_reload(page: Page, base_url: str):
    square(page, 8, 7).click()
    page.keyboard.type("CaT")
    expect(square(page, 8, 8).locator(".sq-letter")).to_have_text("A")
    expect(square(page, 8, 8)).to_have_class(BLANK)
    page.get_by_label("Name").fill("Sunday game")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("Saved")

    open_solver(page, base_url)
    expect(square(page, 8, 7).locator(".sq-letter")).to_have_text("")
    page.get_by_label("Saved", exact=True).select_option("Sunday game")
    page.get_by_role("button", name="Load", exact=True).click()
    for col, letter in zip((7, 8, 9), "CAT", strict=True):
        expect(square(page, 8, col).locator(".sq-letter")).to_have_text(letter)
    expect(square(page, 8, 8)).to_have_class(BLANK)


def test_the_hint_gives_the_word_last(page: Page):
    page.get_by_label("Rack").fill("QUIXOTE")
    hint = page.get_by_role("button", name="Get a Hint")
    hint.click()
    text = page.locator("#hint-text")
    expect(text).to_contain_text("scores 110 and runs across")
    expect(text).not_to_contain_text("QUIXOTE")
    page.get_by_role("button", name="Next Hint").click()
    expect(text).to_contain_text("row 8, column 6")
    page.get_by_role("button", name="Next Hint").click()
    expect(text).to_contain_text("The word is QUIXOTE.")
    expect(page.locator(".play")).to_have_count(0)


def test_clear_board_and_reference_pages(page: Page):
    square(page, 1, 1).click()
    page.keyboard.type("AX")
    expect(page.locator(".sq-tile")).to_have_count(2)
    page.get_by_role("button", name="Clear Board").click()
    expect(page.locator(".sq-tile")).to_have_count(0)

    expect(page.locator("#two-letter-list li", has_text="XI")).to_have_count(1)
    expect(page.locator("#about")).to_contain_text("ENABLE2K")
    expect(page.locator("#values-table")).to_contain_text("Crossplay")
    page.get_by_label("Game").select_option("scrabble")
    expect(page.locator("#layout-facts")).to_contain_text("bingo: +50")
