"""Compile a word list (one word a line, optionally .gz) into the packed word graph.

    python3 scripts/build_lexicon.py functions/crossing/tiles/data/enable2k.txt.gz \
        functions/crossing/tiles/data/enable2k.dawg.bin

The output depends only on the words, so a rebuild is byte-identical.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

from crossing.tiles.lexicon import pack


def read_lines(path: Path) -> list[str]:
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    return raw.decode("ascii").splitlines()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="word list, one word a line (.txt or .txt.gz)")
    parser.add_argument("output", type=Path, help="packed graph to write (.bin)")
    args = parser.parse_args(argv)
    packed = pack(read_lines(args.source))
    args.output.write_bytes(packed)
    print(f"{args.output}: {len(packed):,} bytes, {(len(packed) - 8) // 4:,} nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
