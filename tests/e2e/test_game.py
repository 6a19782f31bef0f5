"""The crossword game in Chromium against `crossing serve`: phones, a TV, bots."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
PACKS = [
    ROOT / "puzzles" / "packs",
    ROOT / "tests" / "data" / "packs",
]  # where the stack deals from
SCREEN = "document.querySelector('#app').dataset.screen"
LETTERS = (
    "[...document.querySelectorAll('[data-slot=grid] [data-square] .letter')]"
    ".filter(e => e.textContent).length"
)


def solution_of(page: Page) -> tuple[str, list[int]]:
    """The dealt puzzle's answers, from the test pack (the page never has them)."""
    puzzle_id = page.evaluate("window.crossing.store.get().view.game.puzzle.id")
    for pack in (path for folder in PACKS for path in folder.glob("*.json")):
        for p in json.loads(pack.read_text())["puzzles"]:
            if p.get("uniqueid") == puzzle_id:
                letters = "".join("".join(row) for row in p["solution"])
                return letters, [i for i, ch in enumerate(letters) if ch != "#"]
    raise AssertionError(f"puzzle {puzzle_id} is in no pack")


def on_screen(page: Page, screen: str) -> None:
    page.wait_for_function(f"{SCREEN} === {json.dumps(screen)}")


def host(page: Page) -> str:
    page.wait_for_function("!document.querySelector('[data-act=host]')?.disabled")
    page.click("[data-act=host]")
    on_screen(page, "lobby")
    return page.text_content("[data-slot=code]").strip()


def start(hana: Page, guests: list[Page], mode: str, size: str = "mini") -> None:
    hana.click("[data-act=to_game]")
    on_screen(hana, "table")
    # Two quick taps, as a person makes them: the second must not undo the first.
    hana.click(f"[data-mode={mode}]")
    hana.click(f"[data-size={size}]")
    hana.wait_for_selector(f"[data-mode={mode}][aria-pressed=true]")
    hana.wait_for_selector(f"[data-size={size}][aria-pressed=true]")
    hana.click("[data-act=start]")
    for page in (hana, *guests):
        on_screen(page, "game")


def hana_hosts_ann_joins(phone) -> tuple[Page, Page, str]:
    """Hana hosts and Ann joins by the invite link: both in the lobby, and its code."""
    hana = phone("Hana")
    code = host(hana)
    ann = phone("Ann", f"/?debug&room={code}")
    on_screen(ann, "lobby")
    return hana, ann, code


def hana_and_ann(phone, mode: str) -> tuple[Page, Page]:
    """Hana hosts, Ann joins by the invite link, and a Mini of ``mode`` starts."""
    hana, ann, _ = hana_hosts_ann_joins(phone)
    start(hana, [ann], mode)
    return hana, ann


TYPING_GAP_MS = 80  # about 12 letters a second: a fast person (rooms refuse over 25 a second)


def type_squares(page: Page, squares: list[int], letters: str) -> None:
    for sq, letter in zip(squares, letters, strict=True):
        page.click(f"[data-slot=grid] [data-square='{sq}']")
        page.click(f"[data-key='{letter}']")
        page.wait_for_timeout(TYPING_GAP_MS)


def test_two_players_race_a_mini_and_see_the_right_ranking(phone):
    hana, ann = hana_and_ann(phone, "race")
    solution, whites = solution_of(hana)
    type_squares(ann, whites, "".join(solution[sq] for sq in whites))  # Ann: perfect
    wrong = "".join("Z" if solution[sq] != "Z" else "Q" for sq in whites[:3])
    type_squares(hana, whites[:3], wrong)  # Hana: three squares, all wrong
    ann.click("[data-act=done]")
    hana.click("[data-act=done]")
    for page in (hana, ann):
        on_screen(page, "results")
    names = [t.strip() for t in ann.locator(".standings .who").all_text_contents()]
    assert names[0].startswith("Ann") and names[1].startswith("Hana")
    # Hana's own board marks her wrong squares with the right letter.
    assert hana.locator(".grid .miss").count() == len(whites)  # 3 wrong, the rest empty


