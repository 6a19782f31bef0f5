"""POST /api/solve: a board and a rack in, the ranked plays out (the Solver's one call)."""

from __future__ import annotations

import functools
from typing import Any, Literal

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from crossing.game_files import shipped
from crossing.handlers.http import (
    BadBody,
    as_sentence,
    describe_validation_error,
    error_response,
    json_response,
    read_json_body,
)
from crossing.handlers.metering import metered
from crossing.tiles.api import BadRequest, solve_request

logger = Logger()
metrics = Metrics()
tracer = Tracer(patch_modules=[])  # X-Ray on Lambda: the handler's time; no AWS calls


class PlayBody(BaseModel):
    """One play to check and score: where it starts, which way, and what it spells."""

    model_config = ConfigDict(extra="forbid")

    row: StrictInt
    col: StrictInt
    direction: StrictStr = Field(max_length=8)
    word: StrictStr = Field(max_length=15)


class SolveBody(BaseModel):
    """The shape of a solve request; the tile engine judges the letters themselves."""

    model_config = ConfigDict(extra="forbid")

    rules: Literal["crossplay", "scrabble", "wwf", "duel"]
    rack: StrictStr = Field(max_length=32)
    board: list[StrictStr] | None = Field(default=None, max_length=32)
    # A custom word list is bounded by the body size limit, not a word count.
    words: list[StrictStr] | None = None
    top: StrictInt | None = Field(default=None, ge=1, le=1000)
    bonus: StrictBool = True
    # Every play, grouped by blank choices and without breakdowns (the page's full list).
    all: StrictBool | None = None
    play: PlayBody | None = None

    def to_request(self) -> dict[str, Any]:
        # Leave unset options out so the engine's own defaults apply.
        return self.model_dump(exclude_none=True)


@logger.inject_lambda_context
@functools.partial(metered, metrics)
@tracer.capture_lambda_handler(capture_response=False)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    try:
        body = SolveBody.model_validate(read_json_body(event))
    except BadBody as error:
        return _refuse("bad_json", str(error))
    except ValidationError as error:
        return _refuse("invalid_request", describe_validation_error(error))

    logger.append_keys(rules=body.rules, rack_size=len(body.rack))
    try:
        result = solve_request(body.to_request(), shipped())
    except BadRequest as error:
        return _refuse("bad_request", as_sentence(str(error)))
    except Exception:
        logger.exception("solve failed")
        metrics.add_metric(name="SolveFailed", unit=MetricUnit.Count, value=1)
        return error_response(500, "internal", "The solver failed; please try again.")

    metrics.add_metric(name="Solved", unit=MetricUnit.Count, value=1)
    return json_response(200, result)


def _refuse(code: str, message: str) -> dict[str, Any]:
    logger.info("solve refused", extra={"code": code, "reason": message})
    metrics.add_metric(name="SolveRefused", unit=MetricUnit.Count, value=1)
    return error_response(400, code, message)
