"""ApiGatewayConnections: a post reaches the connection; a gone one answers False.

moto's management API treats every connection id as open (it never answers 410),
so the Gone cases use botocore's Stubber, which plays back the service's own error.
"""

from __future__ import annotations

import json

import pytest
from botocore.exceptions import ClientError
from botocore.stub import Stubber
from crossing.aws.gateway import ApiGatewayConnections
from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends
from moto.core import DEFAULT_ACCOUNT_ID

from tests.aws.conftest import REGION

ENDPOINT = f"https://abc123.execute-api.{REGION}.amazonaws.com/prod"


@pytest.fixture
def client(boto_session):
    return boto_session.client("apigatewaymanagementapi", endpoint_url=ENDPOINT)


def test_a_message_is_posted_as_compact_json(aws, client):
    connections = ApiGatewayConnections(ENDPOINT, client=client)
    assert connections.send("conn-1", {"type": "typed", "square": 7, "letter": "É"})
    assert connections.send("conn-1", {"type": "tick"})
    posted = apigatewaymanagementapi_backends[DEFAULT_ACCOUNT_ID][REGION].connections["conn-1"]
    assert posted.data == b'{"type":"typed","square":7,"letter":"\xc3\x89"}{"type":"tick"}'


def test_a_gone_connection_answers_false(client):
    connections = ApiGatewayConnections(ENDPOINT, client=client)
    with Stubber(client) as stub:
        stub.add_client_error(
            "post_to_connection", service_error_code="GoneException", http_status_code=410
        )
        assert connections.send("conn-gone", {"type": "tick"}) is False
        stub.assert_no_pending_responses()


def test_the_body_and_connection_are_what_the_client_expects(client):
    connections = ApiGatewayConnections(ENDPOINT, client=client)
    with Stubber(client) as stub:
        stub.add_response(
            "post_to_connection",
            {},
            {"ConnectionId": "conn-1", "Data": json.dumps({"a": [1, 2]}).replace(" ", "").encode()},
        )
        assert connections.send("conn-1", {"a": [1, 2]}) is True


@pytest.mark.parametrize(
    ("code", "status"), [("ForbiddenException", 403), ("LimitExceededException", 429)]
)
def test_other_errors_propagate(client, code, status):
    connections = ApiGatewayConnections(ENDPOINT, client=client)
    with Stubber(client) as stub:
        stub.add_client_error("post_to_connection", code, http_status_code=status)
        with pytest.raises(ClientError, match=code):
            connections.send("conn-1", {"type": "tick"})


def test_the_endpoint_is_the_configured_one(boto_session):
    local = "http://127.0.0.1:8765"
    client = boto_session.client("apigatewaymanagementapi", endpoint_url=local)
    connections = ApiGatewayConnections(local, client=client)
    assert connections.client.meta.endpoint_url == local
