"""The rooms' Packs: puzzles by size, from ipuz packs in S3 or in a local folder.

A pack is ``<prefix><size>.json`` (``packs/mini.json``): a JSON object whose
``"puzzles"`` is a list of ipuz crossword objects, each with a ``uniqueid``.
Every puzzle is checked when the pack is read, and a pack with any bad puzzle is
refused whole, naming the puzzle. A size with no pack has no puzzles.
Read packs are kept for the life of the object (a Lambda container is reused).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from crossing.aws import clients
from crossing.crossword.deal import PUZZLE_ID_LENGTH, PUZZLE_ID_PATTERN
from crossing.crossword.ipuz import InvalidPuzzle, from_ipuz
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size


class PackError(ValueError):
    """A pack that cannot be dealt from; ``puzzle`` names the bad puzzle, if one is."""

    def __init__(self, source: str, message: str, puzzle: str | None = None) -> None:
        self.source = source
        self.puzzle = puzzle
        where = f"pack {source}" + (f", puzzle {puzzle}" if puzzle is not None else "")
        super().__init__(f"{where}: {message}")


def parse_pack(data: Any, size: Size, source: str) -> tuple[Puzzle, ...]:
    """Every puzzle of a pack's JSON data, checked; raise PackError on the first bad one."""
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
        raise PackError(source, 'a pack is a JSON object whose "puzzles" is a list')
    puzzles: list[Puzzle] = []
    seen: set[str] = set()
    for index, entry in enumerate(data["puzzles"], start=1):
        uid = entry.get("uniqueid") if isinstance(entry, dict) else None
        name = str(uid) if uid else f"#{index}"
        if not uid:
            raise PackError(source, "every puzzle needs a uniqueid", name)
        if not (
            isinstance(uid, str)
            and len(uid) <= PUZZLE_ID_LENGTH
            and re.fullmatch(PUZZLE_ID_PATTERN, uid)
        ):
            # A host's phone sends its deals back as ids of this form (protocol's Start).
            raise PackError(
                source,
                "a uniqueid is lower-case letters and digits in dash-separated parts, "
                f"at most {PUZZLE_ID_LENGTH} characters",
                name,
            )
        try:
            puzzle = from_ipuz(entry)
        except InvalidPuzzle as error:
            raise PackError(source, f"invalid puzzle: {error}", name) from error
        if (puzzle.width, puzzle.height) != (size.width, size.width):
            raise PackError(
                source,
                f"is {puzzle.width}x{puzzle.height}; a {size} puzzle is {size.width}x{size.width}",
                name,
            )
        if puzzle.id in seen:
            raise PackError(source, "the same uniqueid appears twice", name)
        seen.add(puzzle.id)
        puzzles.append(puzzle)
    return tuple(puzzles)


class S3Packs:
    """``Packs`` from ``s3://<bucket>/<prefix><size>.json``."""

    def __init__(self, bucket: str, prefix: str = "packs/", client: Any = None) -> None:
        if client is None:
            client = clients.client("s3")
        self.bucket = bucket
        self.prefix = prefix
        self.client = client
        self._cache: dict[Size, tuple[Puzzle, ...]] = {}

    def puzzles(self, size: Size) -> Sequence[Puzzle]:
        size = Size(size)
        if size not in self._cache:
            key = f"{self.prefix}{size.value}.json"
            source = f"s3://{self.bucket}/{key}"
            try:
                body = self.client.get_object(Bucket=self.bucket, Key=key)["Body"].read()
            except self.client.exceptions.NoSuchKey:
                # Only answered to a reader allowed s3:ListBucket; without it S3 says
                # AccessDenied for a missing key too (grant read on the bucket, not just keys).
                return ()  # not cached: the pack may be uploaded later
            self._cache[size] = parse_pack(_json(body, source), size, source)
        return self._cache[size]


class FilePacks:
    """``Packs`` from ``<directory>/<size>.json`` (the local stack and tests)."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self._cache: dict[Size, tuple[Puzzle, ...]] = {}

    def puzzles(self, size: Size) -> Sequence[Puzzle]:
        size = Size(size)
        if size not in self._cache:
            path = self.directory / f"{size.value}.json"
            try:
                body = path.read_bytes()
            except FileNotFoundError:
                return ()
            self._cache[size] = parse_pack(_json(body, str(path)), size, str(path))
        return self._cache[size]


def _json(body: bytes, source: str) -> Any:
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PackError(source, f"not valid JSON: {error}") from error
