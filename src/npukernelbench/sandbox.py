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

The watchdog must never touch another run's processes, also when many runs go on at once (threads,
pytest-xdist workers): the identifiers it matches on are ones the kernel recycles. The session and
process-group id is the leader's pid, so the leader is left unreaped (:func:`os.waitid` with
``WNOWAIT``) until every member is dead, which keeps that pid from being handed out again; a pid
namespace is matched by its inode number, so the watchdog holds the namespace open (an fd on
``/proc/PID/ns/pid``) until the end, which keeps that number from being reused by a new namespace.
(Without both, a finished run's final sweep could SIGKILL a concurrent run's namespace.)

Below the wrapper, every command runs under ``npukb-confine`` where the machine can build and run
it (capabilities dropped, Landlock, seccomp, no inherited descriptors: see
:mod:`npukernelbench.confinement`), with the caller's explicit environment (:func:`clean_env`).

What is not the command's doing is reported in ``ProcessOutcome.infrastructure`` (a sentence) and
never as the command's exit. Only what the harness observed outside the command counts
(:data:`npukernelbench.infrastructure.BLAME_RULES`): the program cannot be started, the confinement
failed before the command started (the phase channel, which the command cannot write), the
confinement wrapper failed before it reported the command's status
(:data:`npukernelbench.confinement.STATUS_SHELL`), or the kernel's out-of-memory killer killed the
command while it held less than half its memory limit. Every other death -- a signal it sent itself,
an abort, a trapped system call, a limit of ours it exhausted -- is the command's own.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import resource
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npukernelbench.confinement import BUBBLEWRAP, PHASE_ENV, Confinement, active_confinement, confinement_level
from npukernelbench.infrastructure import Observation, blame

__all__ = ["OUTPUT_LIMIT", "Limits", "ProcessOutcome", "Request", "clean_env", "confinement_level",
           "run_confined"]

