"""A consumer's frames for one document, gathered: applied as one batch, in order."""

import random
import threading

from crossing.rooms.runner import Runner, Step


class Notes:
    """A document that is a tuple of notes; every write is counted."""

    def __init__(self):
        self.stored = ((), 0)
        self.writes = 0

    def load(self, name):
        return self.stored

    def save(self, name, state, seen, now):
        assert seen == self.stored[1]
        self.writes += 1
        self.stored = (state, seen + 1)
        return seen + 1

    def visible(self, before, after):
        return before != after

    def settled(self, name, batch):
        return []


def add(note):
    return lambda state, now: Step((*state, note))


def test_gathered_commands_wait_for_release_and_make_one_write_in_their_order():
    runner = Runner(clock=lambda: 0, sleep=lambda s: None, rng=random.Random(1), hold=False)
    kind = Notes()
    runner.gather("doc")
    threads = []
    for note in "abcde":
        thread = threading.Thread(target=runner.run, args=(kind, "doc", add(note)))
        thread.start()
        threads.append(thread)
        assert runner.wait_gathered("doc", len(threads), 5.0)
    assert kind.writes == 0 and all(t.is_alive() for t in threads)  # nothing applied yet
    runner.release("doc")
    for thread in threads:
        thread.join(5.0)
    assert kind.stored == (tuple("abcde"), 1) and kind.writes == 1
    runner.run(kind, "doc", add("f"))  # released: the next command is applied at once
    assert kind.stored == (tuple("abcdef"), 2)
