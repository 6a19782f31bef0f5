"""What each crossword screen tells a player: the TV's Together tints, a result on your
own, the player who becomes host, a results board read square by square, and one
level-one heading on every screen."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.conftest import painted
from tests.e2e.test_game import host, on_screen, solution_of, start, type_squares

TV = {"width": 1280, "height": 720}
TINT = "e => getComputedStyle(e).backgroundImage"


def square(page: Page, sq: int):
    return page.locator(f"[data-slot=grid] [data-square='{sq}']")


def test_a_watched_together_square_has_the_tint_of_its_writer_as_on_the_phone(phone):
    hana = phone("Hana")
    code = host(hana)
    ann = phone("Ann", f"/?debug&room={code}")
    on_screen(ann, "lobby")
    tv = phone("TV", f"/watch.html?room={code}", size=TV)
    start(hana, [ann], "together")
    _, whites = solution_of(hana)
    type_squares(hana, whites[:1], "Q")
    type_squares(ann, whites[-1:], "X")
    tv.wait_for_function(
        "[...document.querySelectorAll('[data-slot=grid] .letter')].filter(e => e.textContent)"
        ".length === 2"
    )
    painted(tv)
    for sq in (whites[0], whites[-1]):
        on_phone = square(hana, sq).evaluate(TINT)
        assert on_phone.startswith("linear-gradient"), on_phone  # the writer's faint colour
        assert square(tv, sq).evaluate(TINT) == on_phone
    # Two writers, two tints.
    assert square(tv, whites[0]).evaluate(TINT) != square(tv, whites[-1]).evaluate(TINT)
