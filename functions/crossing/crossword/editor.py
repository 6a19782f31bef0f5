"""The editor's rules for one puzzle, beyond the newspaper rules a grid keeps.

What an editor cuts: two forms of one word in a grid, an answer named in another
slot's clue, a blocked answer or (easy sizes) crosswordese, and a big grid without
its marquee entries or with too many three-letter ones. Pure: the block lists come
in a ``Rules``; building a pack and checking one both ask these questions.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from crossing.crossword.lemma import same_family
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size

_CLUE_WORD = re.compile(r"[A-Za-z]+")
# The big sizes' showpieces: (length, how many) entries at least that long, and the
# most of a grid's entries that may be three letters long.
MARQUEE = {Size.MIDI: (8, 1), Size.LARGE: (9, 2)}
MAX_THREE_LETTER = {Size.MIDI: 0.25, Size.LARGE: 0.25}


@dataclass(frozen=True)
class Rules:
    """What an editor refuses beyond the newspaper rules, and the lists it needs.

    ``words`` is the answer list (for word families and the "in the list" check),
    ``blocked`` answers no puzzle uses, ``crosswordese`` answers easy sizes never use.
    """

    words: Collection[str] | None = None
    blocked: Collection[str] = frozenset()
    crosswordese: Collection[str] = frozenset()

    def refused(self, answer: str, size: Size) -> str:
        """Why the answer may not be used in a puzzle of the size, or ""."""
        if answer in self.blocked:
            return f"{answer} is on the block list"
        if size.difficulty == "easy" and answer in self.crosswordese:
            return f"{answer} is crosswordese, kept out of {size} puzzles"
        return ""


def _clue_words(clue: str) -> list[str]:
    return [w.upper() for w in _CLUE_WORD.findall(clue)]


def echoes(clue: str, answer: str, words: Collection[str] | None) -> str:
    """The word of ``clue`` that is a form of ``answer``, or "" (CITY in "Big cities")."""
    for word in _clue_words(clue):
        if len(word) >= 2 and (word == answer or same_family(word, answer, words)):
            return word.lower()
    return ""


def shape_problems(lengths: Sequence[int], size: Size) -> list[tuple[str, str]]:
    """A big grid without its marquee entries, or with too many three-letter entries."""
    found = []
    if size in MARQUEE:
        length, count = MARQUEE[size]
        if sum(n >= length for n in lengths) < count:
            found.append(
                (
                    "grid",
                    f"no marquee: a {size} needs {count} entr{'y' if count == 1 else 'ies'} "
                    f"of {length}+ letters (longest is {max(lengths, default=0)})",
                )
            )
    if size in MAX_THREE_LETTER and lengths:
        share = sum(n == 3 for n in lengths) / len(lengths)
        if share > MAX_THREE_LETTER[size]:
            found.append(
                (
                    "grid",
                    f"three-letter entries are {share:.0%} of the grid "
                    f"(at most {MAX_THREE_LETTER[size]:.0%})",
                )
            )
    return found


def editor_problems(puzzle: Puzzle, size: Size, rules: Rules) -> list[tuple[str, str]]:
    """(where, message) for each thing an editor would cut from this one puzzle.

    Two forms of one word in the grid (ACT and ACTS, GET and GOT), an answer that
    is a word in another slot's clue, and blocked or (easy sizes) crosswordese answers.
    """
    slots = puzzle.slots
    answers = [puzzle.answer(slot) for slot in slots]
    found = shape_problems([len(a) for a in answers], size)
    for i, slot in enumerate(slots):
        where = f"{slot.number} {slot.direction}"
        reason = rules.refused(answers[i], size)
        if reason:
            found.append((where, f"refused answer: {reason}"))
        for j in range(i):
            if answers[i] != answers[j] and same_family(answers[i], answers[j], rules.words):
                other = slots[j]
                found.append(
                    (
                        where,
                        f"same word twice: {answers[i]} and {answers[j]} "
                        f"({other.number} {other.direction}) are forms of one word",
                    )
                )
    for j, other in enumerate(slots):
        clue = puzzle.clues.get(other.id, "")
        for i, slot in enumerate(slots):
            if i != j:
                word = echoes(clue, answers[i], rules.words)
                if word:
                    found.append(
                        (
                            f"{other.number} {other.direction}",
                            f"answer in a clue: '{word}' in this clue is the answer "
                            f"{answers[i]} ({slot.number} {slot.direction})",
                        )
                    )
    return found
