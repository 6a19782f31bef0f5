"""The answer list: words a puzzle may use, each with a commonness score.

The list is text, ``WORD<TAB>score`` a line (``puzzles/answers/answers.tsv``);
the score runs from 1 (rare) to 100 (most common). A phrase or name is written
as it reads (``AT EASE``, ``O'HARE``, ``T-REX``): its answer is its letters only.
Reading the file is the CLI's job; this module only parses text it is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

MIN_ANSWER, MAX_ANSWER = 3, 11


def parse_answers(lines: Iterable[str]) -> dict[str, int]:
    """Answers and their scores from ``WORD<TAB>score`` lines; blank and ``#`` lines are skipped."""
    answers: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[1].strip().isdigit():
            raise ValueError(f"answer line {number}: expected WORD<TAB>score, got {line!r}")
        word = "".join(ch for ch in parts[0].strip().upper() if ch not in " '-.")
        if not (word.isascii() and word.isalpha()):
            raise ValueError(f"answer line {number}: {word!r} is not a word of letters A-Z")
        answers[word] = int(parts[1])
    return answers


def top_answers(answers: Mapping[str, int], count: int) -> dict[str, int]:
    """The ``count`` most common answers; ties keep the list's own order (corpus count)."""
    ranked = sorted(answers.items(), key=lambda item: -item[1])
    return dict(ranked[:count])
