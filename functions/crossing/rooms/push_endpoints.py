"""Which Web Push endpoints the server will ever connect to.

A subscription's endpoint is a URL the browser hands us and the server later POSTs
to, so a forged one could point the server at itself or at the cloud's metadata
service. Two checks keep it on real push services: the URL's shape when the
subscription arrives (:func:`check_endpoint`: printable ASCII only, https, a public
host name, no IP literal, no credentials, the default port), and every address the
name resolves to just before each send (:func:`forbidden_address`: never loopback,
private, link-local, multicast or reserved). Both are pure; the adapter does the
resolving, once, and connects to the address it checked.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

# A host name of letters, digits and hyphens, dot-separated, ending in a letters-only
# top-level label: every numeric or hex spelling of an address (127.1, 0x7f.0.0.1,
# 2130706433) fails it, and so does a bracketed IPv6 literal.
_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_HOST = re.compile(rf"^(?:{_LABEL}\.)+[a-z]{{2,63}}$")
# Names that resolve inside the machine or its network whatever DNS says.
_LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".home.arpa", ".arpa", ".lan")

# A URL as browsers serialise it: printable ASCII, no spaces. urlsplit quietly drops a
# CR, LF or tab, so "https://push.example/x\r\nHost: ..." would look clean to the
# checks below and be stored, and sent, as it came.
_URL_TEXT = re.compile(r"[!-~]+")

FORBIDDEN_ENDPOINT = "That push subscription's address is not a push service."
NOT_A_URL = "That push subscription's address has characters a web address cannot have."
NOT_HTTPS = "That push subscription's address must start with https://."


def check_endpoint(url: str) -> str:
    """The endpoint if it may be stored; ``ValueError`` (with a sentence) if not.

    >>> check_endpoint("https://fcm.googleapis.com/fcm/send/abc")
    'https://fcm.googleapis.com/fcm/send/abc'
    >>> check_endpoint("https://127.0.0.1:8443/x")
    Traceback (most recent call last):
    ...
    ValueError: That push subscription's address is not a push service.
    >>> check_endpoint("https://fcm.googleapis.com/x\\r\\nHost: 127.0.0.1")
    Traceback (most recent call last):
    ...
    ValueError: That push subscription's address has characters a web address cannot have.
    """
    if not _URL_TEXT.fullmatch(url):
        raise ValueError(NOT_A_URL)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ValueError(FORBIDDEN_ENDPOINT) from None
    if parts.scheme != "https":
        raise ValueError(NOT_HTTPS)
    host = (parts.hostname or "").rstrip(".")
    if (
        parts.username is not None
        or parts.password is not None
        or port not in (None, 443)
        or not _HOST.match(host)
        or host == "localhost"
        or host.endswith(_LOCAL_SUFFIXES)
    ):
        raise ValueError(FORBIDDEN_ENDPOINT)
    return url


def forbidden_address(address: str) -> bool:
    """True for an address a push must never reach: anything not on the public internet.

    >>> [forbidden_address(a) for a in ("142.250.74.10", "127.0.0.1", "169.254.169.254")]
    [False, True, True]
    >>> forbidden_address("::ffff:10.0.0.1")
    True
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        # An IPv4 address carried inside IPv6 (mapped, 6to4, NAT64) is judged as itself.
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is None and ip in ipaddress.ip_network("64:ff9b::/96"):
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            return forbidden_address(str(embedded))
    return not ip.is_global or ip.is_multicast or ip.is_reserved or ip.is_unspecified
