"""The Duel page in Chromium against `crossing serve`: a bot game played to the end of
the tiles, a bot game played by keyboard and by dragging, and two players meeting
through the lobby and a private link."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, SERIOUS, audit

STATE = "window.duel.store.get()"
DESKTOP = {"width": 1280, "height": 900}
BOT_WAIT_MS = 30_000  # a Hard bot answers within 1.5 s; generous for a loaded machine


@pytest.fixture
def player(browser: Browser, base_url: str) -> Iterator:
    contexts = []

    def open_player(
        name: str | None = None, path: str = "/duel.html?debug", phone: bool = False
    ) -> Page:
        context = (
            browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
            if phone
            else browser.new_context(viewport=DESKTOP)
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors  # type: ignore[attr-defined]
        if name:
            page.add_init_script(f"localStorage.setItem('crossing.name', {json.dumps(name)})")
        page.goto(base_url + path)
        page.wait_for_function(f"{STATE}.welcomed && {STATE}.lobby != null")
        return page

    yield open_player
    for context in contexts:
        for page in context.pages:
            assert not page.errors, f"the page raised: {page.errors}"  # type: ignore[attr-defined]
        context.close()


def game_of(page: Page) -> dict:
    return page.evaluate(f"{STATE}.game")


def wait_my_turn(page: Page) -> dict:
    page.wait_for_function(
        f"(g => g && (g.result != null || g.turn === g.you))({STATE}.game)", timeout=BOT_WAIT_MS
    )
    return game_of(page)


def top_play(page: Page, base_url: str, game: dict) -> dict | None:
    """The best play for this rack and board, asked of the Solver's HTTP API."""
    response = page.request.post(
        f"{base_url}/api/solve",
        data={"rules": "duel", "rack": "".join(game["rack"]), "board": game["board"], "top": 1},
    )
    assert response.ok, response.text()
    plays = response.json()["plays"]
    return plays[0] if plays else None


def new_tiles(play: dict) -> list[tuple[int, int, str]]:
    """The squares the play covers that are new, 0-based, in order along its line."""
    seen: dict[tuple[int, int], str] = {}
    for word in play["breakdown"]["words"]:
        for square in word["squares"]:
            if square["new"]:
                seen[(square["row"] - 1, square["col"] - 1)] = square["letter"].upper()
    return [(row, col, letter) for (row, col), letter in sorted(seen.items())]


def square(row: int, col: int) -> str:
    return f".board .sq[data-row='{row}'][data-col='{col}']"


def submit_and_wait(page: Page, moves_before: int, score: int) -> None:
    page.wait_for_function(
        f"(g => g.moves.length > {moves_before} && g.moves[{moves_before}].kind === 'play')"
        f"({STATE}.game)"
    )
    game = game_of(page)
    assert game["moves"][moves_before]["score"] == score
    assert game["seats"][game["you"]]["score"] >= score


def type_play(page: Page, play: dict) -> None:
    """Click the play's first new square, turn down if need be, and type its letters
    (the highlight skips the letters already on the board)."""
    tiles = new_tiles(play)
    row, col, _ = tiles[0]
    down = play["direction"] == "down" and len(tiles) > 1
    first = page.locator(square(row, col))
    first.click()
    expect(first).to_have_class(re.compile(r"\bsq-cursor\b"))  # the highlight is drawn
    if ("sq-cursor-down" in (first.get_attribute("class") or "")) != down:
        first.click()  # a second click on the highlight turns it
    facing = r"\bsq-cursor-down\b" if down else r"\bsq-cursor-across\b"
    expect(first).to_have_class(re.compile(facing))
    page.keyboard.type("".join(letter for _, _, letter in tiles))
    for r, c, letter in tiles:
        expect(page.locator(square(r, c))).to_contain_text(letter)


def play_top(page: Page, base_url: str) -> int:
    """On this page's turn, type the Solver's top play and submit it; the number of
    moves before it (the play is that move)."""
    game = wait_my_turn(page)
    moves = len(game["moves"])
    play = top_play(page, base_url, game)
    type_play(page, play)
    page.keyboard.press("Enter")
    submit_and_wait(page, moves, play["score"])
    return moves


