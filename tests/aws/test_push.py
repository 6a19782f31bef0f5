"""Web Push: who is told, exactly once per game, and expired subscriptions cleaned up.

The service runs on each store (the in-memory fake and DynamoDB under moto) with a
recording fake of the push service; the pywebpush adapter is checked against a
mocked push endpoint (``responses``), encryption and VAPID signature included.
"""

from __future__ import annotations

import base64
import datetime
import http.server
import ipaddress
import os
import socket
import ssl
import threading

import pytest
import requests
import responses
from crossing.aws.memory import RecordingPush
from crossing.aws.push import WebPush, generate_keys, pinned_session
from crossing.rooms import room as R
from crossing.rooms.ports import Conflict
from crossing.rooms.service import RoomService
from crossing.rooms.storage import load_room
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from pywebpush import WebPushException

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import Clock, make_service, phone_maker, start_game

SEC = 1000


def public_dns(host: str) -> list[str]:
    """The tests' DNS: every push host is one public address (the tests run offline)."""
    return ["142.250.74.10"]


def subscription(name: str) -> dict:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()  # noqa: E731
    return {
        "endpoint": f"https://push.example.com/v1/{name}",
        "expirationTime": None,
        "keys": {"p256dh": b64(raw), "auth": b64(os.urandom(16))},
    }


@pytest.fixture
def push() -> RecordingPush:
    return RecordingPush()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store, push, clock) -> RoomService:
    return make_service(clock, store=store, push=push)


@pytest.fixture
def phone(service):
    return phone_maker(service)


def finish(p):
    for sq in MINI.white_squares:
        assert not p.errors(p.send("type", square=sq, letter=MINI.solution[sq]))
    assert not p.errors(p.send("done"))


def stored_room(service, code):
    loaded = service.store.load_room(code)
    return load_room(loaded[0])


def test_welcome_gives_the_public_key_and_whether_notifications_are_on(phone):
    ann = phone()
    welcome = ann.inbox[0]
    assert welcome["push_key"] == "BTestPublicKey"
    assert welcome["notify"] is False
    assert not ann.errors(ann.send("notify", subscription=subscription("ann")))
    again = phone()
    again.send("hello", player=ann.player, token=ann.token)
    assert [m for m in again.inbox if m["type"] == "welcome"][-1]["notify"] is True


def test_an_away_player_is_told_once_when_everyone_else_is_done(service, phone, push, clock):
    host, (ann,), code = start_game(phone)
    sub = subscription("ann")
    assert not ann.errors(ann.send("notify", subscription=sub))
    assert service.store.get_profile(ann.player)["push"]["endpoint"] == sub["endpoint"]
    service.disconnect(ann.connection)
    assert push.sent == []  # away, but the host is still playing
    finish(host)
    assert push.to(sub["endpoint"]) == [
        {
            "title": "Crossing Words",
            "body": "Everyone else is done: the game is waiting for you.",
            "room": code,
        }
    ]
    # Done taken back and given again, ticks, a timer fired twice: still one.
    host.send("take_back")
    host.send("done")
    clock.now += 10 * SEC
    host.send("tick")
    service.timer(code)
    service.timer(code)
    assert len(push.to(sub["endpoint"])) == 1
    assert ann.player in stored_room(service, code).notified


def test_the_same_due_event_applied_twice_notifies_once(service, phone, push, clock):
    host, (ann,), code = start_game(phone)
    ann.send("notify", subscription=subscription("ann"))
    service.disconnect(ann.connection)
    finish(host)
    room = stored_room(service, code)
    # Applying the state again (a redelivered timer, a retried step) adds no note.
    _, notes = R.advance(room, clock.now)
    assert not [n for n in notes if isinstance(n, R.Notify)]
    _, notes = R.step(room, R.Play(host.player, R.Tick()), clock.now)
    assert not [n for n in notes if isinstance(n, R.Notify)]
    assert len(push.sent) == 1


