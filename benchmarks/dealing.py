"""When a host playing one size first meets a repeat, dealt from the real packs.

    python benchmarks/dealing.py [--hosts 25] [--sizes mini small midi large] [--packs DIR]

Each host plays only one size, game after game. A deal is made as the rooms service
makes it (``pick_puzzle`` over the size's pack in ``puzzles/packs/``, with the list
the host's phone keeps: ``dealing.merged``, the newest ``DEALT_LIMIT``), and the
benchmark notes the game at which the host is first dealt a puzzle they had before
(an exact repeat) and one sharing half its answers with a different puzzle they had
(a near-repeat: a twin, a transpose). For comparison, the same for the dealing
before issue 19 (the server's one list of the last 200 puzzles, exact ids only) and
for puzzles in a random order. Medians (and the range) over the hosts.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from crossing.aws.packs import parse_pack
from crossing.crossword.deal import near_twins, pick_puzzle
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size
from crossing.rooms import dealing

PACKS = Path(__file__).resolve().parents[1] / "puzzles" / "packs"
OLD_RECENT = 200  # before issue 19: one list of this many ids, for every size together

Deal = Callable[[Sequence[Puzzle], list[str], random.Random], Puzzle]


def deal_now(puzzles: Sequence[Puzzle], dealt: list[str], rng: random.Random) -> Puzzle:
    return pick_puzzle(puzzles, dealt, rng)


def deal_before(puzzles: Sequence[Puzzle], dealt: list[str], rng: random.Random) -> Puzzle:
    """The rooms service's deal before issue 19, for a host who plays only this size."""
    recent = {pid: i for i, pid in enumerate(dealt[-OLD_RECENT:])}
    fresh = [p for p in puzzles if p.id not in recent]
    return rng.choice(fresh) if fresh else min(puzzles, key=lambda p: recent[p.id])


def deal_at_random(puzzles: Sequence[Puzzle], dealt: list[str], rng: random.Random) -> Puzzle:
    return rng.choice(puzzles)


@dataclass(frozen=True)
class Host:
    exact: int | None  # the game of the first exact repeat (1-based), if one came
    near: int | None  # the game of the first near-repeat, if one came
    gap: int | None  # the fewest games between two deals of one puzzle
    same_order: bool  # the second pass over the pack came in the first pass's order


def play(puzzles: Sequence[Puzzle], deal: Deal, seed: int, games: int) -> Host:
    """One host's ``games`` deals of one size."""
    twins = near_twins(puzzles)
    rng = random.Random(seed)
    kept: list[str] = []  # what the phone sends: the newest DEALT_LIMIT, each once
    last: dict[str, int] = {}
    deals: list[str] = []
    exact = near = gap = None
    for game in range(1, games + 1):
        pid = deal(puzzles, kept, rng).id
        if pid in last:
            exact = exact or game
            gap = min(gap or games, game - last[pid])
        if near is None and any(t in last for t in twins[pid]):
            near = game
        last[pid] = game
        deals.append(pid)
        kept = dealing.merged(kept, [pid])
    n = len(puzzles)
    return Host(exact, near, gap, deals[n : 2 * n] == deals[:n])


def summary(games: Sequence[int | None], horizon: int) -> str:
    met = [g for g in games if g is not None]
    if not met:
        return f"none within {horizon} games"
    out = f"median {statistics.median(met):g} (range {min(met)}-{max(met)})"
    if len(met) < len(games):
        out += f"; none within {horizon} games for {len(games) - len(met)} of {len(games)} hosts"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=25)
    parser.add_argument("--sizes", nargs="+", default=[s.value for s in Size])
    parser.add_argument(
        "--packs", type=Path, default=PACKS, help="a folder of packs (an older one, to compare)"
    )
    args = parser.parse_args()
    for name in args.sizes:
        size = Size(name)
        puzzles = parse_pack(json.loads((args.packs / f"{name}.json").read_text()), size, name)
        with_twin = sum(1 for ids in near_twins(puzzles).values() if ids)
        horizon = 3 * len(puzzles)  # three passes over the pack
        print(f"{name}: {len(puzzles)} puzzles, {with_twin} with a near-twin in the pack")
        for label, deal in (
            ("now (phone's list, pick_puzzle)", deal_now),
            ("before (server's last 200)", deal_before),
            ("random order", deal_at_random),
        ):
            hosts = [play(puzzles, deal, seed, horizon) for seed in range(args.hosts)]
            cycled = sum(h.same_order for h in hosts)
            print(f"  {label}:")
            print(f"    first exact repeat: game {summary([h.exact for h in hosts], horizon)}")
            print(f"    first near-repeat:  game {summary([h.near for h in hosts], horizon)}")
            print(
                f"    fewest games between two deals of one puzzle: "
                f"{summary([h.gap for h in hosts], horizon)}"
            )
            print(f"    second pass in the first pass's order: {cycled} of {len(hosts)} hosts")


if __name__ == "__main__":
    main()
