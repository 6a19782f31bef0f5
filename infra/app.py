"""The CDK app: ``infra/node_modules/.bin/cdk synth -c stage=dev`` (see docs/operations.md).

Reads the stage from context, checks the Lambda asset exists, builds one stack.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script by the CDK CLI (cdk.json): make ``infra`` and ``crossing`` importable
# without an install, so synth needs only aws-cdk-lib and constructs.
for path in (ROOT, ROOT / "functions"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import infra  # noqa: E402, F401  # isort: skip  (first: it quiets jsii's Node banner)
import aws_cdk as cdk  # noqa: E402
from aws_cdk import aws_lambda as lambda_  # noqa: E402
from cdk_nag import AwsSolutionsChecks  # noqa: E402

from infra.settings import StageSettings  # noqa: E402
from infra.stack import CrossingStack  # noqa: E402


class MissingAsset(SystemExit):
    pass


def lambda_code(asset: Path) -> lambda_.Code:
    """The built asset; we fail rather than build it here, because a build needs PyPI
    and synth should be quick and offline. The message says the one command to run."""
    if not (asset / "crossing" / "handlers" / "ws.py").is_file():
        raise MissingAsset(
            f"No Lambda asset at {asset}: run `python3 infra/build_asset.py` first "
            "(or pass -c asset=DIR)."
        )
    return lambda_.Code.from_asset(str(asset))


def build(app: cdk.App) -> CrossingStack:
    settings = StageSettings.from_context(app.node.try_get_context)
    asset = Path(settings.asset)
    if not asset.is_absolute():
        asset = ROOT / asset
    return CrossingStack(
        app,
        settings.stack_name,
        settings=settings,
        code=lambda_code(asset),
        description=f"Crossing Words, stage {settings.stage}",
    )


def check(app: cdk.App) -> None:
    """cdk-nag's AWS Solutions checks on the whole app: an unacknowledged finding stops
    the synth (the acknowledged ones and their reasons: ``infra/nag.py``)."""
    cdk.Validations.of(app).add_plugins(AwsSolutionsChecks(app))


def main() -> None:
    app = cdk.App()
    build(app)
    check(app)
    app.synth()


if __name__ == "__main__":
    main()
