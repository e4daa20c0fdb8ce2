"""How untrusted builds and runs are confined.

Every candidate build and run goes through :func:`run_confined`: a child process in its own session
(so the whole process group can be killed), a clean environment, a wall-clock limit enforced from the
parent, and resource limits (CPU, address space, file size, open files, processes, no core dumps).
On top, the strongest confinement this machine offers (:mod:`npukernelbench.confinement`:
bubblewrap, else network/pid namespaces via ``unshare``, else limits only) wraps the command.

A watchdog in the parent counts the run's processes (its session plus every process in its pid
namespace) while it runs and kills them all when there are more than ``Limits.processes``: the
process limit holds for root too, where ``RLIMIT_NPROC`` does not bind. When the run ends, for
whatever reason, every process it left behind is killed. Output kept from a child is bounded
(``OUTPUT_LIMIT``: head and tail), however much it writes.
"""

from __future__ import annotations

import contextlib
import os
import resource
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from npukernelbench.confinement import Confinement, active_confinement, confinement_level

__all__ = ["OUTPUT_LIMIT", "Limits", "ProcessOutcome", "Request", "clean_env", "confinement_level",
           "run_confined"]

OUTPUT_LIMIT = 64 * 1024          # bytes of stdout/stderr kept from a child (head + tail)
_TICK_S = 0.05                    # watchdog period
_EXIT_GRACE_S = 0.5               # how long pipes held open by leftovers may delay the end


@dataclass(frozen=True)
class Limits:
    cpu_s: int = 120
    memory_bytes: int = 4 << 30       # address space per process; g++ -O2 on a kernel TU needs < 1 GiB
    file_bytes: int = 256 << 20
    open_files: int = 256
    processes: int = 256              # processes of the run at once (watchdog; RLIMIT_NPROC too if not root)
    wall_s: float = 60.0


@dataclass(frozen=True)
class ProcessOutcome:
    returncode: int | None            # None when killed for the wall-clock (or CPU) limit
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    signal_name: str | None = None    # set when the child died of a signal
    truncated: bool = False
    limit: str | None = None          # the limit that stopped it: wall-clock, cpu, processes, file-size
    confinement: str = ""             # level the run was confined at

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


@dataclass(frozen=True)
class Request:
    argv: Sequence[str]
    cwd: Path                         # the scratch directory: the only writable place
    limits: Limits = field(default_factory=Limits)
    env: Mapping[str, str] = field(default_factory=dict)
    stdin: bytes | None = None
    writable: tuple[Path, ...] = ()   # further read-write directories (bubblewrap)
    readable: tuple[Path, ...] = ()   # read-only paths the command needs (toolchain includes, ...);
                                      # absolute paths named in argv are added automatically
    network: bool = False             # candidates never get one; only for trusted tools


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A minimal environment: PATH and locale only, plus ``extra``."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C",
           "HOME": "/nonexistent"}
    if extra:
        env.update(extra)
    return env


# ---------------------------------------------------------------------------------------- limits

def _user_tasks(uid: int) -> int:
    """Tasks (threads) the user owns now: RLIMIT_NPROC counts them all, not just the run's."""
    count = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError):
                if os.stat(f"/proc/{name}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{name}/task"))
    return count


def _preexec(limits: Limits, nproc: int | None):
    def apply() -> None:
        def setl(kind: int, value: int, slack: int = 0) -> None:
            try:
                soft, hard = resource.getrlimit(kind)
                value = value if hard == resource.RLIM_INFINITY else min(value, hard)
                top = value + slack if hard == resource.RLIM_INFINITY else min(value + slack, hard)
                resource.setrlimit(kind, (value, top))
            except (ValueError, OSError):
                pass

        setl(resource.RLIMIT_CPU, limits.cpu_s, slack=1)     # SIGXCPU first, SIGKILL a second later
        setl(resource.RLIMIT_AS, limits.memory_bytes)
        setl(resource.RLIMIT_FSIZE, limits.file_bytes)
        setl(resource.RLIMIT_NOFILE, limits.open_files)
        setl(resource.RLIMIT_CORE, 0)
        if nproc is not None:         # RLIMIT_NPROC does not bind root; the watchdog does
            setl(resource.RLIMIT_NPROC, nproc)
        with contextlib.suppress(Exception):     # die with the parent (prctl PR_SET_PDEATHSIG)
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)

    return apply


