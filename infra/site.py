"""The web client and puzzle packs: a private bucket behind CloudFront (origin access control).

``Site`` is the bucket and the distribution; ``SiteContent`` fills the bucket once the
APIs exist, because ``config.json`` tells the client their URLs. The Solver page calls
``/api/...`` on its own origin, so CloudFront forwards ``/api/*`` to the HTTP API.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aws_cdk import Aws, Duration, Fn, RemovalPolicy
from aws_cdk import aws_cloudfront as cloudfront
from aws_cdk import aws_cloudfront_origins as origins
from aws_cdk import aws_iam as iam
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
CLIENT_CACHE = "public, max-age=0, must-revalidate, s-maxage=31536000"
"""The client has no build step, so no file name carries a hash: a browser revalidates
every file (a 304 when unchanged) so HTML and the modules it loads never mix two
deploys; CloudFront keeps them until the deploy's invalidation."""
PACKS_CACHE = "public, max-age=300, s-maxage=31536000"
"""Read by the functions from S3, by the page rarely: a few minutes in a browser."""


def content_security_policy() -> str:
    """What our pages load: their own scripts, styles, images and worker; the socket on
    API Gateway in this region; the Solver's ``/api`` on the same origin. No framing."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data: blob:",
            f"connect-src 'self' wss://*.execute-api.{Aws.REGION}.amazonaws.com",
            "manifest-src 'self'",
            "worker-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


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
        headers = cloudfront.ResponseHeadersPolicy(
            self,
            "Headers",
            comment="Crossing Words: HSTS, CSP, nosniff, no framing",
            security_headers_behavior=cloudfront.ResponseSecurityHeadersBehavior(
                strict_transport_security=cloudfront.ResponseHeadersStrictTransportSecurity(
                    access_control_max_age=Duration.days(365),
                    include_subdomains=True,
                    override=True,
                ),
                content_security_policy=cloudfront.ResponseHeadersContentSecurityPolicy(
                    content_security_policy=content_security_policy(), override=True
                ),
                content_type_options=cloudfront.ResponseHeadersContentTypeOptions(override=True),
                frame_options=cloudfront.ResponseHeadersFrameOptions(
                    frame_option=cloudfront.HeadersFrameOption.DENY, override=True
                ),
                referrer_policy=cloudfront.ResponseHeadersReferrerPolicy(
                    referrer_policy=cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
                    override=True,
                ),
            ),
        )
        self.distribution = cloudfront.Distribution(
            self,
            "Cdn",
            comment="Crossing Words web client and puzzle packs",
            default_root_object="index.html",
            default_behavior=cloudfront.BehaviorOptions(
                origin=origins.S3BucketOrigin.with_origin_access_control(self.bucket),
                viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
                compress=True,
                response_headers_policy=headers,
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
                    response_headers_policy=headers,
                ),
            },
        )

    @property
    def url(self) -> str:
        return f"https://{self.distribution.distribution_domain_name}"

    def grant_read_packs(self, grantee: iam.IGrantable) -> None:
        """Read the packs, and list their prefix (a missing pack is NoSuchKey, not
        AccessDenied); nothing else in the bucket."""
        iam.Grant.add_to_principal(
            grantee=grantee,
            actions=["s3:GetObject"],
            resource_arns=[self.bucket.arn_for_objects(f"{PACKS_PREFIX}*")],
        )
        iam.Grant.add_to_principal(
            grantee=grantee,
            actions=["s3:ListBucket"],
            resource_arns=[self.bucket.bucket_arn],
            conditions={"StringLike": {"s3:prefix": [f"{PACKS_PREFIX}*"]}},
        )


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
            cache_control=[s3deploy.CacheControl.from_string(CLIENT_CACHE)],
        )
        s3deploy.BucketDeployment(
            self,
            "Packs",
            sources=[s3deploy.Source.asset(packs_dir)],
            destination_bucket=site.bucket,
            destination_key_prefix=PACKS_PREFIX,
            distribution=site.distribution,
            distribution_paths=[f"/{PACKS_PREFIX}*"],
            cache_control=[s3deploy.CacheControl.from_string(PACKS_CACHE)],
        )
