"""Watching a Duel in Chromium: a TV follows a game live (board, clocks, scores, turn,
the last play, the move list) and is never sent a rack; after the end it looks back
through the game move by move."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_duel import (
    drawn_with_own_icons,
    game_of,
    play_top,
    player,  # noqa: F401  (the fixture)
    square,
    wait_my_turn,
)

TV = {"width": 1280, "height": 720}


def open_tv(browser: Browser, base_url: str, path: str) -> tuple[Page, list[dict]]:
    """A TV page, and every message its socket is sent (to check what it never gets)."""
    context = browser.new_context(viewport=TV)
    context.set_default_timeout(15_000)
    page = context.new_page()
    received: list[dict] = []
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]

    def on_socket(ws) -> None:
        ws.on("framereceived", lambda frame: received.append(json.loads(frame)))

    page.on("websocket", on_socket)
    page.goto(base_url + path)
    return page, received


def test_a_tv_follows_a_duel_live_and_looks_back_through_it(player, browser, base_url):  # noqa: F811
    kim = player("Kim")
    kim.click("[data-limit='600000']")
    kim.click("[data-bot=hard]")
    kim.wait_for_selector("#game:not([hidden])")
    game = game_of(kim)
    link = kim.locator("[data-slot=watch-link]")
    expect(link).to_have_attribute("href", f"watch.html?duel={game['id']}")

    # The TV opens the Duel's code as typed into the watch page.
    tv, received = open_tv(browser, base_url, "/watch.html")
    tv.fill("#code", game["id"])
    tv.click("[data-form=watch] button[type=submit]")
    expect(tv.locator(".duel-watch")).to_be_visible()
    assert f"duel={game['id']}" in tv.url
    names = [s["name"] for s in game["seats"]]
    expect(tv.locator("[data-slot=title]")).to_have_text(f"{names[0]} v {names[1]}")
    expect(tv.locator(".dw-seat .clock").first).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    expect(tv.locator(".dw-board .sq")).to_have_count(225)
    expect(tv.locator(".rack, .tile")).to_have_count(0)

    # Two plays of Kim's and the bot's answers arrive live.
    for _ in range(2):
        moves = play_top(kim, base_url)
        tv.wait_for_function(f"document.querySelectorAll('.dw-side .moves li').length > {moves}")
    game = wait_my_turn(kim)
    expect(tv.locator(".dw-side .moves li")).to_have_count(len(game["moves"]))
    last = game["moves"][-1]
    line = tv.locator(".dw-side .moves li").last
    if last["kind"] == "play":
        expect(line.locator(".move-what")).to_contain_text(f"{last['at']} {last['words'][0]}")
        for r, c, letter in last["tiles"]:
            cell = tv.locator(f".dw-board {square(r, c).removeprefix('.board ')}")
            expect(cell).to_contain_text(letter)
            expect(cell).to_have_class(re.compile(r"\bsq-last\b"))
    scores = [str(s["score"]) for s in game["seats"]]
    expect(tv.locator(".dw-seat .score")).to_have_text(scores)
    expect(tv.locator(".dw-seat[data-turn=true] .name")).to_have_text(names[game["you"]])

    # Never a rack: every game the TV was sent has none, and no message holds Kim's.
    duels = [m for m in received if m.get("type") == "duel"]
    assert duels and all(m["game"]["rack"] == "" and m["game"]["you"] is None for m in duels)
    assert "".join(sorted(game["rack"])) not in json.dumps(received)

    # After the end, a look back: the start, one move on, the arrows, the end.
    kim.click("[data-act=resign]")
    kim.click("#confirm-resign button[value=resign]")
    expect(tv.locator("[data-slot=line]")).to_contain_text("resigned")
    total = len(game_of(kim)["moves"])
    expect(tv.locator("[data-slot=replay]")).to_be_visible()
    drawn_with_own_icons(tv)
    tv.click("[data-go=start]")
    expect(tv.locator(".dw-board .sq-tile")).to_have_count(0)
    expect(tv.locator("[data-slot=step]")).to_have_text(f"0 / {total}")
    tv.click("[data-go=on]")
    first = game_of(kim)["moves"][0]
    expect(tv.locator("[data-slot=line]")).to_have_text(f"Looking back: after move 1 of {total}")
    tiles = first["tiles"] if first["kind"] == "play" else []
    expect(tv.locator(".dw-board .sq-tile")).to_have_count(len(tiles))
    tv.keyboard.press("ArrowRight")
    expect(tv.locator("[data-slot=step]")).to_have_text(f"2 / {total}")
    tv.keyboard.press("End")
    expect(tv.locator("[data-slot=step]")).to_have_text(f"{total} / {total}")
    board = game_of(kim)["board"]
    expect(tv.locator(".dw-board .sq-tile")).to_have_count(sum(ch != "." for ch in "".join(board)))
    assert not tv.errors  # type: ignore[attr-defined]
    tv.context.close()


def test_a_duel_code_that_is_not_a_game_says_so(browser, base_url):
    tv, _ = open_tv(browser, base_url, "/watch.html?duel=g-nothing-here")
    expect(tv.locator("#notice")).to_contain_text("no Duel")
    expect(tv.locator(".duel-watch")).to_have_count(0)
    tv.context.close()
