"""The Solver page end to end: the real handlers behind a local server, a real browser in front."""

from __future__ import annotations

import re

import pytest
from crossing.game_files import shipped
from crossing.handlers.http import as_sentence
from crossing.tiles.api import BadRequest, SolveRequest, solve_request
from playwright.sync_api import Page, expect

from tests.e2e.conftest import open_solver

YELLOW = "rgb(255, 225, 77)"
TILE = re.compile(r"\bsq-tile\b")
BLANK = re.compile(r"\bsq-blank\b")
ERROR = re.compile(r"\bstatus-error\b")


def square(page: Page, row: int, col: int):
    """A board square by its 1-based row and column, as the page names them."""
    return page.locator(f'#board .sq[data-row="{row - 1}"][data-col="{col - 1}"]')


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
        solve_request(SolveRequest(rules="crossplay", rack="QU1X"), shipped())
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
    page.keyboard.type("C?AT")
    expect(square(page, 8, 8).locator(".sq-letter")).to_have_text("A")
    expect(square(page, 8, 8)).to_have_class(BLANK)
    page.get_by_label("Name").fill("Sunday game")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("Saved")

    open_solver(page, base_url)
    expect(square(page, 8, 7)).not_to_have_class(TILE)
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


def results_count(page: Page):
    return page.locator("#results-count")


def test_every_play_is_listed_in_pages_sorted_and_filtered(page: Page):
    show_best_move(page, "QUIXOTE")
    # The engine's full list (158 plays), not the first 50; 50 to a page.
    expect(results_count(page)).to_contain_text("158 legal plays")
    expect(results_count(page)).to_contain_text("Showing 1–50")
    expect(page.locator("#plays > li")).to_have_count(50)
    page.get_by_role("button", name="Next page").click()
    expect(results_count(page)).to_contain_text("Showing 51–100")
    expect(page.locator("#page-at")).to_have_text("Page 2 of 4")

    page.get_by_label("Sort by").select_option("word")
    expect(page.locator("#page-at")).to_have_text("Page 1 of 4")
    words = page.locator("#plays > li > .play .play-word").all_inner_texts()
    assert words == sorted(words) and words[0] < "QUIXOTE"
    page.get_by_label("Sort by").select_option("length")
    expect(page.locator(".play .play-word").first).to_have_text("QUIXOTE")

    page.get_by_label("Find a word").fill("ox")
    expect(results_count(page)).to_contain_text("match")
    found = page.locator("#plays > li > .play .play-word").all_inner_texts()
    assert found and all("OX" in word for word in found)
    page.get_by_label("Sort by").select_option("position")
    where = page.locator("#plays > li > .play .play-where").all_inner_texts()
    spots = [tuple(int(n) for n in w.split(" at ")[1].split(",")) for w in where]
    assert spots == sorted(spots)


def test_blank_choices_of_one_play_are_one_row(page: Page):
    show_best_move(page, "EET?")
    # TEE across at 8,6 with the blank as its first E or as its second: one row.
    tee = page.locator("#plays > li").filter(
        has=page.locator(".play-word", has_text=re.compile("^TEE$"))
    )
    row = tee.filter(has=page.locator(".play-where", has_text="Across at 8,6"))
    expect(row).to_have_count(1)
    row.locator("summary").click()
    variant = row.locator(".play-variant").first
    expect(variant.locator(".blank-letter")).to_have_count(1)
    variant.click()
    breakdown = page.locator("#breakdown")
    expect(breakdown).to_contain_text("(blank)")
    expect(breakdown.locator(".play-total")).to_have_text(
        f"Total: {variant.locator('.play-score').inner_text()}"
    )
    expect(page.locator(".sq-preview.sq-blank")).to_have_count(1)


def test_lower_case_is_a_tile_and_a_blank_is_asked_for(page: Page):
    square(page, 8, 7).click()
    page.keyboard.type("cat")
    expect(page.locator(".sq-tile")).to_have_count(3)
    expect(page.locator(".sq-blank")).to_have_count(0)
    square(page, 9, 7).click()
    page.get_by_role("button", name="Blank next").click()
    expect(page.get_by_role("button", name="Blank next")).to_have_attribute("aria-pressed", "true")
    page.keyboard.type("o")
    expect(square(page, 9, 7)).to_have_class(BLANK)
    expect(square(page, 9, 7).locator(".sq-letter")).to_have_text("O")
    expect(page.get_by_role("button", name="Blank next")).to_have_attribute("aria-pressed", "false")

    # One blank is on the board: the rack takes two more, and a third is refused out loud.
    page.get_by_label("Rack").fill("AB???")
    expect(page.get_by_label("Rack")).to_have_value("AB??")
    expect(page.get_by_role("status")).to_contain_text("Crossplay has 3 blanks in the bag")


def test_a_second_click_keeps_down(page: Page):
    page.get_by_label("Down", exact=True).check()
    square(page, 6, 8).click()
    square(page, 6, 8).click()
    expect(page.get_by_label("Down", exact=True)).to_be_checked()
    page.keyboard.type("TO")
    expect(square(page, 7, 8).locator(".sq-letter")).to_have_text("O")
    expect(square(page, 6, 9)).not_to_have_class(TILE)


