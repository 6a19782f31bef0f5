"""Build the Lambda asset without Docker: ``python3 infra/build_asset.py [--out build/lambda]``.

The asset is what the functions run, built for their runtime (``PYTHON_VERSION``, Linux
x86_64, Amazon Linux 2023):

1. the runtime dependencies of ``pyproject.toml``, as wheels for the Lambda platform,
   pinned by ``constraints.txt`` (a dependency published only as a source distribution
   is built into a wheel first, and must come out pure Python);
2. ``crossing`` itself, built from source by pip with the runtime's interpreter, so any
   extension module compiles for the runtime; the local stack is left out;
3. botocore's models of the AWS services the functions never call left out;
4. bytecode compiled by that interpreter with unchecked hashes: the CDK zips the asset
   with fixed timestamps, so timestamp-checked ``.pyc`` files would look stale on Lambda
   and every cold start would compile again (in memory: ``/var/task`` is read-only).

Then every shared library in it is checked against the runtime: built for this Python
(or the stable ABI) and needing no glibc newer than Amazon Linux 2023's.

Building needs the runtime's Python on this machine (``python3.13`` on PATH, pyenv, or
``CROSSING_LAMBDA_PYTHON=/path/to/python3.13``) and PyPI. boto3 is pinned in the asset
too: the runtime's copy changes under us without notice.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON_VERSION = "3.13"
"""The Lambda runtime (``infra/functions.py`` makes ``python3.13`` from it)."""
PLATFORMS = ("manylinux2014_x86_64", "manylinux_2_28_x86_64", "manylinux_2_34_x86_64")
"""Wheels Amazon Linux 2023 (glibc 2.34, x86_64) runs; pip does not widen 2_28 or 2_34."""
GLIBC_LIMIT = (2, 34)
"""Amazon Linux 2023's glibc, under every Python runtime from 3.12 on."""
LEFT_OUT = ("crossing/local", "bin")
"""The laptop stack (starlette, moto: never imported by a handler) and console scripts."""
BOTOCORE_SERVICES = frozenset(
    {
        "apigatewaymanagementapi",
        "cognito-idp",
        "dynamodb",
        "s3",
        "scheduler",
        "secretsmanager",
        "sqs",
    }
)
"""The AWS services the functions call (``crossing.aws``); botocore's models of the other
four hundred are left out. Each cold start's first client lists botocore's data folder
twice (449 folders: 16 ms of CPU), and they were 28 MiB of the asset."""
SOURCE = ("pyproject.toml", "README.md", "setup.py", "setup.cfg", "MANIFEST.in", "functions")
"""What pip needs to build ``crossing`` (whichever of these exist)."""


class BuildError(Exception):
    """The asset cannot be built here, and why (``main`` prints it and exits 1)."""


def runtime_dependencies(root: Path = ROOT) -> list[str]:
    """``[project] dependencies``: the one list of what the functions import."""
    with (root / "pyproject.toml").open("rb") as file:
        return list(tomllib.load(file)["project"]["dependencies"])


