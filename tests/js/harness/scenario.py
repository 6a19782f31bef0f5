"""A whole evening in one script: Hana hosts on a phone, Ann joins by invite link on
another, a TV watches; a Race, then a Together game. Screenshots go to --out.

    python -m tests.js.harness.scenario --url http://127.0.0.1:8766/ --out /tmp/shots
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tests.js.harness.drive import Browser

MINI_ANSWERS = {  # square: letter, for the test Mini
    2: "S", 3: "I", 4: "R", 5: "A", 6: "S", 7: "I", 8: "D", 9: "E", 10: "N", 11: "O",
    12: "D", 13: "E", 14: "S", 15: "T", 16: "R", 17: "E", 18: "A", 19: "T", 20: "I",
    21: "T", 22: "S",
}  # fmt: skip

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
        # Hana types 1a on the on-screen keyboard, then turns and goes on.
        for key in "SIR":
            hana.tap_key(key)
        for key in "ASI":
            hana.tap_key(key)
        hana.tap_key("⌫")
        hana.wait("document.querySelector('[data-square=\"7\"] .letter').textContent === ''")
        # Ann types on a computer keyboard.
        ann.keys("s", "i", "r", "a", "s", "i", "d", "e", "n", "o")
        time.sleep(0.5)
        hana.shot(out / "e2e-06-race-hana.png")
        ann.shot(out / "e2e-07-race-ann.png")
        tv.shot(out / "e2e-08-tv-race.png")
        # Undo takes Ann's last letter back and puts her cursor on it.
        ann.keys("z", ctrl=True)
        ann.wait("document.querySelector('[data-square=\"11\"] .letter').textContent === ''")
        ann.wait("document.querySelector('.sq.cursor').dataset.square === '11'")
        ann.click("[data-act=done]")
        hana.wait(
            "[...document.querySelectorAll('.racer .tag')].some(t => t.textContent === 'Done')"
        )
        hana.click("[data-act=pause]")
        ann.wait("!document.querySelector('[data-slot=paused]').hidden")
        ann.shot(out / "e2e-09-paused-ann.png")
        hana.click("[data-act=resume]")
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
        for sq in (2, 3, 4):
            hana.eval(f"document.querySelector('[data-square=\"{sq}\"]').click()")
            hana.tap_key(MINI_ANSWERS[sq])
        for sq in (5, 6, 7, 8, 9):
            ann.eval(f"document.querySelector('[data-square=\"{sq}\"]').click()")
            ann.keys(MINI_ANSWERS[sq].lower())
        ann.wait("document.querySelector('[data-square=\"2\"] .letter').textContent === 'S'")
        hana.shot(out / "e2e-13-together-hana.png")
        ann.shot(out / "e2e-14-together-ann.png")
        tv.shot(out / "e2e-15-tv-together.png")
        # Finish the board between them, then both say We're done.
        for sq in range(10, 23):
            if sq in MINI_ANSWERS:
                hana.eval(f"document.querySelector('[data-square=\"{sq}\"]').click()")
                hana.tap_key(MINI_ANSWERS[sq])
        hana.click("[data-act=done]")
        ann.click("[data-act=done]")
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
        me.wait("document.querySelector('[data-square=\"4\"] .letter').textContent === 'R'")
        me.click("[data-act=close]")
        me.wait(f"{SCREEN} === 'home'")
        me.wait("!document.querySelector('[data-act=pick_up]').hidden")
        me.shot(out / "e2e-20-home-pick-up.png")
        me.click("[data-act=pick_up]")
        me.wait(f"{SCREEN} === 'game'")
        me.wait("document.querySelector('[data-square=\"4\"] .letter').textContent === 'R'")
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
