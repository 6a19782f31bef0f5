"""Puzzle packs: clued puzzles of one size as JSON data, and the checks a pack must pass.

A pack is ``{"size": "mini", "difficulty": "easy", "puzzles": [ipuz, ...]}``; each
puzzle is an ipuz crossword object with a stable ``uniqueid`` (a hash of its grid
of letters), a title, ``difficulty`` and ``size``, and one clue of that difficulty
for every slot. Reading and writing files is the CLI's job. Building and checking
packs is offline work (the CLI's and the scripts'); dealing from one while the game
runs is ``deal.py``'s.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crossing.crossword.clues import clue_problems
from crossing.crossword.deal import is_twin
from crossing.crossword.fill import answers_of
from crossing.crossword.ipuz import InvalidPuzzle, from_ipuz, read_unchecked, to_ipuz
from crossing.crossword.lemma import same_family
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.selection import ROUNDS, most_within_share
from crossing.crossword.sizes import Size


def puzzle_id(solution: str) -> str:
    """Stable id from the grid of letters: the same grid always gets the same id."""
    return "cw-" + hashlib.sha256(solution.encode("ascii")).hexdigest()[:12]


def missing_clues(draft: Puzzle, clues: Mapping[str, Sequence[str]]) -> list[str]:
    return [a for a in answers_of(draft) if not clues.get(a)]


# An answer may fill at most this share of a size's puzzles (never fewer than two,
# so a pack of a handful of test puzzles can be checked at all).
MAX_ANSWER_SHARE = 0.03
_MIN_CAP = 2
_CLUE_WORD = re.compile(r"[A-Za-z]+")
SHARE = "answer at its share"
# The big sizes' showpieces: (length, how many) entries at least that long, and the
# most of a grid's entries that may be three letters long.
MARQUEE = {Size.MIDI: (8, 1), Size.LARGE: (9, 2)}
MAX_THREE_LETTER = {Size.MIDI: 0.25, Size.LARGE: 0.25}


def max_uses(puzzles: int, share: float = MAX_ANSWER_SHARE) -> int:
    """How many of ``puzzles`` puzzles one answer may appear in."""
    return max(_MIN_CAP, math.floor(puzzles * share))


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


@dataclass
class Ledger:
    """Answers of the puzzles of one size taken so far, to refuse near-twins and over-use.

    A near-twin shares half or more of its answers with a puzzle already taken (a
    transposed grid has the same answers, so it is a twin too).
    """

    puzzles: list[frozenset[str]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    uses: Counter[str] = field(default_factory=Counter)
    _index: dict[str, list[int]] = field(default_factory=dict)

    @property
    def cap(self) -> int:
        return max_uses(len(self.puzzles))

    def twin(self, words: frozenset[str]) -> tuple[str, int] | None:
        """(label, shared answers) of a puzzle taken that this one nearly repeats, or None."""
        shared: Counter[int] = Counter()
        for word in words:
            shared.update(self._index.get(word, ()))
        for index, count in shared.most_common():
            if is_twin(count, len(words), len(self.puzzles[index])):
                return self.labels[index], count
        return None

    def capped(self, size: int = 0) -> set[str]:
        """Answers that one more puzzle may not use: a pack of ``size`` puzzles (at least
        the one this puzzle makes) would then break the share."""
        cap = max_uses(max(len(self.puzzles) + 1, size))
        return {w for w, n in self.uses.items() if n + 1 > cap}

    def over_used(self) -> list[str]:
        return sorted(w for w, n in self.uses.items() if n > self.cap)

    def add(self, words: frozenset[str], label: str) -> None:
        for word in words:
            self._index.setdefault(word, []).append(len(self.puzzles))
        self.puzzles.append(words)
        self.labels.append(label)
        self.uses.update(words)


def clue_draft(
    draft: Puzzle,
    size: Size,
    clues: Mapping[str, Sequence[str]],
    rng: random.Random,
    used: Counter[str],
    words: Collection[str] | None = None,
) -> Puzzle | None:
    """The draft with a clue on every slot, each answer's least-used fitting clue so far.

    ``used`` counts clue texts across the pack, so reuse spreads over an answer's
    clues; a wordplay clue counts as used once less than it was, so it comes round
    twice as often as a plain one and the few the clue files have reach the pack.
    A clue that names another answer of the grid never fits; None when some slot
    has no clue that fits.
    """
    answers = {draft.answer(slot) for slot in draft.slots}
    chosen = {}
    for slot in draft.slots:
        answer = draft.answer(slot)
        others = answers - {answer}
        options = [
            clue
            for clue in clues.get(answer, ())
            if not any(echoes(clue, other, words) for other in others)
        ]
        if not options:
            return None
        rng.shuffle(options)
        chosen[slot.id] = min(options, key=lambda clue: _clue_rank(clue, used))
    used.update(chosen.values())
    pid = puzzle_id(draft.solution)
    return Puzzle(
        draft.width,
        draft.height,
        draft.solution,
        chosen,
        id=pid,
        title=f"{size.value.title()} {pid[3:9]}",
        difficulty=size.difficulty,
    )


# How many uses a wordplay clue is let off when an answer's clue is chosen.
WORDPLAY_BONUS = 1


def _clue_rank(clue: str, used: Counter[str]) -> tuple[int, bool]:
    wordplay = is_wordplay(clue)
    return used[clue] - WORDPLAY_BONUS * wordplay, not wordplay


class PackBuilder:
    """Takes drafts one by one for a pack of one size, refusing what ``check`` refuses.

    Every path into a pack (the committed pack's own puzzles, drafts, top-up fills)
    goes through ``offer``, so a built pack passes the editor's rules by construction.
    The share rule is kept for the pack's target size (an answer may fill 3% of
    ``target`` puzzles, and at least two): keeping it for the pack as it stands
    would let a 37-puzzle pack take no draft with a word two puzzles already use,
    and stall. A pack that stops short is trimmed to the share at the size it
    reached (``pack``). A draft refused only for the share is kept aside, and
    ``repack`` chooses again among it and the puzzles taken.
    """

    def __init__(
        self,
        size: Size,
        clues: Mapping[str, Sequence[str]],
        rules: Rules,
        target: int,
        seed: int,
        taken: Collection[str] = (),
    ) -> None:
        self.size, self.clues, self.rules, self.target = size, clues, rules, target
        self.rng = random.Random(seed)
        self.used: Counter[str] = Counter()
        self.ledger = Ledger()
        self.taken = set(taken)
        self.puzzles: list[Puzzle] = []
        self.refusals: Counter[str] = Counter()
        self.deferred: list[Puzzle] = []

    def full(self) -> bool:
        return len(self.puzzles) >= self.target

    def capped(self) -> set[str]:
        """Answers the next puzzle may not use: a fill for this pack should leave them out."""
        return self.ledger.capped(self.target)

    def offer(self, draft: Puzzle) -> str:
        """Add the draft, clued, if it keeps every rule; else the rule it breaks (nothing added)."""
        reason = self._refusal(draft)
        if reason == SHARE:
            self.deferred.append(draft)
        if reason:
            self.refusals[reason] += 1
        return reason

    def repack(self, fixed: int = 0, rounds: int = ROUNDS) -> int:
        """Choose again, all together, among the puzzles taken and the drafts set aside
        for the share, so that as many as possible fit (``selection``); the first
        ``fixed`` taken (the committed pack's) stay whatever they use. Every choice goes
        through ``offer`` again. Returns how many more the pack holds."""
        pool = self.puzzles + [d for d in self.deferred if self._fits_alone(d)]
        words = [frozenset(answers_of(p)) for p in pool]
        chosen = most_within_share(
            words,
            max_uses(self.target),
            fixed=min(fixed, len(self.puzzles)),
            start=range(len(self.puzzles)),
            twins=lambda i, j: is_twin(len(words[i] & words[j]), len(words[i]), len(words[j])),
            rng=self.rng,
            rounds=rounds,
        )
        held = len(self.puzzles)
        before = (self.used, self.ledger, self.puzzles, self.deferred, set(self.taken))
        refusals = self.refusals
        self.taken -= {p.solution for p in self.puzzles}
        self.used, self.ledger, self.puzzles, self.deferred = Counter(), Ledger(), [], []
        for i in chosen:
            self.offer(pool[i])
        self.refusals = refusals  # counted when first offered
        if len(self.puzzles) < held:  # clued again, some no longer fit: as it was
            self.used, self.ledger, self.puzzles, self.deferred, self.taken = before
            return 0
        picked = set(chosen)
        self.deferred += [p for i, p in enumerate(pool) if i not in picked]
        return len(self.puzzles) - held

    def _fits_alone(self, draft: Puzzle) -> bool:
        """Whether the draft keeps every rule but the share: ``offer``'s cluing, tried on
        its own random stream, so the pack's own clue choices stay as they were."""
        return not self._clued(draft, random.Random(0))[1]

    def _clued(self, draft: Puzzle, rng: random.Random) -> tuple[Puzzle | None, str, Counter[str]]:
        """The draft clued from the pack's clue counts so far (and those counts with it),
        or why it cannot be."""
        used = Counter(self.used)
        puzzle = clue_draft(draft, self.size, self.clues, rng, used, self.rules.words)
        if puzzle is None:
            return None, "no clue free of the other answers", used
        if editor_problems(puzzle, self.size, self.rules):
            return None, "editor rule", used
        return puzzle, "", used

    def _refusal(self, draft: Puzzle) -> str:
        if self.full():
            return "pack full"
        if draft.solution in self.taken:
            return "grid already used"
        words = frozenset(answers_of(draft))
        if missing_clues(draft, self.clues):
            return "unclued answer"
        if self.ledger.twin(words):
            return "near-twin"
        if words & self.capped():
            return SHARE
        puzzle, reason, used = self._clued(draft, self.rng)
        if puzzle is None:
            return reason
        puzzle.validate()
        self.used = used
        self.taken.add(puzzle.solution)
        self.ledger.add(words, puzzle.id)
        self.puzzles.append(puzzle)
        return ""

    def trim(self) -> int:
        """Drop puzzles until the pack keeps the share at the size it reached.

        Only a pack short of its target can break it (puzzles were let in for the
        target's share). Each step drops the puzzle holding the most over-used
        answers (the newest of those), so as few go as possible: every puzzle
        dropped lowers the share again. Returns how many were dropped.
        """
        dropped = 0
        while True:
            ledger = Ledger()
            for puzzle in self.puzzles:
                ledger.add(frozenset(answers_of(puzzle)), puzzle.id)
            over = set(ledger.over_used())
            if not over:
                self.ledger = ledger
                return dropped
            worst = max(
                range(len(self.puzzles)),
                key=lambda i: (len(over & set(answers_of(self.puzzles[i]))), i),
            )
            self.taken.discard(self.puzzles[worst].solution)
            del self.puzzles[worst]
            dropped += 1

    def pack(self) -> dict[str, Any]:
        """The pack as JSON data, trimmed first so it keeps the share at its size."""
        self.trim()
        puzzles = []
        for puzzle in self.puzzles:
            data = to_ipuz(puzzle)
            data["size"] = self.size.value
            puzzles.append(data)
        return {"size": self.size.value, "difficulty": self.size.difficulty, "puzzles": puzzles}


@dataclass(frozen=True)
class PackFailure:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def check_pack(
    data: Any,
    answers: Collection[str] | None = None,
    seen: dict[str, str] | None = None,
    name: str = "pack",
    rules: Rules | None = None,
) -> list[PackFailure]:
    """Every way the pack breaks the rules; empty means every puzzle is fit to deal.

    ``seen`` maps grids of letters already met (in other packs) to where they were,
    so no two puzzles in all packs share a grid; it is updated as puzzles are read.
    ``rules`` adds the editor's rules (word families, answers in clues, block lists);
    near-twins and over-used answers are always checked across the whole pack.
    """
    seen = {} if seen is None else seen
    rules = rules or Rules(words=answers)
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
        return [PackFailure(name, 'a pack is a JSON object with a "puzzles" list')]
    failures: list[PackFailure] = []
    try:
        size = Size(str(data.get("size")))  # no other JSON value spells a size
    except ValueError:
        return [PackFailure(name, f"unknown size {data.get('size')!r}")]
    if not data["puzzles"]:
        failures.append(PackFailure(name, "the pack has no puzzles"))
    ledger = Ledger()
    for index, item in enumerate(data["puzzles"], start=1):
        label = f"{name} puzzle {index}"
        if isinstance(item, dict) and item.get("uniqueid"):
            label += f" ({item['uniqueid']})"
        found, puzzle = _check_puzzle(item, size, answers, seen, label, rules)
        failures += found
        if puzzle is not None:
            words = frozenset(answers_of(puzzle))
            twin = ledger.twin(words)
            if twin:
                failures.append(
                    PackFailure(
                        label,
                        f"near-twin: shares {twin[1]} of its {len(words)} answers with {twin[0]}",
                    )
                )
            ledger.add(words, label)
    for word in ledger.over_used():
        failures.append(
            PackFailure(
                name,
                f"over-used answer: {word} is in {ledger.uses[word]} of "
                f"{len(ledger.puzzles)} puzzles "
                f"(at most {ledger.cap}, {MAX_ANSWER_SHARE:.0%})",
            )
        )
    return failures


def _check_puzzle(
    item: Any,
    size: Size,
    answers: Collection[str] | None,
    seen: dict[str, str],
    label: str,
    rules: Rules,
) -> tuple[list[PackFailure], Puzzle | None]:
    failures = []
    try:
        puzzle = from_ipuz(item)
    except InvalidPuzzle as error:
        failures = [PackFailure(label, str(problem)) for problem in error.problems]
        if any(problem.rule in ("format", "numbering", "shape") for problem in error.problems):
            return failures, None
        # The grid reads fine but breaks a rule: keep going, so one run names every failure.
        puzzle = read_unchecked(item)
    if puzzle.width != size.width or puzzle.height != size.width:
        failures.append(PackFailure(label, f"{puzzle.width}x{puzzle.height} is not a {size}"))
    if puzzle.difficulty != size.difficulty:
        failures.append(
            PackFailure(label, f"difficulty {puzzle.difficulty!r}; a {size} is {size.difficulty}")
        )
    if puzzle.id != puzzle_id(puzzle.solution):
        failures.append(PackFailure(label, "uniqueid does not match the grid of letters"))
    if puzzle.solution in seen:
        failures.append(PackFailure(label, f"same grid of letters as {seen[puzzle.solution]}"))
    else:
        seen[puzzle.solution] = label
    for slot in puzzle.slots:
        answer = puzzle.answer(slot)
        where = f"{label} {slot.number} {slot.direction}"
        if answers is not None and answer not in answers:
            failures.append(PackFailure(where, f"{answer} is not in the answer list"))
        for rule, message in clue_problems(answer, puzzle.clues.get(slot.id, "")):
            failures.append(PackFailure(where, f"clue {rule}: {message}"))
    for where, message in editor_problems(puzzle, size, rules):
        failures.append(PackFailure(f"{label} {where}", message))
    return failures, puzzle


def pack_answers(data: Mapping[str, Any]) -> list[list[str]]:
    """Each puzzle's answers, read off a (checked) pack."""
    return [answers_of(from_ipuz(item)) for item in data.get("puzzles", [])]


def pack_clue_texts(data: Mapping[str, Any]) -> list[str]:
    texts = []
    for item in data.get("puzzles", []):
        for entries in item.get("clues", {}).values():
            texts += [str(entry[1]) for entry in entries if isinstance(entry, list)]
    return texts


def pack_clue_pairs(data: Mapping[str, Any]) -> list[list[tuple[str, str]]]:
    """Each puzzle's (answer, clue) pairs, read off a (checked) pack."""
    found = []
    for item in data.get("puzzles", []):
        puzzle = from_ipuz(item)
        found.append([(puzzle.answer(slot), puzzle.clues[slot.id]) for slot in puzzle.slots])
    return found


def seen_before(
    puzzles: Sequence[Sequence[tuple[str, str]]], at: int, orders: int = 200, seed: int = 0
) -> float:
    """The share of clues of the ``at``-th puzzle a player meets (dealt in a random order)
    that were in one of the puzzles before it, as the same answer with the same clue."""
    if len(puzzles) < at:
        return float("nan")
    rng = random.Random(seed)
    seen_total = clues_total = 0
    for _ in range(orders):
        order = rng.sample(range(len(puzzles)), at)
        seen = {pair for index in order[:-1] for pair in puzzles[index]}
        last = puzzles[order[-1]]
        seen_total += sum(pair in seen for pair in last)
        clues_total += len(last)
    return seen_total / max(1, clues_total)


def is_wordplay(clue: str) -> bool:
    """Wordplay and misdirection, which convention marks with a closing question mark."""
    return clue.rstrip().endswith("?") and not clue.rstrip().endswith('?"')


@dataclass(frozen=True)
class PackStats:
    puzzles: int
    seen_30: float
    seen_100: float
    wordplay: float
    three_letter: float
    longest: int
    top_answer: str
    top_share: float


def pack_stats(data: Mapping[str, Any]) -> PackStats:
    """The figures an editor reads a pack by (issue 19's point 4)."""
    pairs = pack_clue_pairs(data)
    slots = [pair for puzzle in pairs for pair in puzzle]
    uses: Counter[str] = Counter()
    for puzzle in pairs:
        uses.update({answer for answer, _ in puzzle})
    top, count = uses.most_common(1)[0] if uses else ("", 0)
    total = max(1, len(slots))
    return PackStats(
        puzzles=len(pairs),
        seen_30=seen_before(pairs, 30),
        seen_100=seen_before(pairs, 100),
        wordplay=sum(is_wordplay(clue) for _, clue in slots) / total,
        three_letter=sum(len(answer) == 3 for answer, _ in slots) / total,
        longest=max((len(answer) for answer, _ in slots), default=0),
        top_answer=top,
        top_share=count / max(1, len(pairs)),
    )


def short_of_clues(
    packs: Sequence[Mapping[str, Any]], book: Mapping[str, Sequence[str]], need: int = 3
) -> list[tuple[str, int, int]]:
    """Answers in ``need`` or more puzzles of these packs (one difficulty's sizes) that
    have fewer than ``need`` distinct clues in ``book``: ``(answer, puzzles, clues)``,
    most used first. A regular player meets such an answer often, so one clue would
    come round again and again (issue 19, point 4)."""
    uses: Counter[str] = Counter()
    for data in packs:
        for answers in pack_answers(data):
            uses.update(set(answers))
    short = []
    for answer, count in uses.items():
        distinct = len({" ".join(clue.lower().split()) for clue in book.get(answer, ())})
        if count >= need and distinct < need:
            short.append((answer, count, distinct))
    return sorted(short, key=lambda item: (-item[1], item[0]))


def near_repeat(a: Puzzle, b: Puzzle) -> bool:
    """Whether two puzzles share half or more of either's answers (a twin is not new)."""
    first, second = set(answers_of(a)), set(answers_of(b))
    return is_twin(len(first & second), len(first), len(second))
