from __future__ import annotations

from pathlib import Path

from infra import build_asset
from infra.functions import ARCHITECTURE, RUNTIME


def test_wheels_are_for_the_lambda_runtime_and_pinned(tmp_path: Path) -> None:
    command = build_asset.pip_command(tmp_path)
    text = " ".join(command)
    assert "--platform manylinux2014_x86_64" in text
    assert "--only-binary=:all:" in command
    assert "--python-version 3.11" in text
    assert f"--target {tmp_path}" in text
    assert f"-c {build_asset.ROOT / 'constraints.txt'}" in text
    assert command[-3:] == ["pydantic", "aws-lambda-powertools", "boto3"]
    # The functions run what the wheels were chosen for.
    assert RUNTIME.name == "python3.11"
    assert ARCHITECTURE.name == "x86_64"


def test_the_local_stack_and_caches_stay_out_of_the_asset() -> None:
    crossing = build_asset.ROOT / "functions" / "crossing"
    names = [p.name for p in crossing.iterdir()]
    assert set(build_asset.SKIP(str(crossing), names)) >= {"local"} & set(names)
    assert "handlers" not in build_asset.SKIP(str(crossing), names)
