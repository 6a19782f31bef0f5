"""Installable: the manifest and its icons, the service worker, the shell offline,
and the notifications toggle asking for permission only when tapped."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import FRONTEND, PHONE

READY = "navigator.serviceWorker.ready.then(r => r.active !== null)"
ACTIVATED = "navigator.serviceWorker.controller?.state === 'activated'"


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(15_000)
    yield context
    context.close()


def controlled(page: Page) -> None:
    page.wait_for_function(ACTIVATED)


def test_the_manifest_icons_and_service_worker_register(context: BrowserContext, base_url: str):
    page = context.new_page()
    page.goto(base_url + "/")
    assert page.evaluate(READY) is True
    page.wait_for_function(ACTIVATED)
    href = page.get_attribute("link[rel=manifest]", "href")
    manifest_url = page.evaluate("(h) => new URL(h, location.href).href", href)
    response = page.request.get(manifest_url)
    assert response.ok
    manifest = response.json()
    assert manifest["theme_color"] == "#1d2433"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        got = page.request.get(page.evaluate("(s) => new URL(s, location.href).href", icon["src"]))
        assert got.ok and got.headers["content-type"] == "image/png"
        assert got.body()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_shell_loads_offline_after_a_first_visit(context: BrowserContext, base_url: str):
    page = context.new_page()
    page.goto(base_url + "/")
    page.evaluate(READY)
    controlled(page)
    page.wait_for_selector("[data-act=host]:not([disabled])")  # connected once
    context.set_offline(True)
    page.reload()
    # The game's own page, not Chromium's error: the home screen, saying it is offline.
    expect(page.locator("#app .home h1")).to_have_text("Crossing Words")
    expect(page.locator("#status")).to_contain_text("offline")
    # Pages outside the shell get the friendly offline page.
    page.goto(base_url + "/watch.html")
    expect(page.locator("#offline h1")).to_have_text("You're offline")
    # The Solver is in the shell, so its screenshot reader works offline.
    page.goto(base_url + "/solver.html")
    expect(page.get_by_text("Upload a screenshot")).to_be_visible()
    expect(page.locator("#board .sq")).to_have_count(225)
    context.set_offline(False)
    page.goto(base_url + "/")
    page.wait_for_selector("[data-act=host]:not([disabled])")  # back online: connected again


def test_the_socket_and_config_are_never_cached(context: BrowserContext, base_url: str):
    page = context.new_page()
    page.goto(base_url + "/")
    page.evaluate(READY)
    controlled(page)
    keys = page.evaluate(
        "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k)"
        ".then(c => c.keys())))).then(rs => rs.flat().map(r => new URL(r.url).pathname))"
    )
    assert "/index.html" in keys and "/js/app.js" in keys
    assert not [k for k in keys if k.startswith(("/ws", "/api")) or k.endswith("config.json")]


IMPORT = r"^import [^;]*? from ['\"](\.[^'\"]+)['\"];"  # either quote: the Solver uses "


def test_the_shell_list_holds_every_module_the_game_imports():
    """A module missing from the precache list would leave the offline shell broken
    (the game page's, the Duel page's and the Solver's)."""
    shell = set(re.findall(r"'([^']+)'", (FRONTEND / "sw.js").read_text().split("];")[0]))
    seen, todo = set(), ["js/app.js", "js/duel/app.js", "js/solver/main.js"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        source = (FRONTEND / path).read_text()
        for target in re.findall(IMPORT, source, re.M | re.S):
            todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(path), target)))
    assert seen <= shell, seen - shell


def test_every_file_in_the_shell_list_exists():
    """One missing file fails the service worker's whole install (``cache.addAll``), so
    a module deleted but left on the list takes the offline shell down."""
    listing = (FRONTEND / "sw.js").read_text().split("const SHELL = [", 1)[1].split("];")[0]
    files = re.findall(r"'([^']+)'", listing)
    assert len(files) > 30
    assert [f for f in files if not (FRONTEND / f).is_file()] == []


NOTIFY_STUBS = """
window.__permissionAsked = 0;
Notification.requestPermission = async () => { window.__permissionAsked += 1; return 'granted'; };
Object.defineProperty(Notification, 'permission', {
  get: () => (window.__permissionAsked ? 'granted' : 'default'),
});
const fake = {
  endpoint: 'https://push.example.com/v1/e2e',
  toJSON() {
    const p256dh = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-'
      + 'Ts1XbjhazAkj7I99e8QcYP7DkM';
    return { endpoint: this.endpoint, expirationTime: null,
      keys: { p256dh, auth: 'tBHItJI5svbpez7KI4CCXg' } };
  },
  unsubscribe: async () => true,
};
let subscribed = null;
PushManager.prototype.getSubscription = async function () { return subscribed; };
PushManager.prototype.subscribe = async function (options) {
  window.__pushKey = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
  subscribed = fake; return fake;
};
"""


def test_notifications_ask_for_permission_only_when_the_toggle_is_tapped(
    context: BrowserContext, base_url: str
):
    # The push service itself is not reachable from a test: the browser's side is stubbed,
    # the server's answers (welcome's key, the stored subscription) are real.
    context.add_init_script(NOTIFY_STUBS)
    page = context.new_page()
    welcomes: list[dict] = []
    acked: set[int] = set()
    notify_seqs: list[int] = []

    def received(payload) -> None:
        message = json.loads(payload)
        if message.get("type") == "welcome":
            welcomes.append(message)
        elif message.get("type") == "ack":
            acked.add(message["seq"])

    def sent(payload) -> None:
        message = json.loads(payload)
        if message.get("action") == "notify":
            notify_seqs.append(message["seq"])

    def watch(ws) -> None:
        ws.on("framereceived", received)
        ws.on("framesent", sent)

    page.on("websocket", watch)
    page.goto(base_url + "/")
    toggle = page.locator(".home [data-slot=notify] button")
    expect(toggle).to_be_visible()  # the server gave a key: notifications are offered
    expect(toggle).to_have_text("Notifications: off")
    assert page.evaluate("window.__permissionAsked") == 0  # never on load
    assert welcomes and welcomes[0]["push_key"]
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__permissionAsked") == 1
    assert page.evaluate("window.__pushKey")  # subscribed with the server's key
    # The toggle shows "on" at once; reload only once the server has stored it.
    for _ in range(100):
        if notify_seqs and notify_seqs[-1] in acked:
            break
        page.wait_for_timeout(50)
    assert notify_seqs and notify_seqs[-1] in acked
    page.reload()  # the server remembers it for this player
    expect(page.locator(".home [data-slot=notify] button")).to_have_text("Notifications: on")
    assert welcomes[-1]["notify"] is True
    page.locator(".home [data-slot=notify] button").click()
    expect(page.locator(".home [data-slot=notify] button")).to_have_text("Notifications: off")