def test_a_guest_plays_a_hard_bot_to_the_end_of_the_tiles(player, base_url: str):
    page = player("Lee")
    page.click("[data-limit='']")  # Unlimited: the game ends by its tiles, not a clock
    page.click("[data-bot=hard]")
    page.wait_for_selector("#game:not([hidden])")
    for _ in range(60):
        game = wait_my_turn(page)
        if game["result"] is not None:
            break
        moves = len(game["moves"])
        play = top_play(page, base_url, game)
        if play is not None:
            type_play(page, play)
            page.keyboard.press("Enter")
        elif game["bag"]:
            page.click("[data-act=swap]")
            page.locator(".rack .tile").first.click()
        else:
            page.click("[data-act=skip]")
        page.wait_for_function(f"{STATE}.game.moves.length > {moves}")
    game = game_of(page)
    result = game["result"]
    assert result is not None and result["reason"] in ("tiles", "zeros")
    assert game["bag"] == 0 or result["reason"] == "zeros"
    scores = [seat["score"] for seat in game["seats"]]
    assert result["scores"] == scores
    assert sum(m["score"] for m in game["moves"]) == sum(scores)
    panel = page.locator("[data-slot=result]")
    expect(panel).to_be_visible()
    for seat in (0, 1):
        expect(panel.locator("tbody tr").nth(seat).locator(".score")).to_have_text(
            str(scores[seat])
        )
    winner = result["winner"]
    if winner is None:
        expected = "It's a draw."
    elif winner == game["you"]:
        expected = "You won!"
    else:
        expected = f"{game['seats'][winner]['name']} won."
    expect(panel.locator("[data-slot=winner]")).to_have_text(expected)


def test_a_guest_plays_a_bot_by_keyboard_and_by_dragging_then_resigns(player, base_url: str):
    page = player("Kim")
    expect(page.locator("[data-slot=my-rating]")).to_have_text("1000")
    expect(page.locator("[data-slot=my-note]")).to_have_text("guest, not rated")
    page.click("[data-limit='180000']")
    page.click("[data-bot=hard]")
    page.wait_for_selector("#game:not([hidden])")
    expect(page.locator(square(7, 7))).to_have_attribute(
        "aria-label", "row 8, column 8, centre star, double word"
    )
    expect(page.locator(square(0, 0))).to_have_attribute(
        "aria-label", "row 1, column 1, TW, triple word"
    )
    expect(page.locator(".players .clock").first).to_have_text(re.compile(r"^(3:00|2:[45]\d)$"))

    game = wait_my_turn(page)
    expect(page.locator(f".players [data-seat='{game['you']}']")).to_have_attribute(
        "data-turn", "true"
    )
    # 0. A play the server refuses (a lone tile in the corner): the error shows, the tile stays.
    letter = game["rack"][0]
    page.click(square(0, 0))
    page.keyboard.type(letter)
    page.keyboard.press("Enter")
    expect(page.locator("[data-slot=error]")).to_be_visible()
    expect(page.locator(square(0, 0))).to_contain_text(letter)
    page.click("[data-act=recall]")
    expect(page.locator(square(0, 0))).not_to_contain_text(letter)

    # 1. A play typed on the keyboard: click its first square, turn down if need be, type.
    play = top_play(page, base_url, game)
    assert play is not None
    type_play(page, play)
    moves = len(game["moves"])
    page.keyboard.press("Enter")
    submit_and_wait(page, moves, play["score"])
    expect(page.locator("[data-slot=moves] li").nth(moves)).to_contain_text(str(play["score"]))

    # The bot answers.
    game = wait_my_turn(page)
    assert game["moves"][-1]["seat"] != game["you"] or game["result"] is not None
    assert game["result"] is None

    # 2. A play dragged from the rack, tile by tile.
    play = top_play(page, base_url, game)
    assert play is not None
    for r, c, letter in new_tiles(play):
        tile = page.locator(f".rack .tile[data-letter='{letter}']:not(.used)").first
        tile.drag_to(page.locator(square(r, c)))
        expect(page.locator(square(r, c))).to_contain_text(letter)
    moves = len(game["moves"])
    page.click("[data-act=submit]")
    submit_and_wait(page, moves, play["score"])

    # 3. The bot answers again; a swap with the Swap control; then resign.
    game = wait_my_turn(page)
    assert game["result"] is None
    moves = len(game["moves"])
    page.click("[data-act=swap]")
    page.locator(".rack .tile").first.click()
    page.wait_for_function(f"{STATE}.game.moves.length > {moves}")
    assert game_of(page)["moves"][moves]["kind"] == "swap"
    game = wait_my_turn(page)
    page.click("[data-act=resign]")
    page.click("#confirm-resign button[value=resign]")
    result = page.locator("[data-slot=result]")
    expect(result).to_be_visible()
    game = game_of(page)
    assert game["result"]["reason"] == "resigned"
    bot = 1 - game["you"]
    assert game["result"]["winner"] == bot
    expect(result.locator("[data-slot=winner]")).to_have_text(f"{game['seats'][bot]['name']} won.")
    rows = result.locator("tbody tr")
    expect(rows).to_have_count(2)
    for seat in (0, 1):
        expect(rows.nth(seat).locator(".score")).to_have_text(str(game["result"]["scores"][seat]))
        expect(rows.nth(seat).locator(".change")).to_contain_text("not rated")
    page.click("[data-act=to-lobby]")
    page.wait_for_selector("#lobby:not([hidden])")


