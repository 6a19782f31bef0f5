"""The local stack's web server: the client's files, the WebSocket, ``@connections``,
and the HTTP API routes (the Solver).

Each WebSocket's reader stamps a frame with the moment its bytes arrived and hands it
to the room engine (``engine.py``), which applies it in its next round; the round's
messages come back to ``Sockets.deliver``, on the loop, once its writes are committed.
The Solver's routes run on a few threads of their own (the move generator lets go of
the interpreter while it searches), so a long solve never holds up a room.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import importlib
import logging
import secrets
from collections.abc import Coroutine, Generator, Iterator, Mapping
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from crossing.handlers.http import FAILED, MAX_BODY_BYTES, error_response
from crossing.local.engine import Engine, text_of
from crossing.local.events import LambdaContext, http_api_event
from crossing.rooms.sent import now_ms
from crossing.rooms.work import Frame, Left

GONE = {"message": "Gone"}
MAX_WAITING = 1000
"""Messages queued for one phone before it counts as gone (it has stopped reading)."""
SOLVES_WAITING = 16
"""Solver requests in hand at once; past that, one is answered 503 ``busy`` at once."""
SOLVE_TIMEOUT_S = 30.0
DRAINED_BYTES = 10 * 1024 * 1024
"""The largest body read (and dropped) to answer it: API Gateway's HTTP API limit."""

log = logging.getLogger(__name__)


class Sockets:
    """Open WebSockets by connection id, and the room engine's ``Outbox``.

    Also the rooms' ``Connections`` for the SQLite backend: inside a round (``held``)
    what the rooms send is kept, and handed back to the loop (``deliver``) only once the
    round's writes are committed. Each connection has one writer on the loop that sends
    its messages in order.
    """

    queued = True
    """``send`` returns at once: the fan-out need not spread posts over threads."""

    def __init__(self) -> None:
        self.open: dict[str, WebSocket] = {}
        self.stopping = False
        """The server is stopping: sockets it closes are not players leaving."""
        self._said: list[tuple[str, str]] | None = None  # the round's messages, if one runs
        self._outbox: dict[str, list[str]] = {}  # texts not yet sent, per connection
        self._writers: set[asyncio.Future[Any]] = set()

    @contextlib.contextmanager
    def held(self) -> Iterator[list[tuple[str, str]]]:
        said: list[tuple[str, str]] = []
        self._said = said
        try:
            yield said
        finally:
            self._said = None

    def send(self, connection: str, message: Mapping[str, Any]) -> bool:
        """Keep ``message`` for the round's end; False if the phone has gone (API Gateway's
        410)."""
        if connection not in self.open:
            return False
        if self._said is None:
            raise RuntimeError("the rooms send only inside a round of the engine")
        self._said.append((connection, text_of(message)))
        return True

    def deliver(self, messages: list[tuple[str, str]]) -> None:
        """Send each text to its socket, in order (on the loop)."""
        for connection, text in messages:
            ws = self.open.get(connection)
            if ws is None:
                continue  # gone: its reader has told the engine
            waiting = self._outbox.get(connection)
            if waiting is None:
                self._outbox[connection] = [text]
                self._start(connection, ws)
            elif len(waiting) < MAX_WAITING:
                waiting.append(text)  # its writer is running and takes this
            else:
                # A phone that reads nothing for this long is as good as gone: close it, as
                # API Gateway does, and the room hears of its leaving.
                self._outbox.pop(connection, None)
                self._keep(asyncio.ensure_future(_close(ws)))

    def _start(self, connection: str, ws: WebSocket) -> None:
        # Run at once, on the loop: a phone that reads is writable, so its texts are
        # sent without waiting, and a task apiece (created, stepped, its end called
        # back) cost more than the sends. One that must wait goes on as a task.
        writing = self._write(connection, ws)
        try:
            waiting = writing.send(None)
        except StopIteration:
            return
        self._keep(asyncio.ensure_future(_Rest(writing, waiting)))

    def _keep(self, task: asyncio.Future[Any]) -> None:
        self._writers.add(task)  # the loop keeps only weak references to tasks
        task.add_done_callback(self._writers.discard)

    async def _write(self, connection: str, ws: WebSocket) -> None:
        while texts := self._outbox.get(connection):
            self._outbox[connection] = []
            try:
                for text in texts:
                    await ws.send_text(text)
            except (RuntimeError, OSError, WebSocketDisconnect):
                break  # gone mid-way: its reader sees the close and the room hears it left
        self._outbox.pop(connection, None)


class _Rest:
    """The rest of a coroutine run by hand until it waited on ``waiting`` (a future):
    awaited in a task, it goes on as if the task had started it (what Python 3.12's
    eager tasks do)."""

    def __init__(self, coroutine: Coroutine[Any, Any, None], waiting: Any) -> None:
        self._coroutine = coroutine
        self._waiting = waiting

    def __await__(self) -> Generator[Any, None, None]:
        waiting = self._waiting
        while True:
            try:
                yield waiting  # the task waits on it, as on any future the coroutine awaits
            except BaseException as error:  # cancelled: the coroutine sees it where it waits
                try:
                    waiting = self._coroutine.throw(error)
                except StopIteration:
                    return
            else:
                try:
                    waiting = self._coroutine.send(None)
                except StopIteration:
                    return


async def _close(ws: WebSocket) -> None:
    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
        await ws.close(code=1008)


def connection_id() -> str:
    # Clients must treat ids as opaque (API Gateway's are URL-safe, padded).
    return secrets.token_urlsafe(12)


