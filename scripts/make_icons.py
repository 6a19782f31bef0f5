"""Draw the app's icons (a small crossword grid) as PNGs, with the standard library only.

    python scripts/make_icons.py     # writes frontend/icons/*.png

Our own drawing: a 5x5 grid, black squares in a pattern that is the same turned
upside down (as in every puzzle of the game), on the client's ink color.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "frontend" / "icons"
INK = (0x1D, 0x24, 0x33)
PAPER = (0xF7, 0xF5, 0xF0)
ACCENT = (0xF6, 0xC9, 0x45)  # the cursor's yellow
BLACK = {(0, 4), (1, 1), (2, 2), (3, 3), (4, 0)}  # (row, column), symmetric under 180°
CURSOR = {(0, 0), (0, 1), (0, 2), (0, 3)}  # the first across word, highlighted


def _png(width: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, len(rows), 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def icon(size: int, safe: float) -> bytes:
    """``safe``: the share of the side the grid may use (maskable icons keep to the middle)."""
    grid = int(size * safe)
    cell = grid // 5
    grid = cell * 5
    gap = max(1, cell // 12)
    left = (size - grid) // 2
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            color = INK
            gx, gy = x - left, y - left
            if 0 <= gx < grid and 0 <= gy < grid:
                r, c = gy // cell, gx // cell
                inner = gap <= gx % cell < cell - gap and gap <= gy % cell < cell - gap
                if inner and (r, c) not in BLACK:
                    color = ACCENT if (r, c) in CURSOR else PAPER
            row += bytes(color)
        rows.append(bytes(row))
    return _png(size, rows)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, safe in (
        ("icon-192.png", 192, 0.8),
        ("icon-512.png", 512, 0.8),
        ("maskable-512.png", 512, 0.6),
        ("apple-touch-icon.png", 180, 0.8),
    ):
        (OUT / name).write_bytes(icon(size, safe))
        print(OUT / name)


if __name__ == "__main__":
    main()