def turn_light(page: Page) -> tuple[int, str]:
    """The seat and name with the turn light on, as this page shows it."""
    lit = page.locator(".players [data-turn=true]")
    expect(lit).to_have_count(1)
    name = lit.locator(".name").text_content().replace(" (you)", "").strip()
    return int(lit.get_attribute("data-seat")), name


def test_two_players_meet_through_the_lobby_list(player):
    hana = player("Hana")
    ann = player("Ann", phone=True)
    hana.click("[data-limit='300000']")
    hana.click("[data-act=seek]")
    expect(hana.locator("[data-slot=mine]")).to_be_visible()
    expect(hana.locator("[data-slot=mine-text]")).to_contain_text("5 min")
    seek = ann.locator("[data-slot=seeks] li", has_text="Hana")
    expect(seek.locator(".limit")).to_have_text("5 min · unrated")  # two guests
    expect(seek).to_contain_text("1000")
    # Hana's own game is not one she can challenge.
    expect(hana.locator("[data-slot=seeks] li", has_text="Hana")).to_have_count(0)
    seek.get_by_role("button", name="Challenge").tap()
    for page in (hana, ann):
        page.wait_for_selector("#game:not([hidden])")
    assert turn_light(hana) == turn_light(ann)
    # On the phone: tap a square, then tap a rack tile, and it is placed; Recall takes it back.
    letter = game_of(ann)["rack"][0]
    ann.tap(square(7, 7))
    ann.locator(".rack .tile").first.tap()
    expect(ann.locator(square(7, 7))).to_contain_text(letter)
    ann.locator("[data-act=recall]").tap()
    expect(ann.locator(square(7, 7))).not_to_contain_text(letter)
    assert {hana.locator(".players .name").nth(i).text_content() for i in (0, 1)} >= {"Hana (you)"}
    assert game_of(hana)["id"] == game_of(ann)["id"]


def test_a_private_game_is_reached_through_its_link(player, base_url: str):
    hana = player("Hana")
    hana.click("[data-limit='']")  # Unlimited
    hana.click("[data-act=friend]")
    link = hana.locator("[data-slot=link]")
    expect(link).to_have_value(re.compile(r"/duel\.html#seek=[^&]+&token=."))
    href = link.input_value()
    assert "/duel.html#seek=" in href and "&token=" in href
    # It is not listed for anyone else.
    other = player("Zed")
    expect(other.locator("[data-slot=seeks] li", has_text="Hana")).to_have_count(0)
    ann = player("Ann", path="/duel.html?debug#" + href.split("#", 1)[1])
    for page in (hana, ann):
        page.wait_for_selector("#game:not([hidden])")
    assert turn_light(hana) == turn_light(ann)
    # Unlimited: no clocks.
    expect(ann.locator(".players .clock:visible")).to_have_count(0)


def signed_in_or_refused(page: Page) -> str:
    """Waits for the answer to a sign-up or sign-in: the account's name, or the error code."""
    try:
        page.wait_for_function(
            f"{STATE}.account != null || ({STATE}.error != null && !{STATE}.signing)",
            timeout=10_000,
        )
    except Exception:  # no answer at all
        return "no-answer"
    state = page.evaluate(STATE)
    return state["account"]["name"] if state["account"] else state["error"]["code"]