def test_a_write_lost_to_a_rival_sends_nothing_and_the_retry_sends_once(
    service, phone, push, clock
):
    host, (ann,), _code = start_game(phone)
    ann.send("notify", subscription=subscription("ann"))
    service.disconnect(ann.connection)
    for sq in MINI.white_squares:
        host.send("type", square=sq, letter=MINI.solution[sq])
    store = service.store
    real_save = store.save_room
    lost = []

    def rival_first(code, state, seen, expires_at):
        if not lost:
            lost.append(seen)
            real_save(code, store.load_room(code)[0], seen, expires_at)  # someone else wrote
            raise Conflict(code)
        return real_save(code, state, seen, expires_at)

    store.save_room = rival_first
    try:
        assert not host.errors(host.send("done"))
    finally:
        store.save_room = real_save
    assert lost  # the first attempt's note was never sent: its write failed
    assert len(push.sent) == 1


def test_a_present_player_is_never_told(service, phone, push):
    host, (ann,), code = start_game(phone)
    ann.send("notify", subscription=subscription("ann"))
    finish(host)  # ann is still here, just slow
    assert push.sent == []
    assert stored_room(service, code).notified == frozenset()


def test_a_player_without_notifications_is_not_sent_anything(service, phone, push):
    host, (ann,), _code = start_game(phone)
    service.disconnect(ann.connection)
    finish(host)
    assert push.sent == []
    assert push.requests["send"] == 0


def test_each_new_game_may_notify_again(service, phone, push, clock):
    host, (ann,), code = start_game(phone)
    sub = subscription("ann")
    ann.send("notify", subscription=sub)
    service.disconnect(ann.connection)
    finish(host)
    clock.now += R.GRACE_MS
    service.timer(code)  # grace ran out: results
    assert stored_room(service, code).phase is R.Phase.RESULTS
    back = phone()
    back.send("hello", player=ann.player, token=ann.token)
    assert not host.errors(host.send("start"))
    assert stored_room(service, code).notified == frozenset()
    service.disconnect(back.connection)
    host.take()
    finish(host)
    assert len(push.to(sub["endpoint"])) == 2


def test_an_expired_subscription_is_removed(service, phone, push):
    host, (ann,), _code = start_game(phone)
    sub = subscription("ann")
    ann.send("notify", subscription=sub)
    push.gone.add(sub["endpoint"])
    service.disconnect(ann.connection)
    finish(host)
    assert push.sent == []
    assert push.requests["send"] == 1
    assert "push" not in service.store.get_profile(ann.player)


def test_notifications_off_forgets_the_subscription(service, phone):
    ann = phone()
    ann.send("notify", subscription=subscription("ann"))
    assert not ann.errors(ann.send("notify", subscription=None))
    assert "push" not in service.store.get_profile(ann.player)


def test_a_subscription_must_look_like_one(phone):
    ann = phone()
    bad = subscription("ann") | {"endpoint": "http://push.example.com/v1/ann"}
    assert ann.errors(ann.send("notify", subscription=bad))[0]["code"] == "bad-message"
    assert ann.errors(ann.send("notify", subscription={"endpoint": "https://x.example/1"}))


# --- the pywebpush adapter ------------------------------------------------------------------


@pytest.fixture
def web_push() -> WebPush:
    private_key, public_key = generate_keys()
    return WebPush(private_key, public_key, "mailto:test@example.com", resolver=public_dns)


@pytest.mark.parametrize(("status", "result"), [(201, "sent"), (404, "gone"), (410, "gone")])
def test_the_adapter_reads_the_push_service_answer(web_push, status, result):
    sub = subscription("phone")
    with responses.RequestsMock() as mocked:
        mocked.add(responses.POST, sub["endpoint"], status=status)
        assert web_push.send(sub, {"room": "ABCDEF"}) == result
        request = mocked.calls[0].request
    assert request.headers["content-encoding"] == "aes128gcm"
    assert request.headers["authorization"].startswith("vapid t=")
    assert f"k={web_push.public_key}" in request.headers["authorization"]
    assert b"ABCDEF" not in request.body  # the payload is encrypted for the browser


