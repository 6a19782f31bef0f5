"""Dealing as the rules say: the host's phone remembers what it has dealt, per size, and
a signed-in host's phones share their record; a twin of a puzzle had is not new."""

import json
import random
from pathlib import Path

import pytest
from crossing.aws.memory import MemoryPacks
from crossing.aws.packs import parse_pack
from crossing.crossword.deal import near_twins
from crossing.crossword.packs import puzzle_id
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size
from crossing.rooms import protocol as P
from crossing.rooms.service import RoomService

from tests.rooms.fakes import Clock, make_service, phone_maker

PACKS = Path(__file__).parents[2] / "puzzles" / "packs"


def pack(size: Size, count: int) -> list[Puzzle]:
    """``count`` puzzles of the committed pack, none a twin of another."""
    puzzles = parse_pack(json.loads((PACKS / f"{size.value}.json").read_text()), size, size.value)
    twins = near_twins(puzzles)
    chosen: list[Puzzle] = []
    for puzzle in puzzles:
        if not any(p.id in twins[puzzle.id] for p in chosen):
            chosen.append(puzzle)
    assert len(chosen) >= count, f"the {size} pack has too few puzzles for this test"
    return chosen[:count]


def transposed(puzzle: Puzzle) -> Puzzle:
    """The same answers and clues, across turned to down: a twin, under another id."""
    n = puzzle.width
    solution = "".join(puzzle.solution[c * n + r] for r in range(n) for c in range(n))
    clue_of = {puzzle.answer(s): puzzle.clues[s.id] for s in puzzle.slots}
    bare = Puzzle(n, n, solution, {})
    clues = {s.id: clue_of[bare.answer(s)] for s in bare.slots}
    return Puzzle(n, n, solution, clues, id=puzzle_id(solution), difficulty=puzzle.difficulty)


def service_dealing(clock: Clock, puzzles: list[Puzzle]) -> RoomService:
    service = make_service(clock)
    service.packs = MemoryPacks(puzzles)
    service.rng = random.Random(3)
    return service


class HostPhone:
    """A host's phone as the page is: it hosts, picks a size, sends what it has dealt
    with Start, and adds the room's puzzle to its list once the room shows it."""

    def __init__(self, phone, sign: str = ""):
        """``sign``: "sign_up" or "sign_in" to Hana's account first; "" for a guest."""
        self.phone = phone()
        self.dealt: dict[str, list[str]] = {}
        if sign:
            told = self.phone.send(sign, name="hana_h", password="a long password")
            self.phone.player = next(m for m in told if m["type"] == "signed_in")["player"]
        self.phone.send("host", name="Hana")

    def deal(self, size: str) -> str:
        self.phone.service.clock.now += 10_000  # a game apart: never too fast for the pace
        self.phone.send("to_game")
        self.phone.send("choose", mode="race", size=size)
        sent = self.phone.send("start", dealt=self.dealt.get(size, []))
        assert not self.phone.errors(sent), sent
        dealt = self.phone.room["game"]["puzzle"]["id"]
        self.dealt.setdefault(size, []).append(dealt)
        self.phone.send("end")
        return dealt


def test_a_hosts_smalls_do_not_come_round_in_a_fixed_order(clock):
    smalls = pack(Size.SMALL, 8)
    service = service_dealing(clock, smalls)
    host = HostPhone(phone_maker(service))
    deals = [host.deal("small") for _ in range(24)]
    passes = [deals[i : i + 8] for i in range(0, 24, 8)]
    assert sorted(passes[0]) == sorted(p.id for p in smalls)  # each once before any again
    assert passes[1] != passes[0] or passes[2] != passes[0]  # not the first pass over again
    # A puzzle comes back only after at least half the pack has been dealt since.
    for n, pid in enumerate(deals):
        if pid in deals[:n]:
            assert n - max(i for i in range(n) if deals[i] == pid) >= 4


def test_minis_in_between_do_not_push_a_hosts_smalls_out(clock):
    smalls, minis = pack(Size.SMALL, 4), pack(Size.MINI, 6)
    host = HostPhone(phone_maker(service_dealing(clock, smalls + minis)))
    deals = []
    for _ in range(4):
        deals.append(host.deal("small"))
        host.deal("mini")
        host.deal("mini")
    assert sorted(deals) == sorted(p.id for p in smalls)


def test_a_transposed_twin_is_not_dealt_as_new(clock):
    first, other = pack(Size.MINI, 2)
    twin = transposed(first)
    assert twin.id != first.id
    for seed in range(10):
        service = service_dealing(clock, [first, twin, other])
        service.rng = random.Random(seed)
        host = HostPhone(phone_maker(service))
        two = [host.deal("mini"), host.deal("mini")]
        assert other.id in two  # after one of the twins, never the other


