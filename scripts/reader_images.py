"""Screenshots of tile-game boards, with the truth beside each, for the screenshot reader.

    python scripts/reader_images.py                 # 240 images into build/reader-images/
    python scripts/reader_images.py --count 30 --out /tmp/shots
    python scripts/reader_images.py --fixtures      # the small set the tests read

Positions come from seeded self-play (crossing.tiles.selfplay). Styles:

- solver-phone, solver-desktop, duel-phone, duel-desktop: our own Solver and Duel
  pages through Chromium against the local stack (the Duel page shows each position
  through its store, in a real game against a bot);
- night, paper, bright: drawn by scripts/reader/draw.js (dark phone app with rounded
  tiles; tablet in landscape with the rack in a column beside the board, square
  tiles, two-line premium labels, JPEG; bright phone app with gradient tiles in a
  font the classifier was not trained on, JPEG, resampled to 93 %).

Each image X.png (or X.jpg) has X.json: {"style", "board", "rack", "rules"}.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "reader"))
from crossing.game_files import default_lexicon
from crossing.tiles.rules import CROSSPLAY, DUEL, SCRABBLE, WWF, RuleSet
from crossing.tiles.selfplay import self_play
from harness import ROOT, chromium, repo_server

OUT = ROOT / "build" / "reader-images"
FIXTURES = ROOT / "tests" / "js" / "fixtures" / "reader"
PAGE_STYLES = ("solver-phone", "solver-desktop", "duel-phone", "duel-desktop")
DRAWN_STYLES = ("night", "paper", "bright")
STYLES = PAGE_STYLES + DRAWN_STYLES
# The tests' fixed set: one of each style.
FIXTURE_STYLES = STYLES
DRAWN = {
    "night": {"format": "png", "scale": 1},
    "paper": {"format": "jpeg", "quality": 0.7, "scale": 1},
    "bright": {"format": "jpeg", "quality": 0.55, "scale": 0.93},
}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3}
DESKTOP = {"viewport": {"width": 1280, "height": 900}, "device_scale_factor": 1}
SOLVER_BOARDS = "crossing.solver.boards"
STATE = "window.duel.store.get()"


@dataclass(frozen=True)
class Position:
    rules: RuleSet
    board: list[str]
    rack: str


def position(rules: RuleSet, seed: int) -> Position:
    """A board after 0-14 turns of self-play and a rack drawn from what is left."""
    rng = random.Random(seed)
    turns = rng.choice([0, *range(2, 15)])
    board, rest = self_play(rules, default_lexicon(), seed, turns=turns)
    size = rules.rack_size if rng.random() < 0.8 else rng.randint(1, rules.rack_size - 1)
    rack = "".join(rng.sample(rest, min(size, len(rest))))
    return Position(rules, list(board.rows), rack)


def save(out: Path, name: str, style: str, data: bytes, ext: str, pos: Position) -> None:
    (out / f"{name}.{ext}").write_bytes(data)
    truth = {"style": style, "rules": pos.rules.name, "board": pos.board, "rack": pos.rack}
    (out / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")


def from_data_url(url: str) -> bytes:
    return base64.b64decode(url.split(",", 1)[1])


def drawn(page, style: str, pos: Position, seed: int, png_only: bool) -> tuple[bytes, str]:
    rng = random.Random(seed)
    game = {
        "board": pos.board,
        "rack": pos.rack,
        "layout": list(pos.rules.layout),
        "values": {letter: value for letter, value in pos.rules.values.items()},
        "names": [rng.choice(["Sam", "Ana", "Kofi", "Mei"]), rng.choice(["Lou", "Ravi", "Ida"])],
        "scores": [rng.randint(0, 400), rng.randint(0, 400)],
    }
    options = DRAWN[style]
    if png_only and options["format"] == "jpeg":
        # The tests' copy of a JPEG style is a PNG (node decodes PNG only); at 60 % it
        # stays small in the repository, and is a stronger test of scaling.
        options = {**options, "scale": options["scale"] * 0.6}
    url = page.evaluate(
        """async ([name, game, options, pngOnly]) => {
            const d = await import('/scripts/reader/draw.js');
            const url = d.drawScreenshot(name, game, options);
            return pngOnly ? d.asPng(url) : url;
        }""",
        [style, game, options, png_only],
    )
    ext = "png" if png_only or options["format"] == "png" else "jpg"
    return from_data_url(url), ext


def solver_shot(context, base: str, pos: Position) -> bytes:
    page = context.new_page()
    entry = {"shot": {"board": pos.board, "rules": pos.rules.name, "rack": pos.rack}}
    stored = json.dumps(json.dumps(entry))
    page.add_init_script(f"localStorage.setItem({json.dumps(SOLVER_BOARDS)}, {stored})")
    page.goto(f"{base}/solver.html")
    page.wait_for_selector("body[data-ready=true]")
    page.get_by_label("Saved", exact=True).select_option("shot")
    page.get_by_role("button", name="Load", exact=True).click()
    page.wait_for_function(
        "n => document.querySelectorAll('.sq-tile').length === n", arg=tiles_on(pos)
    )
    # On a phone the rack is below the fold: scrolled up into view, under the board, as
    # a player would before taking the screenshot.
    page.evaluate(SHOW_BOARD_AND_RACK)
    shot = page.screenshot()
    page.close()
    return shot


SHOW_BOARD_AND_RACK = """() => {
    document.activeElement.blur();
    const rack = document.querySelector('.rack-tiles');
    const bottom = rack.getBoundingClientRect().bottom + window.scrollY + 12;
    const top = Math.max(0, bottom - window.innerHeight);
    window.scrollTo({ top, behavior: 'instant' });
    const board = document.getElementById('board').getBoundingClientRect();
    if (board.top < 0 || rack.getBoundingClientRect().bottom > window.innerHeight) {
        throw new Error('the board and the rack do not fit on one screen');
    }
}"""


def tiles_on(pos: Position) -> int:
    return sum(1 for row in pos.board for ch in row if ch != ".")


def duel_game(context, base: str):
    """A Duel page with a game against the Easy bot, waiting on this player's turn."""
    page = context.new_page()
    page.goto(f"{base}/duel.html?debug")
    page.wait_for_function(f"{STATE}.welcomed && {STATE}.lobby != null")
    page.click("[data-limit='']")
    page.click("[data-bot=easy]")
    page.wait_for_function(f"(g => g && g.turn === g.you)({STATE}.game)", timeout=30_000)
    return page


