"""The web client and puzzle packs: a private bucket behind CloudFront (origin access control).

``Site`` is the bucket and the distribution; ``SiteContent`` fills the bucket once the
APIs exist, because ``config.json`` tells the client their URLs. The Solver page calls
``/api/...`` on its own origin, so CloudFront forwards ``/api/*`` to the HTTP API.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aws_cdk import Fn, RemovalPolicy
from aws_cdk import aws_cloudfront as cloudfront
from aws_cdk import aws_cloudfront_origins as origins
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_deployment as s3deploy
from constructs import Construct

WATCH_PATH = """function handler(event) {
  var request = event.request;
  if (request.uri === '/watch') request.uri = '/watch.html';
  return request;
}"""

PACKS_PREFIX = "packs/"
"""Where the packs live in the bucket: ``CROSSING_PACKS_PREFIX`` and the deployment's prefix."""


class Site(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        api_endpoint: str,
        removal_policy: RemovalPolicy,
    ) -> None:
        super().__init__(scope, id)
        self.bucket = s3.Bucket(
            self,
            "Bucket",
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            removal_policy=removal_policy,
            # A stage that is thrown away takes its files with it; prod keeps them.
            auto_delete_objects=removal_policy == RemovalPolicy.DESTROY,
        )
        api_domain = Fn.select(2, Fn.split("/", api_endpoint))  # https://<domain>
        self.distribution = cloudfront.Distribution(
            self,
            "Cdn",
            comment="Crossing Words web client and puzzle packs",
            default_root_object="index.html",
            default_behavior=cloudfront.BehaviorOptions(
                origin=origins.S3BucketOrigin.with_origin_access_control(self.bucket),
                viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
                compress=True,
                function_associations=[
                    cloudfront.FunctionAssociation(
                        event_type=cloudfront.FunctionEventType.VIEWER_REQUEST,
                        function=cloudfront.Function(
                            self,
                            "WatchPath",
                            comment="The rules send players to /watch: serve watch.html",
                            code=cloudfront.FunctionCode.from_inline(WATCH_PATH),
                        ),
                    )
                ],
            ),
            additional_behaviors={
                "/api/*": cloudfront.BehaviorOptions(
                    origin=origins.HttpOrigin(api_domain),
                    viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
                    allowed_methods=cloudfront.AllowedMethods.ALLOW_ALL,
                    cache_policy=cloudfront.CachePolicy.CACHING_DISABLED,
                    origin_request_policy=(
                        cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER
                    ),
                ),
            },
        )

    @property
    def url(self) -> str:
        return f"https://{self.distribution.distribution_domain_name}"


class SiteContent(Construct):
    """``frontend/`` at the root with a generated ``config.json``, packs under ``packs/``."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        site: Site,
        frontend_dir: str,
        packs_dir: str,
        config: Mapping[str, Any],
    ) -> None:
        super().__init__(scope, id)
        s3deploy.BucketDeployment(
            self,
            "Client",
            sources=[
                s3deploy.Source.asset(frontend_dir),
                s3deploy.Source.json_data("config.json", dict(config)),
            ],
            destination_bucket=site.bucket,
            # The packs have their own deployment: keep this one's pruning off them.
            exclude=[f"{PACKS_PREFIX}*"],
            distribution=site.distribution,
            distribution_paths=["/*"],
        )
        s3deploy.BucketDeployment(
            self,
            "Packs",
            sources=[s3deploy.Source.asset(packs_dir)],
            destination_bucket=site.bucket,
            destination_key_prefix=PACKS_PREFIX,
            distribution=site.distribution,
            distribution_paths=[f"/{PACKS_PREFIX}*"],
        )