# -------------------------------------------------------------------------------------- watchdog

def _pid_ns(pid: int | str) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


@dataclass
class _Watch:
    """The processes of one run: its session, the descendants of every process seen in it (a
    ``setsid`` does not hide a child), and every process in a pid namespace that one of them lives
    in (the bubblewrap/unshare sandbox). Processes are keyed by (pid, start time), so a reused pid
    never makes an unrelated process a member."""

    leader: int
    own_ns: str | None = field(default_factory=lambda: _pid_ns("self"))
    namespaces: set[str] = field(default_factory=set)
    known: set[tuple[int, bytes]] = field(default_factory=set)

    def members(self) -> list[int]:
        rows: dict[int, tuple[int, bytes, str | None]] = {}      # pid -> (ppid, start, ns)
        found: set[int] = set()
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as fh:
                    stat = fh.read()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2:].split()
            if len(fields) < 20 or fields[0] == b"Z":       # zombies hold nothing and cannot be killed
                continue
            pid, ppid, sid, started = int(name), int(fields[1]), int(fields[3]), fields[19]
            ns = _pid_ns(pid)
            rows[pid] = (ppid, started, ns)
            if sid == self.leader or pid == self.leader or (pid, started) in self.known:
                found.add(pid)
        for pid in found:
            ns = rows[pid][2]
            if ns is not None and ns != self.own_ns:
                self.namespaces.add(ns)
        found |= {pid for pid, row in rows.items() if row[2] is not None and row[2] in self.namespaces}
        grew = True
        while grew:                                            # descendants of members are members
            more = {pid for pid, row in rows.items() if row[0] in found and pid not in found}
            grew = bool(more)
            found |= more
        found.discard(os.getpid())
        self.known |= {(pid, rows[pid][1]) for pid in found}
        return sorted(found)

    def kill_all(self, rounds: int = 50) -> int:
        """SIGKILL every member until none is left; returns how many were alive at first."""
        first = -1
        for _ in range(rounds):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.leader, signal.SIGKILL)
            alive = self.members()
            if first < 0:
                first = len(alive)
            if not alive:
                break
            for pid in alive:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)
        return max(first, 0)


# ---------------------------------------------------------------------------------------- output

class _Capture:
    """Keeps the first and last ``OUTPUT_LIMIT / 2`` bytes of a stream, whatever its length."""

    def __init__(self) -> None:
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        half = OUTPUT_LIMIT // 2
        self.total += len(data)
        room = half - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            if len(self.tail) > 2 * half:
                del self.tail[:-half]

    def text(self) -> tuple[str, bool]:
        half = OUTPUT_LIMIT // 2
        tail = bytes(self.tail[-half:]) if self.tail else b""
        truncated = self.total > len(self.head) + len(tail)
        data = bytes(self.head) + (b"\n... [output truncated] ...\n" if truncated else b"") + tail
        return data.decode("utf-8", errors="replace"), truncated


def _feed(pipe, data: bytes) -> None:
    with contextlib.suppress(OSError, ValueError):
        pipe.write(data)
    with contextlib.suppress(OSError, ValueError):
        pipe.close()


# ------------------------------------------------------------------------------------------- run

