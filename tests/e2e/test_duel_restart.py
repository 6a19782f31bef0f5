"""A Duel's clocks across a server restart, as the players see them: the server stops
for a while and comes back on the same address, the pages reconnect by themselves,
and the clock of the player to move shows the pause, not the time the server was away."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from crossing.local.backend import free_port
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_duel import DESKTOP, STATE
from tests.local.served import Served

AWAY_S = 8


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Served]:
    """A server of this test's own on a fixed port, so it can be stopped and started
    again where the pages expect it."""
    server = Served(tmp_path / "data", "--port", str(free_port()))
    server.start()
    yield server
    server.stop()


def open_page(browser: Browser, url: str, name: str) -> Page:
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('crossing.name', '{name}')")
    page.goto(url)
    page.wait_for_function(f"{STATE}.welcomed && {STATE}.lobby != null")
    return page


def shown_seconds(page: Page, seat: int) -> int:
    minutes, seconds = page.locator(f".players [data-seat='{seat}'] .clock").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_restart_shows_as_a_pause_on_the_clock_of_the_player_to_move(browser, own_server):
    base = own_server.url.rstrip("/")
    hana = open_page(browser, f"{base}/duel.html?debug", "Hana")
    hana.click("[data-limit='300000']")
    hana.click("[data-act=friend]")
    expect(hana.locator("[data-slot=link]")).to_have_value(re.compile(r"#seek=.+&token=."))
    link = hana.locator("[data-slot=link]").input_value()
    ann = open_page(browser, f"{base}/duel.html?debug#{link.split('#', 1)[1]}", "Ann")
    for page in (hana, ann):
        page.wait_for_selector("#game:not([hidden])")
    seat = hana.evaluate(f"{STATE}.game.turn")
    time.sleep(2)  # the player to move thinks a little
    before = shown_seconds(hana, seat)

    own_server.stop()
    for page in (hana, ann):
        expect(page.locator("#status")).to_be_visible()  # "Connecting…"
    time.sleep(AWAY_S)
    own_server.start()
    back_at = time.monotonic()

    # Both pages come back by themselves; the clock shows the time taken since the
    # server returned (the pages' reconnect), never the AWAY_S it was gone.
    for page in (hana, ann):
        expect(page.locator("#status")).to_be_hidden(timeout=30_000)
        page.wait_for_function(f"{STATE}.connected && {STATE}.game && {STATE}.game.turn != null")
    since_back = time.monotonic() - back_at
    after = shown_seconds(hana, seat)
    assert hana.evaluate(f"{STATE}.game.turn") == seat
    assert before - after <= since_back + 3, (before, after, since_back)
    for page in (hana, ann):
        page.context.close()
