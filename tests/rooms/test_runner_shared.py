"""Documents shared out among a few processes (the local workers): each holds only its
own, is told when another wrote one of them, and so never answers from a stale copy."""

import random

from crossing.rooms.ports import Conflict
from crossing.rooms.runner import Runner, Step

from tests.rooms.test_runner_gather import Notes, add


class Versioned(Notes):
    """Notes whose write is refused, as a store's is, when the version seen is old."""

    def save(self, name, state, seen, now):
        if seen != self.stored[1]:
            raise Conflict(f"{name} is at {self.stored[1]}, not {seen}")
        return super().save(name, state, seen, now)


class Sharing:
    def __init__(self, mine):
        self.names = set(mine)
        self.told = []

    def mine(self, name):
        return name in self.names

    def written(self, name):
        self.told.append(name)


def runner(shared):
    return Runner(clock=lambda: 0, sleep=lambda s: None, rng=random.Random(1), shared=shared)


def count(state, now):
    """A change that changes nothing: answered from the document as this runner has it."""
    return Step(state, note=len(state))


def test_an_owner_told_of_a_write_elsewhere_answers_from_the_document_as_written():
    kind = Notes()
    owner, other = runner(Sharing({"doc"})), runner(Sharing(set()))
    owner.run(kind, "doc", add("a"))  # held by its owner from now on
    other.run(kind, "doc", add("b"))  # another process writes it, and says so
    assert other.shared.told == ["doc"]
    owner.forget("doc")  # what the owner does when told
    assert owner.run(kind, "doc", count).step.note == 2
    assert kind.stored == (("a", "b"), 2)


def test_a_process_holds_only_the_documents_it_owns():
    kind = Notes()
    other = runner(Sharing(set()))
    other.run(kind, "doc", add("a"))
    kind.stored = (("a", "z"), 2)  # written elsewhere, and nobody told this one
    assert other.run(kind, "doc", count).step.note == 2  # it read the store again
    assert other.shared.told == ["doc"]


def test_an_owner_that_is_not_told_still_never_writes_over_a_newer_version():
    kind = Versioned()
    owner = runner(Sharing({"doc"}))
    owner.run(kind, "doc", add("a"))
    kind.stored = (("a", "b"), 2)  # a write from elsewhere it has not heard of yet
    owner.run(kind, "doc", add("c"))  # its write conflicts: it reads again and re-applies
    assert kind.stored == (("a", "b", "c"), 3)
