"""Which failures of an AWS call may pass if the call is made again in a moment.

The same judgment as botocore's standard retry mode (``botocore.retries.standard``),
which has made each request up to its own few tries already: a timeout or a dropped
connection, throttling, a 5xx. Anything else — a request AWS refuses as malformed, a
missing permission, a bug of ours (a ``KeyError``, a ``TypeError``) — fails the same
way every time, and trying it again only holds up whoever waits for it.
"""

from __future__ import annotations

from botocore.exceptions import ClientError
from botocore.retries.standard import (
    RetryContext,
    ThrottledRetryableChecker,
    TransientRetryableChecker,
)

_CHECKERS = (TransientRetryableChecker(), ThrottledRetryableChecker())
_SERVER_FAILED = (500, 502, 503, 504)


def transient(error: BaseException) -> bool:
    """Whether ``error``, raised by an AWS call, is worth that call again shortly."""
    if isinstance(error, ClientError):
        status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        if status in _SERVER_FAILED:  # botocore reads it off the raw response; we have this
            return True
    # A ClientError carries its parsed response: the checkers read its error code there.
    response = error.response if isinstance(error, ClientError) else None
    context = RetryContext(attempt_number=1, parsed_response=response, caught_exception=error)
    return any(checker.is_retryable(context) for checker in _CHECKERS)
