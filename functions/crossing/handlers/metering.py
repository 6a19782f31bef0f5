"""Powertools' metrics around a handler, quiet where metrics are off (the local stack)."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Metrics
from aws_lambda_powertools.metrics.functions import is_metrics_disabled


def handler_metrics() -> Metrics:
    """The handlers' Powertools metrics. The namespace is read at import; a default keeps
    an import before configuration working."""
    return Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "Crossing"))


def metered(
    metrics: Metrics,
    handler: Callable[..., Any],
    on: Callable[[bool | None], None] = lambda counting: None,
) -> Callable[..., Any]:
    """``metrics.log_metrics`` with the cold start metric, unless metrics are off: then
    Powertools would still print the cold start's blob, keep every value it is given and
    print them at each hundredth, so the handler runs bare and its values are dropped.
    ``on`` hears whether metrics are on at each invocation's start, and None at its end."""
    flushing = metrics.log_metrics(handler, capture_cold_start_metric=True)

    @functools.wraps(handler)
    def run(event: dict[str, Any], context: Any) -> Any:
        counting = not is_metrics_disabled()
        on(counting)
        try:
            if counting:
                return flushing(event, context)
            try:
                return handler(event, context)
            finally:
                metrics.clear_metrics()
        finally:
            on(None)

    return run
