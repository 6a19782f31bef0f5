"""Helpers shared by the HTTP API handlers (API Gateway HTTP API, payload format 2.0)."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import logging
from collections.abc import Callable
from typing import Any

from pydantic_core import from_json

# A solve request is a board and a rack; anything near this size is not one.
MAX_BODY_BYTES = 64 * 1024
FAILED = "The server failed; please try again."

log = logging.getLogger(__name__)


class BadBody(ValueError):
    """The request body is missing, too large or not a JSON document."""


def json_response(status: int, payload: Any) -> dict[str, Any]:
    return json_text_response(status, json.dumps(payload, separators=(",", ":")))


def json_text_response(status: int, text: str) -> dict[str, Any]:
    """A body that is JSON text already (the Solver's list of every play)."""
    return {
        "statusCode": status,
        "headers": {"content-type": "application/json; charset=utf-8"},
        "body": text,
    }


def error_response(status: int, code: str, message: str) -> dict[str, Any]:
    return json_response(status, {"error": {"code": code, "message": message}})


def answers_json(handler: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """The outermost wrap of an HTTP handler: whatever fails inside it, the caller gets
    the documented ``{"error": ...}`` with a 500, never Lambda's bare one."""

    @functools.wraps(handler)
    def run(event: dict[str, Any], context: Any) -> dict[str, Any]:
        try:
            return handler(event, context)
        except Exception:
            log.exception("HTTP handler failed")
            return error_response(500, "internal", FAILED)

    return run


def read_json_body(event: dict[str, Any]) -> Any:
    """The body as JSON, or ``BadBody`` with one sentence. Its size is measured before
    anything is decoded, and it is parsed by pydantic's parser (jiter, in Rust), which
    refuses nesting past a fixed depth as invalid rather than recursing through the
    interpreter's stack as ``json.loads`` does: no body can raise ``RecursionError``."""
    body = event.get("body")
    if body is None or body == "":
        raise BadBody("The request body is empty; send a JSON object.")
    encoded = bool(event.get("isBase64Encoded"))
    if not isinstance(body, str):
        raise BadBody("The request body is not valid JSON.")
    # A character is at least a byte, and base64 carries three bytes in four.
    if len(body) > (MAX_BODY_BYTES * 4 // 3 + 4 if encoded else MAX_BODY_BYTES):
        raise _too_large()
    try:
        raw = base64.b64decode(body, validate=True) if encoded else body.encode("utf-8")
    except (binascii.Error, UnicodeEncodeError):
        raise BadBody("The request body is not valid JSON.") from None
    if len(raw) > MAX_BODY_BYTES:
        raise _too_large()
    try:
        return from_json(raw, allow_inf_nan=False)
    except ValueError as error:
        if "recursion limit" in str(error):
            raise BadBody("The request body is nested too deeply to be a request.") from None
        raise BadBody("The request body is not valid JSON.") from None


def _too_large() -> BadBody:
    return BadBody(f"The request body is larger than {MAX_BODY_BYTES // 1024} KB.")


def as_sentence(message: str) -> str:
    """The engine speaks in short lines; the page shows one capitalised sentence."""
    text = " ".join(message.split())
    if not text:
        return "The request could not be used."
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else f"{text}."
