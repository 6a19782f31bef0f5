"""Fit leave values from our own self-play: ``python3 scripts/build_leaves.py [--games N]``.

For each rule set, N score-greedy two-player games from seeded bags (seed, seed+1, ...).
Every turn that has a next turn of the same player is one sample: the tiles it kept
(letters, blanks, repeats) against the points of that next turn. A least-squares fit
(with a small ridge so that rarely kept tiles stay near 0) gives one value per tile;
the table, with the seed and game count, is written to the tile engine's data folder.
"""

from __future__ import annotations

import argparse
import json
import sys

from crossing.game_files import LEAVES_FILE, default_lexicon
from crossing.tiles.leaves import FEATURES, features
from crossing.tiles.rules import RULE_SETS
from crossing.tiles.selfplay import by_score, play_game

RIDGE = 5.0


def samples(rules, lexicon, seed: int, games: int) -> list[tuple[list[int], int]]:
    found = []
    for game in range(games):
        turns = play_game(rules, lexicon, seed + game, (by_score, by_score)).turns
        for i, turn in enumerate(turns):
            nxt = next((t for t in turns[i + 1 :] if t.player == turn.player), None)
            if nxt is not None:
                found.append((features(turn.leave), nxt.score))
    return found


def fit(rows: list[tuple[list[int], int]]) -> tuple[float, list[float]]:
    """Least squares for score = b + w . x, with a ridge on w (not on b)."""
    n = len(FEATURES) + 1
    a = [[0.0] * n for _ in range(n)]
    y = [0.0] * n
    for x, score in rows:
        v = [1.0, *x]
        for i in range(n):
            if v[i]:
                y[i] += v[i] * score
                for j in range(n):
                    a[i][j] += v[i] * v[j]
    for i in range(1, n):
        a[i][i] += RIDGE
    # Gaussian elimination with partial pivoting: n is 29.
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        y[col], y[pivot] = y[pivot], y[col]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                for k in range(col, n):
                    a[r][k] -= f * a[col][k]
                y[r] -= f * y[col]
    w = [y[i] / a[i][i] for i in range(n)]
    return w[0], w[1:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20260)
    args = parser.parse_args(argv)
    lexicon = default_lexicon()
    out = {
        "method": "least squares of the next turn's points on the tiles kept, score-greedy "
        "self-play, ridge " + str(RIDGE),
        "seed": args.seed,
        "games": {},
        "samples": {},
        "baseline": {},
        "values": {},
    }
    for name, rules in RULE_SETS.items():
        rows = samples(rules, lexicon, args.seed, args.games)
        base, weights = fit(rows)
        keep = [f for f in FEATURES if f != "?" or rules.blanks]
        out["games"][name] = args.games
        out["samples"][name] = len(rows)
        out["baseline"][name] = round(base, 2)
        out["values"][name] = {
            f: round(w, 2) for f, w in zip(FEATURES, weights, strict=True) if f in keep
        }
        print(f"{name}: {args.games} games, {len(rows)} samples, next-turn mean {base:.1f}")
    LEAVES_FILE.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {LEAVES_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