def test_an_account_signs_up_stays_signed_in_across_a_reload_and_signs_out(player):
    page = player()
    name = f"kim{int(time.time() * 1000) % 10**8}"
    page.fill("#acct-name", name)
    page.fill("#acct-password", "correct-horse-battery")
    page.click("[data-form=sign] button[value=sign_up]")
    assert signed_in_or_refused(page) == name
    expect(page.locator("[data-slot=my-name]")).to_have_text(name)
    expect(page.locator("[data-slot=my-rating]")).to_have_text("1000")
    expect(page.locator("[data-act=sign-out]")).to_be_visible()
    assert page.evaluate("localStorage.getItem('crossing.refresh')")

    # A reload says hello with the refresh token: still signed in.
    page.reload()
    page.wait_for_function(f"{STATE}.welcomed")
    expect(page.locator("[data-slot=my-name]")).to_have_text(name)

    # Sign out: the guest again.
    page.click("[data-act=sign-out]")
    page.wait_for_function(f"{STATE}.welcomed")
    expect(page.locator("[data-slot=my-note]")).to_have_text("guest, not rated")
    assert page.evaluate("localStorage.getItem('crossing.refresh')") is None

    # A wrong password is refused in words; the right one signs in.
    page.fill("#acct-name", name)
    page.fill("#acct-password", "not-the-password")
    page.click("[data-form=sign] button[value=sign_in]")
    assert signed_in_or_refused(page) == "wrong-password"
    expect(page.locator("[data-slot=sign-error]")).not_to_be_empty()
    page.fill("#acct-password", "correct-horse-battery")
    page.click("[data-form=sign] button[value=sign_in]")
    assert signed_in_or_refused(page) == name


def sign_up(page: Page, name: str) -> None:
    page.fill("#acct-name", name)
    page.fill("#acct-password", "correct-horse-battery")
    page.click("[data-form=sign] button[value=sign_up]")
    assert signed_in_or_refused(page) == name


def test_two_new_accounts_play_a_rated_game_and_see_their_ratings_are_provisional(player):
    """Two fresh sign-ups: the game is rated and counts, but a provisional rating moves
    nobody's (the issue's farm: each throwaway's resignation gave the account +15)."""
    stamp = int(time.time() * 1000) % 10**7
    hana, ann = player(), player()
    sign_up(hana, f"hana{stamp}")
    sign_up(ann, f"ann{stamp}")
    for page in (hana, ann):
        note = page.locator("[data-slot=my-note]")
        expect(note).to_have_text("provisional, 0 rated games so far")
    hana.click("[data-limit='180000']")
    hana.click("[data-act=seek]")
    seek = ann.locator("[data-slot=seeks] li", has_text=f"hana{stamp}")
    expect(seek.locator(".limit")).to_have_text("3 min · rated")  # said before it starts
    expect(seek.locator(".rating")).to_have_text("1000, provisional")
    seek.get_by_role("button", name="Challenge").click()
    for page in (hana, ann):
        page.wait_for_selector("#game:not([hidden])")
        expect(page.locator(".players .rating").first).to_have_text("1000, provisional")
        expect(page.locator("[data-slot=rated]")).to_have_text("Rated game")
    # Each moves once (a skip): a game resigned before both have moved is aborted.
    for _ in range(2):
        mover = hana if game_of(hana)["turn"] == game_of(hana)["you"] else ann
        moves = len(game_of(mover)["moves"])
        mover.click("[data-act=skip]")
        for page in (hana, ann):
            page.wait_for_function(f"window.duel.store.get().game.moves.length > {moves}")
    hana.click("[data-act=resign]")
    hana.click("#confirm-resign button[value=resign]")
    for page in (hana, ann):
        expect(page.locator("[data-slot=result]")).to_be_visible()
    expect(ann.locator("[data-slot=winner]")).to_have_text("You won!")
    expect(hana.locator("[data-slot=winner]")).to_have_text(f"ann{stamp} won.")
    game = game_of(ann)
    winner, loser = game["you"], 1 - game["you"]
    rows = ann.locator("[data-slot=result] tbody tr")
    expect(rows.nth(winner).locator(".change")).to_have_text(
        f"1000 (±0: hana{stamp}'s rating is provisional)"
    )
    expect(rows.nth(loser).locator(".change")).to_have_text(
        f"1000 (±0: ann{stamp}'s rating is provisional)"
    )
    # Back in the lobby: the same rating, one rated game counted.
    ann.click("[data-act=to-lobby]")
    expect(ann.locator("[data-slot=my-rating]")).to_have_text("1000")
    expect(ann.locator("[data-slot=my-note]")).to_have_text("provisional, 1 rated game so far")


