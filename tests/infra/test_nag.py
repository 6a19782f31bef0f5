"""cdk-nag's AWS Solutions checks pass on the whole app, as ``cdk synth`` runs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from aws_cdk import App

from infra import app as infra_app


@pytest.mark.parametrize(
    "context",
    [{"stage": "dev"}, {"stage": "prod", "alarmEmail": "ops@example.com"}],
    ids=["dev", "prod"],
)
def test_no_finding_is_left_unacknowledged(
    asset_dir: Path, tmp_path: Path, context: dict[str, str]
) -> None:
    app = App(context={**context, "asset": str(asset_dir)}, outdir=str(tmp_path))
    infra_app.build(app)
    infra_app.check(app)
    app.synth()  # raises with the report if any finding is not acknowledged


def test_a_new_finding_stops_the_synth(asset_dir: Path, tmp_path: Path) -> None:
    from aws_cdk import aws_s3 as s3

    app = App(context={"stage": "dev", "asset": str(asset_dir)}, outdir=str(tmp_path))
    stack = infra_app.build(app)
    s3.Bucket(stack, "Careless")  # no SSL enforcement, no access logs
    infra_app.check(app)
    with pytest.raises(Exception, match="ValidationFailed"):
        app.synth()
