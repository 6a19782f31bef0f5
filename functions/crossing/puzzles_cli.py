"""`crossing puzzles ...`: the puzzle factory's commands, and the only place it touches files.

answers → ``draft`` → ``unclued`` → clues written → ``lint`` → ``build`` → ``check``.
Every path is relative to ``--dir`` (default: the ``puzzles`` folder of this checkout).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from crossing.crossword.answers import parse_answers, top_answers
from crossing.crossword.clues import clue_book, lint_clues, parse_clue_lines
from crossing.crossword.drafts import (
    draft_batch_spread,
    draft_from_data,
    draft_one,
    draft_to_data,
    fresh_drafts,
    preference_for,
    unclued_answers,
)
from crossing.crossword.editor import Rules, editor_problems
from crossing.crossword.fill import Lexicon, draft_problems
from crossing.crossword.pack_builder import PackBuilder, missing_clues
from crossing.crossword.pack_stats import (
    pack_answers,
    pack_clue_texts,
    pack_stats,
    short_of_clues,
)
from crossing.crossword.packs import check_pack
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size
from crossing.local.paths import default_puzzles

DIFFICULTIES = ("easy", "hard")
# The answer list's files: the word list made by scripts/make_answers.py, then ours.
ANSWER_FILES = ("answers.tsv", "phrases.tsv")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `puzzles` command group to the `crossing` parser."""
    puzzles = sub.add_parser("puzzles", help="make, clue, build and check puzzle packs")
    puzzles.add_argument(
        "--dir",
        type=Path,
        default=default_puzzles(),
        help="puzzles folder (default: the one in this checkout)",
    )
    jobs = puzzles.add_subparsers(dest="job", metavar="JOB", required=True)

    draft = jobs.add_parser("draft", help="fill grids for a size into drafts/SIZE.json")
    _size_count_seed(draft)
    draft.add_argument(
        "--append",
        action="store_true",
        help="add to drafts/SIZE.json; its drafts' and the pack's answers count against the share",
    )
    draft.add_argument(
        "--share-of", type=int, help="keep the 3%% share of a pack this big (default --count)"
    )
    draft.set_defaults(run=_draft)

    unclued = jobs.add_parser("unclued", help="answers that drafted puzzles still need clued")
    unclued.add_argument(
        "--size",
        type=Size,
        required=True,
        choices=list(Size),
        action="append",
        help="repeat for sizes sharing a clue file (mini and small; midi and large)",
    )
    unclued.add_argument("--count", type=int, help="draft this many on the fly, not from file")
    unclued.add_argument("--seed", type=int, default=1)
    unclued.add_argument("--out", type=Path, help="also write the list to this file")
    unclued.set_defaults(run=_unclued)

    lint = jobs.add_parser("lint", help="check clue files (default: clues/easy.tsv, hard.tsv)")
    lint.add_argument("files", nargs="*", type=Path)
    lint.set_defaults(run=_lint)

    build = jobs.add_parser("build", help="write packs/SIZE.json from fully clued drafts")
    _size_count_seed(build)
    build.add_argument("--out", type=Path, help="write here instead of packs/SIZE.json")
    build.add_argument(
        "--fresh", action="store_true", help="ignore the committed pack (default: keep its puzzles)"
    )
    build.add_argument(
        "--allow-short", action="store_true", help="write the pack even if short of --count"
    )
    build.add_argument(
        "--minutes", type=float, help="stop filling new grids after this long (with --allow-short)"
    )
    build.set_defaults(run=_build)

    check = jobs.add_parser("check", help="validate pack files (default: every pack)")
    check.add_argument("files", nargs="*", type=Path)
    check.set_defaults(run=_check)

    sample = jobs.add_parser("sample", help="the first puzzles of each pack as Markdown")
    sample.add_argument("--count", type=int, default=10, help="puzzles per size (default 10)")
    sample.add_argument("--out", type=Path, help="write here instead of printing")
    sample.set_defaults(run=_sample)
    stats = jobs.add_parser("stats", help="counts of packs, answers and clues")
    stats.set_defaults(run=_stats)

    bench = jobs.add_parser("bench", help="fill success rate and time per size")
    bench.add_argument("--seeds", type=int, default=50)
    bench.add_argument("--top", type=int, help="use only the most common TOP answers")
    bench.add_argument("--size", type=Size, action="append", choices=list(Size))
    bench.add_argument(
        "--clued", action="store_true", help="only answers clued for the size (as build tops up)"
    )
    bench.set_defaults(run=_bench)


