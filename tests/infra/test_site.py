from __future__ import annotations

from pathlib import Path

from aws_cdk import RemovalPolicy, Stack
from aws_cdk.assertions import Match, Template

from infra.site import PACKS_PREFIX, Site, SiteContent
from infra.stack import ROOT, packs_dir

ENDPOINT = "https://abc.execute-api.eu-west-1.amazonaws.com"


def test_private_bucket_behind_cloudfront_with_origin_access_control(stack: Stack) -> None:
    Site(stack, "Site", api_endpoint=ENDPOINT, removal_policy=RemovalPolicy.DESTROY)
    template = Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::S3::Bucket",
        {
            "PublicAccessBlockConfiguration": {
                "BlockPublicAcls": True,
                "BlockPublicPolicy": True,
                "IgnorePublicAcls": True,
                "RestrictPublicBuckets": True,
            }
        },
    )
    template.has_resource_properties(
        "AWS::CloudFront::OriginAccessControl",
        {"OriginAccessControlConfig": Match.object_like({"OriginAccessControlOriginType": "s3"})},
    )
    template.has_resource_properties(
        "AWS::CloudFront::Distribution",
        {
            "DistributionConfig": Match.object_like(
                {
                    "DefaultRootObject": "index.html",
                    "Origins": Match.array_with(
                        [
                            Match.object_like(
                                {
                                    "OriginAccessControlId": Match.any_value(),
                                    "S3OriginConfig": {"OriginAccessIdentity": ""},
                                }
                            )
                        ]
                    ),
                    "CacheBehaviors": [Match.object_like({"PathPattern": "/api/*"})],
                }
            )
        },
    )


def test_content_deploys_the_client_and_the_packs_apart(stack: Stack, tmp_path: Path) -> None:
    site = Site(stack, "Site", api_endpoint=ENDPOINT, removal_policy=RemovalPolicy.DESTROY)
    (tmp_path / "index.html").write_text("<!doctype html>")
    SiteContent(
        stack,
        "Content",
        site=site,
        frontend_dir=str(tmp_path),
        packs_dir=str(tmp_path),
        config={"websocket": "wss://example"},
    )
    template = Template.from_stack(stack)
    template.resource_count_is("Custom::CDKBucketDeployment", 2)
    template.has_resource_properties(
        "Custom::CDKBucketDeployment", {"DestinationBucketKeyPrefix": PACKS_PREFIX}
    )
    template.has_resource_properties(
        "Custom::CDKBucketDeployment", {"Exclude": [f"{PACKS_PREFIX}*"]}
    )


def test_packs_come_from_the_built_ones_or_the_test_packs(tmp_path: Path) -> None:
    assert packs_dir(tmp_path) == tmp_path / "tests" / "data" / "packs"
    (tmp_path / "puzzles" / "packs").mkdir(parents=True)
    (tmp_path / "puzzles" / "packs" / "mini.json").write_text("{}")
    assert packs_dir(tmp_path) == tmp_path / "puzzles" / "packs"
    assert any(packs_dir(ROOT).glob("*.json"))