def test_the_adapter_raises_on_other_failures(web_push):
    sub = subscription("phone")
    with responses.RequestsMock() as mocked:
        mocked.add(responses.POST, sub["endpoint"], status=500)
        with pytest.raises(WebPushException):
            web_push.send(sub, {"room": "ABCDEF"})


def test_a_push_failure_does_not_break_the_room(service, phone, push):
    def broken(subscription, payload):
        raise RuntimeError("push service down")

    push.send = broken
    host, (ann,), code = start_game(phone)
    ann.send("notify", subscription=subscription("ann"))
    service.disconnect(ann.connection)
    finish(host)
    assert ann.player in stored_room(service, code).notified
    assert "push" in service.store.get_profile(ann.player)


def test_generated_keys_are_a_p256_pair():
    private_key, public_key = generate_keys()
    raw_public = base64.urlsafe_b64decode(public_key + "=")
    assert len(raw_public) == 65 and raw_public[0] == 4
    assert len(base64.urlsafe_b64decode(private_key + "=")) == 32


def test_a_player_on_their_own_is_never_told(service, phone, push):
    solo = phone()
    solo.send("host", name="Sol", solo=True)
    code = solo.room["code"]
    solo.send("choose", mode="race", size="mini")
    assert not solo.errors(solo.send("start"))
    solo.send("notify", subscription=subscription("sol"))
    service.disconnect(solo.connection)
    assert push.sent == []
    assert stored_room(service, code).notified == frozenset()


# --- endpoints that cannot be turned on us ---------------------------------------------------

FORBIDDEN_ENDPOINTS = [
    "http://push.example.com/v1/x",  # not https
    "https://127.0.0.1/v1/x",  # IP literals, in every spelling
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/v1/x",
    "https://2130706433/v1/x",
    "https://0x7f.0.0.1/v1/x",
    "https://127.1/v1/x",
    "https://localhost/v1/x",
    "https://printer.local/v1/x",
    "https://metadata.google.internal/v1/x",
    "https://push.example.com:8443/v1/x",  # not the default port
    "https://user:pw@push.example.com/v1/x",  # credentials
    "https://push.example.com@127.0.0.1/v1/x",
    "https://fcm.googleapis.com/x\r\nHost: 127.0.0.1",  # a header smuggled in
    "https://fcm.googleapis.com/x\n",
    "https://fcm.googleapis.com/\tx",
    "https://fcm.googleapis.com/x y",
    "https://fcm.googleapis.com/x\x00",
    "https://fcm.googleapis.com/caf\u00e9",
]


@pytest.mark.parametrize("endpoint", FORBIDDEN_ENDPOINTS)
def test_a_forbidden_endpoint_is_refused_and_changes_nothing(service, phone, endpoint):
    ann = phone()
    bad = subscription("ann") | {"endpoint": endpoint}
    (error,) = ann.errors(ann.send("notify", subscription=bad))
    assert error["code"] == "bad-message"
    assert "push" not in service.store.get_profile(ann.player)


@pytest.mark.parametrize(
    ("endpoint", "sentence"),
    [
        (
            "https://fcm.googleapis.com/x\r\nHost: 127.0.0.1",
            "That push subscription's address has characters a web address cannot have.",
        ),
        (
            "http://fcm.googleapis.com/x",
            "That push subscription's address must start with https://.",
        ),
    ],
)
def test_a_subscription_is_refused_with_what_is_wrong_with_its_address(
    service, phone, endpoint, sentence
):
    ann = phone()
    (error,) = ann.errors(
        ann.send("notify", subscription=subscription("ann") | {"endpoint": endpoint})
    )
    assert (error["code"], error["message"]) == ("bad-message", sentence)
    assert "push" not in service.store.get_profile(ann.player)


