"""Where a checkout keeps the client, the puzzles and their packs, found from this package
(never from the working directory, so every command works from any folder)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def default_frontend() -> Path:
    return REPO / "frontend"


def default_puzzles() -> Path:
    """The puzzle factory's folder (answers, clues, drafts, packs)."""
    return REPO / "puzzles"


def default_packs() -> Path | None:
    """The built packs if the puzzle factory has made them, else the small test pack."""
    for candidate in (default_puzzles() / "packs", REPO / "tests" / "data" / "packs"):
        if candidate.is_dir() and any(candidate.glob("*.json")):
            return candidate
    return None


def default_data() -> Path:
    """Where ``crossing serve`` keeps its data unless told (``--data``): the user's own
    application-data folder, so every checkout and install shares one set of accounts."""
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local") / "Crossing"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Crossing"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "crossing"