def build_app(
    frontend: Path | None,
    sockets: Sockets,
    engine: Engine,
    searches: Executor,
    *,
    connections_api: bool = False,
) -> Starlette:
    """The app; with ``connections_api``, API Gateway's ``@connections`` too (the moto
    backend's rooms post to the phones over HTTP, as in the cloud)."""
    in_hand = 0

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        connection = connection_id()
        source = ws.client.host if ws.client else None  # as API Gateway's sourceIp
        sockets.open[connection] = ws
        try:
            while True:
                frame = await ws.receive()
                arrived = now_ms()  # the pace counts frames by this, whenever applied
                if frame["type"] == "websocket.disconnect":
                    break
                # A binary frame is handed on too (the rooms answer it), never a reason to
                # drop the socket.
                text, data = frame.get("text"), frame.get("bytes")
                body = text if text is not None else data
                engine.put(Frame(connection, body, arrived, binary=text is None, source=source))
                await engine.room_for_more()
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass  # the browser went away: API Gateway would call $disconnect now
        finally:
            sockets.open.pop(connection, None)
            if not sockets.stopping:  # a restart keeps every seat, as a network blip would
                engine.put(Left(connection))

    async def post_to_connection(request: Request) -> Response:
        ws = sockets.open.get(request.path_params["connection"])
        if ws is None:
            return _gone()
        try:
            await ws.send_text((await request.body()).decode("utf-8"))
        except (RuntimeError, WebSocketDisconnect):
            return _gone()
        return Response(status_code=200)

    async def get_connection(request: Request) -> Response:
        if request.path_params["connection"] not in sockets.open:
            return _gone()
        return JSONResponse({"connectionId": request.path_params["connection"]})

    async def delete_connection(request: Request) -> Response:
        ws = sockets.open.pop(request.path_params["connection"], None)
        if ws is None:
            return _gone()
        await ws.close()
        return Response(status_code=204)

    def http_route(path: str, method: str, handler: str) -> Route:
        """The HTTP API's Lambda handler ``crossing.handlers.<handler>``, run on the
        searches' threads (imported there on the first request: Powertools' tracer
        brings X-Ray's SDK, a third of a second that starting need not wait for)."""

        async def endpoint(request: Request) -> Response:
            nonlocal in_hand
            if in_hand >= SOLVES_WAITING:
                return _busy()
            body = await _body_up_to(request, MAX_BODY_BYTES)
            event = http_api_event(method, path, dict(request.headers), body)
            in_hand += 1
            try:
                running = asyncio.get_running_loop().run_in_executor(searches, _run, handler, event)
                response = await asyncio.wait_for(running, SOLVE_TIMEOUT_S)
            except TimeoutError:
                return _busy()
            finally:
                in_hand -= 1
            response = response or error_response(500, "internal", FAILED)
            payload = response.get("body", "")
            data = base64.b64decode(payload) if response.get("isBase64Encoded") else payload
            return Response(
                data,
                status_code=response.get("statusCode", 200),
                headers=response.get("headers", {}),
            )

        return Route(path, endpoint, methods=[method])

    routes: list[Any] = [
        WebSocketRoute("/ws", websocket),
        http_route("/api/solve", "POST", "solve"),
        http_route("/api/rules", "GET", "rules"),
    ]
    if connections_api:
        routes += [
            Route("/@connections/{connection}", post_to_connection, methods=["POST"]),
            Route("/@connections/{connection}", get_connection, methods=["GET"]),
            Route("/@connections/{connection}", delete_connection, methods=["DELETE"]),
        ]
    if frontend is not None and frontend.is_dir():
        page = frontend / "watch.html"
        # The rules send players to …/watch (the cloud's CloudFront Function does the same);
        # the cloud writes config.json, and here the page's own server is the socket's.
        routes.append(Route("/watch", lambda request: FileResponse(page)))
        routes.append(Route("/config.json", lambda request: JSONResponse({})))
        routes.append(Mount("/", StaticFiles(directory=frontend, html=True), name="frontend"))
    else:
        routes.append(Route("/", _no_frontend))
    return Starlette(routes=routes)


def _gone() -> Response:
    # botocore reads the error code from this header: GoneException, as API Gateway sends.
    return JSONResponse(GONE, status_code=410, headers={"x-amzn-ErrorType": "GoneException"})


async def _no_frontend(request: Request) -> Response:
    return Response("The game's client (frontend/) is not here yet.", media_type="text/plain")


async def _body_up_to(request: Request, limit: int) -> bytes:
    """The request's body, but never more than one byte past ``limit``: enough for the
    handler to refuse it as too large, without holding whatever else was sent. The rest
    is read and dropped, up to API Gateway's own limit (``DRAINED_BYTES``), so the client
    hears the refusal rather than a reset while it is still sending."""
    body, drained = bytearray(), 0
    async for chunk in request.stream():
        drained += len(chunk)
        if len(body) <= limit:
            body += chunk[: limit + 1 - len(body)]
        if drained > DRAINED_BYTES:
            break
    return bytes(body)


def _busy() -> Response:
    message = "The Solver is busy; please try again in a moment."
    body = {"error": {"code": "busy", "message": message}}
    return JSONResponse(body, status_code=503, headers={"retry-after": "1"})


def _run(handler: str, event: dict[str, Any]) -> Any:
    """Run an HTTP API handler as Lambda would; a failure is logged, not fatal."""
    try:
        return importlib.import_module(f"crossing.handlers.{handler}").handler(
            event, LambdaContext()
        )
    except Exception:
        log.exception("%s failed", handler)
        return None