def _size_count_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=Size, required=True, choices=list(Size))
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)


# --- files -------------------------------------------------------------------------------


def _word_file(path: Path) -> set[str]:
    """Words of a list file, one a line, ``#`` comments, any case; empty if absent."""
    if not path.exists():
        return set()
    words = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        word = line.split("#", 1)[0].strip()
        if word:
            words.add("".join(ch for ch in word.upper() if ch.isalpha()))
    return words


def answer_list(root: Path) -> dict[str, int]:
    """The answer list: answers.tsv and our own phrases and names, less the block list."""
    folder = root / "answers"
    answers: dict[str, int] = {}
    for name in ANSWER_FILES:
        path = folder / name
        if path.exists() or name == ANSWER_FILES[0]:  # the main list must be there
            for word, score in parse_answers(path.read_text(encoding="utf-8").splitlines()).items():
                answers[word] = max(score, answers.get(word, 0))
    blocked = _word_file(folder / "blocked.txt")
    return {w: s for w, s in answers.items() if w not in blocked}


def editor_rules(root: Path, answers: dict[str, int] | None) -> Rules:
    folder = root / "answers"
    return Rules(
        words=answers,
        blocked=frozenset(_word_file(folder / "blocked.txt")),
        crosswordese=frozenset(_word_file(folder / "crosswordese.txt")),
    )


def _clue_path(root: Path, difficulty: str) -> Path:
    return root / "clues" / f"{difficulty}.tsv"


def _clues(root: Path, difficulty: str) -> dict[str, list[str]]:
    path = _clue_path(root, difficulty)
    if not path.exists():
        return {}
    return clue_book(path.read_text(encoding="utf-8").splitlines())


def _drafts_path(root: Path, size: Size) -> Path:
    return root / "drafts" / f"{size.value}.json"


def _pack_path(root: Path, size: Size) -> Path:
    return root / "packs" / f"{size.value}.json"


def _read_drafts(root: Path, size: Size) -> list[Puzzle] | None:
    path = _drafts_path(root, size)
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return [draft_from_data(item) for item in data["drafts"]]


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _other_pack_grids(root: Path, size: Size) -> set[str]:
    """Grids of letters already in the other sizes' packs (no grid may appear twice)."""
    grids: set[str] = set()
    for other in Size:
        path = _pack_path(root, other)
        if other is not size and path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            grids |= {"".join("".join(row) for row in p["solution"]) for p in data["puzzles"]}
    return grids


def _make_drafts(
    root: Path,
    size: Size,
    count: int,
    seed: int,
    before: list[Puzzle] | None = None,
    share_of: int | None = None,
) -> list[Puzzle]:
    answers = answer_list(root)
    clued = set(_clues(root, size.difficulty))
    return draft_batch_spread(
        size, answers, clued, count, seed, before=before or [], share_of=share_of
    )


def _read_pack(root: Path, size: Size) -> list[Puzzle]:
    path = _pack_path(root, size)
    if not path.exists():
        return []
    from crossing.crossword.ipuz import from_ipuz

    return [from_ipuz(item) for item in json.loads(path.read_text(encoding="utf-8"))["puzzles"]]


# --- jobs --------------------------------------------------------------------------------


def _draft(args: argparse.Namespace) -> int:
    path = _drafts_path(args.dir, args.size)
    earlier = (_read_drafts(args.dir, args.size) or []) if args.append else []
    # A second round avoids what the first round and the pack already use up.
    before = earlier + _read_pack(args.dir, args.size) if args.append else []
    seeds: list[int] = []
    if earlier:
        old = json.loads(path.read_text(encoding="utf-8"))["seed"]
        seeds = old if isinstance(old, list) else [old]
    drafts = _make_drafts(args.dir, args.size, args.count, args.seed, before, args.share_of)
    _write_json(
        path,
        {
            "size": args.size.value,
            "seed": [*seeds, args.seed] if seeds else args.seed,
            "drafts": [draft_to_data(p) for p in earlier + drafts],
        },
    )
    print(f"{path}: {len(drafts)} of {args.count} {args.size} drafts added to {len(earlier)}")
    return 0 if len(drafts) == args.count else 1