# --- the table -------------------------------------------------------------------------------


def touch_drag(page: Page, source: str, target: str) -> None:
    """A finger drag, as Chromium's touch input (pointer events of type touch)."""
    cdp = page.context.new_cdp_session(page)
    start, end = (page.locator(s).bounding_box() for s in (source, target))
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for n in range(1, 9):
        x, y = x0 + (x1 - x0) * n / 8, y0 + (y1 - y0) * n / 8
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def rack_letters(page: Page, unlike: list[str] | None = None) -> list[str]:
    """The rack as drawn, left to right; with ``unlike``, once it is drawn otherwise."""
    drawn = "[...document.querySelectorAll('.rack .tile')].map(t => t.dataset.letter).join('')"
    if unlike is not None:
        page.wait_for_function(f"{drawn} !== {json.dumps(''.join(unlike))}")
    return list(page.evaluate(drawn))


def test_the_table_on_a_phone(player, base_url: str):
    page = player("Lee", phone=True)
    # The five time buttons sit in one row on a 390px phone, none cut off.
    boxes = page.locator("[data-limit]").evaluate_all(
        "bs => bs.map(b => [b.getBoundingClientRect().top, b.scrollWidth <= b.clientWidth])"
    )
    assert len({round(b[0]) for b in boxes}) == 1 and all(b[1] for b in boxes)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(page.locator("[data-slot=rated-note]")).to_contain_text("not rated")
    page.click("[data-limit='']")
    page.click("[data-bot=hard]")
    page.wait_for_selector("#game:not([hidden])")
    game = wait_my_turn(page)
    expect(page.locator("[data-slot=rated]")).to_have_text("Unrated game")

    # The unseen tiles: every tile less the board and this rack, by letter.
    counts = {t["letter"]: t["count"] for t in game["rules"]["tiles"]}
    for ch in "".join(game["board"]).replace(".", "") + "".join(game["rack"]):
        counts[ch] -= 1
    for letter in "AEQZ":
        expect(page.locator(f".unseen-letter[data-letter={letter}]")).to_have_text(
            f"{letter} {counts[letter]}"
        )
    expect(page.locator(".unseen-line")).to_have_text(
        f"{sum(counts.values())} unseen: {game['bag']} in the bag, 7 on their rack"
    )

    # Shuffle, and Shift+arrow on a tile, reorder the rack; the letters stay the same.
    before = rack_letters(page)
    page.click("[data-act=shuffle]")
    shuffled = rack_letters(page, unlike=before)
    assert shuffled != before and sorted(shuffled) == sorted(before)
    page.locator(".rack .tile").first.focus()
    page.keyboard.press("Shift+ArrowRight")
    assert rack_letters(page) == [shuffled[1], shuffled[0], *shuffled[2:]]
    expect(page.locator(".rack .tile").nth(1)).to_be_focused()

    # A finger drags a tile along the rack, and onto the board.
    letters = rack_letters(page)
    touch_drag(page, ".rack .tile >> nth=0", ".rack .tile >> nth=3")
    moved = rack_letters(page, unlike=letters)
    assert moved[3] == letters[0] and sorted(moved) == sorted(letters)
    empty = [(r, c) for r in range(4, 11) for c in range(4, 11) if game["board"][r][c] == "."]
    (r0, c0), (r1, c1) = empty[0], empty[-1]
    touch_drag(page, ".rack .tile >> nth=0", square(r0, c0))
    expect(page.locator(square(r0, c0))).to_contain_text(moved[0])
    expect(page.locator(square(r0, c0))).to_have_class(re.compile(r"\bsq-new\b"))
    # Taps still work: a square, then a tile (tile first is checked after the bot's move).
    page.tap("[data-act=recall]")
    page.tap(square(r1, c1))
    page.locator(".rack .tile").nth(2).tap()
    expect(page.locator(square(r1, c1))).to_contain_text(moved[2])
    page.click("[data-act=recall]")

    # A play: the highlight goes, its squares are marked, the list says where and what.
    moves = play_top(page, base_url)
    expect(page.locator(".board .sq-cursor")).to_have_count(0)
    mine = game_of(page)["moves"][moves]
    for r, c, _ in mine["tiles"]:
        expect(page.locator(square(r, c))).to_have_class(re.compile(r"\bsq-last\b"))
    line = page.locator("[data-slot=moves] li").nth(moves)
    expect(line.locator(".move-what")).to_have_text(
        re.compile(rf"^{mine['at']} {mine['words'][0]}( · .+)?$")
    )
    assert re.fullmatch(r"\d{1,2}[A-O]|[A-O]\d{1,2}", mine["at"])
    expect(line.locator(".move-score")).to_have_text(str(mine["score"]))
    # The bot answers: its play is marked now, not mine; a tile tapped first is held.
    game = wait_my_turn(page)
    last = game["moves"][-1]
    if last["kind"] == "play":
        expect(page.locator(".board .sq-last")).to_have_count(len(last["tiles"]))
    expect(page.locator(".board .sq-cursor")).to_have_count(0)
    page.locator(".rack .tile").first.tap()
    expect(page.locator(".rack .tile").first).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".board .sq-new")).to_have_count(0)


