"""The compiled search lets go of the GIL while it searches: the server runs Solver requests
and Duel bots on worker threads beside its event loop. Searches on two threads at once
list what each lists alone, and a Python thread keeps running while another searches."""

from __future__ import annotations

import threading
import time
from functools import cache

import pytest
from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.movegen import Move, compiled_available, generate
from crossing.tiles.rules import RULE_SETS
from crossing.tiles.selfplay import self_play

CROSSPLAY = RULE_SETS["crossplay"]

pytestmark = pytest.mark.skipif(not compiled_available(), reason="the compiled search is not built")

# (self-play seed, turns, rack, top): busy boards, two blanks in most racks.
SEARCHES = [
    [(3, 12, "SREAN??", None), (5, 14, "INOLA??", 10), (8, 10, "RETAIN?", None)],
    [(4, 13, "YESRC??", None), (6, 11, "EGVAI??", 1), (9, 15, "PIARO??", None)],
]


@cache
def board_after(seed: int, turns: int, lexicon: Lexicon) -> Board:
    return self_play(CROSSPLAY, lexicon, seed, turns)[0]


def searched(
    lexicon: Lexicon, searches: list[tuple[int, int, str, int | None]]
) -> list[list[Move]]:
    return [
        generate(board_after(seed, turns, lexicon), rack, CROSSPLAY, lexicon, top=top)
        for seed, turns, rack, top in searches
    ]


def test_two_threads_searching_at_once_list_what_each_lists_alone(enable):
    alone = [searched(enable, searches) for searches in SEARCHES]
    assert all(moves for lists in alone for moves in lists)
    rounds = 4
    found: list[list[list[list[Move]]]] = [[] for _ in SEARCHES]
    start = threading.Barrier(len(SEARCHES))

    def search(i: int) -> None:
        start.wait()
        for _ in range(rounds):
            found[i].append(searched(enable, SEARCHES[i]))

    threads = [threading.Thread(target=search, args=(i,)) for i in range(len(SEARCHES))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for i, lists in enumerate(alone):
        assert found[i] == [lists] * rounds


def spin(done: threading.Event, seconds: float) -> int:
    """How many times a pure-Python loop goes round until done is set or the time is up."""
    deadline = time.perf_counter() + seconds
    count = 0
    while not done.is_set() and time.perf_counter() < deadline:
        count += 1
    return count


def test_a_python_thread_runs_while_another_searches(enable):
    # Two blanks and a long rack on the empty board: the top-N bound cannot cut this
    # search short, so one call searches for a good fraction of a second (the mid-game
    # searches take a few milliseconds, too short to see who held the GIL).
    board, rack = Board.empty(), "SREANTIOLD??"
    began = time.perf_counter()
    expected = generate(board, rack, CROSSPLAY, enable, top=1)
    took = time.perf_counter() - began
    # The same loop alone, for as long as the search takes: its pace with nothing in its
    # way but whatever else loads the machine now.
    began = time.perf_counter()
    alone = spin(threading.Event(), took) / (time.perf_counter() - began)

    done = threading.Event()
    found: list[Move] = []

    def search() -> None:
        found.extend(generate(board, rack, CROSSPLAY, enable, top=1))
        done.set()

    worker = threading.Thread(target=search)
    # Timed from before the start: a new thread runs first, so a search holding the
    # GIL would keep this thread inside start() until the search had finished.
    began = time.perf_counter()
    worker.start()
    beside = spin(done, 60) / (time.perf_counter() - began)
    worker.join()
    assert found == expected
    # Holding the GIL through the search would stop the loop for the whole of it, so it
    # would go round only before the call and after it: almost never. Let go, the loop
    # shares at worst one core with the search (half its pace) and has a second to itself
    # when the machine has one free.
    assert beside > alone / 3, (beside, alone, took)
