# The compiled move generator's interface (_movegen.c), for the type checker.
from array import array
from typing import TypeVar

from crossing.tiles.play import NewTile

_Move = TypeVar("_Move")

def check_graph(nodes: array[int], /) -> None: ...
def generate(
    nodes: array[int],
    board: bytes,
    values: bytes,
    lm: bytes,
    wm: bytes,
    bonus: array[int],
    rack: bytes,
    top: int,
    move: type[_Move],
    new_tile: type[NewTile],
    directions: tuple[str, str],
    letters: tuple[str, ...],
    /,
) -> list[_Move]: ...
def all_rows(
    nodes: array[int],
    board: bytes,
    values: bytes,
    lm: bytes,
    wm: bytes,
    bonus: array[int],
    rack: bytes,
    leave_texts: bytes,
    leave_worths: array[float],
    leave_whole: bytes,
    directions: tuple[str, str],
    /,
) -> tuple[str, int]: ...
