"""The Lambda asset as deployed, run as Lambda runs it, against moto's server.

``synth`` builds the stack on a built asset exactly as ``cdk synth`` does and finds the
staged copy the CDK zips; ``Function`` runs one function of the template in its own
clean interpreter (``lambda_runtime.py``) with the template's environment; ``Cloud`` is
moto's server holding the table, bucket, schedule group and user pool the template
names, and the @connections posts. Shared by tests/infra/test_asset_plays.py and
benchmarks/cold_start.py.
"""

from __future__ import annotations

import json
import select
import subprocess
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aws_cdk import App
from aws_cdk.assertions import Template
from crossing.aws import pool, table
from moto.server import ThreadedMotoServer

from infra import app as infra_app
from infra import build_asset

REGION = "us-east-1"
ACCOUNT = "123456789012"  # moto's default account
RUNTIME = Path(__file__).with_name("lambda_runtime.py")
PACKS = build_asset.ROOT / "tests" / "data" / "packs"
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
}
PSEUDO = {
    "AWS::Region": REGION,
    "AWS::AccountId": ACCOUNT,
    "AWS::Partition": "aws",
    "AWS::URLSuffix": "amazonaws.com",
}


@dataclass
class Synth:
    template: Template
    staged: Path  # the directory the CDK zips for our functions
    functions: dict[str, dict[str, Any]]  # logical id -> properties, our asset's only


def synth(asset: Path, outdir: Path, stage: str = "dev") -> Synth:
    app = App(context={"stage": stage, "asset": str(asset)}, outdir=str(outdir))
    stack = infra_app.build(app)
    app.synth()
    template = Template.from_stack(stack)
    manifest = json.loads((outdir / f"{stack.stack_name}.assets.json").read_text())
    ours = {
        key: outdir / entry["source"]["path"]
        for key, entry in manifest["files"].items()
        if (outdir / entry["source"]["path"] / "crossing").is_dir()
    }
    [(key, staged)] = ours.items()
    functions = {
        logical: resource["Properties"]
        for logical, resource in template.find_resources("AWS::Lambda::Function").items()
        if resource["Properties"]["Code"].get("S3Key") == f"{key}.zip"
    }
    return Synth(template, staged, functions)


