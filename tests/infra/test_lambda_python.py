"""A machine without the Lambda runtime's Python (a stock Debian: 3.11 only) runs every
test but the asset's, and says so once, before the first test; CI fails without it; a
failed build is one clear error per test, never pytest's own teardown error."""

from __future__ import annotations

import pytest

from infra import build_asset

pytest_plugins = ["pytester"]

CONFTEST = """
from tests.infra.lambda_python import (
    lambda_python, pytest_collection_modifyitems, pytest_report_collectionfinish,
)
"""
TESTS = """
import pytest

@pytest.fixture(scope="session")
def built(lambda_python):
    return lambda_python

def test_plays_a_game(built):
    pass

def test_solves(lambda_python):
    pass

def test_needs_no_runtime():
    pass
"""


@pytest.fixture
def no_runtime(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setattr(build_asset, "find_runtime_python", lambda version="3.13": None)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_asset=TESTS)
    return pytester


def test_without_the_runtime_only_its_tests_are_left_out_said_once_at_the_start(
    no_runtime: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    result = no_runtime.runpytest("-q")
    assert result.ret == pytest.ExitCode.OK
    result.assert_outcomes(passed=1, deselected=2)
    said = [line for line in result.outlines if "not run" in line]
    assert said == [
        "test_asset.py (2 tests) not run: they run the Lambda asset on its runtime, "
        "Python 3.13, not found here; to run them, install it (`pyenv install 3.13`, or "
        "python3.13 on PATH), or set CROSSING_LAMBDA_PYTHON to its interpreter"
    ]
    assert result.outlines.index(said[0]) < min(
        i for i, line in enumerate(result.outlines) if "passed" in line
    )


def test_under_ci_the_runtime_is_required(
    no_runtime: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    result = no_runtime.runpytest("-q")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=1, errors=2)
    assert "test_asset.py (2 tests) FAIL" in result.outlines[0]
    assert "CI=true requires them" in result.outlines[0]
    result.stdout.no_fnmatch_line("*_finalizers*")


def test_with_the_runtime_its_tests_run(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build_asset, "find_runtime_python", lambda version="3.13": "/x/py3.13")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_asset=TESTS)
    result = pytester.runpytest("-q")
    result.assert_outcomes(passed=3)
    result.stdout.no_fnmatch_line("*not run*")


def test_a_failed_build_is_one_clear_error_per_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest
        from infra import build_asset

        @pytest.fixture(scope="session")
        def built():
            raise build_asset.BuildError("numpy is not pure Python and has no wheel for Lambda")

        def test_one(built):
            pass

        def test_two(built):
            pass
        """
    )
    result = pytester.runpytest("-q")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of test_one*",
            "*BuildError: numpy is not pure Python and has no wheel for Lambda",
            "*ERROR at setup of test_two*",
            "*BuildError: numpy is not pure Python and has no wheel for Lambda",
        ]
    )
    result.stdout.no_fnmatch_line("*_finalizers*")
