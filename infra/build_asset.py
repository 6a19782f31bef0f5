"""Build the Lambda asset without Docker: ``python3 infra/build_asset.py [--out build/lambda]``.

The asset is ``crossing`` (minus the local stack) plus the runtime dependencies as
Linux x86_64 CPython 3.11 wheels, pinned by ``constraints.txt``. boto3 is pinned in
the asset too: the runtime's copy changes under us without notice, and the adapters
were tested against the pinned one (e.g. Scheduler's ``ActionAfterCompletion``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNTIME_DEPENDENCIES = ("pydantic", "aws-lambda-powertools", "boto3")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "local")
"""``crossing.local`` is the laptop stack (starlette, moto): never imported by a handler."""


def pip_command(out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--platform",
        "manylinux2014_x86_64",
        "--implementation",
        "cp",
        "--python-version",
        "3.11",
        "--only-binary=:all:",
        "--target",
        str(out),
        "-c",
        str(ROOT / "constraints.txt"),
        *RUNTIME_DEPENDENCIES,
    ]


def build(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    subprocess.run(pip_command(out), check=True)
    shutil.copytree(ROOT / "functions" / "crossing", out / "crossing", ignore=SKIP)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lambda")
    out = parser.parse_args().out.resolve()
    build(out)
    print(f"built {out}")


if __name__ == "__main__":
    main()
