"""Measurement (not a test): does choosing by score + leave beat choosing by score alone?

    python3 benchmarks/equity_vs_score.py [--games 1000] [--rules crossplay] [--seed 1]

Plays seeded two-player games between a bot that makes the play with the highest
score + leave (leaves.by_equity) and one that makes the highest-scoring play
(selfplay.by_score); they take turns to move first. Prints the equity bot's mean
margin per game with a 95 % confidence interval (normal approximation), and its wins.
The seeds differ from those the leave values were fitted on (scripts/build_leaves.py).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

from crossing.game_files import default_lexicon, leave_table
from crossing.tiles.leaves import by_equity
from crossing.tiles.rules import get_rules
from crossing.tiles.selfplay import by_score, play_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rules", default="crossplay")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = get_rules(args.rules)
    lexicon = default_lexicon()
    table = leave_table()
    values = table["values"].get(rules.name, {})
    fitted = table["seed"], table["seed"] + table["games"][rules.name]
    if args.seed < fitted[1] and fitted[0] < args.seed + args.games:
        print("warning: these seeds overlap the games the leaves were fitted on", file=sys.stderr)

    def by_fitted(board, rack, rules, lexicon):
        return by_equity(board, rack, rules, lexicon, values)

    margins = []
    wins = ties = 0
    began = time.perf_counter()
    for game in range(args.games):
        equity_first = game % 2 == 0
        choosers = (by_fitted, by_score) if equity_first else (by_score, by_fitted)
        scores = play_game(rules, lexicon, args.seed + game, choosers).scores
        ours, theirs = (scores[0], scores[1]) if equity_first else (scores[1], scores[0])
        margins.append(ours - theirs)
        wins += ours > theirs
        ties += ours == theirs
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    print(
        f"{args.rules}, {args.games} games from seed {args.seed}, "
        f"{time.perf_counter() - began:.0f} s: equity bot's mean margin {mean:+.1f} points "
        f"per game, 95% CI [{mean - half:+.1f}, {mean + half:+.1f}]; "
        f"won {wins}, tied {ties}, lost {args.games - wins - ties}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
