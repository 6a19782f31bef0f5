"""Web Push through pywebpush, signed with the stage's VAPID key pair.

The keys are two base64url strings (``crossing vapid-keys`` makes a pair): the
private key is the P-256 scalar, the public key the uncompressed point the browser
subscribes with (its ``applicationServerKey``). The push service answering 404 or
410 means the subscription is gone for good; anything else that fails is raised.

Before every send the endpoint's host is resolved, once, and each address checked
(``rooms.push_endpoints``): a subscription that leads anywhere but the public
internet is answered "gone", so it is dropped. The send then connects to an address
that was checked (:func:`pinned_session`), never to a second look-up of the name,
which DNS could answer differently (rebinding it to 127.0.0.1, say); TLS and the
Host header still use the name. Redirects are never followed.

pywebpush (with requests, aiohttp and cryptography behind it) is imported on the first
send, not with this module: it is half a room function's cold start, and most
invocations never notify anyone.
"""

from __future__ import annotations

import base64
import json
import logging
import socket
import threading
from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from crossing.rooms.push_endpoints import check_endpoint, forbidden_address

if TYPE_CHECKING:
    import requests
    import requests.adapters

log = logging.getLogger(__name__)

GONE_STATUSES = (404, 410)
TTL_SECONDS = 12 * 3600  # a phone that is off for longer does not need to hear any more
TIMEOUT_SECONDS = 5


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def resolve(host: str) -> list[str]:
    """Every address ``host`` resolves to for HTTPS (the adapter's one DNS look-up); only
    families this machine can reach (``AI_ADDRCONFIG``), since the first is the one used."""
    infos = socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP, flags=socket.AI_ADDRCONFIG)
    return [str(info[4][0]) for info in infos]


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


@cache
def _pinned_adapter() -> Callable[[str, str], requests.adapters.HTTPAdapter]:
    """requests' own adapter, told which address to open its connections to (made on
    first use, like the session class)."""
    import requests.adapters

    class PinnedAddress(requests.adapters.HTTPAdapter):
        """Connects to ``address`` whatever the URL's host would resolve to by then;
        the host's name is still the TLS server name (SNI), the name the certificate
        must carry, and the Host header. urllib3 takes all three from the pool key
        that requests builds here, so nothing in the request resolves a name."""

        def __init__(self, host: str, address: str) -> None:
            self.host, self.address = host, address
            super().__init__()

        def build_connection_pool_key_attributes(
            self, request: requests.PreparedRequest, verify: Any, cert: Any = None
        ) -> tuple[dict[str, Any], dict[str, Any]]:
            host_params, pool_kwargs = super().build_connection_pool_key_attributes(
                request, verify, cert
            )
            if host_params["host"] != self.host:
                raise ValueError(f"this session only reaches {self.host}")
            host_params["host"] = self.address
            pool_kwargs["server_hostname"] = self.host
            return host_params, pool_kwargs

        def add_headers(self, request: requests.PreparedRequest, **kwargs: Any) -> None:
            # Else http.client would name the connection's host: the address.
            port = urlsplit(request.url or "").port
            request.headers["Host"] = self.host if port is None else f"{self.host}:{port}"

    return PinnedAddress


def pinned_session(host: str, address: str) -> requests.Session:
    """A session whose every connection goes to ``address`` (checked already) for URLs
    on ``host``; it follows no redirect and takes no proxy from the environment (a
    proxy would look the name up again)."""
    session = _no_redirects()()
    session.trust_env = False
    adapter = _pinned_adapter()(host, address)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session


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
        resolver: Callable[[str], list[str]] = resolve,
    ) -> None:
        self.private_key = private_key
        self.public_key: str | None = public_key
        self.subject = subject
        self.resolver = resolver

    def checked_address(self, endpoint: str) -> str | None:
        """The address to send to, if ``endpoint`` is a push service's shape and every
        address of its host is public, checked now (not when it was stored: DNS can
        change); None if not."""
        try:
            check_endpoint(endpoint)
            addresses = self.resolver(urlsplit(endpoint).hostname or "")
        except (ValueError, OSError):
            return None
        if not addresses or any(forbidden_address(a) for a in addresses):
            return None
        return addresses[0]

    def send(self, subscription: Mapping[str, Any], payload: Mapping[str, Any]) -> str:
        endpoint = str(subscription.get("endpoint", ""))
        host = urlsplit(endpoint).hostname or ""
        address = self.checked_address(endpoint)
        if address is None:
            log.warning("push endpoint refused: %s", host)
            return "gone"
        from pywebpush import WebPushException, webpush

        # A session a send: it is bound to this endpoint's checked address.
        try:
            with pinned_session(host, address) as session:
                webpush(
                    dict(subscription),
                    data=json.dumps(payload, separators=(",", ":")),
                    vapid_private_key=self.private_key,
                    vapid_claims={"sub": self.subject},  # fresh: webpush writes aud and exp
                    ttl=TTL_SECONDS,
                    timeout=TIMEOUT_SECONDS,
                    requests_session=session,
                )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE_STATUSES:
                return "gone"
            raise
        return "sent"


class DeferredPush:
    """``WebPush`` with keys that ``keys()`` gives at the first use, not before: in the
    cloud they are a Secrets Manager secret, and reading it (a client and a round trip)
    was part of every room function's cold start, though only a hello and a notification
    need them. Without both keys notifications are off, as without ``push`` at all: no
    public key, and a send fails."""

    def __init__(self, keys: Callable[[], tuple[str | None, str | None]], subject: str) -> None:
        self._keys = keys
        self._subject = subject
        self._lock = threading.Lock()  # the rooms' thread and a push thread, both first
        self._read = False
        self._push: WebPush | None = None

    def _loaded(self) -> WebPush | None:
        with self._lock:
            if not self._read:
                private, public = self._keys()
                self._push = WebPush(private, public, self._subject) if private and public else None
                self._read = True
            return self._push

    @property
    def public_key(self) -> str | None:
        push = self._loaded()
        return push.public_key if push is not None else None

    def send(self, subscription: Mapping[str, Any], payload: Mapping[str, Any]) -> str:
        push = self._loaded()
        if push is None:
            raise RuntimeError("notifications are off: no VAPID keys")
        return push.send(subscription, payload)
