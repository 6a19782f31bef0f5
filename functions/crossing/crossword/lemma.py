"""Word families: whether two words are forms of one word (ACT/ACTS, GET/GOT, ALGA/ALGAE).

An editor never lets one grid use two forms of a word, nor a clue use a form of
another answer. ``stems`` gives the bases a word may be a form of: the word
itself, what suffix rules peel off (plurals, tenses, -er/-ing/-est forms) and a
small hand-written table of irregular forms. When a word list is given, a peeled
stem only counts if it is a word there, so CORNER is not taken for CORN unless
CORN is listed (it is: an editor would not pair them either).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

# Irregular forms to their base. Function-word families (BE/IS/ARE, HAVE/HAS,
# DO/DID) are left out on purpose: clues cannot avoid them, and a grid with IS
# and ARE reads as two different words to a solver.
_IRREGULAR_GROUPS = """
GET GOT GOTTEN
GO WENT GONE
RUN RAN
SIT SAT
SEE SAW SEEN
EAT ATE EATEN
WIN WON
MAN MEN
WOMAN WOMEN
MOUSE MICE
GOOSE GEESE
FOOT FEET
TOOTH TEETH
CHILD CHILDREN
OX OXEN
ALGA ALGAE
LARVA LARVAE
ANTENNA ANTENNAE
VERTEBRA VERTEBRAE
OVUM OVA
DATUM DATA
MEDIUM MEDIA
CACTUS CACTI
FUNGUS FUNGI
NUCLEUS NUCLEI
RADIUS RADII
STIMULUS STIMULI
CRISIS CRISES
THESIS THESES
ANALYSIS ANALYSES
CRITERION CRITERIA
PHENOMENON PHENOMENA
KNIFE KNIVES
LIFE LIVES
WIFE WIVES
LEAF LEAVES
LOAF LOAVES
THIEF THIEVES
WOLF WOLVES
HALF HALVES
SHELF SHELVES
ELF ELVES
SELF SELVES
CALF CALVES
SCARF SCARVES
BEGIN BEGAN BEGUN
BREAK BROKE BROKEN
CHOOSE CHOSE CHOSEN
DRINK DRANK DRUNK
DRIVE DROVE DRIVEN
FALL FELL FALLEN
FLY FLEW FLOWN FLIES
FORGET FORGOT FORGOTTEN
FREEZE FROZE FROZEN
GIVE GAVE GIVEN
GROW GREW GROWN
HIDE HID HIDDEN
KNOW KNEW KNOWN
LAY LAID
LIE LAIN LAY
LEAD LED
LOSE LOST
MAKE MADE
MEET MET
PAY PAID
RIDE RODE RIDDEN
RING RANG RUNG
RISE ROSE RISEN
SAY SAID
SING SANG SUNG
SINK SANK SUNK
SHAKE SHOOK SHAKEN
SLEEP SLEPT
SELL SOLD
SPEAK SPOKE SPOKEN
STEAL STOLE STOLEN
STAND STOOD
SWIM SWAM SWUM
TAKE TOOK TAKEN
TEACH TAUGHT
THINK THOUGHT
THROW THREW THROWN
TELL TOLD
WAKE WOKE WOKEN
WEAR WORE WORN
WRITE WROTE WRITTEN
BUY BOUGHT
BRING BROUGHT
CATCH CAUGHT
FIGHT FOUGHT
SEEK SOUGHT
BUILD BUILT
SEND SENT
SPEND SPENT
BEND BENT
LEND LENT
KEEP KEPT
SWEEP SWEPT
WEEP WEPT
FEEL FELT
DEAL DEALT
MEAN MEANT
HEAR HEARD
HOLD HELD
FIND FOUND
BIND BOUND
FEED FED
BLEED BLED
FLEE FLED
SPEED SPED
BREED BRED
BITE BIT BITTEN
BLOW BLEW BLOWN
DIG DUG
DRAW DREW DRAWN
HANG HUNG
SHINE SHONE
SHOOT SHOT
SLIDE SLID
STICK STUCK
STING STUNG
STRIKE STRUCK
SWING SWUNG
TEAR TORE TORN
WEAVE WOVE WOVEN
FORGIVE FORGAVE FORGIVEN
UNDERSTAND UNDERSTOOD
"""

IRREGULAR: dict[str, frozenset[str]] = {}
for _line in _IRREGULAR_GROUPS.split("\n"):
    _forms = _line.split()
    if _forms:
        for _form in _forms:
            IRREGULAR[_form] = IRREGULAR.get(_form, frozenset()) | {_forms[0]}

# Suffix, then what may replace it to make the base (longest suffixes first).
_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("IEST", ("Y",)),
    ("IER", ("Y",)),
    ("IERS", ("Y",)),
    ("IES", ("Y", "IE")),
    ("IED", ("Y", "IE")),
    ("INGS", ("", "E")),
    ("ING", ("", "E")),
    ("ERS", ("", "E")),
    ("EST", ("", "E")),
    ("ER", ("", "E")),
    ("ED", ("", "E")),
    ("ES", ("", "E")),
    ("LY", ("", "LE")),
    ("AE", ("A",)),
    ("S", ("",)),
)
_MIN_STEM = 2
_VOWEL = re.compile("[AEIOUY]")


def _peel(word: str) -> set[str]:
    """Bases the suffix rules give, before any word list has a say."""
    found = set()
    for suffix, replacements in _RULES:
        if not word.endswith(suffix) or len(word) - len(suffix) < _MIN_STEM:
            continue
        base = word[: -len(suffix)]
        if suffix == "S" and base.endswith("S"):
            continue  # GLASS is not a plural of GLAS
        if not _VOWEL.search(base) or (suffix == "LY" and len(base) < 4):
            continue  # THING is not a form of THE, nor EARLY of EAR
        for replacement in replacements:
            found.add(base + replacement)
        # STOPPED -> STOPP -> STOP, RUNNER -> RUNN -> RUN
        if len(base) >= 3 and base[-1] == base[-2] and base[-1] not in "AEIOUSL":
            found.add(base[:-1])
    return found


def stems(word: str, words: Collection[str] | None = None) -> frozenset[str]:
    """The word and every base it may be a form of (two rounds: BAKERS -> BAKER -> BAKE)."""
    return _stems(word.upper(), None if words is None else _Frozen(words))


class _Frozen:
    """A word list wrapped so ``stems`` can cache on it by identity."""

    def __init__(self, words: Collection[str]):
        self.words = words

    def __hash__(self) -> int:
        return id(self.words)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Frozen) and other.words is self.words


@lru_cache(maxsize=200_000)
def _stems(word: str, words: _Frozen | None) -> frozenset[str]:
    found = {word} | IRREGULAR.get(word, frozenset())
    frontier = {word}
    for _ in range(2):
        peeled = set()
        for form in frontier:
            for base in _peel(form):
                if words is None or base in words.words:
                    peeled.add(base)
        peeled -= found
        for base in peeled:
            found |= IRREGULAR.get(base, frozenset())
        found |= peeled
        frontier = peeled
    return frozenset(found)


def same_family(a: str, b: str, words: Collection[str] | None = None) -> bool:
    """Whether two different words are forms of one word (ACT and ACTS, GET and GOT)."""
    return bool(stems(a, words) & stems(b, words))
