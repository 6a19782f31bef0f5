"""Make the crossword answer list (puzzles/answers/answers.tsv) from permissive word lists.

    python3 scripts/make_answers.py --freq FREQ --enable ENABLE --scowl SCOWL \
        --blocked puzzles/answers/blocked.txt --count 30000 > puzzles/answers/answers.tsv

FREQ is the MIT "Frequently Used Word List" (``word count`` lines), ENABLE the
public-domain ENABLE2K list and SCOWL a SCOWL size list (50 is used); each may be
gzipped. Runs offline and writes ``WORD<TAB>score`` lines, most common first.

A word is kept when it is all lowercase ASCII letters, 3 to 11 letters long, in
ENABLE (no proper nouns there) and in SCOWL in lowercase (SCOWL spells proper
nouns and acronyms with capitals, so this drops what the frequency list lowercased),
and not in the reviewed block list. The score is the word's corpus count on a log
scale from 1 (rarest kept) to 100 (most common), so it reads as commonness.
"""

from __future__ import annotations

import argparse
import gzip
import math
import sys
from collections.abc import Iterator
from pathlib import Path

MIN_LENGTH, MAX_LENGTH = 3, 11


def _lines(path: Path) -> Iterator[str]:
    opener = gzip.open if path.suffix == ".gz" else open
    # SCOWL is Latin-1; the other lists are ASCII, which Latin-1 reads the same.
    with opener(path, "rt", encoding="latin-1") as handle:
        for line in handle:
            line = line.strip()
            if line:
                yield line


def _words(path: Path) -> set[str]:
    return {line.split()[0] for line in _lines(path)}


def blocked_words(path: Path) -> set[str]:
    words = set()
    for line in _lines(path):
        word = line.split("#", 1)[0].strip()
        if word:
            words.add(word.lower())
    return words


def make_answers(
    freq: Path, enable: Path, scowl: Path, blocked: set[str], count: int
) -> list[tuple[str, int]]:
    enable_words, scowl_words = _words(enable), _words(scowl)
    counted: list[tuple[str, int]] = []
    for line in _lines(freq):
        word, number = line.split()
        if (
            MIN_LENGTH <= len(word) <= MAX_LENGTH
            and word.isascii()
            and word.isalpha()
            and word.islower()
            and word in enable_words
            and word in scowl_words
            and word not in blocked
        ):
            counted.append((word, int(number)))
    counted.sort(key=lambda item: (-item[1], item[0]))
    counted = counted[:count]
    if not counted:
        return []
    top, bottom = math.log(counted[0][1]), math.log(counted[-1][1])
    span = (top - bottom) or 1.0
    return [(word.upper(), 1 + round(99 * (math.log(n) - bottom) / span)) for word, n in counted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--freq", type=Path, required=True, help="frequency list, 'word count'")
    parser.add_argument("--enable", type=Path, required=True, help="ENABLE2K word list")
    parser.add_argument("--scowl", type=Path, required=True, help="SCOWL size list")
    parser.add_argument("--blocked", type=Path, required=True, help="reviewed block list")
    parser.add_argument("--count", type=int, default=30_000, help="how many answers to keep")
    args = parser.parse_args(argv)
    answers = make_answers(
        args.freq, args.enable, args.scowl, blocked_words(args.blocked), args.count
    )
    out = sys.stdout
    for word, score in answers:
        out.write(f"{word}\t{score}\n")
    print(f"{len(answers)} answers", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
