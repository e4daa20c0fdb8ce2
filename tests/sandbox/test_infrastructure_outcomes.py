"""What the sandbox reports as not the command's doing (``ProcessOutcome.infrastructure``), at every
confinement level this machine offers, and what stays the command's own outcome."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from npukernelbench import confinement as conf_mod
from npukernelbench.sandbox import Limits, Request, run_confined

AVAILABLE = sorted({conf_mod._detect(level).name: conf_mod._detect(level) for level in conf_mod.LEVELS}.values(),
                   key=lambda c: conf_mod.LEVELS.index(c.level))
IDS = [c.name for c in AVAILABLE]


def _find(marker: str, timeout: float = 10.0) -> int:
    """The pid of the live process whose command line holds ``marker`` (and is not a wrapper)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                cmd = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if cmd and cmd[0] in (b"sleep",) and marker.encode() in b" ".join(cmd):
                return int(name)
        time.sleep(0.02)
    raise AssertionError(f"no process with {marker!r} appeared")


@pytest.mark.parametrize("conf", AVAILABLE, ids=IDS)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_unexplained_kill_is_the_commands_outcome(conf, sig, tmp_path: Path) -> None:
    """A death by SIGKILL or SIGTERM that no limit of ours and no out-of-memory kill explains counts as
    the command's own: the harness cannot tell it from a signal the command sent itself, and blaming
    the machinery would let a candidate erase its failure (docs/security.md)."""
    marker = f"{4000 + os.getpid() % 1000 + sig}"
    killer = threading.Thread(target=lambda: os.kill(_find(marker), sig))
    killer.start()
    out = run_confined(Request(argv=["sleep", marker], cwd=tmp_path, limits=Limits(wall_s=30)), conf)
    killer.join()
    assert not out.ok and out.limit is None
    assert out.signal_name == sig.name and out.infrastructure is None


@pytest.mark.parametrize("conf", AVAILABLE, ids=IDS)
@pytest.mark.parametrize("sig", ["KILL", "TERM", "HUP", "INT"])
def test_signal_the_command_sends_itself_is_its_own(conf, sig, tmp_path: Path) -> None:
    out = run_confined(Request(argv=["sh", "-c", f"kill -{sig} $$"], cwd=tmp_path), conf)
    assert out.signal_name == f"SIG{sig}" and out.infrastructure is None


@pytest.mark.parametrize("conf", AVAILABLE, ids=IDS)
def test_own_crash_and_exit_status_stay_the_commands(conf, tmp_path: Path) -> None:
    crash = run_confined(Request(argv=["sh", "-c", "kill -SEGV $$"], cwd=tmp_path), conf)
    assert crash.signal_name == "SIGSEGV" and crash.infrastructure is None
    status = run_confined(Request(argv=["sh", "-c", "echo unshare: sigprocmask unblock failed >&2; exit 1"],
                                  cwd=tmp_path), conf)
    assert status.returncode == 1 and status.infrastructure is None      # its own text proves nothing


@pytest.mark.parametrize("conf", AVAILABLE, ids=IDS)
def test_cpu_limit_holds_with_sigxcpu_blocked_in_the_calling_thread(conf, programs, tmp_path: Path) -> None:
    """The child must not inherit the caller's signal mask: a blocked SIGXCPU would turn the CPU
    limit into a SIGKILL a second later (then indistinguishable from a kill from outside)."""
    box: dict = {}

    def call() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGXCPU, signal.SIGTERM])
        box["out"] = run_confined(Request(argv=[str(programs["spin"])], cwd=tmp_path,
                                          limits=Limits(cpu_s=1, wall_s=20)), conf)

    worker = threading.Thread(target=call)
    worker.start()
    worker.join()
    out = box["out"]
    assert out.limit == "cpu" and out.signal_name == "SIGXCPU" and out.infrastructure is None


def test_missing_program_is_infrastructure(tmp_path: Path) -> None:
    for conf in AVAILABLE:
        out = run_confined(Request(argv=["/nonexistent/npukb-cc"], cwd=tmp_path), conf)
        assert out.returncode == 127 and out.infrastructure == "cannot start /nonexistent/npukb-cc: no such program"


FAILING_UNSHARE = """#!/bin/sh
echo "unshare: sigprocmask unblock failed: Invalid argument" >&2
exit 1
"""


def test_failing_wrapper_is_infrastructure_not_the_commands_exit(tmp_path: Path) -> None:
    """util-linux 2.38's unshare, when something kills its child: exit 1 and a message, before the
    command's status was reported. Without the status channel this looked like a compiler error."""
    fake = tmp_path / "unshare"
    fake.write_text(FAILING_UNSHARE)
    fake.chmod(0o755)
    conf = conf_mod.Confinement(conf_mod.NETNS, "a wrapper that fails", unshare=(str(fake), "--net"))
    out = run_confined(Request(argv=["true"], cwd=tmp_path), conf)
    assert not out.ok and out.returncode == 1
    assert out.infrastructure == ("the netns+rlimits confinement wrapper failed before the command reported its exit "
                                  "status (unshare: sigprocmask unblock failed: Invalid argument)")


def test_status_channel_reports_the_commands_real_status(tmp_path: Path) -> None:
    """A wrapper that exits 0 whatever its child did must not turn a failure into a success."""
    fake = tmp_path / "unshare"
    fake.write_text('#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done; shift\n"$@"\nexit 0\n')
    fake.chmod(0o755)
    conf = conf_mod.Confinement(conf_mod.NETNS, "a wrapper that hides exit statuses", unshare=(str(fake),))
    out = run_confined(Request(argv=["sh", "-c", "exit 7"], cwd=tmp_path), conf)
    assert out.returncode == 7 and out.infrastructure is None


@pytest.mark.parametrize("conf", AVAILABLE, ids=IDS)
def test_sigint_held_only_while_forking(conf, programs, tmp_path: Path) -> None:
    """run_confined blocks SIGINT while it forks (a Ctrl-C then cannot reach the half-forked child
    before it leaves the terminal's process group), but the command starts with SIGINT neither blocked
    nor ignored, and the caller's signal mask is as it was."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    out = run_confined(Request(argv=[str(programs["sigint_state"])], cwd=tmp_path), conf)
    assert out.ok and out.infrastructure is None, out.stderr
    assert out.stdout.strip() == "blocked=0 ignored=0"
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