def test_a_guests_phone_list_is_the_whole_record(clock):
    minis = pack(Size.MINI, 5)
    service = service_dealing(clock, minis)
    host = HostPhone(phone_maker(service))
    assert sorted(host.deal("mini") for _ in range(5)) == sorted(p.id for p in minis)
    profile = service.store.get_profile(host.phone.player) or {}
    assert not any(key.startswith("dealt_") for key in profile)
    # A new phone (the list gone with the old one's storage) is dealt from all again.
    fresh = HostPhone(phone_maker(service))
    assert fresh.deal("mini") in {p.id for p in minis}


def test_two_phones_of_one_signed_in_host_merge_what_they_dealt(clock):
    minis = pack(Size.MINI, 6)
    service = service_dealing(clock, minis)
    phones = phone_maker(service)
    home = HostPhone(phones, "sign_up")
    home.dealt["mini"] = [minis[5].id]  # dealt on this phone before it was signed in
    work = HostPhone(phones, "sign_in")
    deals = [home.deal("mini"), work.deal("mini"), home.deal("mini"), work.deal("mini")]
    deals.append(work.deal("mini"))
    # Five deals over two phones, none repeated, none the one the first phone had.
    assert len(set(deals)) == 5 and minis[5].id not in deals
    recorded = service.store.get_profile(home.phone.player)["dealt_mini"]
    assert sorted(recorded) == sorted(p.id for p in minis)


def test_a_deal_is_recorded_only_once_its_start_is_written_and_two_deals_keep_both(clock):
    minis = pack(Size.MINI, 3)
    service = service_dealing(clock, minis)
    host = HostPhone(phone_maker(service), "sign_up")
    dealt = host.deal("mini")
    player = host.phone.player
    assert service.store.get_profile(player)["dealt_mini"] == [dealt]
    # A start the room refuses (the game is on) deals nothing: the record stays as it was.
    host.phone.send("choose", mode="race", size="mini")
    assert not host.phone.errors(host.phone.send("start"))
    assert host.phone.errors(host.phone.send("start"))
    recorded = service.store.get_profile(player)["dealt_mini"]
    assert len(recorded) == 2
    # Another room of this host's records its deal between this one's read and write.
    real = service.store.update_profile
    raced = []

    def with_a_rival(who, changes, expect=None):
        if "dealt_mini" in changes and not raced:
            raced.append(True)
            service.dealt(who, minis[0], ["cw-000000000001"])
        return real(who, changes, expect)

    service.store.update_profile = with_a_rival
    service.dealt(player, minis[1], ["cw-000000000002"])
    service.store.update_profile = real
    after = service.store.get_profile(player)["dealt_mini"]
    assert {"cw-000000000001", "cw-000000000002", minis[0].id, minis[1].id} <= set(after)
    assert after[-1] == minis[1].id


def test_a_profile_from_before_sizes_were_kept_apart_still_counts(clock):
    minis = pack(Size.MINI, 3)
    service = service_dealing(clock, minis)
    host = HostPhone(phone_maker(service), "sign_up")
    service.store.update_profile(host.phone.player, {"dealt": [minis[0].id, minis[1].id]})
    assert host.deal("mini") == minis[2].id


@pytest.mark.parametrize(
    "dealt",
    [
        "cw-0123456789ab",
        ["cw-0123456789ab", 7],
        ["CW-0123456789AB"],
        ["cw 0123"],
        ["x" * 21],
        [""],
        ["cw-0123456789ab"] * (P.DEALT_LIMIT + 1),
        [["cw-0123456789ab"]],
    ],
)
def test_a_bad_dealt_list_is_refused_and_changes_nothing(clock, dealt):
    service = service_dealing(clock, pack(Size.MINI, 2))
    host = HostPhone(phone_maker(service), "sign_up")
    host.phone.send("to_game")
    code = host.phone.room["code"]
    version = service.store.load_room(code)[1]
    errors = host.phone.errors(host.phone.send("start", dealt=dealt))
    assert [e["code"] for e in errors] == ["bad-message"]
    assert "puzzle ids" in errors[0]["message"]
    assert service.store.load_room(code)[1] == version
    assert "dealt_mini" not in service.store.get_profile(host.phone.player)


def test_a_full_dealt_list_fits_in_a_frame():
    longest = {"action": "start", "seq": P.MAX_SEQ, "replace_saved": True}
    longest["dealt"] = ["x" * P.PUZZLE_ID_LENGTH] * P.DEALT_LIMIT
    assert len(json.dumps(longest, separators=(",", ":"))) <= P.MAX_MESSAGE_BYTES


def test_the_page_keeps_as_many_ids_and_the_same_form_as_start_takes():
    page = (Path(__file__).parents[2] / "frontend" / "js" / "dealt.js").read_text()
    assert f"DEALT_LIMIT = {P.DEALT_LIMIT};" in page
    assert f"/{P.PUZZLE_ID_PATTERN}/" in page
    assert f"id.length <= {P.PUZZLE_ID_LENGTH}" in page
