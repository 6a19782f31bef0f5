"""Benchmark (not a test): how fast the Solver lists every play, and what the word graph costs.

    python3 benchmarks/solve_bench.py              # time the committed positions
    python3 benchmarks/solve_bench.py --generate   # rewrite the positions (seeded self-play)

Positions are Crossplay mid-game boards from seeded self-play, committed under
benchmarks/positions/ with three racks each (no blank, one, two); seeds whose
board already holds two of the three blanks are passed over, so every rack is
one a game could deal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

from crossing.game_files import LEXICON_FILE, default_lexicon, read_lexicon
from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.movegen import generate
from crossing.tiles.rules import CROSSPLAY
from crossing.tiles.selfplay import self_play

POSITIONS = Path(__file__).parent / "positions"
RACKS = POSITIONS / "racks.txt"
EMPTY_RACKS = ("QUIXOTE", "RETAINS", "AEINRST", "BCDFGHL", "EEIOUAA", "JKQXZVW", "LOVABLE")


def generate_positions(count: int) -> None:
    lexicon = default_lexicon()
    POSITIONS.mkdir(exist_ok=True)
    lines = []
    seed = 0
    for old in POSITIONS.glob("midgame-*.txt"):
        old.unlink()
    while len(lines) < count:
        seed += 1
        rng = random.Random(seed)
        board, rest = self_play(CROSSPLAY, lexicon, seed, turns=rng.randint(6, 12))
        if rest.count("?") < 2:
            continue  # a two-blank rack must be one a game could deal
        name = f"midgame-{len(lines) + 1:02d}.txt"
        (POSITIONS / name).write_text(str(board) + "\n")
        letters = [t for t in rest if t != "?"]
        racks = ["".join(rng.sample(letters, 7 - b)) + "?" * b for b in (0, 1, 2)]
        lines.append(" ".join([name, *racks]))
    RACKS.write_text("\n".join(lines) + "\n")
    print(f"wrote {count} positions to {POSITIONS}")


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def time_solve(board: Board, rack: str, lexicon: Lexicon) -> tuple[float, float, int]:
    """Wall-clock and CPU seconds (the machine is shared; CPU time is the steadier one)."""
    began, began_cpu = time.perf_counter(), time.process_time()
    moves = generate(board, rack, CROSSPLAY, lexicon)
    return time.perf_counter() - began, time.process_time() - began_cpu, len(moves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generate", type=int, nargs="?", const=24, metavar="N")
    args = parser.parse_args(argv)
    if args.generate:
        generate_positions(args.generate)
        return 0

    loads = []
    for _ in range(20):
        began = time.perf_counter()
        read_lexicon(LEXICON_FILE)
        loads.append(time.perf_counter() - began)
    tracemalloc.start()
    lexicon = read_lexicon(LEXICON_FILE)
    loaded = tracemalloc.get_traced_memory()[0]
    began = time.perf_counter()
    generate(Board.empty(), "RETAINS", CROSSPLAY, lexicon)
    first_solve = time.perf_counter() - began
    positions = []
    for line in RACKS.read_text().splitlines():
        name, *racks = line.split()
        positions.append((Board.parse((POSITIONS / name).read_text().splitlines()), racks))
    for board, racks in positions:  # warm the decoded-arc cache, as a long-lived server would
        generate(board, racks[0], CROSSPLAY, lexicon)
    warm = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()

    rows = []
    cases = [("empty board, no blank", [(Board.empty(), rack) for rack in EMPTY_RACKS])]
    for blanks in (0, 1, 2):
        label = f"mid-game, {blanks} blank{'s' if blanks != 1 else ''}"
        cases.append((label, [(board, racks[blanks]) for board, racks in positions]))
    for label, runs in cases:
        times, cpu, counts = [], [], []
        for board, rack in runs:
            seconds, cpu_seconds, plays = time_solve(board, rack, lexicon)
            times.append(seconds)
            cpu.append(cpu_seconds)
            counts.append(plays)
        rows.append((label, len(runs), times, cpu, counts))

    print(f"Python {sys.version.split()[0]}; lexicon {LEXICON_FILE.stat().st_size:,} bytes")
    print(f"lexicon load: median {statistics.median(loads) * 1000:.1f} ms")
    print(f"lexicon memory: {loaded / 1e6:.1f} MB loaded, {warm / 1e6:.1f} MB after warm-up")
    print(f"first solve on a fresh lexicon (cold arc cache): {first_solve * 1000:.0f} ms")
    print()
    print("| position | runs | median ms | p95 ms | CPU median ms | CPU p95 ms | plays (median) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, runs, times, cpu, counts in rows:
        print(
            f"| {label} | {runs} | {statistics.median(times) * 1000:.1f} | "
            f"{percentile(times, 95) * 1000:.1f} | {statistics.median(cpu) * 1000:.1f} | "
            f"{percentile(cpu, 95) * 1000:.1f} | {statistics.median(counts):.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
