"""Drives headless Chromium over the DevTools protocol (stdlib only: Playwright's own
browser download is not reachable here). Each Page lives in its own browser context,
so each has its own localStorage: its own player.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import socket
import struct
import subprocess
import time
import urllib.request
from pathlib import Path

# The browser needs the key code too for its own handling (a dialog's Escape, Tab focus).
KEY_CODES = {
    "Backspace": 8,
    "Tab": 9,
    "Enter": 13,
    "Escape": 27,
    " ": 32,
    "ArrowLeft": 37,
    "ArrowUp": 38,
    "ArrowRight": 39,
    "ArrowDown": 40,
}


class Socket:
    """A minimal WebSocket client: masked text frames out, text frames in."""

    def __init__(self, url: str):
        host, _, path = url.removeprefix("ws://").partition("/")
        name, _, port = host.partition(":")
        self.sock = socket.create_connection((name, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        self.buffer = b""

    def _exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def send(self, text: str) -> None:
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            head = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def receive(self) -> str:
        message = b""
        while True:
            first, second = self._exact(2)
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._exact(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._exact(8))
            message += self._exact(length)
            if first & 0x80:
                return message.decode()


class Browser:
    def __init__(self, port: int = 9333, chromium: str = "/usr/bin/chromium"):
        self.process = subprocess.Popen(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--remote-debugging-port={port}",
                f"--user-data-dir=/tmp/chromium-client-{port}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version") as r:
                    url = json.load(r)["webSocketDebuggerUrl"]
                break
            except OSError:
                time.sleep(0.1)
        self.ws = Socket(url)
        self.ids = itertools.count(1)
        self.console: list[str] = []

    def call(self, method: str, session: str | None = None, **params):
        n = next(self.ids)
        message = {"id": n, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(self.ws.receive())
            if reply.get("method") == "Runtime.consoleAPICalled":
                args = reply["params"]["args"]
                self.console.append(
                    " ".join(str(a.get("value", a.get("description"))) for a in args)
                )
            if reply.get("method") == "Runtime.exceptionThrown":
                self.console.append(
                    "EXCEPTION " + json.dumps(reply["params"]["exceptionDetails"])[:600]
                )
            if reply.get("id") == n:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def page(self, url: str, width: int, height: int, mobile: bool = True) -> Page:
        context = self.call("Target.createBrowserContext")["browserContextId"]
        target = self.call("Target.createTarget", url="about:blank", browserContextId=context)
        session = self.call("Target.attachToTarget", targetId=target["targetId"], flatten=True)[
            "sessionId"
        ]
        page = Page(self, session)
        self.call("Runtime.enable", session)
        self.call("Page.enable", session)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session,
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        if mobile:
            self.call("Emulation.setTouchEmulationEnabled", session, enabled=True)
        page.go(url)
        return page

    def close(self):
        self.process.terminate()
        self.process.wait(5)


class Page:
    def __init__(self, browser: Browser, session: str):
        self.browser = browser
        self.session = session

    def go(self, url: str) -> None:
        self.browser.call("Page.navigate", self.session, url=url)
        time.sleep(0.8)

    def eval(self, js: str):
        result = self.browser.call(
            "Runtime.evaluate", self.session, expression=js, awaitPromise=True, returnByValue=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(json.dumps(result["exceptionDetails"])[:800])
        return result.get("result", {}).get("value")

    def wait(self, js: str, timeout: float = 5.0):
        end = time.time() + timeout
        while time.time() < end:
            value = self.eval(js)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(js)

    def click(self, selector: str) -> None:
        self.wait(f"!!document.querySelector({json.dumps(selector)})")
        self.eval(f"document.querySelector({json.dumps(selector)}).click()")
        time.sleep(0.15)

    def fill(self, selector: str, value: str) -> None:
        self.wait(f"!!document.querySelector({json.dumps(selector)})")
        self.eval(f"document.querySelector({json.dumps(selector)}).value = {json.dumps(value)}")

    def keys(self, *keys: str, shift: bool = False, ctrl: bool = False) -> None:
        """Real key events through the browser, as a computer's keyboard sends them."""
        for key in keys:
            text = key if len(key) == 1 else ""
            params = {
                "key": key,
                "text": text,
                "modifiers": (8 if shift else 0) | (2 if ctrl else 0),
            }
            if key in KEY_CODES:
                params["windowsVirtualKeyCode"] = KEY_CODES[key]
            self.browser.call("Input.dispatchKeyEvent", self.session, type="keyDown", **params)
            self.browser.call("Input.dispatchKeyEvent", self.session, type="keyUp", key=key)
            time.sleep(0.05)

    def tap_key(self, key: str) -> None:
        """The game's own on-screen keyboard."""
        self.eval(
            f"document.querySelector('[data-key=\"{key}\"]').dispatchEvent("
            "new PointerEvent('pointerdown', {bubbles: true, cancelable: true}))"
        )
        time.sleep(0.05)

    def shot(self, path: str) -> None:
        time.sleep(0.3)
        data = self.browser.call("Page.captureScreenshot", self.session, format="png")["data"]
        Path(path).write_bytes(base64.b64decode(data))
