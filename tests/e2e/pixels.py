"""Reading a screenshot's pixels with the standard library (8-bit RGB or RGBA PNGs, as
Chromium writes them), for tests about what is drawn rather than laid out."""

from __future__ import annotations

import struct
import zlib


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def read_png(data: bytes) -> tuple[int, int, list[bytes], int]:
    """Width, height, rows of pixel bytes, and bytes per pixel."""
    pos, idat = 8, b""
    width = height = depth = kind = 0
    while pos < len(data):
        (size,) = struct.unpack(">I", data[pos : pos + 4])
        tag, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + size]
        pos += 12 + size
        if tag == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
        elif tag == b"IDAT":
            idat += body
    if depth != 8 or kind not in (2, 6):
        raise ValueError(f"only 8-bit RGB(A) PNGs are read here (depth {depth}, type {kind})")
    raw, bpp = zlib.decompress(idat), 4 if kind == 6 else 3
    stride, rows, prev, i = width * bpp, [], bytearray(width * bpp), 0
    for _ in range(height):
        kind_of_filter, line = raw[i], bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            add = (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind_of_filter]
            line[x] = (line[x] + add) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp
