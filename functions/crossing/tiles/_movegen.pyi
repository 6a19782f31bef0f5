# The compiled move generator's interface (_movegen.c), for the type checker.
from array import array
from typing import TypeVar

from crossing.tiles.play import NewTile

_Move = TypeVar("_Move")

# The word graph, the board, the rule set's values, letter and word multipliers and
# bonuses, and the rack's counts (movegen._position).
Position = tuple[array[int], bytes, bytes, bytes, bytes, array[int], bytes]

def check_graph(nodes: array[int], /) -> None: ...
def generate(
    position: Position,
    top: int,
    move: type[_Move],
    new_tile: type[NewTile],
    directions: tuple[str, str],
    letters: tuple[str, ...],
    /,
) -> list[_Move]: ...
def all_rows(
    position: Position,
    leave_texts: bytes,
    leave_worths: array[float],
    leave_whole: bytes,
    directions: tuple[str, str],
    /,
) -> tuple[str, int]: ...
