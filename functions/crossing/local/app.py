"""The local stack's web server: the client's files, the WebSocket, ``@connections``,
and the HTTP API routes (the Solver).

Each WebSocket frame becomes the API Gateway event the Lambda handler gets, and
runs in a worker thread, so the handler's own ``post_to_connection`` call (an HTTP
request back to this server, on moto) is answered while it waits. On SQLite, at light
load, a letter or tick with nothing else in hand runs on the loop itself
(``Sockets.inline_below``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import secrets
import threading
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from crossing.handlers import rules, solve
from crossing.handlers import ws as handlers
from crossing.local.events import LambdaContext, http_api_event, websocket_event
from crossing.local.workers import LinkDown, Peers, holder

GONE = {"message": "Gone"}
MAX_WAITING = 1000
"""Messages queued for one phone before it counts as gone (it has stopped reading)."""
# Handlers wait on a room's writer while it applies their batch: with room for many
# waiting at once, frames for a busy room queue into one batch instead of a line. A
# waiting handler costs no CPU, and each connection has at most one frame in hand, so
# there is a thread for every frame of fifty rooms of six (with 64, most of a busy
# server's frames waited here, where they cannot join their room's batch).
HANDLERS = 512
_handlers = ThreadPoolExecutor(max_workers=HANDLERS, thread_name_prefix="handler")


def handler_pool() -> ThreadPoolExecutor:
    """The handlers' threads (a worker told that a socket it was to post to has gone
    applies that socket's leaving on them, as its own close would)."""
    return _handlers


log = logging.getLogger(__name__)


class Sockets:
    """Open WebSockets by connection id, and the loop they live on.

    Also the rooms' ``Connections`` for the SQLite backend: a message goes straight to
    the socket, with no HTTP request back to this server. ``send`` only queues: each
    connection has one writer on the loop that sends its messages in order, so a
    handler thread never waits for the loop (with fifty rooms typing, that hop per
    message cost more than the rest of a letter).
    """

    queued = True
    """``send`` returns at once: the fan-out need not spread posts over threads."""

    def __init__(self, worker: int = 0, peers: Peers | None = None) -> None:
        self.worker = worker
        """This process's number among the local workers: it starts every connection id."""
        self.peers = peers
        """The other workers, where there are any: a socket they hold is posted to there."""
        self.open: dict[str, WebSocket] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False
        """The server is stopping: sockets it closes are not players leaving."""
        self._lock = threading.Lock()
        self._outbox: dict[str, list[str]] = {}  # texts not yet sent, per connection
        # Connections whose writer is to start, and whether the loop has been woken for
        # them: a batch's fan-out wakes the loop once, not once per phone.
        self._starting: dict[str, WebSocket] = {}
        self._waking = False
        self._writers: set[asyncio.Task[None]] = set()
        self._batch = threading.local()  # a fan-out's posts for other workers, per thread
        self.hand_over: Callable[[str, Any], Awaitable[Any] | None] | None = None
        """Where there are other workers: a frame for a room another owns, handed to it
        from the loop (``HandOver``), or None for one to handle here."""
        self.inline_below = 0
        """While this process holds fewer sockets than this, a frame that comes when no
        other is in hand is handled on the loop itself, not handed to a thread and back:
        at light load, when each letter runs on a cold CPU, those two hops were a tenth
        of a Large room's CPU per letter. Under load, frames go to the threads as before,
        so one waiting on the disk never holds up the sockets. Only where the service
        posts to these sockets in-process (over HTTP back to this loop it would wait for
        itself)."""
        self.holding: Callable[[int], None] | None = None
        """Told how many sockets this process holds whenever that changes (the first of
        several workers: ``funnel.Intake``)."""

    def opened(self, connection: str, ws: WebSocket) -> None:
        self.open[connection] = ws
        if self.holding is not None:
            self.holding(len(self.open))

    def closed(self, connection: str) -> WebSocket | None:
        ws = self.open.pop(connection, None)
        if self.holding is not None:
            self.holding(len(self.open))
        return ws

    def send(self, connection: str, message: Mapping[str, Any]) -> bool:
        text = _text(message)
        if self.peers is None or (worker := holder(connection)) == self.worker:
            return self.send_text(connection, text)
        batch = getattr(self._batch, "posts", None)
        if batch is not None:
            batch.setdefault(worker, []).append((connection, text))
            return True  # told with the rest of the batch
        return self._tell(worker, [(connection, text)])

    @contextlib.contextmanager
    def together(self) -> Iterator[None]:
        """Within this, posts to sockets another worker holds go to it at the end, in one
        message (a fan-out's half dozen would be as many writes and wake-ups)."""
        self._batch.posts = {}
        try:
            yield
        finally:
            batch, self._batch.posts = self._batch.posts, None
            for worker, texts in batch.items():
                self._tell(worker, texts)

    def _tell(self, worker: int, texts: list[tuple[str, str]]) -> bool:
        assert self.peers is not None
        try:
            self.peers.tell(worker, "post", texts)
        except LinkDown:
            return False  # its process has gone, and its sockets with it
        return True

    def send_text(self, connection: str, text: str) -> bool:
        """Queue ``text`` for a socket this process holds; False if it is gone."""
        ws, loop = self.open.get(connection), self.loop
        if ws is None or loop is None:
            return False  # gone, as API Gateway's 410
        with self._lock:
            waiting = self._outbox.get(connection)
            wake = False
            if waiting is None:
                self._outbox[connection] = [text]
                self._starting[connection] = ws
                wake, self._waking = not self._waking, True
            elif len(waiting) < MAX_WAITING:
                waiting.append(text)  # its writer is running (or starting) and takes this
                return True
        try:
            if waiting is None:
                if wake and asyncio._get_running_loop() is loop:
                    loop.call_soon(self._start_all)  # a frame handled on the loop: no wake-up
                elif wake:
                    loop.call_soon_threadsafe(self._start_all)
                return True
            # A phone that reads nothing for this long is as good as gone: close it, as
            # API Gateway does, and the room hears of its leaving.
            loop.call_soon_threadsafe(self._start_close, connection, ws)
        except RuntimeError:  # the loop has closed: the server is stopping
            with self._lock:
                self._outbox.pop(connection, None)
                self._starting.pop(connection, None)
                self._waking = False
        return False

    def _start_all(self) -> None:
        with self._lock:
            starting, self._starting, self._waking = self._starting, {}, False
        for connection, ws in starting.items():
            self._start(connection, ws)

    def _start(self, connection: str, ws: WebSocket) -> None:
        # Run at once, on the loop: a phone that reads is writable, so its texts are
        # sent without waiting, and a task apiece (created, stepped, its end called
        # back) cost more than the sends. One that must wait goes on as a task.
        writing = self._write(connection, ws)
        try:
            waiting = writing.send(None)
        except StopIteration:
            return
        task = asyncio.ensure_future(_Rest(writing, waiting))
        self._writers.add(task)  # the loop keeps only weak references to tasks
        task.add_done_callback(self._writers.discard)

    async def _write(self, connection: str, ws: WebSocket) -> None:
        while True:
            with self._lock:
                texts = self._outbox.get(connection) or []
                if not texts:
                    self._outbox.pop(connection, None)
                    return
                self._outbox[connection] = []
            try:
                for text in texts:
                    await ws.send_text(text)
            except (RuntimeError, OSError, WebSocketDisconnect):
                # Gone mid-way: its reader sees the close and the room hears it left.
                with self._lock:
                    self._outbox.pop(connection, None)
                return

    def _start_close(self, connection: str, ws: WebSocket) -> None:
        with self._lock:
            self._outbox.pop(connection, None)
        task = asyncio.ensure_future(_close(ws))
        self._writers.add(task)
        task.add_done_callback(self._writers.discard)


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


