"""Keyboard and screen reader alone: axe-core on every screen, and a solo Mini by keyboard.

The audit prints each screen's violations of any impact (pytest -s shows them); the
test fails on a serious or critical one.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.conftest import SERIOUS, audit, painted
from tests.e2e.test_game import host, on_screen, solution_of, type_squares

TV = {"width": 1280, "height": 720}
REPORT = os.environ.get("CROSSING_AXE_REPORT")  # a file to write every screen's findings to


class Audit:
    def __init__(self, axe_source: str) -> None:
        self.source = axe_source
        self.found: list[dict] = []
        self.screens: list[str] = []

    def __call__(self, page: Page, what: str) -> None:
        painted(page)
        self.screens.append(what)
        self.found += audit(page, self.source, what)

    def check(self) -> None:
        lines = [f"{v['screen']}: {v['impact']} {v['id']} {v['nodes']}" for v in self.found]
        print("\n".join([f"axe: {len(self.screens)} screens", *lines]))
        if REPORT:
            Path(REPORT).write_text(json.dumps({"screens": self.screens, "found": self.found}))
        serious = [
            line for v, line in zip(self.found, lines, strict=True) if v["impact"] in SERIOUS
        ]
        assert not serious, "\n".join(serious)


def test_every_crossword_screen_has_no_serious_accessibility_violation(phone, axe_source):
    check = Audit(axe_source)
    hana = phone("Hana")
    hana.wait_for_function("!document.querySelector('[data-act=host]')?.disabled")
    check(hana, "home")
    hana.click("[data-act=help]")
    check(hana, "help")
    hana.keyboard.press("Escape")
    code = host(hana)
    check(hana, "lobby (host)")
    ann = phone("Ann", f"/?debug&room={code}")
    on_screen(ann, "lobby")
    check(ann, "lobby (guest)")
    tv = phone("TV", "/watch.html", size=TV)
    check(tv, "watch: enter a code")
    tv.goto(tv.url.split("/watch")[0] + f"/watch.html?room={code}")
    tv.wait_for_selector("[data-slot=members] .member")
    check(tv, "watch: lobby")
    hana.click("[data-act=to_game]")
    on_screen(hana, "table")
    check(hana, "table (host)")
    on_screen(ann, "table")  # the host's tap gathers everyone
    check(ann, "table (guest)")
    hana.click("[data-mode=race]")
    hana.click("[data-act=start]")
    on_screen(ann, "game")
    on_screen(hana, "game")  # the host's page has the game too before it is read
    solution, whites = solution_of(hana)
    type_squares(hana, whites[:3], solution[whites[0]] + "QQ")
    check(hana, "game: race")
    tv.wait_for_selector(".racer-board")
    check(tv, "watch: race")
    hana.click("[data-act=pause]")
    check(ann, "game: paused (guest)")
    hana.click("[data-act=pause]")
    ann.wait_for_selector("[data-slot=paused]", state="hidden")
    type_squares(ann, whites, "".join(solution[sq] for sq in whites))
    ann.click("[data-act=done]")
    check(ann, "game: done, waiting")
    hana.click("[data-act=done]")
    on_screen(hana, "results")
    check(hana, "results: race, with mistakes")
    check(tv, "watch: race results")
    hana.click("[data-act=again]")
    on_screen(hana, "table")
    hana.click("[data-mode=together]")
    hana.wait_for_selector("[data-mode=together][aria-pressed=true]")
    hana.click("[data-act=start]")
    on_screen(ann, "game")
    on_screen(hana, "game")
    solution, whites = solution_of(hana)  # a new puzzle: the host has seen the last one
    type_squares(ann, whites[:4], "".join(solution[sq] for sq in whites[:4]))
    check(ann, "game: together")
    tv.wait_for_selector("[data-slot=shared]:not([hidden])")
    check(tv, "watch: together")
    type_squares(hana, whites[4:], "".join(solution[sq] for sq in whites[4:]))
    for page in (hana, ann):
        page.click("[data-act=done]")
    on_screen(ann, "results")
    check(ann, "results: together")
    ann.click(".standings .standing-btn >> nth=0")
    check(ann, "results: together, words lit")
    check(tv, "watch: together results")
    hana.evaluate("window.confirm = () => true")
    hana.click("[data-act=close]")
    on_screen(ann, "closed")
    check(ann, "room closed")
    duel = phone("Dee", "/duel.html")
    duel.wait_for_load_state("networkidle")
    check(duel, "duel: lobby")
    check.check()


def test_a_duel_against_a_bot_and_its_tv_have_no_serious_accessibility_violation(phone, axe_source):
    check = Audit(axe_source)
    duel = phone("Dee", "/duel.html?debug")
    duel.wait_for_load_state("networkidle")
    duel.click("[data-bot=hard]")
    duel.wait_for_selector("#game:not([hidden])")
    check(duel, "duel: a game against a bot")
    game = duel.evaluate("window.duel.store.get().game.id")
    tv = phone("TV", f"/watch.html?duel={game}", size=TV)
    tv.wait_for_selector(".duel-watch .sq", timeout=15000)
    check(tv, "watch: a Duel")
    check.check()


def test_the_solver_page_has_no_serious_accessibility_violation(phone, axe_source):
    check = Audit(axe_source)
    solver = phone("Sol", "/solver.html")
    solver.wait_for_selector("body[data-ready=true]")
    check(solver, "solver")
    check.check()


def test_a_whole_solo_mini_by_keyboard_alone(phone):
    me = phone("Kim", "/?debug", size={"width": 1280, "height": 800})
    me.wait_for_function("!document.querySelector('[data-act=host]')?.disabled")
    me.focus("[data-act=solo]")
    me.keyboard.press("Enter")
    on_screen(me, "table")  # on your own, straight to choosing the puzzle
    me.focus("[data-size=mini]")
    me.keyboard.press("Enter")
    me.focus("[data-act=start]")
    me.keyboard.press("Enter")
    on_screen(me, "game")
    # The board has the focus: the cursor's square, the grid's one tab stop.
    focused = "document.activeElement"
    me.wait_for_function(f"{focused}.getAttribute('role') === 'gridcell'")
    assert me.evaluate("document.querySelectorAll('[data-slot=grid] [tabindex=\"0\"]').length") == 1
    announce = "[data-slot=announce]"
    solution, whites = solution_of(me)
    puzzle = me.evaluate("window.crossing.store.get().view.game.puzzle")
    slots = [dict(s, dir="across") for s in puzzle["clues"]["across"]]
    first = slots[0]
    expect(me.locator(announce)).to_contain_text(
        f"{first['number']} Across, {len(first['squares'])} letters: {first['clue']}"
    )
    label = me.evaluate(f"{focused}.querySelector('.say').textContent")
    assert first["clue"] in label and "empty" in label and "in the highlighted word" in label
    # Tab goes to the next clue and Shift+Tab back, each read out as it comes.
    me.keyboard.press("Tab")
    expect(me.locator(announce)).to_contain_text(f"{slots[1]['number']} Across")
    assert me.evaluate(f"{focused}.dataset.square") == str(slots[1]["squares"][0])
    me.keyboard.press("Shift+Tab")
    expect(me.locator(announce)).to_contain_text(f"{first['number']} Across")
    # Every across word typed from its clue; a full word moves on to the next, read out.
    for n, slot in enumerate(slots):
        for sq in slot["squares"]:
            me.keyboard.press(solution[sq])
        if n + 1 < len(slots):
            nxt = slots[n + 1]
            expect(me.locator(announce)).to_contain_text(f"{nxt['number']} Across")
            assert me.evaluate(f"{focused}.dataset.square") == str(nxt["squares"][0])
    me.wait_for_function(
        "[...document.querySelectorAll('[data-slot=grid] .letter')].filter(e => e.textContent)"
        f".length === {len(whites)}"
    )
    # A square read back: its letter now, in place of "empty".
    before = me.evaluate(f"{focused}.dataset.square")
    me.keyboard.press("ArrowLeft")
    me.wait_for_function(f"{focused}.dataset.square !== {json.dumps(before)}")
    sq, label = me.evaluate(
        f"[Number({focused}.dataset.square), {focused}.querySelector('.say').textContent]"
    )
    assert f", {solution[sq]}," in label + ","
    # Tab from the grid's last clue would leave it; Done is reached by Tab and Enter.
    for _ in range(80):  # the down clues, then the clue lists beside the grid, then Undo
        if me.evaluate(f"{focused}.dataset.act") == "done":
            break
        me.keyboard.press("Tab")
    assert me.evaluate(f"{focused}.dataset.act") == "done"
    me.keyboard.press("Enter")
    on_screen(me, "results")
    # The results read from their title, then the ranking in order.
    me.wait_for_function(f"{focused}.tagName === 'H1'")
    # On your own nobody won: the title says how the board came out.
    title = me.evaluate(f"{focused}.textContent")
    assert re.fullmatch(rf"All {len(whites)} right, \d+:\d\d", title), title
    expect(me.locator(".standings .score")).to_contain_text(["perfect"])
