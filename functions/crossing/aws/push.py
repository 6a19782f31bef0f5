"""Web Push through pywebpush, signed with the stage's VAPID key pair.

The keys are two base64url strings (``crossing vapid-keys`` makes a pair): the
private key is the P-256 scalar, the public key the uncompressed point the browser
subscribes with (its ``applicationServerKey``). The push service answering 404 or
410 means the subscription is gone for good; anything else that fails is raised.

Before every send the endpoint's host is resolved and each address checked
(``rooms.push_endpoints``): a subscription that leads anywhere but the public
internet is answered "gone", so it is dropped, and redirects are never followed.

pywebpush (with requests, aiohttp and cryptography behind it) is imported on the first
send, not with this module: it is half a room function's cold start, and most
invocations never notify anyone.
"""

from __future__ import annotations

import base64
import json
import logging
import socket
from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from crossing.rooms.push_endpoints import check_endpoint, forbidden_address

if TYPE_CHECKING:
    import requests

log = logging.getLogger(__name__)

GONE_STATUSES = (404, 410)
TTL_SECONDS = 12 * 3600  # a phone that is off for longer does not need to hear any more
TIMEOUT_SECONDS = 5


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def resolve(host: str) -> list[str]:
    """Every address ``host`` resolves to for HTTPS (the adapter's one DNS look-up)."""
    return [str(info[4][0]) for info in socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP)]


@cache
def _no_redirects() -> type[requests.Session]:
    """A session class that never follows a redirect: a push service has no reason to
    send one, and following it would let the first hop's check be stepped around.
    Made on first use, so requests is not imported at cold start."""
    import requests

    class NoRedirects(requests.Session):
        def request(self, *args: Any, **kwargs: Any) -> requests.Response:
            kwargs["allow_redirects"] = False
            return super().request(*args, **kwargs)

    return NoRedirects


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
        resolver: Callable[[str], list[str]] = resolve,
    ) -> None:
        self.private_key = private_key
        self.public_key: str | None = public_key
        self.subject = subject
        self.session = session  # made on the first send
        self.resolver = resolver

    def reachable(self, endpoint: str) -> bool:
        """True if ``endpoint`` is a push service's shape and every address of its host
        is public, checked now (not when it was stored: DNS can change)."""
        try:
            check_endpoint(endpoint)
            addresses = self.resolver(urlsplit(endpoint).hostname or "")
        except (ValueError, OSError):
            return False
        return bool(addresses) and not any(forbidden_address(a) for a in addresses)

    def send(self, subscription: Mapping[str, Any], payload: Mapping[str, Any]) -> str:
        endpoint = str(subscription.get("endpoint", ""))
        if not self.reachable(endpoint):
            log.warning("push endpoint refused: %s", urlsplit(endpoint).hostname)
            return "gone"
        from pywebpush import WebPushException, webpush

        if self.session is None:
            self.session = _no_redirects()()
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
