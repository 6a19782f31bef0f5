"""What a player notices within a game: notices, pauses, waiting, results, links, invites."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.test_game import hana_and_ann, host, on_screen, solution_of, start, type_squares


def bbox(page: Page, selector: str) -> dict:
    return page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }",
    )


def test_a_notice_goes_away_in_a_race_with_a_bot(phone):
    me = phone("Ida")
    host(me)
    me.click("[data-bot=hard]")
    start(me, [], "race")
    # A refusal from the server, as a player sees one: End needs the host's own confirm.
    me.evaluate(
        "window.crossing.store.dispatch({type: 'notice', notice: {code: 'x', message: 'Hello'}})"
    )
    expect(me.locator("#notice")).to_be_visible()
    # The bot's board repaints four times a second; the notice still leaves after 4 s.
    expect(me.locator("#notice")).to_be_hidden(timeout=7_000)


def test_while_paused_done_is_off_and_a_guest_is_told_who_paused(phone):
    hana, ann = hana_and_ann(phone, "race")
    hana.click("[data-act=pause]")
    expect(ann.locator("[data-slot=paused]")).to_be_visible()
    expect(ann.locator("[data-slot=paused-by]")).to_have_text("Paused by Hana")
    expect(ann.locator("[data-act=done]")).to_be_disabled()
    expect(hana.locator("[data-act=done]")).to_be_disabled()
    hana.click("[data-act=resume]")
    expect(ann.locator("[data-act=done]")).to_be_enabled()


def test_done_beside_a_bot_says_who_the_check_waits_for(phone):
    me = phone("Ida")
    host(me)
    me.click("[data-bot=easy]")
    start(me, [], "race")
    bot = me.evaluate("window.crossing.store.get().view.members.find(m => m.bot).name")
    me.click("[data-act=done]")
    expect(me.locator("[data-slot=waiting]")).to_have_text(f"Waiting for {bot}…")


def test_lit_words_leave_the_other_squares_readable(phone):
    hana, ann = hana_and_ann(phone, "together")
    solution, _ = solution_of(hana)
    across = hana.evaluate("window.crossing.store.get().view.game.puzzle.clues.across")
    down = hana.evaluate("window.crossing.store.get().view.game.puzzle.clues.down")
    # Ann finishes the first across word and a down word through it before anyone else:
    # the square they share is in no word of Hana's, so it is dim when Hana's words are
    # lit, whatever the puzzle. Hana then types every other across word (the winner).
    mine = [across[0], next(d for d in down if set(d["squares"]) & set(across[0]["squares"]))]
    for slot in mine:
        type_squares(ann, slot["squares"], "".join(solution[sq] for sq in slot["squares"]))
    for slot in across[1:]:
        squares = slot["squares"]
        type_squares(hana, squares, "".join(solution[sq] for sq in squares))
    for page in (hana, ann):
        page.click("[data-act=done]")
    on_screen(ann, "results")
    first = ann.locator(".standings .standing-btn").first
    expect(first).to_be_enabled()
    first.click()
    expect(first).to_have_attribute("aria-pressed", "true")
    ann.wait_for_selector(".grid .sq.dim")
    looks = ann.evaluate(
        """[...document.querySelectorAll('.grid .sq.dim')].map(e => {
            const s = getComputedStyle(e);
            let bg = s.backgroundColor.match(/[\\d.]+/g).slice(0, 3).map(Number);
            if (s.backgroundColor.startsWith('color(')) bg = bg.map((v) => v * 255);
            return {opacity: Number(s.opacity), bg};
        })"""
    )
    assert looks
    for look in looks:
        assert look["opacity"] == 1
        assert min(look["bg"]) >= 200, look  # pale, nowhere near the black squares


def test_no_empty_band_between_the_buttons_and_the_clue_bar(phone):
    me = phone("Ida")
    host(me)
    start(me, [], "race")
    actions, cluebar = bbox(me, ".game-actions"), bbox(me, ".cluebar")
    assert cluebar["top"] - actions["bottom"] <= 12


def test_an_invite_link_asks_only_for_a_name_and_joins_with_one_tap(phone, browser, base_url):
    hana = phone("Hana")
    code = host(hana)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        newcomer = context.new_page()
        newcomer.goto(f"{base_url}/?debug&room={code}")
        newcomer.wait_for_function("document.activeElement && document.activeElement.id === 'name'")
        join = newcomer.locator("[data-slot=invite-join]")
        expect(join).to_have_text(f"Join room {code}")
        newcomer.keyboard.type("Newt")
        expect(join).to_be_enabled()
        join.click()
        on_screen(newcomer, "lobby")
        hana.wait_for_selector(".member:has-text('Newt')")
        # Next time the name is remembered and filled in.
        newcomer.evaluate("window.crossing.store.dispatch({type: 'left'})")
        on_screen(newcomer, "home")
        assert newcomer.input_value("#name") == "Newt"
    finally:
        context.close()


def test_pages_log_no_errors_and_watch_has_its_own_address(phone, base_url):
    page = phone("Ida", "/")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: errors.append(r.url) if r.status >= 400 else None)
    for path in ("/", "/watch", "/watch.html", "/solver.html", "/duel.html"):
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
    assert not errors, errors
    page.goto(f"{base_url}/watch")
    expect(page.locator("form[data-form=watch]")).to_be_visible()


def test_home_links_the_solver_and_the_solver_links_home(phone):
    page = phone("Ida", "/")
    page.click("a[href='solver.html']")
    page.wait_for_url("**/solver.html")
    page.click("a.home-link")
    page.wait_for_function("document.querySelector('#app').dataset.screen === 'home'")