def test_each_game_draws_its_own_board_with_one_label_scheme(page: Page):
    board = page.locator("#board")
    expect(square(page, 1, 1)).to_have_text("TL")  # Crossplay, the page's first game
    expect(square(page, 1, 1)).to_have_attribute("aria-label", "row 1, column 1, TL, triple letter")
    expect(square(page, 8, 8)).to_have_attribute("aria-label", "row 8, column 8, centre star")
    expect(square(page, 8, 8)).to_have_attribute("tabindex", "0")
    page.get_by_label("Game").select_option("scrabble")
    expect(square(page, 1, 1)).to_have_text("TW")
    expect(square(page, 8, 8)).to_have_attribute(
        "aria-label", "row 8, column 8, centre star, double word"
    )
    page.get_by_label("Game").select_option("wwf")
    expect(square(page, 1, 1)).to_have_text("")
    expect(square(page, 1, 4)).to_have_text("TW")
    expect(page.locator("#layout-grid .sq").nth(3)).to_have_text("TW")
    for old in ("2L", "3L", "2W", "3W"):
        expect(board).not_to_contain_text(old)
        expect(page.locator("#layout-grid")).not_to_contain_text(old)

    # The cursor is the board's one tab stop, with its arrow.
    square(page, 3, 4).click()
    expect(square(page, 3, 4)).to_have_class(re.compile(r"\bsq-cursor-across\b"))
    expect(square(page, 3, 4)).to_have_attribute("tabindex", "0")
    expect(square(page, 3, 4)).to_have_attribute("aria-current", "true")
    expect(board.locator('.sq[tabindex="0"]')).to_have_count(1)
    page.keyboard.press("ArrowDown")
    expect(square(page, 4, 4)).to_have_attribute("tabindex", "0")
    page.keyboard.type("Q")
    expect(square(page, 4, 4).locator(".sq-value")).to_have_text("10")
    expect(square(page, 4, 5)).to_have_class(re.compile(r"\bsq-cursor\b"))


def test_on_a_phone_a_tapped_result_brings_the_board_into_view(page: Page):
    show_best_move(page, "QUIXOTE")
    last = page.locator("#plays > li > .play").nth(40)
    last.scroll_into_view_if_needed()
    expect(square(page, 1, 1)).not_to_be_in_viewport()
    last.click()
    preview = page.locator(".sq-preview")
    expect(preview.first).to_be_in_viewport()
    expect(preview.last).to_be_in_viewport()


def test_the_q_value_does_not_overlap_its_letter(page: Page):
    show_best_move(page, "QUIXOTE")
    page.locator(".play").first.click()
    page.locator("#breakdown").get_by_role("button", name="Place").click()
    q = square(page, 8, 6)
    expect(q.locator(".sq-value")).to_have_text("10")
    letter = q.locator(".sq-letter").bounding_box()
    value = q.locator(".sq-value").bounding_box()
    # On a phone the Q's tail hangs below its box: the 10 starts clearly below it.
    assert value["y"] - (letter["y"] + letter["height"]) >= 1, (letter, value)


def test_unseen_tiles_are_the_bag_minus_board_and_rack(page: Page):
    unseen = page.locator("#unseen-list")
    expect(page.locator("#unseen-count")).to_contain_text("100 tiles unseen")
    page.get_by_label("Rack").fill("QUIX?")
    expect(page.locator("#unseen-count")).to_contain_text("95 tiles unseen")
    expect(unseen.get_by_label("Q: 0")).to_have_class(re.compile(r"\bgone\b"))
    expect(unseen.get_by_label("U: 2")).to_be_visible()
    expect(unseen.get_by_label("blank: 2")).to_be_visible()
    square(page, 8, 8).click()
    page.keyboard.type("EE")
    expect(unseen.get_by_label("E: 10")).to_be_visible()


def test_scoring_page_from_the_breakdown_and_links_home(page: Page, base_url: str):
    show_best_move(page, "QUIXOTE")
    page.locator(".play").first.click()
    page.locator("#breakdown").get_by_role("link", name="How a score is counted").click()
    scoring = page.locator("#scoring")
    expect(scoring).to_be_in_viewport()
    for figure in ("110", "67", "64", "116", "83"):
        expect(scoring).to_contain_text(figure)
    page.get_by_role("link", name="Crossing Words").click()
    page.wait_for_url(f"{base_url}/")
    page.get_by_role("link", name=re.compile("^Solver")).click()
    page.wait_for_url(f"{base_url}/solver.html")


def test_plays_show_their_leave_and_sort_by_score_plus_leave(page: Page):
    show_best_move(page, "XIS?UUV")
    first = page.locator("#plays > li > .play").first
    # Score stays the default order: VeX scores most but spends the blank.
    expect(first.locator(".play-score")).to_have_text("22")
    expect(first.locator(".play-equity")).to_contain_text("keeps ISUU")
    page.get_by_label("Sort by").select_option("equity")
    first = page.locator("#plays > li > .play").first
    expect(first.locator(".play-equity")).to_contain_text("keeps UX")
    equities = [
        float(text.rsplit(" ", 1)[1])
        for text in page.locator("#plays > li > .play .play-equity").all_inner_texts()
    ]
    assert equities[0] >= max(equities)
    first.click()
    expect(page.locator("#breakdown .play-leave")).to_contain_text("Keeps UX")
