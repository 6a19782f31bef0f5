"""The fakes that are not covered by a shared contract: connections."""

from __future__ import annotations

import pytest
from crossing.aws.memory import RecordingConnections


def test_messages_are_recorded_per_connection_and_in_order():
    connections = RecordingConnections()
    assert connections.send("c1", {"type": "typed", "square": 3})
    assert connections.send("c2", {"type": "snapshot"})
    assert connections.send("c1", {"type": "tick"})
    assert connections.messages("c1") == [{"type": "typed", "square": 3}, {"type": "tick"}]
    assert connections.log == [
        ("c1", {"type": "typed", "square": 3}),
        ("c2", {"type": "snapshot"}),
        ("c1", {"type": "tick"}),
    ]
    assert connections.messages("c3") == []


def test_a_gone_connection_answers_false_and_receives_nothing():
    connections = RecordingConnections()
    connections.mark_gone("c1")
    assert connections.send("c1", {"type": "tick"}) is False
    assert connections.messages("c1") == []
    assert connections.requests["send"] == 1, "the post was still attempted"


def test_recorded_messages_are_json_copies():
    connections = RecordingConnections()
    message = {"players": ["p1"], "at": (1, 2)}
    connections.send("c1", message)
    message["players"].append("p2")
    assert connections.messages("c1") == [{"players": ["p1"], "at": [1, 2]}]
    with pytest.raises(TypeError):
        connections.send("c1", {"not json": {1, 2}})
