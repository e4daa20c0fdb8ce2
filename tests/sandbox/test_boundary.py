"""The boundary below every confinement level (npukb-confine: Landlock, seccomp, no capabilities, no
inherited descriptors, an explicit environment) and the blame rules, each at every level this machine
offers. Real programs, real kernel checks: a test that passes here fails when its protection is
removed (see docs/security.md)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from npukernelbench import confinement as conf_mod
from npukernelbench.infrastructure import BLAME_RULES, Observation, blame
from npukernelbench.sandbox import Limits, Request, clean_env, run_confined

OFFERED = sorted({conf_mod._detect(cap).name: conf_mod._detect(cap) for cap in conf_mod.LEVELS}.values(),
                 key=lambda c: conf_mod.LEVELS.index(c.level))
IDS = [c.name for c in OFFERED]
BOUNDARY = conf_mod._boundary()
needs_landlock = pytest.mark.skipif(not BOUNDARY.landlock, reason=f"no Landlock here: {BOUNDARY.detail}")
needs_seccomp = pytest.mark.skipif(not BOUNDARY.seccomp, reason=f"no seccomp filter here: {BOUNDARY.detail}")

CAPS = r"""
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdint.h>
int main(void) {
  struct { uint32_t version; int pid; } head = {0x20080522, 0};
  struct { uint32_t effective, permitted, inheritable; } data[2] = {{0}};
  if (syscall(SYS_capget, &head, data) != 0) { perror("capget"); return 2; }
  printf("effective %x %x permitted %x %x\n", data[0].effective, data[1].effective, data[0].permitted,
         data[1].permitted);
  return 0;
}
"""


def _without_capabilities() -> list[str]:
    """A command prefix that drops every capability (npukb-confine without Landlock or seccomp), so that a
    decoy started with it is an ordinary process of the harness's user even when the tests run as root
    (a root process with capabilities is unreadable to a process without them anyway)."""
    confiner = conf_mod._boundary().confiner
    return [confiner, "--"] if confiner else []


@pytest.fixture(scope="module")
def caps_program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("caps")
    (root / "caps.c").write_text(CAPS)
    subprocess.run(["gcc", "-O1", str(root / "caps.c"), "-o", str(root / "caps")], check=True)
    return root / "caps"


@pytest.fixture
def outside(tmp_path: Path) -> tuple[Path, Path, str]:
    """(scratch directory, a canary file beside it, the canary's secret content)."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    secret = f"canary-{uuid.uuid4().hex}"
    canary = tmp_path / "canary.txt"
    canary.write_text(secret + "\n")
    return scratch, canary, secret


def test_the_machine_offers_the_boundary_where_the_kernel_has_it() -> None:
    """Landlock and seccomp are applied when the kernel has them (this machine's kernel is probed
    independently here: Landlock's ABI syscall and seccomp's status in /proc)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    abi = libc.syscall(444, None, 0, 1)          # landlock_create_ruleset(NULL, 0, VERSION)
    status = Path("/proc/self/status").read_text()
    assert BOUNDARY.confiner is not None, BOUNDARY.detail
    assert (BOUNDARY.landlock > 0) == (abi > 0), (abi, BOUNDARY)
    assert BOUNDARY.seccomp == ("Seccomp:" in status), BOUNDARY
    for conf in OFFERED:
        assert conf.name == "+".join((conf.level, *BOUNDARY.features))


@needs_landlock
@pytest.mark.parametrize("conf", OFFERED, ids=IDS)
def test_files_outside_the_scratch_are_neither_readable_nor_writable(conf, outside) -> None:
    scratch, canary, secret = outside
    script = (f"cat {canary}; echo x >> {canary}; rm -f {canary}; touch {canary.parent}/new; cat /etc/passwd; "
              f"ls {Path.home()}; echo inside > here && cat here")
    out = run_confined(Request(argv=["sh", "-c", script], cwd=scratch), conf)
    assert secret not in out.stdout + out.stderr
    assert canary.read_text() == secret + "\n" and not (canary.parent / "new").exists()
    assert "root:x:0:0" not in out.stdout
    assert out.stdout.strip().endswith("inside") and (scratch / "here").read_text() == "inside\n"
    refused = ("Permission denied", "No such file or directory", "Read-only file system")
    assert sum(any(r in line for r in refused) for line in out.stderr.splitlines()) >= 5, out.stderr


@needs_landlock
@pytest.mark.parametrize("conf", OFFERED, ids=IDS)
def test_readable_paths_are_read_only(conf, outside) -> None:
    scratch, canary, secret = outside
    out = run_confined(Request(argv=["sh", "-c", f"cat {canary}; echo y > {canary}"], cwd=scratch,
                               readable=(canary,)), conf)
    assert secret in out.stdout and ("Permission denied" in out.stderr or "Read-only file system" in out.stderr)
    assert canary.read_text() == secret + "\n"


@needs_landlock
@pytest.mark.parametrize("conf", OFFERED, ids=IDS)
def test_harness_environment_unreachable_through_proc(conf, outside, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent's environment through /proc/<pid>/environ (any pid, the parent's included)."""
    scratch, _, _ = outside
    secret = f"sk-{uuid.uuid4().hex}"
    monkeypatch.setenv("NPUKB_API_KEY", secret)
    # a process of the harness's started with the key: its /proc/<pid>/environ shows it
    decoy = subprocess.Popen([*_without_capabilities(), "sleep", "600"], env={**os.environ, "NPUKB_API_KEY": secret})
    script = ("p=$PPID; for i in 1 2 3 4 5 6; do cat /proc/$p/environ; p=$(cut -d' ' -f4 /proc/$p/stat); done; "
              f"cat /proc/{os.getpid()}/environ; for f in /proc/[0-9]*/environ; do cat $f; done; env")
    try:
        out = run_confined(Request(argv=["sh", "-c", script], cwd=scratch, env=clean_env()), conf)
    finally:
        decoy.kill()
        decoy.wait()
    assert secret not in out.stdout + out.stderr
    assert "NPUKB_API_KEY" not in out.stdout


@pytest.mark.parametrize("conf", OFFERED, ids=IDS)
def test_descriptors_of_the_harness_are_not_inherited(conf, outside) -> None:
    scratch, canary, secret = outside
    fd = os.open(canary, os.O_RDONLY)
    os.set_inheritable(fd, True)                 # even one the harness left inheritable
    try:
        out = run_confined(Request(argv=["bash", "-c", f"cat <&{fd}"], cwd=scratch), conf)
    finally:
        os.close(fd)
    assert secret not in out.stdout
    assert f"{fd}: Bad file descriptor" in out.stderr, out.stderr


@pytest.mark.parametrize("conf", OFFERED, ids=IDS)
def test_no_capabilities_even_as_root(conf, outside, caps_program: Path) -> None:
    scratch, _, _ = outside
    out = run_confined(Request(argv=[str(caps_program)], cwd=scratch), conf)
    assert out.ok, out.stderr
    assert out.stdout.strip() == "effective 0 0 permitted 0 0", out.stdout


@needs_seccomp
@pytest.mark.parametrize("conf", OFFERED, ids=IDS)
def test_tools_get_no_sockets_namespaces_or_tracing(conf, outside) -> None:
    scratch, _, _ = outside
    script = ("bash -c 'exec 3<>/dev/tcp/127.0.0.1/9'; echo socket=$?; unshare --user true; echo unshare=$?; "
              "strace -V >/dev/null 2>&1; echo done")
    out = run_confined(Request(argv=["sh", "-c", script], cwd=scratch), conf)
    assert "socket=0" not in out.stdout and "unshare=0" not in out.stdout and "done" in out.stdout
    assert "Operation not permitted" in out.stderr, out.stderr


@pytest.mark.parametrize("conf", OFFERED, ids=IDS)
def test_compiler_works_inside_the_boundary(conf, outside) -> None:
    scratch, _, _ = outside
    (scratch / "a.cpp").write_text("#include <cstdio>\nint main() { std::puts(\"built\"); }\n")
    out = run_confined(Request(argv=["g++", "-O1", "a.cpp", "-o", "a.out"], cwd=scratch, env=clean_env()), conf)
    assert out.ok, out.stderr
    assert run_confined(Request(argv=[str(scratch / "a.out")], cwd=scratch), conf).stdout == "built\n"


# ------------------------------------------------------------------------- the phase channel

FAKE_CONFINER = """#!/bin/sh
# npukb-confine stand-in: MODE decides what it reports on the phase channel
while [ "$1" != "--" ]; do
  if [ "$1" = "--phase-fd" ]; then fd=$2; fi
  shift
done
shift
case '{mode}' in
  failed) echo "failed: landlock_restrict_self: Operation not permitted" >/dev/fd/$fd; exit 125 ;;
  silent) exit 0 ;;
  forged) for line in confined candidate "failed: forged"; do echo "$line" >/dev/fd/$fd; done; exit 3 ;;
esac
"""


def _fake(tmp_path: Path, mode: str) -> conf_mod.Confinement:
    script = tmp_path / f"confine-{mode}"
    script.write_text(FAKE_CONFINER.replace("{mode}", mode))
    script.chmod(0o755)
    return conf_mod.Confinement(conf_mod.RLIMITS, "fake", boundary=conf_mod.Boundary(confiner=str(script)))


def test_confiner_failure_is_infrastructure(tmp_path: Path) -> None:
    out = run_confined(Request(argv=["true"], cwd=tmp_path), _fake(tmp_path, "failed"))
    assert out.infrastructure == ("the confinement failed before the command started (npukb-confine: failed: "
                                  "landlock_restrict_self: Operation not permitted)")


def test_confiner_that_never_started_the_command_is_infrastructure(tmp_path: Path) -> None:
    out = run_confined(Request(argv=["true"], cwd=tmp_path), _fake(tmp_path, "silent"))
    assert out.ok is False and out.infrastructure is not None
    assert out.infrastructure.startswith("the confinement ended without starting the command")


def test_phase_lines_after_candidate_are_not_believed(tmp_path: Path) -> None:
    """Whoever holds the channel after "candidate" may be candidate code: a "failed:" line there is
    the command's own exit, never infrastructure."""
    out = run_confined(Request(argv=["true"], cwd=tmp_path), _fake(tmp_path, "forged"))
    assert out.phases == ("confined", "candidate")
    assert out.returncode == 3 and out.infrastructure is None


@pytest.mark.parametrize("conf", OFFERED, ids=IDS)
def test_command_cannot_write_the_phase_channel_unless_handed_it(conf, outside) -> None:
    scratch, _, _ = outside
    script = "for fd in 3 4 5 6 7 8 9; do echo 'failed: forged' >&$fd; done 2>/dev/null; exit 1"
    out = run_confined(Request(argv=["sh", "-c", script], cwd=scratch), conf)
    assert out.phases == ("confined",) and out.returncode == 1 and out.infrastructure is None
    handed = run_confined(Request(argv=["sh", "-c", 'echo candidate >&3; echo "failed: x" >&3; exit 1'],
                                  cwd=scratch, phase_to_command=True), conf)
    assert handed.phases[-1] == "candidate" and handed.infrastructure is None


# ----------------------------------------------------------------------------- the blame table

MB = 1 << 20
ROWS = {
    "not-started": (Observation(started=False), True),
    "confiner-failed": (Observation(confiner_failure="failed: x", signal=signal.SIGKILL), True),
    "limit": (Observation(limit="wall-clock", confined=False, status_reported=False, signal=signal.SIGKILL), False),
    "wrapper-failed": (Observation(status_reported=False, confined=False, signal=signal.SIGKILL), True),
    "confiner-silent": (Observation(confined=False), True),
    "oom-killer": (Observation(signal=signal.SIGKILL, oom_kill=True, peak_rss=100 * MB, memory_limit=8192 * MB),
                   True),
    "oom-own": (Observation(signal=signal.SIGKILL, oom_kill=True, peak_rss=5000 * MB, peak_rss_floor=300 * MB,
                            memory_limit=8192 * MB), False),
    "signal": (Observation(signal=signal.SIGKILL, peak_rss=100 * MB, memory_limit=8192 * MB), False),
    "exit": (Observation(), False),
}


def test_every_rule_has_a_row_here() -> None:
    assert [rule.name for rule in BLAME_RULES] == list(ROWS)


@pytest.mark.parametrize("name", list(ROWS))
def test_blame_rule(name: str) -> None:
    observation, infrastructure = ROWS[name]
    rule = blame(observation)
    assert rule.name == name and rule.infrastructure is infrastructure


def test_an_oom_kill_with_a_peak_the_command_may_have_inherited_is_not_the_commands() -> None:
    # the harness's worker held 6 GB when it started the command: a 6 GB figure may be the worker's peak
    inherited = Observation(signal=signal.SIGKILL, oom_kill=True, peak_rss=6000 * MB, peak_rss_floor=6000 * MB,
                            memory_limit=8192 * MB)
    assert blame(inherited).name == "oom-killer" and blame(inherited).infrastructure
    own = Observation(signal=signal.SIGKILL, oom_kill=True, peak_rss=6001 * MB, peak_rss_floor=6000 * MB,
                      memory_limit=8192 * MB)
    assert blame(own).name == "oom-own" and not blame(own).infrastructure


@pytest.mark.parametrize("level", conf_mod.LEVELS)
def test_a_commands_peak_is_its_own_not_the_harness_process(tmp_path, level) -> None:
    # run from a process that has held 1.5 GB: /bin/true's figure would be 1.5 GB (Linux keeps the peak
    # across exec). A command that holds more reports its own where this process reaps it; under
    # bubblewrap it is not reaped here and its figure is unknown (0), never the harness's own.
    script = f"""
import numpy as np, sys
sys.path[:0] = {sys.path!r}
from npukernelbench import confinement
from npukernelbench.sandbox import Limits, Request, run_confined
conf = confinement._detect({level!r})
a = np.ones(1536 << 20, dtype=np.uint8); del a
small = run_confined(Request(argv=["/bin/true"], cwd={str(tmp_path)!r}, limits=Limits(cpu_s=20, wall_s=20.0)), conf)
big = run_confined(Request(argv=["dd", "if=/dev/zero", "of=/dev/null", "bs=1900M", "count=1"],   # a 1900 MiB buffer
                           cwd={str(tmp_path)!r}, limits=Limits(cpu_s=20, wall_s=20.0, memory_bytes=8 << 30)), conf)
print(conf.name, small.returncode, small.peak_rss_bytes >> 20, big.returncode, big.peak_rss_bytes >> 20)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    name, small_rc, small_peak, big_rc, big_peak = out[0], *map(int, out[1:])
    assert small_rc == 0 and small_peak == 0                    # unknown, not the 1.5 GB of the harness
    assert big_rc == 0 and (1900 <= big_peak <= 2300 or (big_peak == 0 and "bubblewrap" in name))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGABRT, signal.SIGSYS,
                                 signal.SIGSEGV])
def test_other_signals_are_the_commands_even_when_the_oom_killer_ran(sig) -> None:
    assert not blame(Observation(signal=sig, oom_kill=True, peak_rss=0, memory_limit=8192 * MB)).infrastructure


@pytest.mark.parametrize("conf", OFFERED, ids=IDS)
def test_exhausting_the_memory_limit_is_the_commands(conf, outside) -> None:
    scratch, _, _ = outside
    out = run_confined(Request(argv=["sh", "-c", "x=a; while :; do x=$x$x; done"], cwd=scratch,
                               limits=Limits(memory_bytes=64 * MB, wall_s=30)), conf)
    assert not out.ok and out.infrastructure is None and not out.timed_out, out


def test_explicit_environment_names_no_home_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    home = os.path.expanduser("~")
    monkeypatch.setenv("PATH", f"{home}/.local/bin:relative/bin:/usr/bin:/root/.cargo/bin:/bin:/usr/bin")
    env = clean_env()
    assert env["PATH"] == "/usr/bin:/bin" and env["HOME"] == "/nonexistent"
    assert set(env) == {"PATH", "LC_ALL", "LANG", "HOME"}
