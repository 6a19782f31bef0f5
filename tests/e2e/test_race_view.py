"""A race seen from a phone's top row and from a TV: squares only, the share, all racers."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from playwright.sync_api import Page

from tests.e2e.test_game import host, solution_of, start, type_squares

TV = {"width": 1280, "height": 720}
SHOTS = Path(os.environ.get("CROSSING_SHOTS", tempfile.gettempdir()))  # where to look at them
LEVELS = ["hard", "hard", "medium", "medium", "easy"]


def six_racers(phone) -> tuple[Page, Page]:
    hana = phone("Hana")
    code = host(hana)
    for level in LEVELS:
        hana.click(f"[data-bot={level}]")
    hana.wait_for_function("document.querySelectorAll('[data-slot=members] .member').length === 6")
    tv = phone("TV", f"/watch.html?room={code}", size=TV)
    start(hana, [], "race")
    _, whites = solution_of(hana)
    type_squares(hana, whites[:3], "QXJ")
    # A Hard bot fills a few squares of its own.
    hana.wait_for_function(
        "[...document.querySelectorAll('.racer')].some(r =>"
        " r.querySelector('.name').textContent !== 'You'"
        " && parseInt(r.querySelector('.share').textContent) >= 10)",
        timeout=40_000,
    )
    return hana, tv


def boxes(page: Page, selector: str) -> list[dict]:
    return page.evaluate(
        f"""[...document.querySelectorAll({selector!r})].map(e => {{
            const r = e.getBoundingClientRect();
            return {{left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
                     height: r.height, text: e.textContent}};
        }})"""
    )


def test_a_phone_shows_each_racers_filled_squares_and_share_at_390px(phone):
    hana, _tv = six_racers(phone)
    racers = hana.locator(".racers .racer")
    assert racers.count() == 6
    whites = hana.evaluate(
        "(() => { const p = window.crossing.store.get().view.game.puzzle;"
        " return p.width * p.height - p.blocks.length; })()"
    )
    for i in range(6):
        racer = racers.nth(i)
        board = racer.locator(".progress-grid")
        assert board.is_visible()
        share = int(racer.locator(".share").inner_text().rstrip("%"))
        filled = board.locator(".filled").count()
        assert abs(filled - share * whites / 100) <= 1.5, (filled, share)
        assert board.locator(".letter").all_inner_texts() == [""] * board.locator(".letter").count()
    mine = hana.locator(".racers .racer:has(.name:text-is('You'))")
    assert mine.locator(".progress-grid .filled").count() == 3
    assert mine.locator(".share").inner_text() == f"{round(300 / whites)}%"
    # Readable: everything inside the phone's width, boards big enough to tell squares
    # apart, names and shares in type no smaller than 11 px.
    for box in boxes(hana, ".racers .racer"):
        assert box["left"] >= 0 and box["right"] <= 390
    for box in boxes(hana, ".racers .progress-grid"):
        assert box["width"] >= 36
    sizes = hana.evaluate(
        "[...document.querySelectorAll('.racers .name, .racers .share')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert min(sizes) >= 11
    cut = hana.evaluate(
        "[...document.querySelectorAll('.racers .name')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert not cut  # every name shown whole
    hana.screenshot(path=str(SHOTS / "race-phone-six.png"))


def test_a_tv_race_uses_the_whole_screen_and_says_mode_and_size(phone):
    hana, tv = six_racers(phone)
    tv.wait_for_function("document.querySelectorAll('.racer-board').length === 6")
    title = tv.inner_text("[data-slot=title]")
    puzzle_id = hana.evaluate("window.crossing.store.get().view.game.puzzle.id")
    assert title == "Race · Mini 5×5"
    assert puzzle_id not in tv.inner_text("body")
    figures = boxes(tv, ".racer-board")
    for box in figures:
        assert box["bottom"] <= TV["height"] and box["right"] <= TV["width"]
    grids = boxes(tv, ".racer-board .grid")
    assert min(b["width"] for b in grids) >= 220  # six boards, each large across a room
    used = max(b["bottom"] for b in figures) - min(b["top"] for b in figures)
    assert used >= 0.6 * TV["height"]
    # Squares only: no letter on any board, and Hana's three squares are filled.
    assert "Q" not in tv.inner_text("[data-slot=boards]")
    hana_board = tv.locator(".racer-board", has_text="Hana")
    assert hana_board.locator(".filled").count() == 3
    # Who has tapped Done shows on the TV.
    hana.click("[data-act=done]")
    tv.wait_for_selector(".racer-board.done:has-text('Hana')")
    assert "Done" in hana_board.inner_text()
    tv.screenshot(path=str(SHOTS / "race-tv.png"))
