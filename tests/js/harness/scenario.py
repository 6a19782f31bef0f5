"""A whole evening in one script: Hana hosts on a phone, Ann joins by invite link on
another, a TV watches; a Race, then a Together game. Screenshots go to --out.

    python -m tests.js.harness.scenario --url http://127.0.0.1:8766/ --out /tmp/shots
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tests.js.harness.drive import Browser

# Any puzzle: the white squares and how many hold a letter are read off the grid.
WHITES = "[...document.querySelectorAll('.grid [data-square]')].map(e => +e.dataset.square)"
LETTERS = (
    "[...document.querySelectorAll('.grid [data-square] .letter')]"
    ".filter(e => e.textContent).length"
)


def letter_at(square: int) -> str:
    return f"document.querySelector('.grid [data-square=\"{square}\"] .letter').textContent"


SCREEN = "document.querySelector('#app').dataset.screen"


def run(url: str, out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    browser = Browser()
    try:
        hana = browser.page(url, 390, 844)
        hana.wait("!document.querySelector('[data-act=host]')?.disabled")
        hana.shot(out / "e2e-01-home.png")
        hana.fill("#name", "Hana")
        hana.click("[data-act=host]")
        hana.wait(f"{SCREEN} === 'lobby'")
        code = hana.eval("document.querySelector('[data-slot=code]').textContent")
        hana.click("[data-bot=medium]")
        ann = browser.page(url, 390, 844)
        ann.eval("localStorage.setItem('crossing.name', 'Ann')")
        ann.go(f"{url}?room={code}")
        ann.wait(f"{SCREEN} === 'lobby'")
        tv = browser.page(f"{url}watch.html?room={code}", 1280, 720, mobile=False)
        hana.wait("document.querySelectorAll('.member').length === 3")
        hana.shot(out / "e2e-02-lobby-host.png")
        ann.shot(out / "e2e-03-lobby-guest.png")
        tv.shot(out / "e2e-04-tv-lobby.png")

        hana.click("[data-act=to_game]")
        hana.wait(f"{SCREEN} === 'table'")
        ann.wait(f"{SCREEN} === 'table'")
        hana.click("[data-mode=race]")
        hana.click("[data-size=mini]")
        ann.shot(out / "e2e-05-table-guest.png")
        hana.click("[data-act=start]")
        hana.wait(f"{SCREEN} === 'game'")
        ann.wait(f"{SCREEN} === 'game'")
        # Hana types on the on-screen keyboard; delete takes her last letter back.
        for key in "SIRASI":
            hana.tap_key(key)
        hana.wait(f"{LETTERS} === 6")
        hana.tap_key("⌫")
        hana.wait(f"{LETTERS} === 5")
        # Ann types on a computer keyboard.
        ann.keys("s", "i", "r", "a", "s", "i", "d", "e", "n", "o")
        ann.wait(f"{LETTERS} === 10")
        time.sleep(0.5)
        hana.shot(out / "e2e-06-race-hana.png")
        ann.shot(out / "e2e-07-race-ann.png")
        tv.shot(out / "e2e-08-tv-race.png")
        # Undo takes Ann's last letter back and puts her cursor on it.
        ann.keys("z", ctrl=True)
        ann.wait(f"{LETTERS} === 9")
        ann.wait("document.querySelector('.sq.cursor .letter').textContent === ''")
        ann.click("[data-act=done]")
        hana.wait(
            "[...document.querySelectorAll('.racer .tag')].some(t => t.textContent === 'Done')"
        )
        hana.click("[data-act=pause]")
        ann.wait("!document.querySelector('[data-slot=paused]').hidden")
        ann.shot(out / "e2e-09-paused-ann.png")
        hana.click("[data-act=resume]")
        hana.eval("window.confirm = () => true")
        hana.click("[data-act=end]")
        hana.wait(f"{SCREEN} === 'results'")
        ann.wait(f"{SCREEN} === 'results'")
        hana.shot(out / "e2e-10-race-results-hana.png")
        ann.shot(out / "e2e-11-race-results-ann.png")
        tv.shot(out / "e2e-12-tv-race-results.png")

        hana.click("[data-act=again]")
        hana.wait(f"{SCREEN} === 'table'")
        hana.click("[data-mode=together]")
        hana.wait(
            "document.querySelector('[data-mode=together]').getAttribute('aria-pressed') === 'true'"
        )
        hana.click("[data-act=start]")
        hana.wait(f"{SCREEN} === 'game'")
        ann.wait(f"{SCREEN} === 'game'")
        whites = hana.eval(WHITES)
        for sq, letter in zip(whites[:3], "CAT", strict=True):
            hana.eval(f"document.querySelector('[data-square=\"{sq}\"]').click()")
            hana.tap_key(letter)
        for sq, letter in zip(whites[3:8], "HOUSE", strict=True):
            ann.eval(f"document.querySelector('[data-square=\"{sq}\"]').click()")
            ann.keys(letter.lower())
        ann.wait(f"{letter_at(whites[0])} === 'C'")
        hana.wait(f"{letter_at(whites[7])} === 'E'")
        hana.shot(out / "e2e-13-together-hana.png")
        ann.shot(out / "e2e-14-together-ann.png")
        tv.shot(out / "e2e-15-tv-together.png")
        # Fill the rest of the board, then both say We're done.
        for sq in whites[8:]:
            hana.eval(f"document.querySelector('[data-square=\"{sq}\"]').click()")
            hana.tap_key("E")
        hana.click("[data-act=done]")
        ann.click("[data-act=done]")
        hana.eval("window.confirm = () => true")
        hana.click("[data-act=end]")
        ann.wait(f"{SCREEN} === 'results'")
        ann.click("[data-player]")
        ann.shot(out / "e2e-16-together-results-ann.png")
        tv.shot(out / "e2e-17-tv-together-results.png")
        return browser.console
    finally:
        browser.close()


def run_solo(url: str, out: Path) -> list[str]:
    """On your own: a race put down with × and picked up again; then a hard bot."""
    browser = Browser(port=9334)
    try:
        me = browser.page(url, 390, 844)
        me.wait("!document.querySelector('[data-act=solo]')?.disabled")
        me.fill("#name", "Ida")
        me.click("[data-act=solo]")
        me.wait(f"{SCREEN} === 'table'")
        me.click("[data-act=start]")
        me.wait(f"{SCREEN} === 'game'")
        for key in "SIR":
            me.tap_key(key)
        me.wait(f"{LETTERS} === 3")
        me.click("[data-act=close]")
        me.wait(f"{SCREEN} === 'home'")
        me.wait("!document.querySelector('[data-act=pick_up]').hidden")
        me.shot(out / "e2e-20-home-pick-up.png")
        me.click("[data-act=pick_up]")
        me.wait(f"{SCREEN} === 'game'")
        me.wait(f"{LETTERS} === 3")
        me.shot(out / "e2e-21-picked-up.png")
        me.click("[data-act=close]")
        me.wait(f"{SCREEN} === 'home'")
        me.click("[data-act=host]")
        me.wait(f"{SCREEN} === 'lobby'")
        me.click("[data-bot=hard]")
        me.click("[data-act=to_game]")
        me.wait(f"{SCREEN} === 'table'")
        me.click("[data-act=start]")
        me.wait(f"{SCREEN} === 'game'")
        time.sleep(20)
        me.shot(out / "e2e-22-racing-a-hard-bot.png")
        return browser.console
    finally:
        browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="http://127.0.0.1:8766/")
    parser.add_argument("--out", default="/tmp/shots")
    args = parser.parse_args()
    for line in run(args.url, Path(args.out)) + run_solo(args.url, Path(args.out)):
        print(line)
    print("scenario finished")
