"""Screenshots for the docs: a Race on a phone, mid-game and at its results, a TV, and a Duel.

    python scripts/screenshots.py [--out docs/screenshots] [--only race|duel]

Runs the local stack in this process and drives Debian's Chromium (CHROMIUM_PATH,
default /usr/bin/chromium) with Playwright, as the browser tests do.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crossing.local.serve import running

from tests.e2e.conftest import CHROMIUM_ARGS, PHONE
from tests.e2e.test_duel import new_tiles, square, top_play, wait_my_turn
from tests.e2e.test_game import on_screen, solution_of, type_squares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--only", choices=["race", "duel"], default=None)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    with running() as stack, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)

        def phone(name: str, path: str, size=PHONE):
            context = browser.new_context(viewport=size, device_scale_factor=2)
            page = context.new_page()
            page.add_init_script(f"localStorage.setItem('crossing.name', {json.dumps(name)})")
            page.goto(stack.url.rstrip("/") + path)
            return page

        if args.only != "race":
            duel(stack.url.rstrip("/"), phone, args.out)
        if args.only == "duel":
            browser.close()
            return

        hana = phone("Hana", "/?debug")
        hana.wait_for_function("!document.querySelector('[data-act=host]')?.disabled")
        hana.click("[data-act=host]")
        on_screen(hana, "lobby")
        code = hana.text_content("[data-slot=code]").strip()
        ann = phone("Ann", f"/?debug&room={code}")
        on_screen(ann, "lobby")
        hana.click("[data-bot=medium]")
        hana.screenshot(path=args.out / "lobby-phone.png")
        tv = phone("TV", f"/watch.html?room={code}", {"width": 1280, "height": 720})
        hana.click("[data-act=to_game]")
        on_screen(hana, "table")
        hana.click("[data-mode=race]")
        hana.click("[data-size=mini]")
        hana.click("[data-act=start]")
        on_screen(ann, "game")
        solution, whites = solution_of(hana)
        half = whites[: len(whites) // 2]
        type_squares(ann, half, "".join(solution[sq] for sq in half))
        type_squares(hana, whites[:5], "".join(solution[sq] for sq in whites[:5]))
        ann.wait_for_timeout(1500)
        ann.screenshot(path=args.out / "game-phone.png")
        tv.screenshot(path=args.out / "watch-tv.png")
        rest = whites[len(whites) // 2 :]
        type_squares(ann, rest, "".join(solution[sq] for sq in rest))
        ann.click("[data-act=done]")
        hana.evaluate("window.confirm = () => true")
        hana.click("[data-act=end]")
        on_screen(ann, "results")
        on_screen(hana, "results")
        ann.screenshot(path=args.out / "results-phone.png")
        hana.screenshot(path=args.out / "results-phone-with-mistakes.png")
        browser.close()
    print(f"wrote {len(list(args.out.glob('*.png')))} screenshots to {args.out}")


def duel(base: str, phone, out: Path) -> None:
    """A Duel against a Hard bot after a few moves (the Solver's top play each turn), on a
    desktop, on a phone, and watched on a TV."""
    for size, name in (({"width": 1280, "height": 900}, "duel.png"), (PHONE, "duel-phone.png")):
        page = phone("Kim", "/duel.html?debug", size)
        page.wait_for_function("window.duel.store.get().welcomed")
        page.click("[data-limit='600000']")
        page.click("[data-bot=hard]")
        page.wait_for_selector("#game:not([hidden])")
        for _ in range(2):
            game = wait_my_turn(page)
            play = top_play(page, base, game)
            if play is None:
                break
            tiles = new_tiles(play)
            page.click(square(tiles[0][0], tiles[0][1]))
            if play["direction"] == "down" and len(tiles) > 1:
                page.click(square(tiles[0][0], tiles[0][1]))
            page.keyboard.type("".join(letter for _, _, letter in tiles))
            page.keyboard.press("Enter")
            page.wait_for_function("window.duel.store.get().place.placed.length === 0")
        wait_my_turn(page)
        page.wait_for_timeout(500)
        page.screenshot(path=out / name)
        if name == "duel.png":
            # The same game on a TV, as the watch page shows it to a room.
            game = page.evaluate("window.duel.store.get().game.id")
            tv = phone("TV", f"/watch.html?duel={game}", {"width": 1280, "height": 720})
            tv.wait_for_selector(".duel-watch .dw-side .moves li")
            tv.wait_for_timeout(500)
            tv.screenshot(path=out / "duel-watch-tv.png")
            tv.context.close()
        page.context.close()


if __name__ == "__main__":
    main()
