"""cdk-nag's AWS Solutions checks: the findings we accept, each with its reason.

``cdk synth`` and the infra tests run the checks on the whole app (``app.py``,
``tests/infra/test_nag.py``); any finding not acknowledged here stops the synth.
Each acknowledgment is put on the construct it is about, never on the whole stack, and
wildcard (IAM5) findings name the exact resource, so a new wildcard is a new finding.
docs/operations.md lists them all.
"""

from __future__ import annotations

from collections.abc import Iterable

from aws_cdk import Acknowledgment, Stack, Validations
from aws_cdk import aws_lambda as lambda_
from constructs import IConstruct

from infra.accounts import Accounts
from infra.frames import Frames
from infra.site import PACKS_PREFIX, Site
from infra.sockets import Sockets
from infra.solver_api import SolverApi
from infra.timers import Timers

PACK = "AwsSolutions::"

OUR_RUNTIME = (
    "Python 3.13, not 3.14: the asset's wheels, extension modules and bytecode are built "
    "and tested by the runtime's own interpreter, and no Python 3.14 can be installed on "
    "the build and CI machines yet (infra/functions.py)"
)
XRAY = "X-Ray's PutTraceSegments and PutTelemetryRecords take no resource: '*' is the only one"
GUESTS = (
    "Guests play without an account, so no route can require one; players who sign in do "
    "so inside the socket (Cognito tokens checked by the service); the stage is throttled"
)
CDK_DEPLOYMENT = (
    "aws-cdk-lib's own BucketDeployment function (it copies the client and packs to the "
    "bucket during a deploy and nothing else); its role and runtime are the library's"
)


def _ack(construct: IConstruct, rule: str, reason: str) -> None:
    Validations.of(construct).acknowledge(Acknowledgment(id=f"{PACK}{rule}", reason=reason))


def _token(stack: Stack, value: str) -> str:
    """How cdk-nag writes a resolved reference in a finding: ``<LogicalId>`` or
    ``<LogicalId.Attribute>``."""
    resolved = stack.resolve(value)
    if "Ref" in resolved:
        return f"<{resolved['Ref']}>"
    logical, attribute = resolved["Fn::GetAtt"]
    return f"<{logical}.{attribute}>"


def _roles(functions: Iterable[lambda_.Function]) -> list[IConstruct]:
    return [f.role.node.find_child("DefaultPolicy") for f in functions if f.role]


def acknowledge(
    stack: Stack,
    *,
    accounts: Accounts,
    timers: Timers,
    frames: Frames,
    site: Site,
    sockets: Sockets,
    solver: SolverApi,
    stage: str,
    group: str,
) -> None:
    pool = accounts.pool.node.default_child
    assert pool is not None
    _ack(
        pool,
        "AwsSolutions-COG1",
        "Length only (crossing.aws.pool): a long passphrase beats a short password with a "
        "symbol in it, and character-class rules push people to Password1! (NIST SP 800-63B)",
    )
    _ack(
        pool,
        "AwsSolutions-COG2",
        "An account holds a name and ratings only, no email, phone or payment; a second "
        "factor would need a phone number or an app we do not ask players for",
    )
    _ack(
        pool,
        "AwsSolutions-COG8",
        "Lite plan: the pool uses none of Plus's features and holds no personal data "
        "beyond a chosen name; Plus is charged per monthly active user",
    )
    _ack(timers.dead_letters, "AwsSolutions-SQS3", "It is itself the timers' dead-letter queue")
    _ack(frames.dead_letters, "AwsSolutions-SQS3", "It is itself the frames' dead-letter queue")

    functions = [*sockets.functions.values(), *solver.functions.values()]
    for function in functions:
        _ack(function, "AwsSolutions-L1", OUR_RUNTIME)
    for policy in _roles(functions):
        _ack(policy, "AwsSolutions-IAM5[Resource::*]", XRAY)

    bucket = _token(stack, site.bucket.bucket_arn)
    api = _token(stack, sockets.api.api_id)
    connections = (
        f"arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:{api}"
        f"/{stage}/POST/@connections/*"
    )
    schedules = f"arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/{group}/*"
    for policy in _roles(sockets.room_functions):
        _ack(
            policy,
            f"AwsSolutions-IAM5[Resource::{bucket}/{PACKS_PREFIX}*]",
            "Every pack under the packs prefix: a room deals any of them; nothing else in "
            "the bucket is readable",
        )
        _ack(
            policy,
            f"AwsSolutions-IAM5[Resource::{connections}]",
            "Connection ids are made by API Gateway at run time; the grant is this API's "
            "stage only, and POST (posting a message) only",
        )
        _ack(
            policy,
            f"AwsSolutions-IAM5[Resource::{schedules}]",
            "One schedule per room, named by the room code at run time; only this stage's "
            "schedule group",
        )

    if not sockets.access_log:
        stage_resource = sockets.stage.node.default_child
        assert stage_resource is not None
        _ack(
            stage_resource,
            "AwsSolutions-APIG1",
            "Off by context (websocketAccessLogs) until the account's API Gateway CloudWatch "
            "Logs role is set: a stage that logs without it cannot be created. Meanwhile "
            "API Gateway's own metrics of the stage are on the dashboard and the socket "
            "functions' log lines carry the connection id (docs/operations.md, Account "
            "prerequisites)",
        )

    for route in [*sockets.api.node.children, *solver.api.node.children]:
        if route.node.id.endswith("-Route") or "--api--" in route.node.id:
            _ack(route, "AwsSolutions-APIG4", GUESTS)

    bucket_resource = site.bucket.node.default_child
    assert bucket_resource is not None
    _ack(
        bucket_resource,
        "AwsSolutions-S1",
        "A private bucket read only through CloudFront (origin access control) and by the "
        "room functions; it holds the public client and puzzles, no player data",
    )
    cdn = site.distribution
    _ack(cdn, "AwsSolutions-CFR1", "A word game for everyone: no country is kept out")
    _ack(
        cdn,
        "AwsSolutions-CFR2",
        "No WAF yet: the client is static and cached, the APIs are throttled at their "
        "stages and the rooms rate-limit each player; a web ACL costs a monthly fee per "
        "stage (docs/operations.md, Scale)",
    )
    _ack(
        cdn,
        "AwsSolutions-CFR3",
        "Per-request logs of a static public client hold nothing on-call uses; the game's "
        "requests are logged by the functions, the Solver's HTTP API access logs and, when "
        "on (websocketAccessLogs), the WebSocket stage's",
    )
    _ack(
        cdn,
        "AwsSolutions-CFR4",
        "The default CloudFront certificate (*.cloudfront.net) until a domain is "
        "configured; with one, its certificate sets TLSv1.2_2021 as the minimum",
    )

    deployment = [
        "AwsSolutions-L1",
        "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
        "AWSLambdaBasicExecutionRole]",
        "AwsSolutions-IAM5[Resource::*]",
        *(
            f"AwsSolutions-IAM5[Action::s3:{action}*]"
            for action in ("GetObject", "GetBucket", "List", "DeleteObject", "Abort")
        ),
        "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-"
        "<AWS::AccountId>-<AWS::Region>/*]",
        f"AwsSolutions-IAM5[Resource::{bucket}/*]",
    ]
    for child in stack.node.children:
        if child.node.id.startswith("Custom::CDKBucketDeployment"):
            for rule in deployment:
                _ack(child, rule, CDK_DEPLOYMENT)