def _signal_name(rc: int | None) -> str | None:
    if rc is None or rc >= 0:
        return None
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def run_confined(request: Request, confinement: Confinement | None = None) -> ProcessOutcome:
    """Run ``request.argv`` confined; never raises for anything the child does."""
    start = time.monotonic()
    conf = confinement or active_confinement()
    limits = request.limits
    cwd = Path(request.cwd)
    env = dict(request.env) or clean_env()
    env.setdefault("TMPDIR", str(cwd))         # compiler temporaries stay in the scratch directory
    argv = conf.wrap(request.argv, cwd, request.writable, request.readable, request.network)
    nproc = None if os.getuid() == 0 else _user_tasks(os.getuid()) + limits.processes
    try:
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env,
            stdin=subprocess.PIPE if request.stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            preexec_fn=_preexec(limits, nproc), close_fds=True,
        )
    except OSError as exc:
        return ProcessOutcome(returncode=127, stdout="", stderr=f"cannot start {request.argv[0]}: {exc}",
                              seconds=time.monotonic() - start, confinement=conf.level)
    watch = _Watch(proc.pid)
    feeder = None
    if request.stdin is not None:
        feeder = threading.Thread(target=_feed, args=(proc.stdin, request.stdin), daemon=True)
        feeder.start()
    captures = {"stdout": _Capture(), "stderr": _Capture()}
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, captures["stdout"])
    sel.register(proc.stderr, selectors.EVENT_READ, captures["stderr"])
    deadline = start + limits.wall_s
    next_tick = time.monotonic()
    exited_at: float | None = None
    limit: str | None = None
    try:
        while True:
            now = time.monotonic()
            if now >= deadline:
                limit = "wall-clock"
                break
            if sel.get_map():
                for key, _ in sel.select(timeout=min(_TICK_S, deadline - now)):
                    data = os.read(key.fd, 65536)
                    if data:
                        key.data.add(data)
                    else:
                        sel.unregister(key.fileobj)
            else:
                time.sleep(min(_TICK_S, deadline - now))
            if exited_at is None and proc.poll() is not None:
                exited_at = time.monotonic()
            if exited_at is not None and (not sel.get_map() or time.monotonic() - exited_at > _EXIT_GRACE_S):
                break
            if time.monotonic() >= next_tick:
                next_tick = time.monotonic() + _TICK_S
                if len(watch.members()) > limits.processes + 3:     # + the confinement's own
                    limit = "processes"
                    break
    finally:
        watch.kill_all()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        sel.close()
        for pipe in (proc.stdout, proc.stderr, proc.stdin):
            if pipe is not None:
                with contextlib.suppress(OSError, ValueError):
                    pipe.close()
        if feeder is not None:
            feeder.join(timeout=1)
    stdout, t1 = captures["stdout"].text()
    stderr, t2 = captures["stderr"].text()
    rc = proc.returncode
    if argv[0] != request.argv[0] and rc is not None and 128 < rc < 128 + 65:
        rc = -(rc - 128)            # bwrap/unshare report the child's death by signal as 128 + n
    sig = _signal_name(rc)
    if limit is None and rc == -signal.SIGXCPU:
        limit = "cpu"
    elif limit is None and rc == -signal.SIGXFSZ:
        limit = "file-size"
    timed_out = limit in ("wall-clock", "cpu")
    if limit == "wall-clock":
        stderr += f"\n[sandbox] killed: wall-clock limit of {limits.wall_s:g} s exceeded"
    elif limit == "cpu":
        stderr += f"\n[sandbox] killed: CPU limit of {limits.cpu_s} s exceeded"
    elif limit == "processes":
        stderr += f"\n[sandbox] killed: more than {limits.processes} processes at once"
        sig = sig or "SIGKILL"
    elif limit == "file-size":
        stderr += f"\n[sandbox] killed: wrote a file larger than {limits.file_bytes} bytes"
    return ProcessOutcome(returncode=None if timed_out else rc, stdout=stdout, stderr=stderr,
                          seconds=time.monotonic() - start, timed_out=timed_out, signal_name=sig,
                          truncated=t1 or t2, limit=limit, confinement=conf.level)
