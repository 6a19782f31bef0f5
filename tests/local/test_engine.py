"""The room engine inside ``crossing serve``: a frame's pace is counted by when its bytes
arrived, so a stall of the disk never turns honest typing into ``too-fast``; and
frames that come while a round runs make the next round's batch."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from crossing.local.serve import running

from tests.local.client import two_in_a_game, white_squares

PACKS = Path(__file__).resolve().parents[2] / "tests" / "data" / "packs"


def test_a_stalled_disk_turns_no_honest_typing_into_too_fast(tmp_path):
    with running(data=tmp_path, packs=PACKS) as stack:
        hana, ann = two_in_a_game(stack.url.replace("http", "ws") + "ws", "together")
        squares = white_squares(ann.room)
        engine = stack.engine
        real = engine.transaction
        stalled = threading.Event()

        def stalling():  # the disk stops answering for four seconds, once
            if not stalled.is_set():
                stalled.set()
                time.sleep(4.0)
            return real()

        engine.transaction = stalling
        seqs = []
        began = time.monotonic()
        for i in range(40):  # eight letters a second for five seconds: within the pace
            ann.seq += 1
            seqs.append(ann.seq)
            frame = {"action": "type", "seq": ann.seq, "square": squares[i % len(squares)]}
            ann.ws.send(json.dumps({**frame, "letter": "AB"[i % 2]}))
            time.sleep(max(0.0, began + (i + 1) / 8 - time.monotonic()))
        answers = {}
        while len(answers) < len(seqs):
            m = ann.read(timeout=20)
            if m["type"] in ("ack", "error") and m.get("seq") in seqs:
                answers[m["seq"]] = m
        assert stalled.is_set()
        refused = [m for m in answers.values() if m["type"] == "error"]
        assert refused == [], refused
        assert engine.rounds < 40 + 10  # the backlog was applied in a few rounds, not one each
        assert engine.service.runner.reports == []  # the cloud's metrics are not kept here
        for p in (hana, ann):
            p.close()