def test_three_players_solve_together_and_see_the_colored_results(phone):
    hana = phone("Hana")
    code = host(hana)
    ann, bea = phone("Ann", f"/?debug&room={code}"), phone("Bea", f"/?debug&room={code}")
    for page in (ann, bea):
        on_screen(page, "lobby")
    start(hana, [ann, bea], "together")
    solution, whites = solution_of(hana)
    # Each types whole across words in turn, so each finishes (and earns) words of their own.
    across = hana.evaluate("window.crossing.store.get().view.game.puzzle.clues.across")
    players = (hana, ann, bea)
    for n, slot in enumerate(across):
        squares = slot["squares"]
        type_squares(players[n % 3], squares, "".join(solution[sq] for sq in squares))
    hana.wait_for_function(f"{LETTERS} === {len(whites)}", timeout=30_000)
    for page in (hana, ann, bea):
        page.click("[data-act=done]")
    for page in (hana, ann, bea):
        on_screen(page, "results")
    filled = bea.locator(".grid .filled")
    assert filled.count() == len(whites)  # every square in the color of whoever earned it
    colors = {
        c.evaluate("e => getComputedStyle(e).getPropertyValue('--fill')") for c in filled.all()
    }
    assert len(colors) >= 2


def test_a_player_who_reloads_keeps_their_board(phone):
    _, ann = hana_and_ann(phone, "race")
    _, whites = solution_of(ann)
    type_squares(ann, whites[:2], "QX")
    ann.reload()
    on_screen(ann, "game")
    ann.wait_for_function(f"{LETTERS} === 2")
    letter = ann.text_content(f"[data-slot=grid] [data-square='{whites[1]}'] .letter")
    assert letter == "X"


def test_the_watch_page_shows_racers_squares_but_never_letters(phone):
    hana = phone("Hana")
    code = host(hana)
    tv = phone("TV", f"/watch.html?room={code}", size={"width": 1280, "height": 720})
    start(hana, [], "race")
    _, whites = solution_of(hana)
    type_squares(hana, whites[:4], "QXQX")
    tv.wait_for_function("document.querySelectorAll('[data-slot=boards] .filled').length === 4")
    boards = tv.locator("[data-slot=boards]").inner_text()
    assert "Q" not in boards and "X" not in boards


def solved_beside_a_bot(phone, mode: str) -> Page:
    """On your own with a Hard bot: the whole board typed right, then Done."""
    me = phone("Ida")
    host(me)
    me.click("[data-bot=hard]")
    start(me, [], mode)
    solution, whites = solution_of(me)
    type_squares(me, whites, "".join(solution[sq] for sq in whites))
    me.click("[data-act=done]")
    return me


def test_on_your_own_against_a_bot_a_together_board_reaches_the_check(phone):
    me = solved_beside_a_bot(phone, "together")
    # The bot re-reads the full board, finds nothing to fix and taps We're done (its turns
    # arrive on the page's tick); how long it re-reads is up to its seed.
    me.wait_for_function(f"{SCREEN} === 'results'", timeout=120_000)
    expect(me.locator(".standings .who")).to_have_count(2)


def test_on_your_own_racing_a_bot_its_board_fills_and_the_race_is_ranked(phone):
    me = solved_beside_a_bot(phone, "race")
    # The bot's squares fill in on the page between messages, from its plan.
    me.wait_for_function(
        "[...document.querySelectorAll('.racer')]"
        ".some(m => /[1-9]\\d*% filled/.test(m.getAttribute('aria-label') || ''))",
        timeout=30_000,
    )
    if me.evaluate(SCREEN) == "game":  # a slow machine may have let the bot finish first
        me.evaluate("window.confirm = () => true")
        me.click("[data-act=end]")
    on_screen(me, "results")
    rows = me.locator(".standings .standing")
    expect(rows).to_have_count(2)
    mine = rows.filter(has_text="Ida")
    expect(mine.locator(".score")).to_contain_text("perfect")
