"""A small HTTP server for the Solver page: serves frontend/ and hands /api calls to the handlers.

Each API request becomes the same API Gateway HTTP API (payload 2.0) event the
Lambda receives, so the page talks to the real handler code. It is for
development and browser tests; the full local stack (`crossing serve`) is a
separate piece.
"""

from __future__ import annotations

import argparse
import base64
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]

# functions/crossing/local/devserver.py -> the repository root, in a source checkout.
DEFAULT_FRONTEND = Path(__file__).resolve().parents[3] / "frontend"


@dataclass
class LocalContext:
    """The parts of a Lambda context that Powertools reads."""

    function_name: str = "crossing-local"
    memory_limit_in_mb: int = 256
    invoked_function_arn: str = "arn:aws:lambda:local:000000000000:function:crossing-local"
    aws_request_id: str = ""


def api_routes() -> dict[tuple[str, str], Handler]:
    # Quiet, namespaced defaults before the handler modules build their Logger and Metrics.
    os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "crossing-local")
    os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "CrossingWordsLocal")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    from crossing.handlers import rules, solve

    return {("POST", "/api/solve"): solve.handler, ("GET", "/api/rules"): rules.handler}


def http_api_event(method: str, path: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    try:
        text, encoded = body.decode("utf-8"), False
    except UnicodeDecodeError:
        text, encoded = base64.b64encode(body).decode("ascii"), True
    return {
        "version": "2.0",
        "routeKey": f"{method} {path}",
        "rawPath": path,
        "rawQueryString": "",
        "headers": {name.lower(): value for name, value in headers.items()},
        "requestContext": {
            "http": {"method": method, "path": path, "protocol": "HTTP/1.1"},
            "requestId": str(uuid.uuid4()),
            "routeKey": f"{method} {path}",
            "stage": "$default",
        },
        "body": text,
        "isBase64Encoded": encoded,
    }


class DevRequestHandler(SimpleHTTPRequestHandler):
    routes: ClassVar[dict[tuple[str, str], Handler]] = {}

    def do_GET(self) -> None:
        if not self._call_api("GET"):
            super().do_GET()

    def do_POST(self) -> None:
        if not self._call_api("POST"):
            self.send_error(404, "No such API route")

    def _call_api(self, method: str) -> bool:
        path = self.path.split("?", 1)[0]
        handler = self.routes.get((method, path))
        if handler is None:
            return False
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        event = http_api_event(method, path, dict(self.headers.items()), body)
        response = handler(event, LocalContext(aws_request_id=event["requestContext"]["requestId"]))
        payload = response.get("body", "")
        data = base64.b64decode(payload) if response.get("isBase64Encoded") else payload.encode()
        self.send_response(response.get("statusCode", 200))
        for name, value in response.get("headers", {}).items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        return True

    def end_headers(self) -> None:
        # Always fetch fresh modules while developing.
        self.send_header("cache-control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def make_server(
    host: str = "127.0.0.1", port: int = 0, frontend: Path = DEFAULT_FRONTEND
) -> ThreadingHTTPServer:
    handler_class = type("BoundDevRequestHandler", (DevRequestHandler,), {"routes": api_routes()})
    return ThreadingHTTPServer((host, port), partial(handler_class, directory=str(frontend)))


@contextmanager
def running(frontend: Path = DEFAULT_FRONTEND) -> Iterator[str]:
    """Serve in a background thread on a free port; yields the base URL."""
    server = make_server(frontend=frontend)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host}:{port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the Solver page and its API locally.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--frontend", type=Path, default=DEFAULT_FRONTEND)
    args = parser.parse_args(argv)
    server = make_server(port=args.port, frontend=args.frontend)
    print(f"Solver on http://127.0.0.1:{server.server_address[1]}/solver.html")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
