"""After stops, reloads and drops, every screen agrees with the server.

The server's reading is what a fresh page shows: it gets the whole view at once, so
its clock can only be the server's. A screen that watched the stop happen must show
the same time.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page

from tests.e2e.test_game import hana_and_ann, host, on_screen, solution_of, start, type_squares

TV = {"width": 1280, "height": 720}


def seconds(page: Page, selector: str) -> int:
    shown = page.text_content(selector) or ""
    found = re.search(r"(\d+):(\d\d)", shown)
    assert found, f"no clock in {shown!r}"
    return int(found[1]) * 60 + int(found[2])


def phone_clock(page: Page) -> int:
    return seconds(page, "[data-slot=clock]")


def tv_clock(page: Page) -> int:
    return seconds(page, ".watch-clock")


def fresh_tab(page: Page, path: str) -> Page:
    """Another tab of the same browser: same stored seat, a whole view of its own."""
    tab = page.context.new_page()
    tab.goto(page.url.split("/?")[0].split("/watch")[0] + path)
    return tab


def showing_a_clock(page: Page) -> None:
    page.wait_for_function(
        "/\\d+:\\d\\d/.test(document.querySelector('[data-slot=clock]')?.textContent ?? '')"
    )


def agree(stale: int, fresh: int, what: str) -> None:
    assert abs(stale - fresh) <= 1, f"{what}: shows {stale}s, the server says {fresh}s"


def test_clocks_after_done_take_back_pause_and_resume_match_the_server(phone):
    hana = phone("Hana")
    code = host(hana)
    ann = phone("Ann", f"/?debug&room={code}")
    on_screen(ann, "lobby")
    tv = phone("TV", f"/watch.html?room={code}", size=TV)
    start(hana, [ann], "race")
    tv.wait_for_selector(".racer-board")

    ann.wait_for_timeout(2500)
    ann.click("[data-act=done]")
    ann.wait_for_selector("[data-act=done][aria-pressed=true]")
    ann.wait_for_timeout(1500)
    mine = fresh_tab(ann, "/?debug")
    on_screen(mine, "game")
    mine.wait_for_function("/[1-9]/.test(document.querySelector('[data-slot=clock]').textContent)")
    agree(phone_clock(ann), phone_clock(mine), "Ann's clock while Done")
    mine.close()

    ann.click("[data-act=done]")  # take it back: her clock runs again
    ann.wait_for_selector("[data-act=done][aria-pressed=false]")
    hana.click("[data-act=pause]")
    tv.wait_for_function("/Paused/.test(document.querySelector('.watch-line').textContent)")
    tv.wait_for_timeout(2000)
    fresh_tv = fresh_tab(tv, f"/watch.html?room={code}")
    fresh_tv.wait_for_selector(".racer-board")
    agree(tv_clock(tv), tv_clock(fresh_tv), "the TV while paused")
    fresh_tv.close()

    hana.click("[data-act=pause]")  # carry on
    ann.wait_for_selector("[data-slot=paused]", state="hidden")
    ann.wait_for_timeout(2000)
    fresh_tv = fresh_tab(tv, f"/watch.html?room={code}")
    fresh_tv.wait_for_selector(".racer-board")
    mine = fresh_tab(ann, "/?debug")
    on_screen(mine, "game")
    showing_a_clock(mine)
    agree(tv_clock(tv), tv_clock(fresh_tv), "the TV after resuming")
    agree(phone_clock(ann), phone_clock(mine), "Ann's clock after resuming")
    theirs = fresh_tab(hana, "/?debug")
    on_screen(theirs, "game")
    showing_a_clock(theirs)
    agree(phone_clock(hana), phone_clock(theirs), "Hana's clock after resuming")


def test_a_host_who_reloads_comes_back_as_the_host(phone):
    hana, ann = hana_and_ann(phone, "together")
    hana.reload()
    on_screen(hana, "game")
    # Still the host: the host's own buttons are there, and Ann sees no new host.
    hana.wait_for_selector("[data-act=pause]:not([hidden])")
    hana.wait_for_selector("[data-act=end]:not([hidden])")
    ann.wait_for_timeout(500)
    assert ann.evaluate("window.crossing.store.get().view.host") == hana.evaluate(
        "window.crossing.store.get().view.you"
    )
    assert ann.is_hidden("[data-act=pause]")


def test_after_pagehide_the_server_sees_the_socket_closed(phone):
    hana = phone("Hana")
    code = host(hana)
    ann = phone("Ann", f"/?debug&room={code}")
    on_screen(ann, "lobby")
    hana.wait_for_selector(".member:has-text('Ann')")
    assert "away" not in hana.text_content(".member:has-text('Ann') .tag")
    # What a browser does as the page is left or frozen in its back/forward cache.
    ann.evaluate("window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: true}))")
    hana.wait_for_function(
        "/away/.test([...document.querySelectorAll('.member')]"
        ".find(m => m.textContent.includes('Ann')).querySelector('.tag').textContent)"
    )


def test_two_tabs_of_one_browser_in_one_room_both_type_and_keep_their_letters(phone):
    hana, ann = hana_and_ann(phone, "together")
    _, whites = solution_of(hana)
    other = fresh_tab(ann, "/?debug")  # the same seat, in a second tab
    on_screen(other, "game")
    tabs = [ann, other, ann, other]
    for tab, sq, letter in zip(tabs, whites[:4], "QXJZ", strict=True):
        type_squares(tab, [sq], letter)
    board = "window.crossing.store.get().view.game.board"
    expected = {whites[0]: "Q", whites[1]: "X", whites[2]: "J", whites[3]: "Z"}
    check = " && ".join(f"{board}[{sq}] === '{ch}'" for sq, ch in expected.items())
    for page in (hana, ann, other):
        page.wait_for_function(check)
