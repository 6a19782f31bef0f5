"""Web Push through pywebpush, signed with the stage's VAPID key pair.

The keys are two base64url strings (``crossing vapid-keys`` makes a pair): the
private key is the P-256 scalar, the public key the uncompressed point the browser
subscribes with (its ``applicationServerKey``). The push service answering 404 or
410 means the subscription is gone for good; anything else that fails is raised.

pywebpush (with requests, aiohttp and cryptography behind it) is imported on the first
send, not with this module: it is half a room function's cold start, and most
invocations never notify anyone.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import requests

GONE_STATUSES = (404, 410)
TTL_SECONDS = 12 * 3600  # a phone that is off for longer does not need to hear any more
TIMEOUT_SECONDS = 5


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def generate_keys() -> tuple[str, str]:
    """A fresh VAPID pair: (private, public), both base64url without padding."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(private), _b64url(public)


class WebPush:
    """``Push`` on the real push services (FCM, Mozilla autopush, Apple...)."""

    def __init__(
        self,
        private_key: str,
        public_key: str,
        subject: str,
        *,
        session: requests.Session | None = None,
    ) -> None:
        self.private_key = private_key
        self.public_key: str | None = public_key
        self.subject = subject
        self.session = session

    def send(self, subscription: Mapping[str, Any], payload: Mapping[str, Any]) -> str:
        from pywebpush import WebPushException, webpush

        if self.session is None:
            import requests

            self.session = requests.Session()
        try:
            webpush(
                dict(subscription),
                data=json.dumps(payload, separators=(",", ":")),
                vapid_private_key=self.private_key,
                vapid_claims={"sub": self.subject},  # a fresh dict: webpush writes aud and exp
                ttl=TTL_SECONDS,
                timeout=TIMEOUT_SECONDS,
                requests_session=self.session,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE_STATUSES:
                return "gone"
            raise
        return "sent"
