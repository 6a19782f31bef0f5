"""Packs from S3 (moto), from a folder and from a list: the same puzzles, checked."""

from __future__ import annotations

import copy
import json

import pytest
from crossing.aws.memory import MemoryPacks
from crossing.aws.packs import FilePacks, PackError, S3Packs, parse_pack
from crossing.crossword.sizes import Size

from tests.aws.conftest import PACKS, count_calls

BUCKET = "crossing-packs-test"


def pack_data(size: str) -> dict:
    return json.loads((PACKS / f"{size}.json").read_text(encoding="utf-8"))


@pytest.fixture
def s3(aws, boto_session):
    client = boto_session.client("s3")
    client.create_bucket(Bucket=BUCKET)
    return client


def upload(s3, key: str, data) -> None:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    s3.put_object(Bucket=BUCKET, Key=key, Body=body)


def test_the_test_packs_are_valid_and_have_distinct_ids():
    mini = parse_pack(pack_data("mini"), Size.MINI, "mini.json")
    small = parse_pack(pack_data("small"), Size.SMALL, "small.json")
    assert [p.id for p in mini] == ["pack-mini-1", "pack-mini-2", "pack-mini-3", "pack-mini-4"]
    assert [p.id for p in small] == ["pack-small-1"]
    assert all(p.width == p.height == 5 for p in mini)
    assert all(p.width == p.height == 7 for p in small)


def test_s3_packs_read_every_puzzle_of_a_size_in_order(s3):
    upload(s3, "packs/mini.json", pack_data("mini"))
    upload(s3, "packs/small.json", pack_data("small"))
    packs = S3Packs(BUCKET, client=s3)
    mini = packs.puzzles(Size.MINI)
    assert [p.id for p in mini] == [p["uniqueid"] for p in pack_data("mini")["puzzles"]]
    assert mini[0].rows() == ["##RAY", "#DATE", "BACON", "ITEM#", "GAS##"]
    assert mini[0].clues["5a"] == "Breakfast strips that sizzle"
    assert [p.id for p in packs.puzzles(Size.SMALL)] == ["pack-small-1"]


def test_s3_packs_are_read_once_per_size(s3):
    upload(s3, "packs/mini.json", pack_data("mini"))
    calls = count_calls(s3)
    packs = S3Packs(BUCKET, client=s3)
    first = packs.puzzles(Size.MINI)
    assert packs.puzzles("mini") is first
    assert calls == {"GetObject": 1}


def test_a_size_with_no_pack_has_no_puzzles_until_one_is_uploaded(s3):
    packs = S3Packs(BUCKET, prefix="v2/", client=s3)
    assert packs.puzzles(Size.MIDI) == ()
    upload(s3, "v2/mini.json", pack_data("mini"))
    assert len(packs.puzzles(Size.MINI)) == 4


def test_a_pack_with_an_invalid_puzzle_is_refused_naming_it(s3):
    data = pack_data("mini")
    data["puzzles"][2]["clues"]["Down"][0][1] = ""  # 1 Down loses its clue
    upload(s3, "packs/mini.json", data)
    with pytest.raises(PackError, match=r"packs/mini\.json, puzzle pack-mini-3: .*1 down") as e:
        S3Packs(BUCKET, client=s3).puzzles(Size.MINI)
    assert e.value.puzzle == "pack-mini-3"


def test_a_pack_that_is_not_json_is_refused(s3):
    upload(s3, "packs/mini.json", b"{not json")
    with pytest.raises(PackError, match="not valid JSON"):
        S3Packs(BUCKET, client=s3).puzzles(Size.MINI)


def test_other_s3_errors_propagate(aws, boto_session):
    packs = S3Packs("no-such-bucket", client=boto_session.client("s3"))
    with pytest.raises(Exception, match="NoSuchBucket"):
        packs.puzzles(Size.MINI)


LONG_ID = "cw-" + "0" * 18


def bad(mutate) -> dict:
    data = copy.deepcopy(pack_data("mini"))
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("data", "message", "puzzle"),
    [
        ([], "is a JSON object", None),
        ({"puzzle": []}, "is a JSON object", None),
        (bad(lambda d: d["puzzles"][1].pop("uniqueid")), "needs a uniqueid", "#2"),
        (bad(lambda d: d["puzzles"][3].update(uniqueid="pack-mini-1")), "twice", "pack-mini-1"),
        (bad(lambda d: d["puzzles"][2].update(uniqueid="Mini 3")), "dash-separated", "Mini 3"),
        (bad(lambda d: d["puzzles"][2].update(uniqueid=LONG_ID)), "at most 20", LONG_ID),
        (bad(lambda d: d["puzzles"][0]["solution"][0].insert(2, "1")), "row 1", "pack-mini-1"),
        (bad(lambda d: d["puzzles"][0]["solution"][2].__setitem__(0, "1")), "one", "pack-mini-1"),
        ({"puzzles": pack_data("small")["puzzles"]}, "a mini puzzle is 5x5", "pack-small-1"),
    ],
)
def test_bad_packs_are_refused_with_a_reason(data, message, puzzle):
    with pytest.raises(PackError) as e:
        parse_pack(data, Size.MINI, "mini.json")
    assert e.value.puzzle == puzzle
    assert "mini.json" in str(e.value)
    assert message in str(e.value)


def test_file_packs_read_the_same_layout_from_a_folder():
    packs = FilePacks(PACKS)
    assert [p.id for p in packs.puzzles(Size.MINI)] == [
        p.id for p in parse_pack(pack_data("mini"), Size.MINI, "x")
    ]
    assert packs.puzzles(Size.MINI) is packs.puzzles(Size.MINI)
    assert packs.puzzles(Size.LARGE) == ()


def test_file_packs_refuse_a_bad_puzzle_naming_it(tmp_path):
    data = pack_data("mini")
    data["puzzles"][1]["clues"]["Across"].append([9, "A clue with no word"])
    (tmp_path / "mini.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PackError, match=r"puzzle pack-mini-2: .*clue 9a"):
        FilePacks(tmp_path).puzzles(Size.MINI)


def test_memory_packs_file_puzzles_by_width():
    mini = parse_pack(pack_data("mini"), Size.MINI, "x")
    small = parse_pack(pack_data("small"), Size.SMALL, "x")
    packs = MemoryPacks([mini[0], small[0], mini[1]])
    assert [p.id for p in packs.puzzles(Size.MINI)] == ["pack-mini-1", "pack-mini-2"]
    assert [p.id for p in packs.puzzles(Size.SMALL)] == ["pack-small-1"]
    assert packs.puzzles(Size.MIDI) == ()