def _unclued(args: argparse.Namespace) -> int:
    sizes: list[Size] = list(dict.fromkeys(args.size))
    difficulties = {size.difficulty for size in sizes}
    if len(difficulties) != 1:
        print("sizes given together must share a clue difficulty", file=sys.stderr)
        return 2
    drafts: list[Puzzle] = []
    sources = []
    for size in sizes:
        if args.count:
            made = _make_drafts(args.dir, size, args.count, args.seed)
            sources.append(f"{len(made)} {size} drafts made now (seed {args.seed})")
        else:
            found = _read_drafts(args.dir, size)
            if found is None:
                path = _drafts_path(args.dir, size)
                print(f"no drafts at {path}: run `draft` first or pass --count", file=sys.stderr)
                return 2
            made = found
            sources.append(f"{len(made)} drafts in {_drafts_path(args.dir, size)}")
        drafts += made
    difficulty = difficulties.pop()
    clued = _clues(args.dir, difficulty)
    needed = unclued_answers(drafts, clued)
    lines = [f"{answer}\t{n}" for answer, n in sorted(needed.items(), key=lambda i: (-i[1], i[0]))]
    for line in lines:
        print(line)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    ready = sum(1 for p in drafts if not missing_clues(p, clued))
    print(
        f"{len(needed)} distinct answers need {difficulty} clues "
        f"({sum(needed.values())} uses) across {' and '.join(sources)}; "
        f"{ready} drafts are fully clued",
        file=sys.stderr,
    )
    return 0


def _lint(args: argparse.Namespace) -> int:
    answers = answer_list(args.dir)
    files = args.files or [_clue_path(args.dir, d) for d in DIFFICULTIES]
    failed = 0
    for path in files:
        if not path.exists():
            print(f"{path}: missing", file=sys.stderr)
            failed += 1
            continue
        entries, issues = parse_clue_lines(path.read_text(encoding="utf-8").splitlines())
        issues += lint_clues(entries, answers)
        for issue in sorted(issues, key=lambda i: i.line):
            print(f"{path}: {issue}", file=sys.stderr)
        failed += len(issues)
        answers_clued = len({e.answer for e in entries})
        print(f"{path}: {len(entries)} clues for {answers_clued} answers, {len(issues)} issues")
    return 1 if failed else 0


def _build(args: argparse.Namespace) -> int:
    size, root = args.size, args.dir
    answers = answer_list(root)
    rules = editor_rules(root, answers)
    clues = _clues(root, size.difficulty)
    builder = PackBuilder(
        size, clues, rules, args.count, args.seed, taken=_other_pack_grids(root, size)
    )
    # The committed pack's puzzles come first, so ids already dealt stay; then the
    # drafts; then grids filled from clued answers alone. All go through one gate.
    old: set[str] = set()
    path = _pack_path(root, size)
    if path.exists() and not args.fresh:
        from crossing.crossword.ipuz import from_ipuz

        for item in json.loads(path.read_text(encoding="utf-8"))["puzzles"]:
            old.add(str(item.get("uniqueid")))
            builder.offer(from_ipuz(item))
    kept_first = len(builder.puzzles)
    drafts = _read_drafts(root, size) or []
    for draft in drafts:
        builder.offer(draft)
    builder.repack(kept_first)
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else None
    _top_up(builder, answers, size, args.seed, deadline, kept_first)
    reached = len(builder.puzzles)
    dropped = builder.trim()
    if dropped:
        print(f"{size}: {dropped} dropped to keep the 3% share at this size", file=sys.stderr)
    if dropped * 10 > reached:
        # Near the target most common answers sit at its share, one over this size's:
        # trimming then cascades (each drop lowers the share again). Keep what is committed.
        print(
            f"{size}: stopped at {reached} of {args.count}, and keeping the share at that "
            f"size would drop {dropped}; nothing written: build again with more --minutes",
            file=sys.stderr,
        )
        return 1
    made = len(builder.puzzles)
    kept = sum(p.id in old for p in builder.puzzles)
    refusals = ", ".join(f"{n} {why}" for why, n in builder.refusals.most_common())
    print(f"{size}: offered puzzles refused: {refusals or 'none'}", file=sys.stderr)
    if made < args.count and not args.allow_short:
        needed = unclued_answers(drafts, clues)
        print(
            f"cannot build {args.count} {size} puzzles: {made} keep every rule "
            f"({kept} of them from the committed pack). The drafts need {len(needed)} more "
            f"answers clued: crossing puzzles unclued --size {size.value}",
            file=sys.stderr,
        )
        return 1
    pack = builder.pack()
    failures = check_pack(pack, answers, name=size.value, rules=rules)
    for failure in failures:
        print(failure, file=sys.stderr)
    if failures:
        return 1
    out = args.out or path
    _write_json(out, pack)
    print(f"{out}: {made} {size} puzzles ({kept} kept from the committed pack)")
    return 0


