"""Modules talk through public edges (the developers' guide: no module reaching into
another's private ``_names``), and the modules of a package import one another in one
direction: a service is handed the interface it talks to (``rooms/writer.py``), never
the module that builds it, even for type checking only.

Checked on the source (an AST scan), like ``test_pure_layer``: every import in a file
counts, at its top, inside a function or under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "functions" / "crossing"
EDGED = ("rooms", "crossword", "duel")  # the packages held to both rules


def reaches(source: str) -> list[str]:
    """Each private name ``source`` takes from elsewhere, by line: ``from m import _name``
    from a crossing module, and ``thing._name`` on anything but ``self`` or ``cls``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("crossing"):
            found += [
                f"{node.lineno}: from {node.module} import {alias.name}"
                for alias in node.names
                if _private(alias.name)
            ]
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def imported(source: str, package: str, modules: set[str]) -> set[str]:
    """The modules of ``crossing.<package>`` that ``source`` imports, wherever it does."""
    prefix = f"crossing.{package}"
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == prefix:  # from crossing.rooms import room as R
                found |= {alias.name for alias in node.names}
            elif node.module.startswith(prefix + "."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {
                alias.name.split(".")[2]
                for alias in node.names
                if alias.name.startswith(prefix + ".")
            }
    return found & modules


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import circle of ``graph`` (module -> modules it imports) as a path that
    returns to its start, one per set of modules caught in one."""
    found: list[list[str]] = []
    caught: set[str] = set()
    for start in sorted(graph):
        if start in caught:
            continue
        path = _path_back(graph, start, start, [start], set())
        if path is not None:
            found.append(path)
            caught |= set(path)
    return found


def _path_back(
    graph: dict[str, set[str]], start: str, at: str, path: list[str], seen: set[str]
) -> list[str] | None:
    for nxt in sorted(graph[at]):
        if nxt == start:
            return [*path, start]
        if nxt not in seen:
            seen.add(nxt)
            back = _path_back(graph, start, nxt, [*path, nxt], seen)
            if back is not None:
                return back
    return None


def package_graph(package: str) -> dict[str, set[str]]:
    files = {p.stem: p for p in (PACKAGE / package).glob("*.py") if p.stem != "__init__"}
    return {name: imported(p.read_text(), package, set(files)) for name, p in files.items()}


MODULES = sorted(p for package in EDGED for p in (PACKAGE / package).glob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_module_takes_no_private_name_from_another(path):
    assert reaches(path.read_text()) == []


@pytest.mark.parametrize("package", EDGED)
def test_the_modules_of_a_package_import_each_other_in_one_direction(package):
    assert cycles(package_graph(package)) == []


def test_the_rooms_services_are_handed_the_writer_not_its_module():
    """Who builds the services (``service.py``) is imported by none of them."""
    graph = package_graph("rooms")
    for service in ("router", "identity", "entering", "actions", "notices"):
        assert "service" not in graph[service]
        assert "writer" in graph[service]


def test_the_scans_see_what_they_refuse():
    """Not blind: a reach into another module and a circle behind TYPE_CHECKING."""
    leaky = (
        "from crossing.rooms.actions import _fixed\n"
        "from crossing.rooms import room as R\n"
        "def f(self, rooms):\n"
        "    self._mine()\n"
        "    rooms._mutate()\n"
        "    return R._put, self.rooms._drop, x.__class__\n"
    )
    assert reaches(leaky) == [
        "1: from crossing.rooms.actions import _fixed",
        "5: rooms._mutate",
        "6: R._put",
        "6: self.rooms._drop",
    ]
    hidden = (
        "from typing import TYPE_CHECKING\n"
        "from crossing.rooms import room as R\n"
        "if TYPE_CHECKING:\n"
        "    from crossing.rooms.service import RoomService\n"
    )
    known = {"room", "service", "actions"}
    assert imported(hidden, "rooms", known) == {"room", "service"}
    graph = {"service": {"actions", "room"}, "actions": {"room", "service"}, "room": set()}
    assert cycles(graph) == [["actions", "service", "actions"]]
    assert cycles({**graph, "actions": {"room"}}) == []
