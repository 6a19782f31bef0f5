"""How the asset is built; that it runs is tests/infra/test_asset_plays.py."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from infra import build_asset
from infra.functions import ARCHITECTURE, RUNTIME


def test_every_runtime_dependency_is_installed_as_a_wheel_for_lambda(tmp_path: Path) -> None:
    command = build_asset.pip_command("python3.13", tmp_path, tmp_path / "wheels", ["a", "b"])
    text = " ".join(command)
    for platform in ("manylinux2014_x86_64", "manylinux_2_28_x86_64", "manylinux_2_34_x86_64"):
        assert f"--platform {platform}" in text
    assert "--only-binary=:all:" in command
    assert "--implementation cp" in text
    assert f"--python-version {build_asset.PYTHON_VERSION}" in text
    assert f"--target {tmp_path}" in text
    assert f"-c {build_asset.ROOT / 'constraints.txt'}" in text
    assert "--no-compile" in command  # the runtime's interpreter compiles, with hashes
    assert command[-2:] == ["a", "b"]
    # What is installed is what pyproject says the package needs: Web Push included.
    dependencies = build_asset.runtime_dependencies()
    assert {"pydantic", "boto3", "aws-lambda-powertools", "pywebpush"} <= {
        d.split(">")[0].split("=")[0] for d in dependencies
    }
    # The functions run what the wheels and the bytecode were made for.
    assert RUNTIME.name == f"python{build_asset.PYTHON_VERSION}"
    assert ARCHITECTURE.name == "x86_64"


def test_the_interpreter_must_be_the_runtimes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROSSING_LAMBDA_PYTHON", "/nowhere/python")
    monkeypatch.setenv("PATH", "")
    with pytest.raises(build_asset.BuildError, match=r"Python 2\.1: install it \(`pyenv install"):
        build_asset.runtime_python("2.1")


def _library(tmp_path: Path, name: str, body: str) -> Path:
    if not shutil.which("gcc"):
        pytest.fail("gcc is needed to make a shared library for this test")
    source = tmp_path / "lib.c"
    source.write_text(body)
    out = tmp_path / "asset" / name
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(out), str(source)], check=True)
    return out


def test_a_library_needing_a_newer_glibc_than_lambdas_is_refused(tmp_path: Path) -> None:
    # arc4random is new in glibc 2.36; Amazon Linux 2023 has 2.34.
    _library(
        tmp_path,
        "fast.abi3.so",
        "#include <stdlib.h>\nunsigned f(void) { return arc4random(); }\n",
    )
    [problem] = build_asset.check_libraries(tmp_path / "asset")
    assert "fast.abi3.so needs glibc 2.36" in problem


def test_an_extension_for_another_python_is_refused_and_abi3_is_not(tmp_path: Path) -> None:
    plain = "#include <string.h>\nsize_t f(const char *s) { return strlen(s); }\n"
    ours = build_asset.PYTHON_VERSION.replace(".", "")
    _library(tmp_path, "old.cpython-39-x86_64-linux-gnu.so", plain)
    _library(tmp_path, "stable.abi3.so", plain)
    _library(tmp_path, f"ours.cpython-{ours}-x86_64-linux-gnu.so", plain)
    problems = build_asset.check_libraries(tmp_path / "asset")
    assert problems == [
        f"old.cpython-39-x86_64-linux-gnu.so is built for another Python than "
        f"{build_asset.PYTHON_VERSION}"
    ]


def test_the_asset_keeps_botocores_model_of_every_service_the_functions_call() -> None:
    # Every client the code makes names its service in one of these ways.
    made = re.compile(r"""(?:client|deferred)\(\s*["']([a-z0-9-]+)["']""")
    functions = build_asset.ROOT / "functions" / "crossing"
    called = {
        service
        for path in functions.rglob("*.py")
        if "local" not in path.relative_to(functions).parts  # the laptop stack: not in it
        for service in made.findall(path.read_text())
    }
    assert {"dynamodb", "apigatewaymanagementapi", "secretsmanager"} <= called
    assert called <= build_asset.BOTOCORE_SERVICES


def test_the_other_services_models_are_left_out(tmp_path: Path) -> None:
    data = tmp_path / "botocore" / "data"
    for folder in ("dynamodb/2012-08-10", "ec2/2016-11-15", "sqs/2012-11-05"):
        (data / folder).mkdir(parents=True)
        (data / folder / "service-2.json.gz").write_bytes(b"")
    (data / "endpoints.json").write_text("{}")
    build_asset.prune_botocore(tmp_path)
    assert sorted(p.name for p in data.iterdir()) == ["dynamodb", "endpoints.json", "sqs"]