def _top_up(
    builder: PackBuilder,
    answers: dict[str, int],
    size: Size,
    seed: int,
    deadline: float | None = None,
    kept_first: int = 0,
) -> None:
    """Fill grids from the clued answers the rules allow, offering each, until the pack is
    full; every so often choose again among all (``repack``), the first ``kept_first``
    staying."""
    clued = {
        a: s
        for a, s in answers.items()
        if builder.clues.get(a) and not builder.rules.refused(a, size)
    }
    if not clued or builder.full():
        return
    # Every candidate is clued, so none is marked so: the fill then sets aside a seeded
    # share of them on each restart, and different seeds give different grids.
    capped = builder.capped()
    current = [Lexicon.build({a: s for a, s in clued.items() if a not in capped})]

    def lexicon() -> Lexicon:
        # Narrow the lexicon as answers reach their share of the pack.
        nonlocal capped
        now = builder.capped()
        if now != capped:
            capped = now
            current[0] = Lexicon.build({a: s for a, s in clued.items() if a not in now})
        return current[0]

    # With a deadline, time alone decides when to stop (a narrow lexicon fails fast, and
    # a count of tries ran out in minutes); without one, a few tries per puzzle.
    attempts = sys.maxsize if deadline else (builder.target - len(builder.puzzles)) * 4

    def late() -> bool:
        return deadline is not None and time.monotonic() > deadline

    fills = fresh_drafts(
        size, lexicon, preference_for(size), seed, builder.taken, attempts, restarts=2, stop=late
    )
    for n, draft in enumerate(fills):
        builder.offer(draft)
        if n % 25 == 0:
            builder.repack(kept_first)  # a fill set aside may fit in another's place
            print(f"{size}: {len(builder.puzzles)} puzzles after {n + 1} fills", file=sys.stderr)
        if builder.full():
            break
    builder.repack(kept_first)


def _check(args: argparse.Namespace) -> int:
    answers = answer_list(args.dir) if (args.dir / "answers" / "answers.tsv").exists() else None
    rules = editor_rules(args.dir, answers)
    files = args.files or sorted((args.dir / "packs").glob("*.json"))
    if not files:
        print("no pack files to check", file=sys.stderr)
        return 1
    seen: dict[str, str] = {}
    failed = 0
    for path in files:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            print(f"{path}: cannot read: {error}", file=sys.stderr)
            failed += 1
            continue
        failures = check_pack(data, answers, seen, name=str(path), rules=rules)
        for failure in failures:
            print(failure, file=sys.stderr)
        failed += len(failures)
        if not failures:
            print(f"{path}: ok ({len(data['puzzles'])} puzzles)")
    return 1 if failed else 0


def _sample(args: argparse.Namespace) -> int:
    from crossing.crossword.ipuz import from_ipuz
    from crossing.crossword.render import puzzle_markdown

    parts = [
        "# Sample puzzles",
        "",
        f"The first {args.count} puzzles of each pack in `puzzles/packs/`, as dealt to players",
        "(`crossing puzzles sample --out docs/puzzles.md` writes this page again).",
        "",
    ]
    for size in Size:
        path = _pack_path(args.dir, size)
        if not path.exists():
            continue
        pack = json.loads(path.read_text(encoding="utf-8"))
        parts += [
            f"## {size.value.title()} ({size.width}×{size.width}, {size.difficulty} clues)",
            "",
        ]
        for n, item in enumerate(pack["puzzles"][: args.count], start=1):
            puzzle = from_ipuz(item)
            parts.append(puzzle_markdown(puzzle, f"{size.value.title()} {n}: {puzzle.title}"))
    text = "\n".join(parts)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        print(text)
    return 0


