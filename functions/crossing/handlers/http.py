"""Helpers shared by the HTTP API handlers (API Gateway HTTP API, payload format 2.0)."""

from __future__ import annotations

import base64
import json
from typing import Any

from pydantic import ValidationError

# A solve request is a board and a rack; anything near this size is not one.
MAX_BODY_BYTES = 64 * 1024


class BadBody(ValueError):
    """The request body is missing, too large or not a JSON document."""


def json_response(status: int, payload: Any) -> dict[str, Any]:
    return {
        "statusCode": status,
        "headers": {"content-type": "application/json; charset=utf-8"},
        "body": json.dumps(payload, separators=(",", ":")),
    }


def error_response(status: int, code: str, message: str) -> dict[str, Any]:
    return json_response(status, {"error": {"code": code, "message": message}})


def read_json_body(event: dict[str, Any]) -> Any:
    body = event.get("body")
    if body is None or body == "":
        raise BadBody("The request body is empty; send a JSON object.")
    raw = base64.b64decode(body) if event.get("isBase64Encoded") else body.encode("utf-8")
    if len(raw) > MAX_BODY_BYTES:
        raise BadBody(f"The request body is larger than {MAX_BODY_BYTES // 1024} KB.")
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadBody("The request body is not valid JSON.") from error


def as_sentence(message: str) -> str:
    """The engine speaks in short lines; the page shows one capitalised sentence."""
    text = " ".join(message.split())
    if not text:
        return "The request could not be used."
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else f"{text}."


def describe_validation_error(error: ValidationError) -> str:
    """One sentence naming the first problem, in the request's own field names."""
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"])
    message = first["msg"]
    if first["type"] == "missing":
        return f"The field '{where}' is required."
    if first["type"] == "extra_forbidden":
        return f"The field '{where}' is not part of a solve request."
    if first["type"] == "model_type":
        return "The request body must be a JSON object."
    return f"The field '{where}' is invalid: {message[0].lower()}{message[1:]}."
