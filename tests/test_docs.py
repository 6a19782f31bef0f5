"""The docs a newcomer reads first name what is really there: every function and test
docs/rules.md names exists, every benchmark and script is in the README, and the table
permissions docs/operations.md lists are the ones the stack grants.

Names are read from the docs and looked up in the source by its syntax tree (nothing is
imported), so a renamed function or test fails here until the doc says its new name.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "functions" / "crossing"
TESTS = ROOT / "tests"
README = (ROOT / "README.md").read_text()
RULES = ROOT / "docs" / "rules.md"


# --- looking names up in the source ------------------------------------------------------


@cache
def defined(path: Path) -> dict[str, ast.AST]:
    """What a module defines at its top level: functions, classes, assigned names."""
    return _names(ast.parse(path.read_text()).body)


def _names(body: list[ast.stmt]) -> dict[str, ast.AST]:
    names: dict[str, ast.AST] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = node
        elif isinstance(node, ast.Assign):
            names.update((t.id, node) for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
    return names


def has(path: Path, dotted: str) -> bool:
    """``dotted`` (``f``, ``Class.method``, ``Class.field``) is defined in the module; a
    bare name may be a method of one of its classes (``service._notify``)."""
    names = defined(path)
    for part in dotted.split("."):
        node = names.get(part)
        if node is None:
            return "." not in dotted and any(
                part in _names(c.body) for c in names.values() if isinstance(c, ast.ClassDef)
            )
        names = _names(node.body) if isinstance(node, ast.ClassDef) else {}
    return True


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def modules_named(parts: list[str]) -> list[Path]:
    """The package's modules whose path ends with ``parts`` (``["aws", "push"]``)."""
    return [p for p in modules() if list(p.with_suffix("").parts[-len(parts) :]) == parts]


def code_exists(name: str, module: Path | None) -> tuple[bool, Path | None]:
    """Whether a name from the code column is in the source, and the module it was found
    in (a bare name after it is looked up there: ``service._deal``/``_dealt``)."""
    if name.endswith((".py", ".js")):
        path = next((p for p in (PACKAGE / name, ROOT / name) if p.is_file()), None)
        return path is not None, path
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):  # the longest module path first
        for path in modules_named(parts[:split]):
            if has(path, ".".join(parts[split:])):
                return True, path
    if module is not None and has(module, name):
        return True, module
    if parts[0][:1].isupper():  # ``Grid.unchecked_squares``: the class, wherever it is
        for path in modules():
            if has(path, name):
                return True, path
    return False, module


@cache
def files_named(name: str) -> list[Path]:
    """``tests/rooms/test_x.py`` as written, or every ``test_x.py`` under tests/."""
    if "/" in name:
        return [ROOT / name] if (ROOT / name).is_file() else []
    return sorted(TESTS.rglob(name))


def function_in(path: Path, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return node
    return None


# --- reading docs/rules.md ---------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    line: int
    rule: str
    code: str
    tests: str

    def __str__(self) -> str:
        return f"docs/rules.md:{self.line} ({self.rule[:50]})"


def rows() -> Iterator[Row]:
    for number, line in enumerate(RULES.read_text().splitlines(), start=1):
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and len(cells) == 3 and cells[0] != "rule":
            yield Row(number, *cells)


def backticked(cell: str, *, in_parentheses: bool) -> list[str]:
    """The cell's backticked names, those inside the prose's parentheses only if asked
    (there they are fields and arguments: ``race._apply`` (``End``))."""
    names, depth, quoted, start = [], 0, False, 0
    for i, char in enumerate(cell):
        if char == "`":
            if quoted and (depth == 0 or in_parentheses):
                names.append(cell[start:i])
            quoted, start = not quoted, i + 1
        elif not quoted and char in "()":
            depth += 1 if char == "(" else -1
    return names


def named_code(row: Row) -> Iterator[str]:
    for name in backticked(row.code, in_parentheses=False):
        name = name.split("(")[0]  # ``view(match, None, now)``: the function
        if " " not in name:  # ``crossing check-puzzle`` is a command, not a name
            yield name


def named_tests(row: Row) -> Iterator[tuple[str | None, str]]:
    """(file or None, test or None): ``file::test``, a bare test of the last file named,
    or a file alone."""
    file: str | None = None
    for name in backticked(row.tests, in_parentheses=True):
        if "::" in name:
            file, test = name.split("::")
            yield file, test
        elif name.endswith(".py"):
            file = name
            yield file, ""
        elif name.startswith("test_"):
            yield file, name


def test_rules_md_names_rows_to_check() -> None:
    found = list(rows())
    assert len(found) > 50
    assert sum(1 for row in found for _ in named_code(row)) > 80
    assert sum(1 for row in found for _ in named_tests(row)) > 80


@pytest.mark.parametrize("row", list(rows()), ids=str)
def test_every_function_docs_rules_names_exists(row: Row) -> None:
    module: Path | None = None
    missing = []
    for name in named_code(row):
        found, module = code_exists(name, module)
        if not found:
            missing.append(name)
    assert not missing, f"{row} names code that is not there: {missing}"


@pytest.mark.parametrize("row", list(rows()), ids=str)
def test_every_test_docs_rules_names_exists(row: Row) -> None:
    missing = []
    for file, test in named_tests(row):
        candidates = files_named(file) if file else sorted(TESTS.rglob("test_*.py"))
        if not candidates or (test and not any(function_in(p, test) for p in candidates)):
            missing.append(f"{file}::{test}" if file else test)
    assert not missing, f"{row} names tests that are not there: {missing}"


def test_a_test_docs_rules_calls_an_xfail_is_one() -> None:
    """A rule said to be not yet held names the xfail that waits for it."""

    def marked(file: str | None, test: str) -> bool:
        candidates = files_named(file) if file else sorted(TESTS.rglob("test_*.py"))
        for path in candidates:
            node = function_in(path, test) if test else None
            if node and any("xfail" in ast.unparse(d) for d in node.decorator_list):
                return True
        return False

    wrong = [
        str(row)
        for row in rows()
        if "xfail" in row.tests and not any(marked(f, t) for f, t in named_tests(row))
    ]
    assert not wrong, f"these rows call a test an xfail that is not one: {wrong}"


# --- the README and docs/operations.md -----------------------------------------------------


@pytest.mark.parametrize("path", sorted((ROOT / "benchmarks").glob("*.py")), ids=lambda p: p.name)
def test_every_benchmark_is_in_the_readme(path: Path) -> None:
    assert path.name in README


@pytest.mark.parametrize(
    "path",
    sorted(p for p in (ROOT / "scripts").iterdir() if not p.name.startswith(("_", "."))),
    ids=lambda p: p.name,
)
def test_every_script_is_in_the_readme(path: Path) -> None:
    name = path.name if path.suffix == ".py" else f"scripts/{path.name}"
    assert name in README


def test_operations_md_lists_the_table_calls_the_stack_grants() -> None:
    from infra.stack import TABLE_ACTIONS

    operations = (ROOT / "docs" / "operations.md").read_text()
    [bullet] = re.findall(r"^- call (.*?)on the table[^\n]*(?:\n  [^\n]*)*", operations, re.M)
    listed = set(re.findall(r"`(\w+)`", bullet))
    assert listed == {action.split(":")[1] for action in TABLE_ACTIONS}, bullet