def _stats(args: argparse.Namespace) -> int:
    root = args.dir
    answers = answer_list(root)
    common = set(top_answers(answers, 8000))
    print(f"answer list: {len(answers)} answers")
    for difficulty in DIFFICULTIES:
        book = _clues(root, difficulty)
        total = sum(len(v) for v in book.values())
        print(f"{difficulty} clues: {total} clues for {len(book)} distinct answers")
    for size in Size:
        drafts = _read_drafts(root, size)
        path = _pack_path(root, size)
        line = f"{size.value}: {len(drafts) if drafts is not None else 0} drafts"
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            words = [w for puzzle in pack_answers(data) for w in puzzle]
            texts = Counter(pack_clue_texts(data))
            scores = [answers.get(w, 0) for w in words]
            line += (
                f", {len(data['puzzles'])} puzzles in the pack, {len(set(words))} distinct "
                f"answers, median commonness {statistics.median(scores) if scores else 0:g}, "
                f"{sum(w in common for w in words) / max(1, len(words)):.0%} among the "
                f"8,000 most common; clue reuse: {len(texts)} distinct clues for "
                f"{sum(texts.values())} slots, most used "
                f"{max(texts.values()) if texts else 0} times"
            )
            figures = pack_stats(data)
            line += (
                f"\n  seen before: {_share(figures.seen_30)} of the 30th puzzle's clues, "
                f"{_share(figures.seen_100)} of the 100th's (random order); wordplay "
                f"{figures.wordplay:.1%}; three-letter entries {figures.three_letter:.1%}; "
                f"longest entry {figures.longest}; top answer {figures.top_answer} in "
                f"{figures.top_share:.1%} of puzzles"
            )
        print(line)
    for difficulty, short in clue_variety(root).items():
        names = ", ".join(f"{a} ({n} puzzles, {c} clues)" for a, n, c in short[:5])
        print(
            f"{difficulty}: {len(short)} answers in 3+ puzzles have fewer than 3 distinct "
            f"clues" + (f", most used: {names}" if short else "")
        )
    return 0


def clue_variety(root: Path) -> dict[str, list[tuple[str, int, int]]]:
    """Per difficulty, the answers its packs use 3+ times with fewer than 3 clues."""
    out = {}
    for difficulty in DIFFICULTIES:
        paths = [_pack_path(root, s) for s in Size if s.difficulty == difficulty]
        packs = [json.loads(p.read_text(encoding="utf-8")) for p in paths if p.exists()]
        out[difficulty] = short_of_clues(packs, _clues(root, difficulty))
    return out


def _share(value: float) -> str:
    return "n/a (too few puzzles)" if math.isnan(value) else f"{value:.1%}"


def _bench(args: argparse.Namespace) -> int:
    answers = answer_list(args.dir)
    if args.top:
        answers = top_answers(answers, args.top)
    rules = editor_rules(args.dir, answers)
    print(f"answers: {len(answers)}, seeds: {args.seeds}, one process")
    print("| size | answers | filled | median s | 90th pct s | slowest s |")
    print("|---|---|---|---|---|---|")
    for size in args.size or list(Size):
        usable = answers
        if args.clued:
            clues = _clues(args.dir, size.difficulty)
            usable = {
                a: s for a, s in answers.items() if clues.get(a) and not rules.refused(a, size)
            }
        lexicon = Lexicon.build(usable)
        times, filled = [], 0
        for seed in range(args.seeds):
            start = time.perf_counter()
            puzzle = draft_one(size, lexicon, seed, preference_for(size))
            times.append(time.perf_counter() - start)
            # A fill only counts if it keeps every grid rule, the editor's included
            # (no word twice by family, marquee entries); clues come later.
            if (
                puzzle is not None
                and not draft_problems(puzzle)
                and not editor_problems(puzzle, size, rules)
            ):
                filled += 1
        times.sort()
        p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
        print(
            f"| {size.value} | {len(usable)} | {filled}/{args.seeds} ({filled / args.seeds:.0%}) "
            f"| {statistics.median(times):.3f} | {p90:.3f} | {times[-1]:.3f} |",
            flush=True,
        )
    return 0