OUTPUT_LIMIT = 64 * 1024          # bytes of stdout/stderr kept from a child (head + tail)
_TICK_S = 0.05                    # watchdog period
_EXIT_GRACE_S = 0.5               # how long pipes held open by leftovers may delay the end
# Signals reset to their default action and unblocked in every child, whatever the caller's thread had.
_RESET_SIGNALS = (signal.SIGXCPU, signal.SIGXFSZ, signal.SIGPIPE, signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                  signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGCHLD)


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
    infrastructure: str | None = None  # why the outcome is not the command's doing (see module doc)
    cpu_seconds: float = 0.0          # user + system time of the run's processes
    phases: tuple[str, ...] = ()      # lines on the phase channel: "confined", then the command's own
                                      # ("candidate": the launcher is about to load candidate code)
    peak_rss_bytes: int = 0           # the largest resident set among the run's reaped processes; 0 when
                                      # not known (not above what the command inherited: _inherited_peak)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and self.infrastructure is None

    def reached(self, phase: str) -> bool:
        """Whether the phase channel reported ``phase`` (e.g. "candidate")."""
        return phase in self.phases


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
    phase_to_command: bool = False    # hand the phase channel on to the command (fd 3 below the confiner,
                                      # NPUKB_PHASE_FD names it): for the launcher, which writes "candidate"
                                      # there before it loads candidate code and then closes it


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A minimal environment: PATH and locale only, ``HOME=/nonexistent``, plus ``extra`` (the sandbox
    adds ``TMPDIR``, the scratch directory). Nothing else of the caller's environment reaches a
    confined command."""
    env = {"PATH": _system_path(), "LC_ALL": "C", "LANG": "C", "HOME": "/nonexistent"}
    if extra:
        env.update(extra)
    return env


def _system_path() -> str:
    """The caller's PATH without relative entries and without the home directories' (tools of the
    user's own), so that it names no secret; the standard directories when nothing is left."""
    homes = tuple(h.rstrip("/") + "/" for h in {os.path.expanduser("~"), "/root"} if h and h != "/")
    kept: list[str] = []
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        if entry.startswith("/") and not (entry.rstrip("/") + "/").startswith(homes) and entry not in kept:
            kept.append(entry)
    return os.pathsep.join(kept) or "/usr/local/bin:/usr/bin:/bin"


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


@functools.cache
def _prctl() -> Any:
    """libc's prctl, looked up in the parent (no dlopen between fork and exec)."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT blocked in this thread while it forks a child. Ctrl-C signals the whole process group, and
    the child runs Python code (at-fork handlers, ``_preexec``) before ``setsid`` takes it out of the
    group: a SIGINT then would print a KeyboardInterrupt traceback from the child. Blocked, it stays
    pending: the child's ``_preexec`` unblocks it after ``setsid`` with the default action (the child
    ends quietly), and this process gets its KeyboardInterrupt when the mask is restored."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _preexec(limits: Limits, nproc: int | None):
    prctl = _prctl()

    def apply() -> None:
        # The child inherits the calling thread's signal mask and any ignored disposition: a blocked
        # or ignored SIGXCPU turns the CPU limit into a SIGKILL a second later, a blocked SIGTERM
        # keeps the command alive, so both are reset.
        for sig in _RESET_SIGNALS:
            with contextlib.suppress(OSError, ValueError):
                signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, ())

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
        if prctl is not None:         # die with the parent thread (prctl PR_SET_PDEATHSIG)
            prctl(1, signal.SIGKILL, 0, 0, 0)

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
    never makes an unrelated process a member; the session id stays unique because the caller
    leaves the leader unreaped until :meth:`close`, and a namespace's inode number because the
    watch holds the namespace open."""

    leader: int
    own_ns: str | None = field(default_factory=lambda: _pid_ns("self"))
    namespaces: dict[str, int] = field(default_factory=dict)        # "pid:[inode]" -> open fd on it
    known: set[tuple[int, bytes]] = field(default_factory=set)

    def _hold(self, pid: int, ns: str) -> None:
        """Keep ``ns`` (seen on process ``pid``) alive and watched, if it still is that namespace."""
        try:
            fd = os.open(f"/proc/{pid}/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return
        if f"pid:[{os.fstat(fd).st_ino}]" == ns:
            self.namespaces[ns] = fd
        else:                                   # the process died and its pid was reused meanwhile
            os.close(fd)

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
            if ns is not None and ns != self.own_ns and ns not in self.namespaces:
                self._hold(pid, ns)
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

    def close(self) -> None:
        for fd in self.namespaces.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self.namespaces.clear()


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


def _program(argv0: str, env: Mapping[str, str], cwd: Path) -> str | None:
    """Why ``argv0`` cannot be started, or None when it can."""
    if "/" in argv0:
        path = argv0 if os.path.isabs(argv0) else os.path.join(cwd, argv0)
        found = path if os.path.isfile(path) else None
    else:
        found = shutil.which(argv0, path=env.get("PATH", os.defpath))
    if found is None:
        return "no such program"
    if not os.access(found, os.X_OK):
        return "not executable"
    return None


def _inherited_peak() -> int:
    """Bytes: an upper bound of the peak resident set a command started now inherits from this process.
    Linux carries a process's peak across exec (the child starts at the peak of the memory it was
    forked or vforked from), so a reaped command's ``ru_maxrss`` not above this is not its own."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _oom_kills() -> int | None:
    """How many processes the kernel's out-of-memory killer has killed since boot."""
    try:
        with open("/proc/vmstat", "rb") as fh:
            for line in fh:
                if line.startswith(b"oom_kill "):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def _exited(pid: int) -> bool:
    """Whether the child has ended, leaving it unreaped (its pid stays reserved)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _reap(proc: subprocess.Popen, timeout: float = 5.0) -> resource.struct_rusage | None:
    """Reap the leader (after its members are dead); its rusage covers every descendant it waited for."""
    end = time.monotonic() + timeout
    while True:
        try:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return usage
        if time.monotonic() > end:
            return None
        time.sleep(0.005)


def _wrapper_failure(conf: Confinement, leader_rc: int | None, stderr: str) -> str:
    """One sentence: the wrapper ended without reporting the command's status."""
    name = "bwrap" if conf.level == BUBBLEWRAP else "unshare"
    own = [ln.strip() for ln in stderr.splitlines() if ln.startswith(f"{name}:")]
    if own:
        why = own[-1]
    elif leader_rc is not None and leader_rc < 0:
        why = f"{name} was killed by {_signal_name(leader_rc)}"
    else:
        why = f"{name} exited with status {leader_rc} and printed nothing of its own"
    return f"the {conf.level} confinement wrapper failed before the command reported its exit status ({why})"


def _pipe() -> tuple[int, int]:
    """A pipe whose ends are both above 2 (a caller with a closed stdin must not get fd 0 back)."""
    ends = []
    for fd in os.pipe():
        if fd < 3:
            moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
            os.close(fd)
            fd = moved
        ends.append(fd)
    return ends[0], ends[1]


def _trusted_phases(text: str) -> tuple[str, ...]:
    """The phase channel's lines up to the first "candidate": whoever holds the channel after that
    point may run candidate code, so nothing later is believed."""
    lines: list[str] = []
    for line in text.splitlines():
        if line:
            lines.append(line)
        if line == "candidate":
            break
    return tuple(lines)


def _phase_failure(phases: Sequence[str]) -> str | None:
    """What npukb-confine reported instead of starting the command, or None."""
    for line in phases:
        if line.startswith(("failed: ", "exec-failed: ")):
            return line
    return None


def _signal_number(rc: int | None) -> int | None:
    return -rc if rc is not None and rc < 0 else None


def run_confined(request: Request, confinement: Confinement | None = None) -> ProcessOutcome:
    """Run ``request.argv`` confined; never raises for anything the child does. Failures of the
    machinery (see the module doc) come back in ``infrastructure``."""
    start = time.monotonic()
    conf = confinement or active_confinement()
    limits = request.limits
    cwd = Path(request.cwd)
    env = dict(request.env) or clean_env()
    env.setdefault("TMPDIR", str(cwd))         # compiler temporaries stay in the scratch directory
    env.pop(PHASE_ENV, None)

    def not_started(why: str) -> ProcessOutcome:
        text = f"cannot start {request.argv[0]}: {why}"
        return ProcessOutcome(returncode=127, stdout="", stderr=text, seconds=time.monotonic() - start,
                              confinement=conf.name, infrastructure=text)

    missing = _program(str(request.argv[0]), env, cwd)
    if missing:
        return not_started(missing)
    oom_before = _oom_kills()
    inherited = _inherited_peak()
    wrapped = conf.reports_status(request.network)
    stdin_file: Path | None = None
    status_r = status_w = phase_r = phase_w = -1
    try:
        if wrapped:
            if request.stdin is not None:
                fd, name = tempfile.mkstemp(prefix=".npukb-stdin-", dir=cwd)
                with os.fdopen(fd, "wb") as fh:
                    fh.write(request.stdin)
                stdin_file = Path(name)
            status_r, status_w = _pipe()
        if conf.confines or request.phase_to_command:
            phase_r, phase_w = _pipe()
            if not conf.confines:
                env[PHASE_ENV] = str(phase_w)
        argv = conf.wrap(request.argv, cwd, request.writable, request.readable, request.network,
                         stdin=str(stdin_file) if stdin_file else os.devnull,
                         phase_fd=phase_w if conf.confines else None, keep_phase=request.phase_to_command)
        nproc = None if os.getuid() == 0 else _user_tasks(os.getuid()) + limits.processes
        stdin: int = status_w if wrapped else subprocess.PIPE if request.stdin is not None else subprocess.DEVNULL
        passed = (phase_w,) if phase_w >= 0 and (conf.confines or request.phase_to_command) else ()
        with _sigint_held():
            proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=stdin, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True,
                                    preexec_fn=_preexec(limits, nproc), close_fds=True, pass_fds=passed)
    except OSError as exc:
        for fd in (status_r, phase_r):
            if fd >= 0:
                os.close(fd)
        if stdin_file is not None:
            stdin_file.unlink(missing_ok=True)
        return not_started(str(exc))
    finally:
        for fd in (status_w, phase_w):
            if fd >= 0:
                os.close(fd)
    watch = _Watch(proc.pid)
    feeder = None
    if request.stdin is not None and not wrapped:
        feeder = threading.Thread(target=_feed, args=(proc.stdin, request.stdin), daemon=True)
        feeder.start()
    captures = {"stdout": _Capture(), "stderr": _Capture(), "status": _Capture(), "phase": _Capture()}
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, captures["stdout"])
    sel.register(proc.stderr, selectors.EVENT_READ, captures["stderr"])
    side_pipes = []
    for fd, name in ((status_r, "status"), (phase_r, "phase")):
        if fd >= 0:
            pipe = os.fdopen(fd, "rb", buffering=0)
            side_pipes.append(pipe)
            sel.register(pipe, selectors.EVENT_READ, captures[name])
    deadline = start + limits.wall_s
    next_tick = time.monotonic()
    exited_at: float | None = None
    limit: str | None = None
    usage = None
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
            if exited_at is None and _exited(proc.pid):
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
        usage = _reap(proc)
        watch.close()
        if proc.returncode is None:             # not reaped within the grace period
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
        for key in list(sel.get_map().values()):          # whatever is still buffered, never waiting
            with contextlib.suppress(OSError):
                os.set_blocking(key.fd, False)
                while data := os.read(key.fd, 65536):
                    key.data.add(data)
        sel.close()
        for pipe in (proc.stdout, proc.stderr, proc.stdin, *side_pipes):
            if pipe is not None:
                with contextlib.suppress(OSError, ValueError):
                    pipe.close()
        if feeder is not None:
            feeder.join(timeout=1)
        if stdin_file is not None:
            stdin_file.unlink(missing_ok=True)
    stdout, t1 = captures["stdout"].text()
    stderr, t2 = captures["stderr"].text()
    phases = _trusted_phases(captures["phase"].text()[0])
    rc = proc.returncode
    cpu = usage.ru_utime + usage.ru_stime if usage is not None else 0.0
    peak = usage.ru_maxrss * 1024 if usage is not None else 0
    status_reported = True
    if wrapped:
        status = captures["status"].text()[0]
        if status.strip().isdigit() and status.count("\n") == 1:
            rc = int(status)
            if 128 < rc < 128 + 65:
                rc = -(rc - 128)       # the shell reports a death by signal n as 128 + n
        elif status:                   # only the command can have written anything else there
            rc = 1
            stderr += "\n[sandbox] the command wrote to the sandbox's status channel"
        else:
            status_reported = False
    if limit is None and rc == -signal.SIGXCPU:
        limit = "cpu"
    elif limit is None and rc == -signal.SIGXFSZ:
        limit = "file-size"
    elif limit is None and rc == -signal.SIGKILL and cpu >= limits.cpu_s:
        limit = "cpu"                  # SIGXCPU blocked or ignored: the hard limit's SIGKILL
    sig = _signal_name(rc)
    observed = Observation(
        confiner_failure=_phase_failure(phases),
        confined=not conf.confines or "confined" in phases, status_reported=status_reported, limit=limit,
        signal=_signal_number(rc), oom_kill=oom_before is not None and (_oom_kills() or 0) > oom_before,
        peak_rss=peak, peak_rss_floor=inherited, memory_limit=limits.memory_bytes)
    rule = blame(observed)
    infrastructure: str | None = None
    if rule.infrastructure:
        if rule.name == "wrapper-failed":
            infrastructure = _wrapper_failure(conf, rc, stderr)
        elif rule.name in ("confiner-failed", "confiner-silent"):
            said = observed.confiner_failure or next(
                (ln.strip() for ln in stderr.splitlines() if ln.startswith("npukb-confine:")), "no report")
            infrastructure = f"{rule.why} (npukb-confine: {said})"
        else:
            infrastructure = f"{request.argv[0]} was killed by {sig}: {rule.why}"
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
    elif rule.name == "oom-own":
        stderr += (f"\n[sandbox] killed by the kernel's out-of-memory killer while holding "
                   f"{peak >> 20} MiB (its limit: {limits.memory_bytes >> 20} MiB)")
    return ProcessOutcome(returncode=None if timed_out else rc, stdout=stdout, stderr=stderr,
                          seconds=time.monotonic() - start, timed_out=timed_out, signal_name=sig,
                          truncated=t1 or t2, limit=limit, confinement=conf.name, infrastructure=infrastructure,
                          cpu_seconds=round(cpu, 3), phases=phases, peak_rss_bytes=peak if peak > inherited else 0)
