"""A stand-in for the real server, for trying the client in a browser before
``crossing serve`` exists: the room service with the in-memory fakes behind a
stdlib WebSocket at ``/ws``, and ``frontend/`` served at ``/``.

    python -m tests.js.harness.devserver --port 8765

Test puzzles only (one Mini), no bots moving, one process, nothing stored.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import mimetypes
import random
import struct
from pathlib import Path

from crossing.crossword.sizes import Size
from crossing.rooms.service import RoomService, now_ms

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import ListPacks, ManualTimers, MemoryStore

ROOT = Path(__file__).resolve().parents[3]
FRONTEND = ROOT / "frontend"
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(text: str) -> bytes:
    data = text.encode()
    n = len(data)
    if n < 126:
        head = struct.pack("!BB", 0x81, n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x81, 126, n)
    else:
        head = struct.pack("!BBQ", 0x81, 127, n)
    return head + data


async def read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    first, second = await reader.readexactly(2)
    opcode = first & 0x0F
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack("!H", await reader.readexactly(2))
    elif length == 127:
        (length,) = struct.unpack("!Q", await reader.readexactly(8))
    mask = await reader.readexactly(4) if second & 0x80 else b"\0\0\0\0"
    payload = bytearray(await reader.readexactly(length))
    for i in range(length):
        payload[i] ^= mask[i % 4]
    return opcode, bytes(payload)


class Sockets:
    """The Connections port over live sockets."""

    def __init__(self):
        self.writers: dict[str, asyncio.StreamWriter] = {}

    def send(self, connection, message):
        writer = self.writers.get(connection)
        if writer is None or writer.is_closing():
            return False
        writer.write(frame(json.dumps(message)))
        return True


class DevServer:
    def __init__(self):
        self.sockets = Sockets()
        self.timers = ManualTimers()
        self.service = RoomService(
            MemoryStore(),
            self.sockets,
            self.timers,
            ListPacks({Size.MINI: [MINI]}),
            rng=random.Random(),
        )
        self.count = 0

    async def handle(self, reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        _method, target, _ = lines[0].split(" ", 2)
        headers = {
            k.strip().lower(): v.strip()
            for k, v in (x.split(":", 1) for x in lines[1:] if ":" in x)
        }
        path = target.split("?", 1)[0]
        if path == "/ws" and headers.get("upgrade", "").lower() == "websocket":
            await self.socket(reader, writer, headers["sec-websocket-key"])
        else:
            await self.static(writer, path)

    async def static(self, writer, path):
        relative = path.lstrip("/") or "index.html"
        file = (FRONTEND / relative).resolve()
        if FRONTEND not in file.parents or not file.is_file():
            writer.write(
                b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
        else:
            body = file.read_bytes()
            kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            if file.suffix == ".js":
                kind = "text/javascript"
            writer.write(
                f"HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                "Cache-Control: no-store\r\nConnection: close\r\n\r\n".encode()
                + body
            )
        await writer.drain()
        writer.close()

    async def socket(self, reader, writer, key):
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        writer.write(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Accept: {accept}\r\n\r\n".encode()
        )
        self.count += 1
        connection = f"dev-{self.count}"
        self.sockets.writers[connection] = writer
        try:
            while True:
                opcode, payload = await read_frame(reader)
                if opcode == 0x8:
                    break
                if opcode == 0x9:
                    writer.write(struct.pack("!BB", 0x8A, len(payload)) + payload)
                elif opcode == 0x1:
                    self.service.receive(connection, payload.decode())
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.sockets.writers.pop(connection, None)
            self.service.disconnect(connection)
            writer.close()

    async def fire_timers(self):
        """The scheduler's backstop, at once rather than within a minute."""
        while True:
            await asyncio.sleep(0.5)
            for room, (at, version) in list(self.timers.armed.items()):
                if now_ms() >= at:
                    self.timers.armed.pop(room, None)
                    self.service.timer(room, version)


async def main(port: int, timers: bool):
    dev = DevServer()
    server = await asyncio.start_server(dev.handle, "127.0.0.1", port)
    print(f"http://127.0.0.1:{port}/", flush=True)
    async with server:
        # Without the backstop, only the clients' ticks make due events happen.
        jobs = [server.serve_forever()] + ([dev.fire_timers()] if timers else [])
        await asyncio.gather(*jobs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--no-timers", action="store_true", help="leave due events to ticks")
    args = parser.parse_args()
    asyncio.run(main(args.port, not args.no_timers))