def test_a_guest_who_signs_up_while_waiting_plays_that_game_rated(player):
    stamp = int(time.time() * 1000) % 10**7
    gus, bob = player("Gus"), player()
    sign_up(bob, f"bob{stamp}")
    gus.click("[data-limit='300000']")
    gus.click("[data-act=seek]")
    expect(gus.locator("[data-slot=mine]")).to_be_visible()
    listed = bob.locator("[data-slot=seeks] li", has_text="Gus")
    expect(listed.locator(".limit")).to_have_text("5 min · unrated")
    # Gus signs up in the middle of the visit: the same waiting game, now his account's.
    sign_up(gus, f"gus{stamp}")
    expect(gus.locator("[data-slot=rated-note]")).to_contain_text("Rated when another")
    expect(gus.locator("[data-slot=mine]")).to_be_visible()
    listed = bob.locator("[data-slot=seeks] li", has_text=f"gus{stamp}")
    expect(listed.locator(".limit")).to_have_text("5 min · rated")
    listed.get_by_role("button", name="Challenge").click()
    for page in (gus, bob):
        page.wait_for_selector("#game:not([hidden])")
        expect(page.locator("[data-slot=rated]")).to_have_text("Rated game")


# --- tile first, then square ----------------------------------------------------------------

LONG = 6  # tiles of a play placed tile first


def long_play(page: Page, base_url: str, game: dict, direction: str) -> dict | None:
    """The best play for this rack and board that lays LONG tiles or more along
    ``direction``, or None."""
    response = page.request.post(
        f"{base_url}/api/solve",
        data={"rules": "duel", "rack": "".join(game["rack"]), "board": game["board"], "top": 1000},
    )
    assert response.ok, response.text()
    return next(
        (
            p
            for p in response.json()["plays"]
            if p["direction"] == direction and len(new_tiles(p)) >= LONG
        ),
        None,
    )


def bot_game_with_long_plays(page: Page, base_url: str, press) -> tuple[dict, dict, dict]:
    """A game against the bot, on this page's turn, whose rack makes a long play
    down and one across (a new game until one does); ``press`` taps or clicks."""
    for _ in range(15):
        press("[data-limit='']")
        press("[data-bot=hard]")
        page.wait_for_selector("#game:not([hidden])")
        game = wait_my_turn(page)
        down, across = (long_play(page, base_url, game, d) for d in ("down", "across"))
        if down and across:
            return game, down, across
        press("[data-act=resign]")
        press("#confirm-resign button[value=resign]")
        expect(page.locator("[data-slot=result]")).to_be_visible()
        press("[data-act=to-lobby]")
        page.wait_for_selector("#lobby:not([hidden])")
    raise AssertionError("no rack in 15 games made a long play both ways")


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_tile_first_then_square_places_every_tile_of_a_long_word(player, base_url: str, phone):
    """Tap (or click) a rack tile, then its square, for each tile of a six-tile word
    down, then, after Recall, of one across: every tile lands where it was sent."""
    page = player("Tess", phone=phone)
    press = page.tap if phone else page.click
    game, down, across = bot_game_with_long_plays(page, base_url, press)
    for play in (down, across):
        tiles = new_tiles(play)
        for placed, (r, c, letter) in enumerate(tiles):
            tile = page.locator(f".rack .tile[data-letter='{letter}']:not(.used)").first
            tile.tap() if phone else tile.click()
            expect(tile).to_have_attribute("aria-pressed", "true")  # held, not dropped
            expect(page.locator(".board .sq-new")).to_have_count(placed)
            press(square(r, c))
            expect(page.locator(square(r, c))).to_contain_text(letter)
        expect(page.locator(".board .sq-new")).to_have_count(len(tiles))
        if play is down:
            press("[data-act=recall]")
            expect(page.locator(".board .sq-new")).to_have_count(0)
    # The word as placed is the play the Solver scored.
    moves = len(game["moves"])
    press("[data-act=submit]")
    submit_and_wait(page, moves, across["score"])


