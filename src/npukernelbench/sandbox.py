"""How untrusted builds and runs are confined.

Every candidate build and run goes through :func:`run_confined`: a child process in its own session
(so the whole process group can be killed), a clean environment, a wall-clock limit enforced from the
parent, and resource limits (CPU, memory, file size, open files, processes, no core dumps).
Stronger confinement (bubblewrap, network namespaces) is layered on in ``Confinement``.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

OUTPUT_LIMIT = 64 * 1024          # bytes of stdout/stderr kept from a child


@dataclass(frozen=True)
class Limits:
    cpu_s: int = 120
    memory_bytes: int = 4 << 30       # address space; compilers need room
    file_bytes: int = 256 << 20
    open_files: int = 256
    processes: int = 256              # per user (RLIMIT_NPROC); fork bombs stop here
    wall_s: float = 60.0


@dataclass(frozen=True)
class ProcessOutcome:
    returncode: int | None            # None when killed for the wall-clock limit
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    signal_name: str | None = None    # set when the child died of a signal
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


@dataclass(frozen=True)
class Request:
    argv: Sequence[str]
    cwd: Path
    limits: Limits = field(default_factory=Limits)
    env: Mapping[str, str] = field(default_factory=dict)
    stdin: bytes | None = None


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A minimal environment: PATH and locale only, plus ``extra``."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C", "HOME": "/nonexistent"}
    if extra:
        env.update(extra)
    return env


def _preexec(limits: Limits):
    def apply() -> None:
        def setl(kind: int, value: int) -> None:
            try:
                soft, hard = resource.getrlimit(kind)
                value = value if hard == resource.RLIM_INFINITY else min(value, hard)
                resource.setrlimit(kind, (value, value))
            except (ValueError, OSError):
                pass

        setl(resource.RLIMIT_CPU, limits.cpu_s)
        setl(resource.RLIMIT_AS, limits.memory_bytes)
        setl(resource.RLIMIT_FSIZE, limits.file_bytes)
        setl(resource.RLIMIT_NOFILE, limits.open_files)
        setl(resource.RLIMIT_CORE, 0)
        if os.getuid() != 0:          # RLIMIT_NPROC does not bind root
            setl(resource.RLIMIT_NPROC, limits.processes)

    return apply


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _decode(data: bytes) -> tuple[str, bool]:
    truncated = len(data) > OUTPUT_LIMIT
    if truncated:
        half = OUTPUT_LIMIT // 2
        data = data[:half] + b"\n... [output truncated] ...\n" + data[-half:]
    return data.decode("utf-8", errors="replace"), truncated


def run_confined(request: Request) -> ProcessOutcome:
    """Run ``request.argv`` confined; never raises for anything the child does."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(request.argv), cwd=request.cwd, env=dict(request.env) or clean_env(),
            stdin=subprocess.PIPE if request.stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            preexec_fn=_preexec(request.limits), close_fds=True,
        )
    except OSError as exc:
        return ProcessOutcome(returncode=127, stdout="", stderr=f"cannot start {request.argv[0]}: {exc}",
                              seconds=time.monotonic() - start)
    timed_out = False
    try:
        out, err = proc.communicate(request.stdin, timeout=request.limits.wall_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        out, err = proc.communicate()
    finally:
        _kill_group(proc.pid)     # grandchildren left in the group go too
    stdout, t1 = _decode(out or b"")
    stderr, t2 = _decode(err or b"")
    rc = proc.returncode
    sig = None
    if rc is not None and rc < 0:
        try:
            sig = signal.Signals(-rc).name
        except ValueError:
            sig = f"signal {-rc}"
    if rc == -signal.SIGXCPU:
        timed_out = True
    return ProcessOutcome(returncode=None if timed_out else rc, stdout=stdout, stderr=stderr,
                          seconds=time.monotonic() - start, timed_out=timed_out, signal_name=sig,
                          truncated=t1 or t2)
