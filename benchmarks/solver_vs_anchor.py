"""Benchmark (not a test): our move generator beside Scrabble Solver 2, interleaved in one run.

    python3 benchmarks/solver_vs_anchor.py --harness DIR [--repeat 7]

DIR is the side-by-side harness (anchor-worker.mjs; its setup-anchor.sh installs
Scrabble Solver 2 from the npm registry into a temporary folder outside this
repository). We only run that solver to measure; none of its code is here.

Both sides get the same committed Crossplay positions (benchmarks/positions/,
seeded self-play, racks with no, one and two blanks) and the same word list
(ENABLE2K). For every position the script first checks that both list the
same plays (the tiles put down) with the same points, then times each side
``--repeat`` times, alternating, every play generated, and keeps each side's
fastest run. Our time is ``movegen.generate`` in this process, Move objects
built; theirs is their ``solve()`` inside their worker (no pipe time).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crossing.game_files import default_lexicon
from crossing.tiles.board import Board
from crossing.tiles.movegen import compiled_available, generate
from crossing.tiles.rules import CROSSPLAY, SIZE

HERE = Path(__file__).parent
POSITIONS = HERE / "positions"
WORDS = HERE.parent / "functions/crossing/tiles/data/enable2k.txt.gz"


def load_positions() -> list[tuple[str, Board, str]]:
    cases = []
    for line in (POSITIONS / "racks.txt").read_text().splitlines():
        name, *racks = line.split()
        board = Board.parse((POSITIONS / name).read_text().splitlines())
        cases.extend((name.removesuffix(".txt"), board, rack) for rack in racks)
    return cases


class Anchor:
    """Their worker: one JSON request a line in, one answer a line out."""

    def __init__(self, harness: Path) -> None:
        self.process = subprocess.Popen(
            ["node", str(harness / "anchor-worker.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, **request: object) -> dict:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise RuntimeError(f"anchor: {answer['error']}")
        return answer

    def close(self) -> None:
        if self.process.poll() is None and self.process.stdin:
            self.process.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
            self.process.stdin.close()
        self.process.wait(timeout=10)


def our_keys(board: Board, rack: str, lexicon) -> dict[str, int]:
    keys = {}
    for move in generate(board, rack, CROSSPLAY, lexicon):
        placed = sorted(move.tiles)
        key = ";".join(
            f"{t.row},{t.col},{t.letter.lower() if t.blank else t.letter}" for t in placed
        )
        keys[key] = move.score
    return keys


def check_layout(anchor: Anchor) -> None:
    theirs = anchor.ask(cmd="layout", rules="crossplay")
    ours_lm = [[CROSSPLAY.letter_multiplier(r, c) for c in range(SIZE)] for r in range(SIZE)]
    ours_wm = [[CROSSPLAY.word_multiplier(r, c) for c in range(SIZE)] for r in range(SIZE)]
    if (theirs["lm"], theirs["wm"]) != (ours_lm, ours_wm):
        raise SystemExit("the two solvers do not have the same Crossplay board")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--harness", type=Path, default=os.environ.get("ANCHOR_HARNESS"))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    if not args.harness:
        parser.error("--harness DIR (or ANCHOR_HARNESS) must name the side-by-side harness")
    if not compiled_available():
        print("warning: the compiled search is not built; timing the Python one", file=sys.stderr)
    cases = load_positions()
    lexicon = default_lexicon()
    anchor = Anchor(args.harness.resolve())
    try:
        with tempfile.TemporaryDirectory() as folder:
            spec = Path(folder) / "positions.json"
            spec.write_text(
                json.dumps(
                    [{"rules": "crossplay", "board": list(b.rows), "rack": r} for _, b, r in cases]
                )
            )
            loaded = anchor.ask(cmd="load", positions=str(spec), words=str(WORDS))
        check_layout(anchor)
        mismatched = []
        for i, (name, board, rack) in enumerate(cases):
            theirs = {key: points for key, points in anchor.ask(cmd="keys", i=i)["plays"]}
            if our_keys(board, rack, lexicon) != theirs:
                mismatched.append(f"{name} {rack}")
        for i, (_, board, rack) in enumerate(cases):  # warm both sides once
            generate(board, rack, CROSSPLAY, lexicon)
            anchor.ask(cmd="solve", i=i)
        ours = [float("inf")] * len(cases)
        theirs_ms = [float("inf")] * len(cases)
        plays = [0] * len(cases)
        for _ in range(args.repeat):
            for i, (_, board, rack) in enumerate(cases):
                began = time.perf_counter()
                moves = generate(board, rack, CROSSPLAY, lexicon)
                ours[i] = min(ours[i], (time.perf_counter() - began) * 1000)
                plays[i] = len(moves)
                del moves
                theirs_ms[i] = min(theirs_ms[i], anchor.ask(cmd="solve", i=i)["ms"])
    finally:
        anchor.close()

    print(
        f"Python {sys.version.split()[0]}, compiled search: {compiled_available()}; "
        f"anchor on node {loaded.get('node')}; {len(cases)} positions, "
        f"fastest of {args.repeat} interleaved runs each"
    )
    print(f"identical play sets and scores: {len(cases) - len(mismatched)} of {len(cases)}")
    for case in mismatched:
        print(f"  differs: {case}")
    print()
    print("| position | rack | plays | anchor ms | ours ms | ratio |")
    print("|---|---|---:|---:|---:|---:|")
    ratios = []
    for i, (name, _, rack) in enumerate(cases):
        ratio = ours[i] / theirs_ms[i]
        ratios.append((rack.count("?"), ratio))
        print(
            f"| {name} | {rack} | {plays[i]} | {theirs_ms[i]:.2f} | {ours[i]:.2f} | {ratio:.2f} |"
        )
    print()
    for blanks in (0, 1, 2):
        some = [r for b, r in ratios if b == blanks]
        print(
            f"{blanks} blank(s): median ratio {statistics.median(some):.2f}, worst {max(some):.2f}"
        )
    print(f"all: median ratio {statistics.median(r for _, r in ratios):.2f}")
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