@dataclass
class Cloud:
    """moto's server standing in for DynamoDB, S3, Scheduler, Cognito, SQS and @connections."""

    template: Template
    server: ThreadedMotoServer = field(init=False)
    endpoint: str = field(init=False)
    bucket: str = "crossing-test-site"
    user_pool_id: str = ""
    user_pool_client_id: str = ""
    queues: dict[str, str] = field(default_factory=dict)  # logical id -> queue URL

    def __post_init__(self) -> None:
        from crossing.local.backend import free_port

        port = free_port()
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
        self.server.start()
        self.endpoint = f"http://127.0.0.1:{port}"
        resources = self.template.to_json()["Resources"]
        [table_name] = [
            r["Properties"]["TableName"]
            for r in resources.values()
            if r["Type"] == "AWS::DynamoDB::Table"
        ]
        table.create_table(self.client("dynamodb"), table_name)
        s3 = self.client("s3")
        s3.create_bucket(Bucket=self.bucket)
        for path in sorted(PACKS.glob("*.json")):
            s3.put_object(Bucket=self.bucket, Key=f"packs/{path.name}", Body=path.read_bytes())
        for r in resources.values():
            if r["Type"] == "AWS::Scheduler::ScheduleGroup":
                self.client("scheduler").create_schedule_group(Name=r["Properties"]["Name"])
        for name, r in resources.items():
            if r["Type"] == "AWS::SQS::Queue":
                fifo = bool(r["Properties"].get("FifoQueue"))
                attributes = {"FifoQueue": "true"} if fifo else {}
                made = self.client("sqs").create_queue(
                    QueueName=f"{name}.fifo" if fifo else name, Attributes=attributes
                )
                self.queues[name] = made["QueueUrl"]
        self.user_pool_id, self.user_pool_client_id = pool.create_pool(
            self.client("cognito-idp"), "crossing-test"
        )

    def client(self, service: str) -> Any:
        import boto3
        from crossing.local.backend import REGION

        return boto3.client(  # as the local stack's moto backend makes them
            service,
            region_name=REGION,
            endpoint_url=self.endpoint,
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )

    def stop(self) -> None:
        self.server.stop()

    def posted(self, connection: str) -> bytes:
        """Everything posted to ``connection`` through @connections, in order."""
        from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends

        connections = apigatewaymanagementapi_backends[ACCOUNT][REGION].connections
        key = quote(connection, safe="")  # moto files it under the id as it went in the path
        return connections[key].data if key in connections else b""

    # --- the template's intrinsic values, as this cloud has them ------------------------

    def resolve(self, value: Any) -> str:
        """A template value (a string, Ref, Fn::GetAtt or Fn::Join) as a plain string."""
        if isinstance(value, str):
            return value
        resources = self.template.to_json()["Resources"]
        if "Ref" in value:
            name = value["Ref"]
            if name in PSEUDO:
                return PSEUDO[name]
            kind = resources[name]["Type"]
            refs = {
                "AWS::DynamoDB::Table": lambda: resources[name]["Properties"]["TableName"],
                "AWS::S3::Bucket": lambda: self.bucket,
                "AWS::Cognito::UserPool": lambda: self.user_pool_id,
                "AWS::Cognito::UserPoolClient": lambda: self.user_pool_client_id,
                "AWS::ApiGatewayV2::Api": lambda: name.lower()[:10],
                "AWS::SQS::Queue": lambda: self.queues[name],
            }
            if kind not in refs:
                raise AssertionError(f"the test cannot stand in for a Ref to a {kind}")
            return refs[kind]()
        if "Fn::GetAtt" in value:
            name, attribute = value["Fn::GetAtt"]
            kind = resources[name]["Type"]
            arns = {
                ("AWS::IAM::Role", "Arn"): f"arn:aws:iam::{ACCOUNT}:role/{name}",
                ("AWS::SQS::Queue", "Arn"): f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}",
            }
            if (kind, attribute) not in arns:
                raise AssertionError(f"the test cannot stand in for {kind}.{attribute}")
            return arns[kind, attribute]
        if "Fn::Join" in value:
            separator, parts = value["Fn::Join"]
            return separator.join(self.resolve(part) for part in parts)
        raise AssertionError(f"the test cannot resolve {value}")

    def environment(self, properties: dict[str, Any], name: str) -> dict[str, str]:
        """What the function's process sees: the template's variables, resolved, and what
        the Lambda runtime itself sets; the endpoint is the one thing that is not AWS's."""
        variables = properties.get("Environment", {}).get("Variables", {})
        env = {key: self.resolve(value) for key, value in variables.items()}
        if "CROSSING_CONNECTIONS_URL" in env:
            env["CROSSING_CONNECTIONS_URL"] = self.endpoint  # moto's @connections
        return {
            **env,
            **CREDENTIALS,
            "AWS_REGION": REGION,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_ENDPOINT_URL": self.endpoint,  # every AWS client: moto (botocore reads it)
            "AWS_LAMBDA_FUNCTION_NAME": name,
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(properties.get("MemorySize", 128)),
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_EXECUTION_ENV": f"AWS_Lambda_{properties['Runtime']}",
            "_HANDLER": properties["Handler"],
            "TZ": ":UTC",
            "LANG": "en_US.UTF-8",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "CROSSING_TEST_FUNCTION_ARN": f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}",
        }


class Function:
    """One function of the template, in its own clean interpreter: one Lambda container."""

    def __init__(
        self,
        python: str,
        staged: Path,
        environment: dict[str, str],
        *,
        log: Path,
        flags: tuple[str, ...] = (),
    ) -> None:
        self.name = environment["AWS_LAMBDA_FUNCTION_NAME"]
        self.log = log
        self.process = subprocess.Popen(
            [python, "-I", "-S", *flags, str(RUNTIME)],
            env={**environment, "LAMBDA_TASK_ROOT": str(staged)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("ab"),
            cwd=staged,
            text=True,
        )
        ready = self._answer(timeout=60)
        if "error" in ready:
            self.close()
            raise AssertionError(f"{self.name} did not import:\n{ready['error']}")
        self.init_ms: float = ready["init_ms"]
        self.init_cpu_ms: float = ready["init_cpu_ms"]
        self.modules: list[str] = ready["modules"]  # imported by the end of the init phase
        self.durations: list[float] = []
        self.cpu_durations: list[float] = []

    def _answer(self, timeout: float) -> dict[str, Any]:
        assert self.process.stdout is not None
        readable, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if readable else ""
        if not line:
            raise AssertionError(
                f"{self.name} said nothing (exit {self.process.poll()}); its log:\n"
                + self.log.read_text()[-4000:]
            )
        return json.loads(line)

    def __call__(self, event: dict[str, Any]) -> Any:
        assert self.process.stdin is not None
        request = {"event": event, "request_id": str(uuid.uuid4())}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self._answer(timeout=60)
        if "error" in answer:
            raise AssertionError(f"{self.name} failed:\n{answer['error']}")
        self.durations.append(answer["ms"])
        self.cpu_durations.append(answer["cpu_ms"])
        return answer["result"]

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
