"""Small puzzles written for the tests (grids filled by our own search, clues ours)."""

from crossing.crossword.puzzle import Puzzle

# 1 2 3
# 4 . .
# 5 . .
TINY = Puzzle.from_rows(
    ["WED", "ARE", "RAN"],
    {
        "1a": "Tied the knot",
        "4a": "Exist, for more than one",
        "5a": "Hurried on foot",
        "1d": "Conflict between nations",
        "2d": "Long stretch of history",
        "3d": "Lion's lair",
    },
    id="tiny",
    title="Tiny",
)

# # # 1 2 3
# 4 5 . . .
# 6 . . . .
# 7 . . . .
# 8 . . # #
MINI = Puzzle.from_rows(
    ["##SIR", "ASIDE", "NODES", "TREAT", "ITS##"],
    {
        "1a": "Knight's title",
        "4a": "Whisper meant for the audience",
        "6a": "Junction points in a network",
        "7a": "Something sweet for a good dog",
        "8a": "Belonging to that thing",
        "1d": "A square has four of these",
        "2d": "Bright thought",
        "3d": "Take a break",
        "4d": "Opposed, informally",
        "5d": "Put in order",
    },
    id="mini-test",
    title="Test Mini",
    difficulty="easy",
)