@pytest.mark.parametrize(
    "addresses",
    [
        ["127.0.0.1"],
        ["10.1.2.3"],
        ["192.168.0.7"],
        ["172.16.0.1"],
        ["169.254.169.254"],
        ["100.64.0.1"],  # carrier-grade NAT
        ["0.0.0.0"],
        ["224.0.0.1"],
        ["::1"],
        ["fe80::1"],
        ["fc00::1"],
        ["::ffff:127.0.0.1"],
        ["64:ff9b::a9fe:a9fe"],  # NAT64 of 169.254.169.254
        ["142.250.74.10", "10.0.0.5"],  # one bad address is enough
        [],
    ],
)
def test_a_host_that_resolves_inward_is_never_contacted(addresses):
    private_key, public_key = generate_keys()
    web_push = WebPush(
        private_key, public_key, "mailto:t@example.com", resolver=lambda h: addresses
    )
    sub = subscription("phone")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        mocked.add(responses.POST, sub["endpoint"], status=201)
        assert web_push.send(sub, {"room": "ABCDEF"}) == "gone"
        assert len(mocked.calls) == 0  # nothing left the machine


def test_a_host_that_does_not_resolve_is_gone():
    def fails(host):
        raise OSError("no such host")

    private_key, public_key = generate_keys()
    web_push = WebPush(private_key, public_key, "mailto:t@example.com", resolver=fails)
    assert web_push.send(subscription("phone"), {"room": "ABCDEF"}) == "gone"


def test_a_redirect_is_not_followed():
    private_key, public_key = generate_keys()
    web_push = WebPush(private_key, public_key, "mailto:t@example.com", resolver=public_dns)
    sub = subscription("phone")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        mocked.add(
            responses.POST, sub["endpoint"], status=307, headers={"Location": "https://10.0.0.1/"}
        )
        mocked.add(responses.POST, "https://10.0.0.1/", status=201)
        with pytest.raises(WebPushException):
            web_push.send(sub, {"room": "ABCDEF"})
        assert [call.request.url for call in mocked.calls] == [sub["endpoint"]]


