"""POST /api/solve: a board and a rack in, the ranked plays out (the Solver's one call)."""

from __future__ import annotations

import functools
from typing import Any

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from crossing.game_files import shipped
from crossing.handlers.http import (
    FAILED,
    BadBody,
    answers_json,
    as_sentence,
    error_response,
    json_text_response,
    read_json_body,
)
from crossing.handlers.metering import metered
from crossing.solver_request import InvalidRequest, read_request
from crossing.tiles.api import BadRequest, solve_text

logger = Logger()
metrics = Metrics()
tracer = Tracer(patch_modules=[])  # X-Ray on Lambda: the handler's time; no AWS calls


@answers_json
@logger.inject_lambda_context
@functools.partial(metered, metrics)
@tracer.capture_lambda_handler(capture_response=False)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    try:
        request = read_request(read_json_body(event))
    except BadBody as error:
        return _refuse("bad_json", str(error))
    except InvalidRequest as error:
        return _refuse("invalid_request", str(error))

    logger.append_keys(rules=request.rules, rack_size=len(request.rack))
    try:
        # Text, not a dict: the list of every play comes from the search as JSON.
        answer = solve_text(request, shipped())
    except BadRequest as error:
        return _refuse("bad_request", as_sentence(str(error)))
    except Exception:
        logger.exception("solve failed")
        metrics.add_metric(name="SolveFailed", unit=MetricUnit.Count, value=1)
        return error_response(500, "internal", FAILED)

    metrics.add_metric(name="Solved", unit=MetricUnit.Count, value=1)
    return json_text_response(200, answer)


def _refuse(code: str, message: str) -> dict[str, Any]:
    logger.info("solve refused", extra={"code": code, "reason": message})
    metrics.add_metric(name="SolveRefused", unit=MetricUnit.Count, value=1)
    return error_response(400, code, message)