def _is_version(python: str, version: str) -> bool:
    try:
        out = subprocess.run(
            [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except OSError:
        return False
    return out.returncode == 0 and out.stdout.strip() == version


def find_runtime_python(version: str = PYTHON_VERSION) -> str | None:
    """An interpreter of the runtime's version, or None: CROSSING_LAMBDA_PYTHON, then this
    Python if it is that version, ``python3.13`` on PATH, pyenv's."""
    candidates = [os.environ.get("CROSSING_LAMBDA_PYTHON"), shutil.which(f"python{version}")]
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        candidates.insert(1, sys.executable)
    if shutil.which("pyenv"):
        prefix = subprocess.run(["pyenv", "prefix", version], capture_output=True, text=True)
        if prefix.returncode == 0:
            candidates.append(str(Path(prefix.stdout.strip()) / "bin" / f"python{version}"))
    for python in candidates:
        if python and _is_version(python, version):
            return python
    return None


def how_to_get_runtime(version: str = PYTHON_VERSION) -> str:
    return (
        f"install it (`pyenv install {version}`, or python{version} on PATH), or set "
        f"CROSSING_LAMBDA_PYTHON to its interpreter"
    )


def runtime_python(version: str = PYTHON_VERSION) -> str:
    """An interpreter of the runtime's version: it compiles the bytecode and our package."""
    python = find_runtime_python(version)
    if python is None:
        raise BuildError(f"The Lambda runtime is Python {version}: {how_to_get_runtime(version)}.")
    return python


def _pip(python: str, *args: str) -> list[str]:
    quiet = ["--quiet", "--disable-pip-version-check"]
    if args[0] == "install":  # CI builds as root, on purpose, into a folder of its own
        quiet.append("--root-user-action=ignore")
    return [python, "-m", "pip", *args, *quiet]


def pip_command(python: str, out: Path, wheelhouse: Path, requirements: Iterable[str]) -> list[str]:
    """The dependencies as wheels for the Lambda platform, never compiled here."""
    platforms = [arg for platform in PLATFORMS for arg in ("--platform", platform)]
    return [
        *_pip(python, "install"),
        *platforms,
        "--implementation",
        "cp",
        "--python-version",
        PYTHON_VERSION,
        "--only-binary=:all:",
        "--find-links",
        str(wheelhouse),
        "--no-compile",
        "--target",
        str(out),
        "-c",
        str(ROOT / "constraints.txt"),
        *requirements,
    ]


def source_only(python: str, requirements: list[str]) -> list[str]:
    """``name==version`` of each dependency whose pinned release PyPI has only as an sdist."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run(
            [
                *_pip(python, "install"),
                "--dry-run",
                "--ignore-installed",
                "--report",
                str(report),
                "-c",
                str(ROOT / "constraints.txt"),
                *requirements,
            ],
            check=True,
        )
        chosen = json.loads(report.read_text())["install"]
    return [
        f"{item['metadata']['name']}=={item['metadata']['version']}"
        for item in chosen
        if not item["download_info"]["url"].endswith(".whl")
    ]


def build_pure_wheels(python: str, pins: list[str], wheelhouse: Path) -> None:
    if not pins:
        return
    subprocess.run(
        [*_pip(python, "wheel"), "--no-deps", "--wheel-dir", str(wheelhouse), *pins], check=True
    )
    for wheel in wheelhouse.glob("*.whl"):
        if not wheel.name.endswith("-none-any.whl"):
            raise BuildError(f"{wheel.name} is not pure Python and has no wheel for Lambda")


def install_own_package(python: str, out: Path) -> None:
    """``crossing`` from a copy of its source (pip builds in the tree it is given)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "source"
        source.mkdir()
        for name in SOURCE:
            path = ROOT / name
            if path.is_dir():
                ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "*.so")
                shutil.copytree(path, source / name, ignore=ignore)
            elif path.is_file():
                shutil.copy2(path, source / name)
        subprocess.run(
            [*_pip(python, "install"), "--no-deps", "--no-compile", "--target", str(out), source],
            check=True,
        )
    for name in LEFT_OUT:
        shutil.rmtree(out / name, ignore_errors=True)


def prune_botocore(out: Path) -> None:
    """Leave out the service models of every AWS service but ``BOTOCORE_SERVICES``."""
    data = out / "botocore" / "data"
    for folder in data.iterdir():
        if folder.is_dir() and folder.name not in BOTOCORE_SERVICES:
            shutil.rmtree(folder)


def compile_bytecode(python: str, out: Path) -> None:
    subprocess.run(
        [
            python,
            "-m",
            "compileall",
            "-q",
            "-j",
            "0",
            "--invalidation-mode",
            "unchecked-hash",
            str(out),
        ],
        check=True,
    )


_GLIBC = re.compile(rb"GLIBC_(\d+)\.(\d+)")
_EXTENSION = re.compile(r"\.(cpython-(\d+)-x86_64-linux-gnu|abi3)\.so$")


def glibc_needed(library: Path) -> tuple[int, int]:
    """The newest glibc symbol version a shared library asks for (0.0 if none)."""
    dump = subprocess.run(["objdump", "-T", str(library)], capture_output=True, check=True)
    versions = [(int(a), int(b)) for a, b in _GLIBC.findall(dump.stdout)]
    return max(versions, default=(0, 0))


def check_libraries(out: Path) -> list[str]:
    """Every problem with the asset's shared libraries, as sentences (none: it runs)."""
    tag = PYTHON_VERSION.replace(".", "")
    problems = []
    for library in sorted(out.rglob("*.so*")):
        if not library.is_file():
            continue
        name = library.relative_to(out)
        needed = glibc_needed(library)
        if needed > GLIBC_LIMIT:
            problems.append(
                f"{name} needs glibc {needed[0]}.{needed[1]}; Lambda has "
                f"{GLIBC_LIMIT[0]}.{GLIBC_LIMIT[1]}"
            )
        extension = _EXTENSION.search(library.name)
        if library.name.endswith(".so") and extension and extension.group(2) not in (None, tag):
            problems.append(f"{name} is built for another Python than {PYTHON_VERSION}")
    return problems


def build(out: Path, python: str | None = None) -> Path:
    python = python or runtime_python()
    requirements = runtime_dependencies()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as wheelhouse:
        build_pure_wheels(python, source_only(python, requirements), Path(wheelhouse))
        subprocess.run(pip_command(python, out, Path(wheelhouse), requirements), check=True)
    install_own_package(python, out)
    prune_botocore(out)
    compile_bytecode(python, out)
    problems = check_libraries(out)
    if problems:
        raise BuildError("The asset would not run on Lambda:\n" + "\n".join(problems))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lambda")
    parser.add_argument("--python", help=f"a Python {PYTHON_VERSION} interpreter")
    args = parser.parse_args()
    try:
        out = build(args.out.resolve(), args.python)
    except BuildError as error:
        sys.exit(str(error))
    print(f"built {out}")


if __name__ == "__main__":
    main()
