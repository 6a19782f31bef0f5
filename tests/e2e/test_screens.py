"""What each crossword screen tells a player: the TV's Together tints, a result on your
own, the player who becomes host, a results board read square by square, and one
level-one heading on every screen."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import painted
from tests.e2e.test_game import (
    hana_hosts_ann_joins,
    host,
    on_screen,
    solution_of,
    start,
    type_squares,
)

TV = {"width": 1280, "height": 720}
TINT = "e => getComputedStyle(e).backgroundImage"


def square(page: Page, sq: int):
    return page.locator(f"[data-slot=grid] [data-square='{sq}']")


def test_a_watched_together_square_has_the_tint_of_its_writer_as_on_the_phone(phone):
    hana, ann, code = hana_hosts_ann_joins(phone)
    tv = phone("TV", f"/watch.html?room={code}", size=TV)
    start(hana, [ann], "together")
    _, whites = solution_of(hana)
    type_squares(hana, whites[:1], "Q")
    type_squares(ann, whites[-1:], "X")
    tv.wait_for_function(
        "[...document.querySelectorAll('[data-slot=grid] .letter')].filter(e => e.textContent)"
        ".length === 2"
    )
    painted(tv)
    for sq in (whites[0], whites[-1]):
        on_phone = square(hana, sq).evaluate(TINT)
        assert on_phone.startswith("linear-gradient"), on_phone  # the writer's faint colour
        assert square(tv, sq).evaluate(TINT) == on_phone
    # Two writers, two tints.
    assert square(tv, whites[0]).evaluate(TINT) != square(tv, whites[-1]).evaluate(TINT)


def on_my_own(phone, mode: str) -> Page:
    me = phone("Kim")
    me.wait_for_function("!document.querySelector('[data-act=solo]')?.disabled")
    me.click("[data-act=solo]")
    on_screen(me, "table")  # on your own, straight to choosing the puzzle
    me.click(f"[data-mode={mode}]")
    me.click("[data-size=mini]")
    me.wait_for_selector(f"[data-mode={mode}][aria-pressed=true]")
    me.click("[data-act=start]")
    on_screen(me, "game")
    return me


def test_a_mini_on_your_own_with_mistakes_says_how_many_were_right_and_the_time(phone):
    me = on_my_own(phone, "race")
    solution, whites = solution_of(me)
    wrong = "Z" if solution[whites[1]] != "Z" else "Q"
    type_squares(me, whites[:3], solution[whites[0]] + wrong + solution[whites[2]])
    me.click("[data-act=done]")
    on_screen(me, "results")
    title = me.locator("[data-slot=title]")
    # Two right of the whole board; nobody to beat, so nobody "won".
    expect(title).to_have_text(re.compile(rf"^2 of {len(whites)} right, 0:\d\d$"))


def test_a_together_board_on_your_own_with_nothing_typed_says_none_was_right(phone):
    me = on_my_own(phone, "together")
    _, whites = solution_of(me)
    me.click("[data-act=done]")
    on_screen(me, "results")
    title = me.locator("[data-slot=title]")
    expect(title).to_have_text(re.compile(rf"^0 of {len(whites)} right, 0:\d\d$"))


def read_aloud(page: Page) -> list[tuple[str, str]]:
    """(role, name) of every node in Chromium's own accessibility tree: what a screen
    reader is given."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    return [
        (n.get("role", {}).get("value", ""), n.get("name", {}).get("value", ""))
        for n in nodes
        if not n.get("ignored")
    ]


def test_a_screen_reader_reads_the_results_board_square_by_square(phone):
    me = on_my_own(phone, "race")
    solution, whites = solution_of(me)
    puzzle = me.evaluate("window.crossing.store.get().view.game.puzzle")
    width = puzzle["width"]
    wrong = "Z" if solution[whites[1]] != "Z" else "Q"
    type_squares(me, whites[:2], solution[whites[0]] + wrong)
    me.click("[data-act=done]")
    on_screen(me, "results")
    painted(me)
    tree = read_aloud(me)
    assert ("table", "The finished board") in tree
    cells = [name for role, name in tree if role == "cell"]
    assert len(cells) == puzzle["width"] * puzzle["height"]  # black squares too, in place

    def where(sq: int) -> str:
        return f"Row {sq // width + 1}, column {sq % width + 1}"

    right, typo, empty = whites[0], whites[1], whites[2]
    assert f"{where(right)}: {solution[right]}, right" in cells
    assert f"{where(typo)}: {wrong}, wrong, should be {solution[typo]}" in cells
    assert f"{where(empty)}: empty, should be {solution[empty]}" in cells


def level_one_headings(page: Page) -> list[str]:
    painted(page)
    return page.evaluate(
        "[...document.querySelectorAll('h1, [role=heading][aria-level=\"1\"]')]"
        ".filter(h => h.checkVisibility()).map(h => h.textContent.trim())"
    )


def test_every_screen_has_one_level_one_heading(phone):
    seen: dict[str, list[str]] = {}
    hana = phone("Hana")
    hana.wait_for_function("!document.querySelector('[data-act=host]')?.disabled")
    seen["home"] = level_one_headings(hana)
    code = host(hana)
    seen["lobby"] = level_one_headings(hana)
    tv = phone("TV", f"/watch.html?room={code}", size=TV)
    tv.wait_for_selector("[data-slot=members] .member")
    seen["watch: lobby"] = level_one_headings(tv)
    hana.click("[data-act=to_game]")
    on_screen(hana, "table")
    seen["table"] = level_one_headings(hana)
    hana.click("[data-act=start]")
    on_screen(hana, "game")
    seen["game"] = level_one_headings(hana)
    tv.wait_for_selector(".racer-board")
    seen["watch: race"] = level_one_headings(tv)
    hana.click("[data-act=done]")
    on_screen(hana, "results")
    seen["results"] = level_one_headings(hana)
    duel = phone("Dee", "/duel.html?debug")
    duel.wait_for_load_state("networkidle")
    seen["duel: lobby"] = level_one_headings(duel)
    duel.click("[data-bot=hard]")
    duel.wait_for_selector("#game:not([hidden])")
    seen["duel: game"] = level_one_headings(duel)
    for screen, headings in seen.items():
        assert len(headings) == 1 and headings[0], f"{screen}: {headings}"


def test_the_player_who_becomes_host_is_told_and_can_start(phone):
    hana, ann, _ = hana_hosts_ann_joins(phone)
    hana.click("[data-act=to_game]")
    on_screen(ann, "table")
    news = ann.locator("[data-slot=host-news]")
    expect(news).to_have_text("")
    hana.context.close()  # Hana's phone is gone for good
    # Her two minutes' grace, then Ann's page ticks and the role passes to her.
    expect(news).to_have_text(
        "Hana has been away two minutes, so you are the host now: you pick the puzzle,"
        " and can pause or end a game.",
        timeout=150_000,
    )
    assert news.get_attribute("role") == "status"  # read out as it arrives
    ann.click("[data-act=start]")
    on_screen(ann, "game")
    expect(ann.locator("[data-slot=host-news]")).to_have_text("")  # a game started: old news