# --- my games and looking back ------------------------------------------------------------


def drawn_with_own_icons(page: Page) -> None:
    """The look back's four buttons draw the page's own icons (inline SVG), not ⏮/⏭ from
    a font, which draw as empty boxes where no installed font has them."""
    buttons = page.locator("[data-slot=replay] button")
    expect(buttons).to_have_count(4)
    for i in range(4):
        button = buttons.nth(i)
        assert not re.search("[\u23ed\u23ee\u25b6\u25c0]", button.inner_text())
        box = button.locator("svg path").bounding_box()
        assert box is not None and box["width"] > 8 and box["height"] > 8
        expect(button).to_have_attribute("aria-label", re.compile(r"^(The|One move) "))


def no_serious_violation(page: Page, axe_source: str, what: str) -> None:
    found = [v for v in audit(page, axe_source, what) if v["impact"] in SERIOUS]
    assert not found, found


def test_my_games_lists_a_finished_game_and_replays_it_on_the_page(
    player, base_url: str, axe_source: str
):
    page = player()
    name = f"mia{int(time.time() * 1000) % 10**7}"
    sign_up(page, name)
    card = page.locator("[data-slot=my-games-card]")
    expect(card).to_be_visible()
    expect(card.locator("[data-slot=no-games]")).to_be_visible()
    page.click("[data-limit='']")
    page.click("[data-bot=easy]")
    page.wait_for_selector("#game:not([hidden])")
    play_top(page, base_url)
    wait_my_turn(page)
    page.click("[data-act=resign]")
    page.click("#confirm-resign button[value=resign]")
    expect(page.locator("[data-slot=result]")).to_be_visible()
    game = game_of(page)
    total = len(game["moves"])
    page.click("[data-act=to-lobby]")

    # The lobby lists it, newest first, with a Replay button.
    listed = card.locator("[data-slot=my-games] li")
    expect(listed).to_have_count(1)
    expect(listed.first).to_contain_text(re.compile(r"^Lost \d+–\d+ v Easy bot"))
    expect(listed.first).to_contain_text("by resignation · not rated")
    no_serious_violation(page, axe_source, "duel: my games")
    listed.first.get_by_role("button", name=re.compile(r"^Replay")).click()

    # The game again, as it ended, and looked back through move by move on this page.
    page.wait_for_selector("#game:not([hidden])")
    expect(page.locator("[data-slot=result]")).to_be_visible()
    replay = page.locator("[data-slot=replay]")
    expect(replay).to_be_visible()
    drawn_with_own_icons(page)
    expect(replay.locator("[data-slot=step]")).to_have_text(f"{total} / {total}")
    page.click("[data-go=start]")
    expect(page.locator(".board .sq-tile")).to_have_count(0)
    expect(replay.locator("[data-slot=step]")).to_have_text(f"0 / {total}")
    no_serious_violation(page, axe_source, "duel: looking back")
    page.click("[data-go=on]")
    first = game["moves"][0]
    expect(page.locator("[data-slot=turn]")).to_have_text(f"Looking back: after move 1 of {total}")
    expect(page.locator(".board .sq-tile")).to_have_count(
        len(first["tiles"]) if first["kind"] == "play" else 0
    )
    expect(page.locator("[data-slot=moves] li")).to_have_count(1)
    page.click("[data-go=end]")
    on_board = sum(ch != "." for ch in "".join(game["board"]))
    expect(page.locator(".board .sq-tile")).to_have_count(on_board)
