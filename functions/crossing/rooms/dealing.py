"""What a host has been dealt, per size: the lists a deal is picked against.

The host's phone keeps the puzzles it has dealt, per size, and sends them with Start;
a signed-in host's profile keeps them too (one field per size), so two phones of
one account know each other's deals. Which puzzle to deal from those is the pure
rule ``crossing.crossword.deal.pick_puzzle``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from crossing.crossword.sizes import Size
from crossing.rooms.protocol import DEALT_LIMIT

# Before deals were kept per size, a profile had one list for every size; its ids
# still count (those of other sizes are in no pack of this one, so they do nothing).
OLD_FIELD = "dealt"


def field(size: Size) -> str:
    """The profile field holding the deals of one size."""
    return f"dealt_{Size(size).value}"


def merged(*lists: Iterable[str]) -> list[str]:
    """The lists as one, oldest first: each id once, where it comes last; the newest
    DEALT_LIMIT. A later list counts as more recent (the phone's after the profile's)."""
    ids = [pid for ids in lists for pid in ids]
    latest = list(dict.fromkeys(reversed(ids)))
    return latest[:DEALT_LIMIT][::-1]


def history(profile: Mapping[str, Any], size: Size, phone: Sequence[str]) -> list[str]:
    """What the host has had of ``size``: the profile's record, then the phone's list."""
    return merged(profile.get(OLD_FIELD) or [], profile.get(field(size)) or [], phone)
