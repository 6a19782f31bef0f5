"""The Solver's screenshot reader in Chromium: a screenshot of our own Duel page in the
middle of a game is uploaded and read exactly; fixes in the review step are what gets
applied; a picture with no board, or a file that is no picture, changes nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE
from tests.e2e.test_duel import STATE, top_play, type_play, wait_my_turn

FIXTURES = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "reader"
ICON = Path(__file__).resolve().parents[2] / "frontend" / "icons" / "icon-192.png"
TILE = re.compile(r"\bsq-tile\b")
BLANK = re.compile(r"\bsq-blank\b")


@pytest.fixture
def duel(browser: Browser, base_url: str) -> Iterator[Page]:
    """A phone in a game against the Easy bot, its turn again after the bot has played:
    tiles on the board and the bot's play marked as the last one."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{base_url}/duel.html?debug")
    page.wait_for_function(f"{STATE}.welcomed && {STATE}.lobby != null")
    page.click("[data-limit='']")
    page.click("[data-bot=easy]")
    page.wait_for_selector("#game:not([hidden])")
    for _ in range(8):
        game = wait_my_turn(page)
        if len(game["moves"]) >= 2 and game["moves"][-1]["kind"] == "play":
            break
        moves = len(game["moves"])
        play = top_play(page, base_url, game)
        if play is None:
            page.click("[data-act=skip]")
        else:
            type_play(page, play)
            page.keyboard.press("Enter")
        page.wait_for_function(f"{STATE}.game.moves.length > {moves}")
    game = wait_my_turn(page)
    assert game["moves"][-1]["kind"] == "play", "the bot made no play in eight turns"
    yield page
    context.close()


def board_of(page: Page) -> list[str]:
    """The Solver's board as the page shows it: a tile's letter, a blank's in lower case."""
    return page.evaluate(
        """() => {
            const rows = Array.from({length: 15}, () => Array(15).fill('.'));
            for (const sq of document.querySelectorAll('#board .sq.sq-tile')) {
                const letter = sq.querySelector('.sq-letter').textContent;
                const blank = sq.classList.contains('sq-blank');
                rows[sq.dataset.row][sq.dataset.col] = blank ? letter.toLowerCase() : letter;
            }
            return rows.map((r) => r.join(''));
        }"""
    )


def upload(page: Page, path: Path) -> None:
    page.get_by_label("Upload a screenshot").set_input_files(str(path))


def test_a_screenshot_of_a_duel_in_progress_fills_the_board_and_rack(
    duel: Page, page: Page, tmp_path: Path
):
    game = duel.evaluate(f"{STATE}.game")
    # The rack in the order the page shows it (the player may shuffle and reorder it).
    shown = duel.evaluate(f"{STATE}.place.rack")
    assert sorted(shown) == sorted(game["rack"])
    assert sum(ch != "." for row in game["board"] for ch in row) >= 4
    # The page as the player sees it: the bot's play ringed and notched as the last one,
    # the highlight wherever it was left.
    expect(duel.locator(".board .sq-last")).to_have_count(len(game["moves"][-1]["tiles"]))
    shot = tmp_path / "duel.png"
    duel.mouse.move(0, 0)
    shot.write_bytes(duel.screenshot())

    upload(page, shot)
    review = page.locator("#reader-review")
    expect(review).to_be_visible()
    # Nothing has changed yet: the review lies over the board until it is applied.
    assert board_of(page) == ["." * 15] * 15
    expect(page.get_by_label("Rack", exact=True)).to_have_value("")
    expect(page.locator("#reader-grid .reader-doubt")).to_have_count(0)

    review.get_by_role("button", name="Apply to the board").click()
    expect(review).to_be_hidden()
    assert board_of(page) == game["board"]
    expect(page.get_by_label("Rack", exact=True)).to_have_value("".join(shown))


def fixture_named(style: str) -> Path:
    for path in sorted(FIXTURES.glob("*.png")):
        if json.loads(path.with_suffix(".json").read_text())["style"] == style:
            return path
    raise AssertionError(f"no {style} fixture")


def paste(page: Page, path: Path) -> None:
    page.evaluate(
        """async (bytes) => {
            const dt = new DataTransfer();
            dt.items.add(new File([new Uint8Array(bytes)], 'shot.png', { type: 'image/png' }));
            document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt }));
        }""",
        list(path.read_bytes()),
    )


def test_a_pasted_screenshot_and_a_fix_in_the_review_is_what_gets_applied(page: Page):
    shot = fixture_named("night")
    truth = json.loads(shot.with_suffix(".json").read_text())
    row, col = next(
        (r, c) for r, line in enumerate(truth["board"]) for c, ch in enumerate(line) if ch != "."
    )
    paste(page, shot)
    square = page.locator(f'#reader-grid .reader-sq[data-row="{row}"][data-col="{col}"]')
    expect(square).to_have_value(truth["board"][row][col])
    expect(square).to_have_attribute("aria-label", re.compile(r"% sure$"))
    square.fill("q")  # a blank Q, in lower case
    page.locator("#reader-rack").fill("AB?")
    page.get_by_role("button", name="Apply to the board").click()

    expected = [list(line) for line in truth["board"]]
    expected[row][col] = "q"
    assert board_of(page) == ["".join(line) for line in expected]
    expect(page.get_by_label("Rack", exact=True)).to_have_value("AB?")


def test_a_dropped_screenshot_is_read_and_discard_keeps_the_board(page: Page):
    page.locator('#board .sq[data-row="0"][data-col="0"]').click()
    page.keyboard.type("Z")
    shot = fixture_named("solver-desktop")
    page.evaluate(
        """async (bytes) => {
            const dt = new DataTransfer();
            dt.items.add(new File([new Uint8Array(bytes)], 'shot.png', { type: 'image/png' }));
            const drop = { dataTransfer: dt, bubbles: true, cancelable: true };
            document.getElementById('board').dispatchEvent(new DragEvent('drop', drop));
        }""",
        list(shot.read_bytes()),
    )
    expect(page.locator("#reader-review")).to_be_visible()
    page.get_by_role("button", name="Discard").click()
    expect(page.locator("#reader-review")).to_be_hidden()
    expect(page.locator('#board .sq[data-row="0"][data-col="0"]')).to_have_class(TILE)
    assert board_of(page)[0] == "Z" + "." * 14


def test_a_picture_without_a_board_or_a_file_that_is_no_picture_changes_nothing(
    page: Page, tmp_path: Path
):
    page.locator('#board .sq[data-row="7"][data-col="7"]').click()
    page.keyboard.type("HI")
    page.get_by_label("Rack", exact=True).fill("QUIZ")
    before = board_of(page)
    status = page.locator("#reader-status")

    assert page.get_attribute("#reader-file", "accept") == "image/*"  # a phone offers its photos
    upload(page, ICON)  # a 5×5 grid, not a 15×15 board
    expect(status).to_contain_text("No 15×15 board was found")
    expect(status).to_have_class(re.compile(r"\bstatus-error\b"))
    expect(page.locator("#reader-review")).to_be_hidden()

    text = tmp_path / "notes.png"
    text.write_text("not a picture at all")
    upload(page, text)
    expect(status).to_contain_text("could not be opened as a picture")
    assert board_of(page) == before
    expect(page.get_by_label("Rack", exact=True)).to_have_value("QUIZ")
