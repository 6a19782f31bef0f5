"""ipuz crossword JSON, the project's puzzle format: read it, check it, write it.

Reading accepts the common shapes of the format (clue lists as ``[number, text]``
pairs or ``{"number", "clue"}`` objects, cells as numbers or ``{"cell": n}``),
and rejects a file that breaks any newspaper rule with every problem named.
"""

from __future__ import annotations

from typing import Any

from crossing.crossword.grid import BLOCK, Direction
from crossing.crossword.puzzle import InvalidPuzzle, Problem, Puzzle

IPUZ_VERSION = "http://ipuz.org/v2"
IPUZ_KIND = "http://ipuz.org/crossword#1"
_DIRECTION_NAMES = {"across": Direction.ACROSS, "down": Direction.DOWN}
_META_KEYS = ("author", "copyright", "publisher", "notes", "date")

__all__ = ["InvalidPuzzle", "Problem", "from_ipuz", "read_unchecked", "to_ipuz"]


def _fail(rule: str, where: str, message: str) -> InvalidPuzzle:
    return InvalidPuzzle([Problem(rule, where, message)])


def to_ipuz(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as an ipuz crossword object (plain JSON data)."""
    grid = puzzle.grid
    numbers = grid.numbers
    cells = [
        [
            BLOCK if sq in grid.blocks else numbers.get(sq, 0)
            for sq in range(r * puzzle.width, (r + 1) * puzzle.width)
        ]
        for r in range(puzzle.height)
    ]
    clues: dict[str, list[list[Any]]] = {"Across": [], "Down": []}
    for slot in puzzle.slots:
        clues[slot.direction.value.title()].append([slot.number, puzzle.clues.get(slot.id, "")])
    data: dict[str, Any] = {
        "version": IPUZ_VERSION,
        "kind": [IPUZ_KIND],
        "dimensions": {"width": puzzle.width, "height": puzzle.height},
        "puzzle": cells,
        "solution": [list(row) for row in puzzle.rows()],
        "clues": clues,
    }
    if puzzle.id:
        data["uniqueid"] = puzzle.id
    if puzzle.title:
        data["title"] = puzzle.title
    if puzzle.difficulty:
        data["difficulty"] = puzzle.difficulty
    for key in _META_KEYS:
        if key in puzzle.meta:
            data[key] = puzzle.meta[key]
    return data


def from_ipuz(data: Any) -> Puzzle:
    """Read an ipuz crossword object and check it; raise InvalidPuzzle naming each problem."""
    if not isinstance(data, dict):
        raise _fail("format", "file", "an ipuz file is a JSON object")
    kinds = data.get("kind")
    if not isinstance(kinds, list) or not any(
        isinstance(k, str) and k.startswith("http://ipuz.org/crossword") for k in kinds
    ):
        raise _fail("format", "kind", "not an ipuz crossword (kind must name ipuz.org/crossword)")
    width, height = _dimensions(data)
    block = str(data.get("block", BLOCK))
    solution = _solution(data, width, height, block)
    _check_numbering(data, solution, width, height, block)
    meta = {k: str(data[k]) for k in _META_KEYS if isinstance(data.get(k), str | int)}
    puzzle = Puzzle(
        width=width,
        height=height,
        solution=solution,
        clues=_clues(data),
        id=str(data.get("uniqueid", "")),
        title=str(data.get("title", "")),
        difficulty=str(data.get("difficulty", "")),
        meta=meta,
    )
    return puzzle.validate()


def read_unchecked(item: dict[str, Any]) -> Puzzle:
    """An ipuz puzzle whose format is known to be sound, without the rule checks (a pack
    check reads on past a broken rule, so one run names every failure)."""
    width, height = _dimensions(item)
    solution = _solution(item, width, height, str(item.get("block", "#")))
    return Puzzle(
        width,
        height,
        solution,
        _clues(item),
        id=str(item.get("uniqueid", "")),
        difficulty=str(item.get("difficulty", "")),
    )


def _dimensions(data: dict[str, Any]) -> tuple[int, int]:
    dims = data.get("dimensions")
    if not isinstance(dims, dict):
        raise _fail("format", "dimensions", "missing dimensions {width, height}")
    width, height = dims.get("width"), dims.get("height")
    if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
        raise _fail("format", "dimensions", "width and height must be positive whole numbers")
    return width, height


def _rows(data: dict[str, Any], key: str, width: int, height: int) -> list[list[Any]]:
    rows = data.get(key)
    if not isinstance(rows, list) or len(rows) != height:
        raise _fail("format", key, f"{key} must be a list of {height} rows")
    for r, row in enumerate(rows, start=1):
        if not isinstance(row, list) or len(row) != width:
            raise _fail("format", f"{key} row {r}", f"row must have {width} cells")
    return rows


def _solution(data: dict[str, Any], width: int, height: int, block: str) -> str:
    rows = _rows(data, "solution", width, height)
    letters = []
    for r, row in enumerate(rows, start=1):
        for c, cell in enumerate(row, start=1):
            value = cell.get("value") if isinstance(cell, dict) else cell
            if value is None or value == block:
                letters.append(BLOCK)
            elif isinstance(value, str) and len(value) == 1 and value.isalpha():
                letters.append(value.upper())
            else:
                raise _fail(
                    "format",
                    f"row {r}, column {c}",
                    f"solution cell {value!r} is not one letter or a block",
                )
    return "".join(letters)


def _check_numbering(
    data: dict[str, Any], solution: str, width: int, height: int, block: str
) -> None:
    """The file's own cell numbers and blocks, when given, must match the solution grid."""
    if "puzzle" not in data:
        return
    rows = _rows(data, "puzzle", width, height)
    grid = Puzzle(width, height, solution, {}).grid
    numbers = grid.numbers
    problems = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            sq = r * width + c
            value = cell.get("cell") if isinstance(cell, dict) else cell
            is_block = value is None or value == block
            if is_block != (sq in grid.blocks):
                problems.append(
                    Problem(
                        "numbering",
                        grid.name(sq),
                        "puzzle and solution disagree about a block here",
                    )
                )
            elif isinstance(value, int) and value and numbers.get(sq) != value:
                problems.append(
                    Problem(
                        "numbering",
                        grid.name(sq),
                        f"numbered {value}, but this square is {numbers.get(sq, 'unnumbered')}",
                    )
                )
    if problems:
        raise InvalidPuzzle(problems)


def _clues(data: dict[str, Any]) -> dict[str, str]:
    raw = data.get("clues", {})
    if not isinstance(raw, dict):
        raise _fail("format", "clues", "clues must be an object of Across and Down lists")
    clues: dict[str, str] = {}
    for key, entries in raw.items():
        direction = _DIRECTION_NAMES.get(str(key).split(":")[0].strip().lower())
        if direction is None:
            raise _fail("format", f"clues {key}", "only Across and Down clue lists are allowed")
        if not isinstance(entries, list):
            raise _fail("format", f"clues {key}", "clue list must be a list")
        for entry in entries:
            number, text = _clue_entry(entry, key)
            clues[f"{number}{direction.value[0]}"] = text
    return clues


def _clue_entry(entry: Any, key: str) -> tuple[int, str]:
    if isinstance(entry, list) and len(entry) >= 2:
        number, text = entry[0], entry[1]
    elif isinstance(entry, dict):
        number, text = entry.get("number"), entry.get("clue")
    else:
        raise _fail("format", f"clues {key}", f"cannot read clue {entry!r}")
    try:
        number = int(number)
    except (TypeError, ValueError):
        raise _fail("format", f"clues {key}", f"clue number {number!r} is not a number") from None
    if not isinstance(text, str):
        raise _fail("format", f"clues {key} {number}", "clue text must be a string")
    return number, text
