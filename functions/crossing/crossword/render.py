"""A puzzle as Markdown, for a person to read: the grid (blank and solved) and the clues."""

from __future__ import annotations

from crossing.crossword.grid import BLOCK, Direction
from crossing.crossword.puzzle import Puzzle


def grid_text(puzzle: Puzzle, *, solved: bool) -> str:
    """Rows of squares: ``#`` a block, the letter (solved) or ``.`` (blank)."""
    return "\n".join(
        " ".join(ch if (solved or ch == BLOCK) else "." for ch in row) for row in puzzle.rows()
    )


def puzzle_markdown(puzzle: Puzzle, heading: str) -> str:
    lines = [f"### {heading}", "", "```", grid_text(puzzle, solved=False), "```", ""]
    for direction in Direction:
        lines.append(f"**{direction.value.title()}**")
        lines.append("")
        for slot in puzzle.slots:
            if slot.direction is direction:
                lines.append(f"- {slot.number}. {puzzle.clues[slot.id]} ({len(slot)})")
        lines.append("")
    lines += [
        "<details><summary>Answers</summary>",
        "",
        "```",
        grid_text(puzzle, solved=True),
        "```",
        "",
        "</details>",
        "",
    ]
    return "\n".join(lines)
