"""Every `crossing` command a newcomer types: clear one-line errors, no tracebacks."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from crossing import cli
from crossing.local import serve
from crossing.local.serve import lan_address

ROOT = Path(__file__).resolve().parents[2]
PACKS = ROOT / "tests" / "data" / "packs"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """``crossing ARGV`` in this process: (exit code, stdout, stderr)."""
    try:
        code = cli.main(list(argv))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def test_a_taken_port_is_one_line_suggesting_another(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_cli(capsys, "serve", "--port", str(port), "--packs", str(PACKS))
    assert code != 0
    assert "running" not in out
    assert err.count("\n") == 1
    assert f"port {port} is already in use" in err
    assert "--port" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("folder", "says"), [("nowhere", "no folder"), ("empty", "holds no puzzle packs")]
)
def test_a_packs_folder_that_is_missing_or_empty_is_refused_at_the_start(
    capsys, tmp_path, folder, says
):
    (tmp_path / "empty").mkdir()
    code, out, err = run_cli(capsys, "serve", "--packs", str(tmp_path / folder))
    assert code == 2
    assert out == ""
    assert err.splitlines()[-1].startswith("crossing serve: error: argument --packs")
    assert says in err.splitlines()[-1]


@pytest.mark.parametrize("bots", ["8", "-1", "0", "two"])
def test_bad_bot_counts_are_refused_in_one_line(capsys, bots):
    code, out, err = run_cli(
        capsys, "bots", "simulate", "--mode", "race", "--size", "mini", "--level", "easy",
        "--runs", "1", "--bots", bots,
    )  # fmt: skip
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    last = err.splitlines()[-1]
    assert last.startswith("crossing bots simulate: error: argument --bots")
    assert "1 to 7" in last or "whole number" in last


def test_a_full_table_of_seven_bots_plays(capsys):
    code, out, _ = run_cli(
        capsys, "bots", "simulate", "--mode", "together", "--size", "mini", "--level", "hard",
        "--runs", "1", "--bots", "7", "--packs", str(PACKS),
    )  # fmt: skip
    assert code == 0
    assert out.startswith("1 together games, 7 hard bot(s), 5x5")


def test_bots_simulate_help_explains_every_option(capsys):
    code, out, _ = run_cli(capsys, "bots", "simulate", "--help")
    assert code == 0
    for option, words in {
        "--mode": "the game the bots play",
        "--size": "grid size",
        "--level": "every bot's level",
        "--runs N": "how many games",
        "--bots N": "1 to 7",
        "--packs DIR": "folder of puzzle packs",
    }.items():
        line = next(line for line in out.splitlines() if line.strip().startswith(option))
        assert words in " ".join(out.split(option, 2)[-1].split()[:20]), (option, line)


def test_version(capsys):
    code, out, _ = run_cli(capsys, "--version")
    assert code == 0
    assert out.startswith("crossing ")


def test_puzzle_commands_work_from_any_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "puzzles", "lint")
    assert (code, err) == (0, "")
    code, out, err = run_cli(capsys, "puzzles", "stats")
    assert code == 0
    assert out.startswith("answer list: ")


def test_a_puzzles_folder_that_is_not_there_is_one_line(capsys, tmp_path):
    code, _, err = run_cli(capsys, "puzzles", "--dir", str(tmp_path / "nope"), "stats")
    assert code == 1
    assert (
        err
        == f"crossing puzzles: {tmp_path / 'nope'}/answers/answers.tsv: No such file or directory\n"
    )


def test_a_closed_pipe_ends_quietly():
    command = [sys.executable, "-m", "crossing.cli", "solve", "--rules", "crossplay"]
    child = subprocess.Popen(
        [*command, "--rack", "RETAIN?", "--top", "300"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT / "functions")},
    )
    child.stdout.close()  # `| head` that has already read what it wanted
    err = child.stderr.read().decode()
    child.wait(timeout=60)
    assert err == ""
    assert child.returncode != 0


def test_the_lan_address_is_one_of_this_machines_own_and_not_loopback():
    address = lan_address()
    assert address is not None, "this machine has a network interface besides loopback"
    assert not address.startswith("127.")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind((address, 0))  # only an address of this machine can be bound


@pytest.mark.parametrize(
    ("host", "lan", "shown"),
    [
        (
            "0.0.0.0",
            "192.168.1.20",
            "On phones on the same network, open http://192.168.1.20:8123/",
        ),
        ("0.0.0.0", None, "This machine has no network address for phones to use."),
        ("127.0.0.1", "192.168.1.20", "use --host 0.0.0.0 to play from phones"),
    ],
)
def test_serve_prints_the_address_phones_use(capsys, monkeypatch, host, lan, shown):
    monkeypatch.setattr(serve, "lan_address", lambda: lan)
    stack = SimpleNamespace(
        url="http://localhost:8123/", port=8123, backend=SimpleNamespace(data=Path("/srv/x"))
    )
    serve._announce(stack, host)
    out = capsys.readouterr().out
    assert out.startswith("Crossing Words is running: open http://localhost:8123/\n")
    assert shown in out
    assert ("192.168.1.20" in out) == (host == "0.0.0.0" and lan is not None)


def fake_tools(
    tmp_path: Path, managed: bool = False, pytest_exit: int = 0, node_exit: int = 0
) -> tuple[Path, dict[str, str]]:
    """A copy of the files scripts/test reads, and a PATH whose python3 and node only log.

    ``managed``: python3 refuses pip outside a virtual environment (PEP 668), no
    environment is active, and ``python3 -m venv .venv`` makes one that logs the same.
    ``pytest_exit``, ``node_exit``: what the fake pytest and node exit with.
    """
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "functions/crossing/tiles").mkdir(parents=True)
    for name in (
        "scripts/test",
        "constraints.txt",
        "pyproject.toml",
        "setup.py",
        "functions/crossing/tiles/_movegen.c",
    ):
        shutil.copy(ROOT / name, repo / name)
    # What the install compiles into the checkout (the fake python3 builds nothing).
    (repo / "functions/crossing/tiles/_movegen.abi3.so").write_bytes(b"")
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    log = tmp_path / "log"
    fake = (
        "#!/bin/sh\n"
        f'echo "$0 $*" >> {log}\n'
        f'case "$*" in *sys.prefix*) echo {prefix};; -c*) exit {0 if managed else 1};;\n'
        '"-m venv .venv") mkdir -p .venv/bin && cp "$0" .venv/bin/python;;\n'
        f'"-m pytest"*) exit {pytest_exit};; esac\n'
    )
    (bin_ / "python3").write_text(fake)
    (bin_ / "node").write_text(f'#!/bin/sh\necho "node $*" >> {log}\nexit {node_exit}\n')
    for tool in ("python3", "node"):
        (bin_ / tool).chmod(0o755)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PIP_BREAK_SYSTEM_PACKAGES", "VIRTUAL_ENV", "CI")
    }
    env["PATH"] = f"{bin_}:{os.environ['PATH']}"
    if not managed:
        env["VIRTUAL_ENV"] = str(prefix)
    return repo, env


def test_scripts_test_makes_a_virtual_environment_where_the_system_refuses_pip(tmp_path):
    repo, env = fake_tools(tmp_path, managed=True)
    subprocess.run(["bash", "scripts/test"], cwd=repo, env=env, check=True, capture_output=True)
    ran = (tmp_path / "log").read_text().splitlines()
    assert any(line.endswith("python3 -m venv .venv") for line in ran)
    installs = [line for line in ran if "-m pip install" in line]
    assert len(installs) == 1
    assert installs[0].startswith(".venv/bin/python -m pip install"), installs
    assert any(line.startswith(".venv/bin/python -m pytest") for line in ran)
    # The type check runs, and before the tests: a type error fails fast.
    step = [line.split(" -m ")[1].split()[0] for line in ran if " -m " in line]
    assert step.index("mypy") < step.index("pytest"), ran


def test_scripts_test_installs_only_when_what_it_pins_changes(tmp_path):
    repo, env = fake_tools(tmp_path)
    log = tmp_path / "log"

    def installs() -> int:
        log.write_text("")
        subprocess.run(["bash", "scripts/test"], cwd=repo, env=env, check=True)
        ran = log.read_text()
        assert "-m pytest -q" in ran and "node --test tests/js/" in ran
        return ran.count("-m pip install")

    assert installs() == 1, "a fresh machine installs"
    assert installs() == 0, "nothing changed: no install"
    with (repo / "constraints.txt").open("a") as pins:
        pins.write("newpackage==1.0\n")
    assert installs() == 1, "a changed pin installs again"
    assert installs() == 0
    (repo / "pyproject.toml").write_text((repo / "pyproject.toml").read_text() + "\n")
    assert installs() == 1, "a changed pyproject.toml installs again"
    source = repo / "functions/crossing/tiles/_movegen.c"
    source.write_text(source.read_text() + "\n")
    assert installs() == 1, "a changed C move generator is compiled again"
    (repo / "functions/crossing/tiles/_movegen.abi3.so").unlink()
    assert installs() == 1, "a checkout without the compiled module installs again"


@pytest.mark.parametrize(
    ("pytest_exit", "node_exit", "expected"), [(1, 0, 1), (0, 1, 1), (5, 1, 5), (0, 0, 0)]
)
def test_scripts_test_runs_the_client_tests_even_when_pytest_fails(
    tmp_path, pytest_exit, node_exit, expected
):
    repo, env = fake_tools(tmp_path, pytest_exit=pytest_exit, node_exit=node_exit)
    ran = subprocess.run(["bash", "scripts/test"], cwd=repo, env=env, capture_output=True)
    assert "node --test tests/js/" in (tmp_path / "log").read_text()
    assert ran.returncode == expected


def test_the_local_stack_logs_under_its_service_name(tmp_path):
    """Powertools reads the service's name when the handlers are imported: the stack sets
    it first, so log lines say "crossing", not "service_undefined"."""
    script = (
        "from pathlib import Path\n"
        "from crossing.local.serve import running\n"
        f"with running(data=Path({str(tmp_path)!r})):\n"
        "    from crossing.handlers import ws\n"
        "    print(ws.logger.service, ws.metrics.service)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("POWERTOOLS_")}
    env["PYTHONPATH"] = str(ROOT / "functions")
    shown = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert shown.stdout.split() == ["crossing", "crossing"], shown.stderr


def test_serve_without_the_local_extra_says_which_install_gives_it():
    """``pip install -e .`` alone has no web server: the local extra's modules are hidden
    from a fresh interpreter, as on a machine that never installed them."""
    script = (
        "import sys\n"
        "for name in ('uvicorn', 'starlette', 'websockets'):\n"
        "    sys.modules[name] = None  # import raises ModuleNotFoundError\n"
        "from crossing import cli\n"
        "sys.exit(cli.main(['serve', '--port', '0']))\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": str(ROOT / "functions")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 2
    assert shown.stdout == ""
    assert shown.stderr == (
        "crossing serve needs uvicorn, which the local extra installs: "
        "pip install -c constraints.txt -e '.[local]'\n"
    )


def test_no_packs_anywhere_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(serve, "default_packs", lambda: None)
    code, out, err = run_cli(capsys, "serve", "--port", "0")
    assert code == 1
    assert "running" not in out
    assert err == (
        "crossing serve: no puzzle packs here (puzzles/packs in a checkout); pass --packs DIR\n"
    )
