"""Places from a sort key: best first, equal keys share a place (1, 1, 3)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from crossing.crossword.seating import DataclassInstance


class _Placed(DataclassInstance, Protocol):
    @property
    def place(self) -> int: ...
    @property
    def player(self) -> str: ...


T = TypeVar("T", bound=_Placed)


def assign_places(items: Iterable[T], key: Callable[[T], Any]) -> list[T]:
    ordered = sorted(items, key=lambda item: (key(item), item.player))
    placed: list[T] = []
    for i, item in enumerate(ordered):
        tied = bool(placed) and key(placed[-1]) == key(item)
        placed.append(replace(item, place=placed[-1].place if tied else i + 1))
    return placed
