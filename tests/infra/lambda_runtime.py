"""A stand-in for the Lambda Python runtime, run as ``python -I -S lambda_runtime.py``.

Like Lambda's bootstrap it finds the code at ``LAMBDA_TASK_ROOT``, the entry point in
``_HANDLER`` (``module.function``) and imports it once (the init phase); then each line
on stdin is one invocation: ``{"event": ..., "request_id": ...}``. It answers one line
each on the channel it was started with: ``{"ready": true, "init_ms": ..., "init_cpu_ms":
...}`` first (or ``{"error": traceback}``), then ``{"result": ..., "ms": ..., "cpu_ms":
...}`` or ``{"error": ...}``.

``-I -S``: no site-packages, no user site, no PYTHON* variables, not even this file's
folder on ``sys.path``: the asset and the standard library are all there is. Only the
standard library is used here. The handlers' own output (logs, metrics) goes to stderr.
"""

import json
import os
import sys
import time
import traceback

started = time.perf_counter()
channel = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)  # whatever the handler prints is its log, as on Lambda


def say(**message: object) -> None:
    channel.write(json.dumps(message) + "\n")


class Context:
    """What Lambda hands a handler besides the event (Powertools reads these)."""

    def __init__(self, request_id: str) -> None:
        self.function_name = os.environ["AWS_LAMBDA_FUNCTION_NAME"]
        self.function_version = "$LATEST"
        self.memory_limit_in_mb = int(os.environ["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"])
        self.invoked_function_arn = os.environ["CROSSING_TEST_FUNCTION_ARN"]
        self.aws_request_id = request_id
        self.log_group_name = f"/aws/lambda/{self.function_name}"
        self.log_stream_name = "test"
        self._deadline = time.monotonic() + 30

    def get_remaining_time_in_millis(self) -> int:
        return int((self._deadline - time.monotonic()) * 1000)


def main() -> None:
    sys.path.insert(0, os.environ["LAMBDA_TASK_ROOT"])
    module_name, _, function_name = os.environ["_HANDLER"].rpartition(".")
    try:
        module = __import__(module_name, fromlist=[function_name])
        handler = getattr(module, function_name)
    except BaseException:
        say(error=traceback.format_exc())
        return
    init_ms = (time.perf_counter() - started) * 1000
    # CPU time since the interpreter started: on a busy machine, closer than the wall
    # clock to what the init phase takes on a quiet one.
    init_cpu_ms = time.process_time() * 1000
    say(ready=True, init_ms=init_ms, init_cpu_ms=init_cpu_ms, modules=sorted(sys.modules))
    for line in sys.stdin:
        request = json.loads(line)
        begun, cpu = time.perf_counter(), time.process_time()
        try:
            result = handler(request["event"], Context(request["request_id"]))
        except BaseException:
            say(error=traceback.format_exc())
            continue
        ms, cpu_ms = (time.perf_counter() - begun) * 1000, (time.process_time() - cpu) * 1000
        say(result=result, ms=ms, cpu_ms=cpu_ms)


main()
