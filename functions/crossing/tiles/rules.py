"""Rule sets as data: the board's premium squares, the bag, the rack and the bonuses.

Nothing here computes a score; scoring reads these tables. Every fact and its
source is listed in docs/rule-sets.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

SIZE = 15
CENTRE = (7, 7)  # 0-based; row 8, column 8 on the players' board
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# Layout key: '.' plain, 'd' double letter, 't' triple letter, 'D' double word,
# 'T' triple word, '*' the centre star (its word multiplier is per rule set).
_SCRABBLE_LAYOUT = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...*...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)

_WWF_LAYOUT = (
    "...T..t.t..T...",
    "..d..D...D..d..",
    ".d..d.....d..d.",
    "T..t...D...t..T",
    "..d...d.d...d..",
    ".D...t...t...D.",
    "t...d.....d...t",
    "...D...*...D...",
    "t...d.....d...t",
    ".D...t...t...D.",
    "..d...d.d...d..",
    "T..t...D...t..T",
    ".d..d.....d..d.",
    "..d..D...D..d..",
    "...T..t.t..T...",
)

# Crossplay's own board, as open solvers that model the game publish it
# (docs/rule-sets.md). Row 8 is the one the turn procedure describes.
_CROSSPLAY_LAYOUT = (
    "t..T...d...T..t",
    ".D....t.t....D.",
    "....d.....d....",
    "T..d...D...d..T",
    "..d..t...t..d..",
    "....t..d..t....",
    ".t...........t.",
    "d..D.d.*.d.D..d",
    ".t...........t.",
    "....t..d..t....",
    "..d..t...t..d..",
    "T..d...D...d..T",
    "....d.....d....",
    ".D....t.t....D.",
    "t..T...d...T..t",
)


def _table(spec: str) -> Mapping[str, int]:
    """Parse ``"A1 B4 ..."`` into ``{"A": 1, "B": 4, ...}``."""
    pairs = {item[0]: int(item[1:]) for item in spec.split()}
    if sorted(pairs) != list(LETTERS):
        raise ValueError(f"table must name every letter once: {spec!r}")
    return MappingProxyType(pairs)


SCRABBLE_VALUES = _table(
    "A1 B3 C3 D2 E1 F4 G2 H4 I1 J8 K5 L1 M3 N1 O1 P3 Q10 R1 S1 T1 U1 V4 W4 X8 Y4 Z10"
)
SCRABBLE_COUNTS = _table(
    "A9 B2 C2 D4 E12 F2 G3 H2 I9 J1 K1 L4 M2 N6 O8 P2 Q1 R6 S4 T6 U4 V2 W2 X1 Y2 Z1"
)
CROSSPLAY_VALUES = _table(
    "A1 B4 C3 D2 E1 F4 G4 H3 I1 J10 K6 L2 M3 N1 O1 P3 Q10 R1 S1 T1 U2 V6 W5 X8 Y4 Z10"
)
CROSSPLAY_COUNTS = _table(
    "A9 B2 C2 D4 E12 F2 G3 H3 I8 J1 K1 L4 M2 N5 O8 P2 Q1 R6 S5 T6 U3 V2 W2 X1 Y2 Z1"
)
WWF_VALUES = _table(
    "A1 B4 C4 D2 E1 F4 G3 H3 I1 J10 K5 L2 M4 N2 O1 P4 Q10 R1 S1 T1 U2 V5 W4 X8 Y3 Z10"
)
WWF_COUNTS = _table(
    "A9 B2 C2 D5 E13 F2 G3 H4 I8 J1 K1 L4 M2 N5 O8 P2 Q1 R6 S5 T7 U4 V2 W2 X1 Y2 Z1"
)


@dataclass(frozen=True)
class RuleSet:
    """One game's constants. Squares are 0-based ``(row, col)`` inside the engine."""

    name: str
    layout: tuple[str, ...]
    values: Mapping[str, int]
    counts: Mapping[str, int]
    blanks: int
    rack_size: int = 7
    # Points for emptying a full rack in one play (Crossplay's sweep, Scrabble's
    # bingo); added after every multiplier. 0 means the game has none.
    rack_bonus: int = 0
    rack_bonus_name: str = "bingo"
    star_multiplies: bool = False
    # Duel: points by tiles placed, and by words formed in one play.
    tiles_used_bonus: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    words_formed_bonus: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def bag_size(self) -> int:
        return sum(self.counts.values()) + self.blanks

    def letter_multiplier(self, row: int, col: int) -> int:
        return {"d": 2, "t": 3}.get(self.layout[row][col], 1)

    def word_multiplier(self, row: int, col: int) -> int:
        mark = self.layout[row][col]
        if mark == "*":
            return 2 if self.star_multiplies else 1
        return {"D": 2, "T": 3}.get(mark, 1)

    def tiles_bonus(self, tiles_used: int) -> int:
        return self.tiles_used_bonus.get(tiles_used, 0)

    def words_bonus(self, words_formed: int) -> int:
        if not self.words_formed_bonus:
            return 0
        top = max(self.words_formed_bonus)
        return self.words_formed_bonus.get(min(words_formed, top), 0)


CROSSPLAY = RuleSet(
    name="crossplay",
    layout=_CROSSPLAY_LAYOUT,
    values=CROSSPLAY_VALUES,
    counts=CROSSPLAY_COUNTS,
    blanks=3,
    rack_bonus=40,
    rack_bonus_name="sweep",
    star_multiplies=False,
)

SCRABBLE = RuleSet(
    name="scrabble",
    layout=_SCRABBLE_LAYOUT,
    values=SCRABBLE_VALUES,
    counts=SCRABBLE_COUNTS,
    blanks=2,
    rack_bonus=50,
    rack_bonus_name="bingo",
    star_multiplies=True,
)

WWF = RuleSet(
    name="wwf",
    layout=_WWF_LAYOUT,
    values=WWF_VALUES,
    counts=WWF_COUNTS,
    blanks=2,
    rack_bonus=35,
    rack_bonus_name="bingo",
    star_multiplies=False,
)

DUEL = RuleSet(
    name="duel",
    layout=_SCRABBLE_LAYOUT,
    values=SCRABBLE_VALUES,
    counts=SCRABBLE_COUNTS,
    blanks=0,
    rack_bonus=0,
    star_multiplies=True,
    tiles_used_bonus=MappingProxyType({4: 4, 5: 8, 6: 20, 7: 50}),
    words_formed_bonus=MappingProxyType({2: 6, 3: 20, 4: 50, 5: 100}),
)

RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(
    {rules.name: rules for rules in (CROSSPLAY, SCRABBLE, WWF, DUEL)}
)


def get_rules(name: str) -> RuleSet:
    try:
        return RULE_SETS[name]
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise ValueError(f"unknown rule set {name!r} (choose one of {known})") from None
