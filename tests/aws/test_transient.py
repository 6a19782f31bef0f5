"""The consumer tries again only what may pass: botocore's own judgment of a failure."""

import pytest
from botocore.exceptions import (
    ClientError,
    EndpointConnectionError,
    ParamValidationError,
    ReadTimeoutError,
)
from crossing.aws.transient import transient


def refused(code: str, status: int) -> ClientError:
    response = {
        "Error": {"Code": code, "Message": "m"},
        "ResponseMetadata": {"HTTPStatusCode": status},
    }
    return ClientError(response, "PutItem")


@pytest.mark.parametrize(
    "error",
    [
        refused("ProvisionedThroughputExceededException", 400),
        refused("ThrottlingException", 400),
        refused("RequestLimitExceeded", 400),
        refused("InternalServerError", 500),
        refused("ServiceUnavailable", 503),
        ReadTimeoutError(endpoint_url="https://dynamodb"),
        EndpointConnectionError(endpoint_url="https://dynamodb"),
    ],
)
def test_throttling_timeouts_and_server_failures_may_pass(error: Exception) -> None:
    assert transient(error)


@pytest.mark.parametrize(
    "error",
    [
        refused("ValidationException", 400),  # a request AWS will refuse every time
        refused("AccessDeniedException", 400),
        refused("ResourceNotFoundException", 400),
        ParamValidationError(report="bad"),
        KeyError("state"),  # our own bugs
        TypeError("unhashable"),
    ],
)
def test_what_fails_the_same_way_every_time_is_not_tried_again(error: Exception) -> None:
    assert not transient(error)