def test_sent_aside_a_slow_push_holds_up_no_room_and_still_goes_once(store, clock):
    """The local stack hands notifications to a thread (``RoomService(aside=...)``): the
    player whose Done made the game wait is answered while the push service dawdles."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    class SlowPush(RecordingPush):
        def __init__(self) -> None:
            super().__init__()
            self.release = threading.Event()

        def send(self, subscription, payload):
            assert self.release.wait(10)
            return super().send(subscription, payload)

    push = SlowPush()
    pool = ThreadPoolExecutor(max_workers=2)
    service = make_service(clock, store=store, push=push)
    answers = []  # what the push service answered, for a later round of the rooms
    service.aside = lambda send, then: pool.submit(lambda: answers.append((then, send())))
    phone = phone_maker(service)
    host, (ann,), code = start_game(phone)
    sub = subscription("ann")
    ann.send("notify", subscription=sub)
    service.disconnect(ann.connection)
    finish(host)  # answered, though the push has not gone yet
    assert push.sent == [] and ann.player in stored_room(service, code).notified
    push.release.set()
    pool.shutdown(wait=True)
    for then, answer in answers:
        then(answer)
    assert len(push.to(sub["endpoint"])) == 1


# --- the address checked is the address connected to ---------------------------------------


def test_a_name_rebound_to_loopback_after_the_check_is_never_reached(monkeypatch):
    """DNS rebinding: the name answers a public address when it is checked and 127.0.0.1
    to any look-up after. The send connects to the checked address, never looks again."""
    real_getaddrinfo = socket.getaddrinfo
    asked: list[str] = []

    def rebinding(host, port, *args, **kwargs):
        try:
            ipaddress.ip_address(host)  # an address "resolves" to itself, as in the OS
        except ValueError:
            answer = "142.250.74.10" if not asked else "127.0.0.1"
            asked.append(host)
            return real_getaddrinfo(answer, port, *args, **kwargs)
        return real_getaddrinfo(host, port, *args, **kwargs)

    connected: list[tuple] = []

    def connect(self, address):
        connected.append(address)
        raise ConnectionRefusedError("not in a test")

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    monkeypatch.setattr(socket.socket, "connect", connect)
    private_key, public_key = generate_keys()
    web_push = WebPush(private_key, public_key, "mailto:t@example.com")  # the real resolver
    with pytest.raises(requests.ConnectionError):
        web_push.send(subscription("phone"), {"room": "ABCDEF"})
    assert asked == ["push.example.com"]  # looked up once, by the check
    assert [address[:2] for address in connected] == [("142.250.74.10", 443)]


def test_an_endpoint_stored_with_a_control_character_is_gone_at_send():
    private_key, public_key = generate_keys()
    web_push = WebPush(private_key, public_key, "mailto:t@example.com", resolver=public_dns)
    sub = subscription("phone") | {"endpoint": "https://push.example.com/x\r\nHost: 127.0.0.1"}
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        assert web_push.send(sub, {"room": "ABCDEF"}) == "gone"
        assert len(mocked.calls) == 0


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    """An HTTPS server on 127.0.0.1 whose certificate (from a CA of its own) names only
    push.example.com; it notes the TLS server name and Host header each request came with."""
    folder = tmp_path_factory.mktemp("tls")
    ca_key, leaf_key = (
        ec.generate_private_key(ec.SECP256R1()),
        ec.generate_private_key(ec.SECP256R1()),
    )
    now = datetime.datetime.now(datetime.UTC)

    def certificate(subject, key, issuer, signer, extensions):
        builder = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
            .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(hours=1))
        )
        for extension, critical in extensions:
            builder = builder.add_extension(extension, critical=critical)
        return builder.sign(signer, hashes.SHA256())

    ca = certificate(
        "test CA",
        ca_key,
        "test CA",
        ca_key,
        [(x509.BasicConstraints(ca=True, path_length=None), True)],
    )
    leaf = certificate(
        "push.example.com",
        leaf_key,
        "test CA",
        ca_key,
        [
            (x509.SubjectAlternativeName([x509.DNSName("push.example.com")]), False),
            (x509.BasicConstraints(ca=False, path_length=None), True),
            (x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), False),
        ],
    )
    pem = serialization.Encoding.PEM
    (folder / "ca.pem").write_bytes(ca.public_bytes(pem))
    (folder / "leaf.pem").write_bytes(leaf.public_bytes(pem))
    (folder / "leaf.key").write_bytes(
        leaf_key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    seen: list[tuple[str | None, str | None]] = []
    names: list[str | None] = []

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            seen.append((names[-1] if names else None, self.headers["Host"]))
            self.send_response(201)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(folder / "leaf.pem", folder / "leaf.key")
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    server = http.server.HTTPServer(("127.0.0.1", 0), Answer)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], folder / "ca.pem", seen
    server.shutdown()
    server.server_close()


def test_the_pinned_connection_speaks_tls_and_http_to_the_name(tls_server):
    port, ca, seen = tls_server
    with pinned_session("push.example.com", "127.0.0.1") as session:
        session.verify = str(ca)
        answer = session.post(f"https://push.example.com:{port}/v1/x", data=b"hi", timeout=5)
    assert answer.status_code == 201
    assert seen[-1] == ("push.example.com", f"push.example.com:{port}")


def test_the_pinned_connection_checks_the_certificate_against_the_name(tls_server):
    port, ca, _seen = tls_server
    with pinned_session("other.example.com", "127.0.0.1") as session:
        session.verify = str(ca)
        with pytest.raises(requests.exceptions.SSLError):
            session.post(f"https://other.example.com:{port}/v1/x", data=b"hi", timeout=5)
