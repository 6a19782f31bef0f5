"""Browser tests: Debian's Chromium driven by Playwright, against the local stack.

Playwright's own browser download is not reachable from our machines, so the
tests launch the system Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
On CI (CI=true) a missing Chromium fails the run; elsewhere the tests skip.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
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
def base_url(served) -> str:
    """``crossing serve`` as players run it (one process, SQLite), or the server
    CROSSING_E2E_URL names."""
    return os.environ.get("CROSSING_E2E_URL", served.url).rstrip("/")


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


def painted(page: Page) -> None:
    """Until the page has painted what it last changed (two animation frames)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


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


AXE_DIR = Path(__file__).resolve().parent / "axe"  # package.json and lock pin axe-core
AXE_SCRIPT = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core, installed for the tests only (`npm ci` into tests/e2e/axe, gitignored)."""
    if not AXE_SCRIPT.is_file():
        npm = shutil.which("npm")
        if npm is None:
            message = "npm not found: it installs axe-core for the accessibility audits"
            if os.environ.get("CI") == "true":
                pytest.fail(message)
            pytest.skip(message)
        subprocess.run(
            [npm, "ci", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund"],
            check=True,
            capture_output=True,
        )
    return AXE_SCRIPT.read_text()


SERIOUS = ("serious", "critical")


def audit(page: Page, axe_source: str, what: str) -> list[dict]:
    """axe-core's WCAG 2.1 A and AA rules on the page as it is now: every violation, by
    impact (the caller asserts no serious or critical one)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source)
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {
                runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
            });
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')),
            }));
        }"""
    )
    for v in found:
        v["screen"] = what
    return found
