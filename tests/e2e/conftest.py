"""Browser tests: Debian's Chromium driven by Playwright, against the local stack.

Playwright's own browser download is not reachable from our machines, so the
tests launch the system Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
On CI (CI=true) a missing Chromium fails the run; elsewhere the tests skip.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
FRONTEND = Path(__file__).resolve().parents[2] / "frontend"


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    if not Path(path).is_file():
        message = f"Chromium not found at {path} (set CHROMIUM_PATH or install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def base_url(local_stack) -> str:
    return local_stack.url.rstrip("/")


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_solver(page, base_url)
    yield page
    context.close()
    assert not errors, f"the page raised: {errors}"


def open_solver(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/solver.html")
    page.wait_for_selector("body[data-ready=true]")


@pytest.fixture
def phone(browser: Browser, base_url: str):
    contexts = []

    def open_phone(name: str, path: str = "/?debug", size=PHONE) -> Page:
        context = browser.new_context(viewport=size)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('crossing.name', {json.dumps(name)})")
        page.goto(base_url + path)
        return page

    yield open_phone
    for context in contexts:
        context.close()