RACK_SHOWN = "[...document.querySelectorAll('.rack .tile')].map((t) => t.dataset.letter).join('')"


def last_play(pos: Position, rng: random.Random) -> list[tuple[int, int]]:
    """The squares of a run of tiles on the board (up to seven along a row or a column),
    to be marked as the last play: the Duel page rings and notches them."""
    runs = []
    for lines, at in ((pos.board, lambda i, j: (i, j)), (columns(pos.board), lambda i, j: (j, i))):
        for i, line in enumerate(lines):
            j = 0
            while j < len(line):
                k = j
                while k < len(line) and line[k] != ".":
                    k += 1
                if k > j:
                    runs.append([at(i, n) for n in range(j, min(k, j + 7))])
                j = k + 1
    return rng.choice(runs) if runs else []


def columns(board: list[str]) -> list[str]:
    return ["".join(row[c] for row in board) for c in range(len(board))]


def duel_shot(page, pos: Position, version: int, rng: random.Random) -> tuple[bytes, Position]:
    """The page showing the position as a player sees it mid-game: a run of its tiles
    marked as the last play and the highlight on a square (a tile or an empty one).
    Also the position with the rack in the order the page shows it (the page keeps its
    own order of the rack, as a player arranges it)."""
    tiles = last_play(pos, rng)
    page.evaluate(
        """([board, rack, version, tiles]) => {
            const game = window.duel.store.get().game;
            const play = { kind: 'play', seat: 1 - game.you, tiles, words: [], score: 0 };
            const shown = { ...game, board, rack: [...rack], moves: [play] };
            const message = { type: 'duel', game: shown, version };
            window.duel.store.dispatch({ type: 'server', message });
        }""",
        [pos.board, pos.rack, version, [list(t) for t in tiles]],
    )
    page.wait_for_function(
        "n => document.querySelectorAll('.board .sq-tile').length === n", arg=tiles_on(pos)
    )
    row, col = rng.randrange(15), rng.randrange(15)
    page.click(f".board .sq[data-row='{row}'][data-col='{col}']")
    page.mouse.move(0, 0)
    shown = page.evaluate(RACK_SHOWN)
    assert sorted(shown) == sorted(pos.rack), (shown, pos.rack)
    return page.screenshot(), Position(pos.rules, pos.board, shown)


def generate(out: Path, count: int, seed: int, styles: tuple[str, ...], png_only: bool) -> None:
    from crossing.local.serve import running

    out.mkdir(parents=True, exist_ok=True)
    per_style = max(1, count // len(styles))
    rules_for = {"night": CROSSPLAY, "paper": SCRABBLE, "bright": WWF}
    # A stack of its own in memory: never the data folder a `crossing serve` may be using.
    with repo_server() as repo, chromium() as browser, running(backend="moto") as stack:
        base = stack.url.rstrip("/")
        for style in styles:
            phone = style.endswith("phone")
            context = browser.new_context(**(PHONE if phone else DESKTOP))
            context.set_default_timeout(20_000)
            duel = duel_game(context, base) if style.startswith("duel") else None
            draw_page = None
            if style in DRAWN_STYLES:
                draw_page = context.new_page()
                draw_page.goto(f"{repo}/scripts/reader/blank.html")
            for n in range(per_style):
                case = seed * 1000 + STYLES.index(style) * 100 + n
                rules = DUEL if duel else rules_for.get(style, CROSSPLAY)
                pos = position(rules, case)
                if duel:
                    shot = duel_shot(duel, pos, 10_000 + n, random.Random(case))
                    (data, pos), ext = shot, "png"
                elif draw_page:
                    data, ext = drawn(draw_page, style, pos, case, png_only)
                else:
                    data, ext = solver_shot(context, base, pos), "png"
                save(out, f"{style}-{n:03d}", style, data, ext, pos)
            context.close()
            print(f"{style}: {per_style} images")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=245, help="images in all (split by style)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--style", action="append", choices=STYLES, help="only these styles")
    parser.add_argument(
        "--fixtures", action="store_true", help="the tests' small fixed set, PNG only"
    )
    args = parser.parse_args()
    if args.fixtures:
        styles = tuple(args.style or FIXTURE_STYLES)
        generate(FIXTURES, len(styles), 99, styles, png_only=True)
        return
    generate(args.out, args.count, args.seed, tuple(args.style or STYLES), png_only=False)


if __name__ == "__main__":
    main()
