"""Where a checkout keeps the client and the puzzle packs (for the local stack and tools)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def default_frontend() -> Path:
    return REPO / "frontend"


def default_packs() -> Path | None:
    """The built packs if the puzzle factory has made them, else the small test pack."""
    for candidate in (REPO / "puzzles" / "packs", REPO / "tests" / "data" / "packs"):
        if candidate.is_dir() and any(candidate.glob("*.json")):
            return candidate
    return None
