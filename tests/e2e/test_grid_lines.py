"""A Large grid on a phone draws every line between two white squares."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import painted
from tests.e2e.pixels import read_png
from tests.e2e.test_game import host, start

PLAIN = ".sq:not(.block) { background: #fff !important; } .sq .num { visibility: hidden; }"


def dark(pixel: bytes) -> bool:
    return sum(pixel[:3]) < 300


@pytest.mark.parametrize(
    ("width", "height", "scale"), [(390, 844, 3), (412, 915, 2.625), (390, 844, 1)]
)
def test_a_large_grid_on_a_phone_has_every_line(browser: Browser, base_url, width, height, scale):
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=scale
    )
    try:
        page = context.new_page()
        page.add_init_script("localStorage.setItem('crossing.name', 'Lin')")
        page.goto(f"{base_url}/?debug")
        host(page)
        start(page, [], "race", "large")
        page.add_style_tag(content=PLAIN)  # only the lines are dark now
        painted(page)
        box = page.eval_on_selector(
            "[data-slot=grid]",
            "e => { const r = e.getBoundingClientRect();"
            " return {x: r.x, y: r.y, width: r.width, height: r.height}; }",
        )
        cells = page.evaluate(
            "[...document.querySelectorAll('[data-slot=grid] .sq')].map(e => {"
            " const r = e.getBoundingClientRect();"
            " return {white: !e.classList.contains('block'), left: r.left, right: r.right,"
            " top: r.top, bottom: r.bottom}; })"
        )
        _, _, rows, bpp = read_png(page.screenshot(clip=box, scale="device"))
        n = 11
        assert len(cells) == n * n

        def px(x: float, y: float) -> bytes:
            xi, yi = int(x), int(y)
            return rows[yi][xi * bpp : xi * bpp + 3]

        missing = []
        reach = 2 * scale
        for r in range(n):
            for c in range(n):
                a = cells[r * n + c]
                for b, across in (
                    (cells[r * n + c + 1] if c + 1 < n else None, True),
                    (cells[(r + 1) * n + c] if r + 1 < n else None, False),
                ):
                    if b is None or not (a["white"] and b["white"]):
                        continue
                    if across:
                        y = ((a["top"] + a["bottom"]) / 2 - box["y"]) * scale
                        edge = (a["right"] - box["x"]) * scale
                        seen = [px(x, y) for x in range(int(edge - reach), int(edge + reach))]
                    else:
                        x = ((a["left"] + a["right"]) / 2 - box["x"]) * scale
                        edge = (a["bottom"] - box["y"]) * scale
                        seen = [px(x, y) for y in range(int(edge - reach), int(edge + reach))]
                    if not any(dark(p) for p in seen):
                        missing.append((r, c, "right" if across else "below"))
        assert not missing, f"lines not drawn beside squares {missing}"
    finally:
        context.close()
