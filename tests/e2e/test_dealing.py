"""The host's phone remembers the puzzles it has dealt, across a reload, and sends them."""

from __future__ import annotations

import json

from playwright.sync_api import Page

from tests.e2e.test_game import host, on_screen, start

PUZZLE = "window.crossing.store.get().view.game.puzzle.id"


def dealt_minis(page: Page) -> list[str]:
    return json.loads(page.evaluate("localStorage.getItem('crossing.dealt.mini') || '[]'"))


def starts_sent(page: Page) -> list[dict]:
    """The Start frames the page sends from now on (its next socket's)."""
    starts = []

    def on_frame(frame: str | bytes) -> None:
        message = json.loads(frame)
        if message.get("action") == "start":
            starts.append(message)

    page.on("websocket", lambda ws: ws.on("framesent", on_frame))
    return starts


def test_the_hosts_phone_remembers_its_deals_across_a_reload_and_sends_them(phone):
    hana = phone("Hana")
    host(hana)
    start(hana, [], "race")
    first = hana.evaluate(PUZZLE)
    hana.wait_for_function(f"localStorage.getItem('crossing.dealt.mini')?.includes('{first}')")
    starts = starts_sent(hana)
    hana.reload()
    on_screen(hana, "game")  # back in the race, which is still on
    assert dealt_minis(hana) == [first]
    hana.evaluate("window.confirm = () => true")
    hana.click("[data-act=close]")
    on_screen(hana, "home")
    host(hana)
    start(hana, [], "race")
    second = hana.evaluate(PUZZLE)
    assert [s.get("dealt") for s in starts] == [[first]]
    assert second != first
    hana.wait_for_function(f"localStorage.getItem('crossing.dealt.mini')?.includes('{second}')")
    assert dealt_minis(hana) == [first, second]