def connection_id(worker: int = 0) -> str:
    # Clients must treat ids as opaque (API Gateway's are URL-safe, padded); here they
    # start with the worker holding the socket, so any process can post to it.
    return f"{worker}.{secrets.token_urlsafe(12)}"


def build_app(frontend: Path | None, sockets: Sockets | None = None) -> Starlette:
    sockets = sockets or Sockets()

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        sockets.loop = asyncio.get_running_loop()
        connection = connection_id(sockets.worker)
        sockets.opened(connection, ws)
        await _invoke(handlers.connect, websocket_event("CONNECT", connection))
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                # A binary frame is handed on too (the service answers it), never a reason
                # to drop the socket.
                body = frame.get("text") if frame.get("text") is not None else frame.get("bytes")
                # One frame at a time per connection, in order, like API Gateway's invocations.
                if await _handed_over(sockets, connection, body):
                    continue
                event = websocket_event("MESSAGE", connection, body=body)
                if not _handling and len(sockets.open) < sockets.inline_below and _brief(body):
                    _run(handlers.message, event)  # nothing else in hand: here, on the loop
                else:
                    await _invoke(handlers.message, event)
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass  # the browser went away: API Gateway would call $disconnect now
        finally:
            sockets.closed(connection)
            if not sockets.stopping:  # a restart keeps every seat, as a network blip would
                await _invoke(handlers.disconnect, websocket_event("DISCONNECT", connection))

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
        ws = sockets.closed(request.path_params["connection"])
        if ws is None:
            return _gone()
        await ws.close()
        return Response(status_code=204)

    def http_route(path: str, method: str, handler: Any) -> Route:
        async def endpoint(request: Request) -> Response:
            event = http_api_event(method, path, dict(request.headers), await request.body())
            response = await _invoke(handler, event) or {"statusCode": 500, "body": ""}
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
        http_route("/api/solve", "POST", solve.handler),
        http_route("/api/rules", "GET", rules.handler),
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


def _text(message: Mapping[str, Any]) -> str:
    # allow_nan=False: NaN and Infinity are not JSON, and a browser would refuse them.
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


async def _no_frontend(request: Request) -> Response:
    return Response("The game's client (frontend/) is not here yet.", media_type="text/plain")


async def _handed_over(sockets: Sockets, connection: str, body: Any) -> bool:
    """Whether another worker applied the frame, handed to it from the loop. A frame
    whose owner cannot be reached goes the handler's way (which applies it here)."""
    if sockets.hand_over is None:
        return False
    try:
        answer = sockets.hand_over(connection, body)
        if answer is None:
            return False
        await answer
    except LinkDown:
        return False
    except Exception:
        log.exception("handing a frame over failed")
        return False
    return True


_handling = 0  # handlers running on the pool's threads now (changed on the loop only)


async def _invoke(handler: Any, event: dict[str, Any]) -> Any:
    """Run a handler as Lambda would: in its own thread; a failure is logged, not fatal."""
    global _handling
    _handling += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(_handlers, _run, handler, event)
    finally:
        _handling -= 1


BRIEF = frozenset({"type", "clear", "undo", "tick"})
"""The frames of play a phone sends most (a letter, a tick), which only step a room
already held and write it: no password to hash, nothing to wait for but the disk."""


def _brief(body: Any) -> bool:
    try:
        return isinstance(body, str) and json.loads(body).get("action") in BRIEF
    except (ValueError, AttributeError, RecursionError):
        return False


def _run(handler: Any, event: dict[str, Any]) -> Any:
    """Run a handler on the calling thread; a failure is logged, not fatal."""
    try:
        return handler(event, LambdaContext())
    except Exception:
        log.exception("%s failed", getattr(handler, "__name__", "handler"))
        return None
