"""A phone in a tunnel: its traffic black-holed for a minute (the connection stays open,
nothing is forwarded, no close and no reset) while the player types. The page must
notice, say it is connecting, and once the network is back every letter typed must be
in the room, on every phone."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.conftest import PHONE
from tests.e2e.test_game import host, on_screen, solution_of, start

CUT_S = 60  # the tunnel
NOTICED_S = 15  # the page says "Connecting…" within this of the cut
BACK_S = 45  # every letter is in the room within this of the network coming back
STATUS = "document.querySelector('#status')"
CONNECTING = f"!{STATUS}.hidden && {STATUS}.textContent.includes('Connecting')"


@dataclass
class Line:
    """One connection carried: both ends' writers, and whether it was cut off."""

    ends: tuple[asyncio.StreamWriter, asyncio.StreamWriter]
    severed: bool = False


class Tunnel:
    """A TCP proxy that can black-hole what it carries: while cut, it holds every byte
    (and every new connection) and forwards nothing, closing nothing, as a train in a
    tunnel does. Restored, connections made meanwhile go through; those that were open
    when it was cut are reset, bytes held and all, as the server had given up on them
    (it does after 40 s of unanswered pings) and answers their late packets with a RST:
    what was sent into the tunnel arrives only if the page sends it again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.loop = asyncio.new_event_loop()
        self.flowing = asyncio.Event()
        self.lines: list[Line] = []
        self.port = 0
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)

        async def listen() -> asyncio.Server:
            self.flowing.set()
            server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            return server

        self.server = self.loop.run_until_complete(listen())
        ready.set()
        self.loop.run_forever()

    async def _carry(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        await self.flowing.wait()  # a connection made in the tunnel gets nowhere either
        try:
            server_r, server_w = await asyncio.open_connection(*self.target)
        except OSError:
            client_w.close()
            return
        line = Line((client_w, server_w))
        self.lines.append(line)
        await asyncio.gather(
            self._pump(client_r, server_w, line), self._pump(server_r, client_w, line)
        )

    async def _pump(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, line: Line
    ) -> None:
        try:
            while data := await source.read(65536):
                await self.flowing.wait()
                if line.severed:
                    break
                sink.write(data)
                await sink.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            sink.close()

    def cut(self) -> None:
        self.loop.call_soon_threadsafe(self.flowing.clear)

    def restore(self) -> None:
        def again() -> None:
            for line in self.lines:
                line.severed = True
                for end in line.ends:
                    end.transport.abort()
            self.lines = []
            self.flowing.set()

        self.loop.call_soon_threadsafe(again)

    def close(self) -> None:
        async def shut() -> None:
            self.server.close()
            carrying = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in carrying:
                task.cancel()
            await asyncio.gather(*carrying, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


@pytest.fixture
def tunnel(base_url: str) -> Iterator[Tunnel]:
    where = urlsplit(base_url)
    assert where.hostname and where.port
    proxy = Tunnel((where.hostname, where.port))
    yield proxy
    proxy.restore()
    proxy.close()


SERVER_BOARD = "window.crossing.store.get().view.game.board"  # as the server last sent it
SHOWN = (  # the letters this phone shows, square by square: the server's and its own
    "Object.fromEntries([...document.querySelectorAll('[data-slot=grid] [data-square]')]"
    ".map(e => [e.dataset.square, e.querySelector('.letter')?.textContent || '.']))"
)


def has_letters(letters: dict[int, str]) -> str:
    return " && ".join(f"{SERVER_BOARD}[{sq}] === {json.dumps(ch)}" for sq, ch in letters.items())


def shown(page: Page, squares: Iterable[int]) -> dict[int, str]:
    letters = page.evaluate(SHOWN)
    return {sq: letters[str(sq)] for sq in squares}


def type_letter(page: Page, square: int, letter: str) -> None:
    page.click(f"[data-slot=grid] [data-square='{square}']")
    page.click(f"[data-key='{letter}']")
    page.wait_for_timeout(150)


@dataclass
class Game:
    hana: Page  # on the server directly
    ann: Page  # through the tunnel
    solution: str
    squares: list[int]  # white squares, the first already typed by Ann and in the room


@pytest.fixture
def game(browser: Browser, phone, tunnel: Tunnel) -> Iterator[Game]:
    """Hana hosts a Together Mini; Ann's phone joins through the tunnel and types one
    letter, which Hana sees: the line works."""
    hana = phone("Hana")
    code = host(hana)
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(15_000)
    ann = context.new_page()
    ann.add_init_script("localStorage.setItem('crossing.name', 'Ann')")
    ann.goto(f"http://127.0.0.1:{tunnel.port}/?debug&room={code}")
    on_screen(ann, "lobby")
    start(hana, [ann], "together")
    solution, whites = solution_of(hana)
    type_letter(ann, whites[0], solution[whites[0]])
    hana.wait_for_function(has_letters({whites[0]: solution[whites[0]]}))
    yield Game(hana, ann, solution, whites[:8])
    context.close()


def test_letters_typed_in_a_tunnel_reach_every_phone(game: Game, tunnel: Tunnel):
    hana, ann, solution = game.hana, game.ann, game.solution
    first, *squares = game.squares
    tunnel.cut()
    cut_at = time.monotonic()
    typed: dict[int, str] = {}
    # Three letters into the socket that looks open and is not...
    for sq in squares[:3]:
        type_letter(ann, sq, solution[sq])
        typed[sq] = solution[sq]
    ann.wait_for_function(CONNECTING, timeout=(NOTICED_S + 5) * 1000, polling=200)
    noticed = time.monotonic() - cut_at
    # ...and more while the page knows it is not connected.
    for sq in squares[3:]:
        type_letter(ann, sq, solution[sq])
        typed[sq] = solution[sq]
    assert shown(ann, typed) == typed, "typed letters stay shown"
    ann.wait_for_timeout(max(0.0, CUT_S - (time.monotonic() - cut_at)) * 1000)
    # The whole minute: not one letter reached the room.
    assert all(hana.evaluate(SERVER_BOARD)[sq] == "." for sq in typed)
    assert shown(ann, typed) == typed, "still shown at the end of the tunnel"

    tunnel.restore()
    back_at = time.monotonic()
    everything = {first: solution[first], **typed}
    for page in (hana, ann):
        page.wait_for_function(has_letters(everything), timeout=BACK_S * 1000, polling=200)
    settled = time.monotonic() - back_at
    ann.wait_for_function(f"{STATUS}.hidden")
    assert ann.evaluate("window.crossing.store.get().pending.length") == 0
    print(
        f"\ntunnel: {len(typed)} letters typed in a {CUT_S} s cut; "
        f"'Connecting…' after {noticed:.1f} s; every letter on both phones "
        f"{settled:.1f} s after the network came back"
    )
    assert noticed <= NOTICED_S


def test_letters_typed_in_a_tunnel_survive_a_reload(game: Game, tunnel: Tunnel):
    hana, ann, solution = game.hana, game.ann, game.solution
    # The service worker serves the shell while the network does not answer.
    ann.wait_for_function("navigator.serviceWorker.controller?.state === 'activated'")
    tunnel.cut()
    typed = {sq: solution[sq] for sq in game.squares[1:4]}
    for sq, letter in typed.items():
        type_letter(ann, sq, letter)
    ann.reload(timeout=30_000)  # in the tunnel still: the page has only what it kept
    tunnel.restore()
    on_screen(ann, "game")
    for page in (hana, ann):
        page.wait_for_function(has_letters(typed), timeout=BACK_S * 1000, polling=200)
    assert shown(ann, typed) == typed
