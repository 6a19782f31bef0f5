"""Building a pack: taking drafts one by one, cluing each, and refusing what breaks a rule.

Offline work (``crossing puzzles build``): every draft goes through ``PackBuilder.offer``,
which clues it from the clue book and keeps it only if the editor's rules
(``editor.py``) and the pack's own (no twin, each answer within its share,
``packs.py``) hold, so a built pack passes ``check_pack`` by construction.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from crossing.crossword.clues import is_wordplay
from crossing.crossword.deal import is_twin
from crossing.crossword.editor import Rules, echoes, editor_problems
from crossing.crossword.fill import answers_of
from crossing.crossword.ipuz import to_ipuz
from crossing.crossword.packs import Ledger, max_uses, puzzle_id
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.selection import ROUNDS, most_within_share
from crossing.crossword.sizes import Size

SHARE = "answer at its share"


def missing_clues(draft: Puzzle, clues: Mapping[str, Sequence[str]]) -> list[str]:
    return [a for a in answers_of(draft) if not clues.get(a)]


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
