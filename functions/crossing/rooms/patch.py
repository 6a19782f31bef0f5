"""JSON Merge Patch (RFC 7386): what a phone is sent instead of its whole view."""

from __future__ import annotations

from typing import Any


def merge_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The JSON Merge Patch (RFC 7386) that turns ``old`` into ``new``.

    Objects are patched key by key, anything else is replaced whole; a key that
    disappears is sent as null. So a keystroke sends the squares that changed,
    not the puzzle and its clues again.
    """
    patch: dict[str, Any] = {}
    for key, value in new.items():
        before = old.get(key)
        if before is value or before == value:  # a shared part (the puzzle) by identity
            continue
        if isinstance(before, dict) and isinstance(value, dict):
            patch[key] = merge_patch(before, value)
        else:
            patch[key] = value
    patch |= {key: None for key in old if key not in new}
    return patch
