"""The game packages stay pure: no file reads, no argparse, no printing (DESIGN: I/O at the
edges). Files are read by the adapters and entry points (``crossing.game_files``, the CLIs)
and come in as bytes or objects; what the games share lives in ``crossing.refusals`` and
``crossing.clock``, not in one game's package.

Checked on the source (an AST scan), so a module that would only read a file on some
path is caught as well as one that does it on import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "functions" / "crossing"
GAMES = ("crossword", "tiles", "duel")
MODULES = sorted(p for game in GAMES for p in (PACKAGE / game).glob("*.py"))

# Modules that do input or output, or find files: none belongs in a game.
IO_MODULES = {
    "argparse", "io", "pathlib", "importlib", "os", "shutil", "subprocess", "tempfile",
    "glob", "gzip", "zipfile", "tarfile", "socket", "urllib", "http", "sqlite3", "boto3",
    "pydantic", "logging", "fileinput",
}  # fmt: skip
IO_CALLS = {"open", "print", "input"}
IO_METHODS = {"read_bytes", "read_text", "write_bytes", "write_text", "open", "iterdir"}


def _is_main_guard(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
    )


def impurities(source: str) -> list[str]:
    """What in ``source`` does I/O, by line: imports, calls, and ``sys.std*`` use; an
    ``if __name__ == "__main__":`` block is an entry point's and is not looked at."""
    found = []
    tree = ast.parse(source)
    main_blocks = [n for n in tree.body if _is_main_guard(n)]
    skipped = {id(n) for block in main_blocks for n in ast.walk(block)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            names = []
        found += [f"{node.lineno}: import {n}" for n in names if n.split(".")[0] in IO_MODULES]
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in IO_CALLS:
                found.append(f"{node.lineno}: {func.id}(")
            if isinstance(func, ast.Attribute) and func.attr in IO_METHODS:
                found.append(f"{node.lineno}: .{func.attr}(")
        if (
            isinstance(node, ast.Attribute)
            and node.attr in ("stdin", "stdout", "stderr", "argv")
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ):
            found.append(f"{node.lineno}: sys.{node.attr}")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_game_module_reads_no_files_parses_no_arguments_and_prints_nothing(path):
    assert impurities(path.read_text()) == []


def test_the_scan_sees_each_kind_of_io():
    """Not blind: each way a module could reach a file or the terminal is reported."""
    leaky = (
        "import argparse\n"
        "from pathlib import Path\n"
        "import importlib.resources\n"
        "def f(p):\n"
        "    data = open(p).read()\n"
        "    print(data)\n"
        "    return Path(p).read_bytes(), p.read_text(), sys.stdout\n"
        'if __name__ == "__main__":\n'
        "    print('an entry point may')\n"
    )
    assert impurities(leaky) == [
        "1: import argparse",
        "2: import pathlib",
        "3: import importlib.resources",
        "5: open(",
        "6: print(",
        "7: .read_bytes(",
        "7: .read_text(",
        "7: sys.stdout",
    ]


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    return found + [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]


# What sits around the games: they are called from there and never call it, so reaching
# a file through an adapter (``crossing.game_files``) is refused like reading one.
OUTSIDE = ("game_files", "aws", "rooms", "handlers", "local", "cli", "solve_cli", "puzzles_cli")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_game_module_imports_nothing_from_the_adapters_or_entry_points(path):
    around = {f"crossing.{name}" for name in OUTSIDE}
    wrong = [m for m in _imports(path) if ".".join(m.split(".")[:2]) in around]
    assert wrong == []


def test_duel_takes_what_the_games_share_from_the_shared_modules():
    """``Refused`` and ``Clock`` come from ``crossing.refusals`` and ``crossing.clock``:
    the Duel imports nothing of the crossword package (nor the tile engine of either)."""
    for game, others in (("duel", ("crossword",)), ("tiles", ("crossword", "duel"))):
        for path in sorted((PACKAGE / game).glob("*.py")):
            wrong = [
                m for m in _imports(path) if any(m.startswith(f"crossing.{o}") for o in others)
            ]
            assert wrong == [], f"{game}/{path.name}"
