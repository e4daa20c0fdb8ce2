"""Which confinement this machine offers, and how a command is wrapped in it.

Two layers, both probed once per process (the run header names the result, e.g.
``netns+rlimits+landlock+seccomp``):

**The boundary** (kernel mechanisms that need no root, applied by ``npukb-confine``, a small C
program compiled once per machine from ``boundary/confine.c`` into the cache): every command runs
with no capabilities (uid 0 included), Landlock rules (the system read-only, the paths the caller
names read-only, only the scratch directory read-write, no TCP, signals only within the sandbox), a
seccomp policy (no sockets, tracing, namespaces, mounts, ...), no inherited descriptors and the
caller's explicit environment. ``landlock`` and ``seccomp`` are named in the level when the kernel
has them; what runs candidate code (the simulator's launcher) adds the strict allow-list itself
before it loads that code (docs/security.md).

**The wrapper**, strongest first:

``bubblewrap``
    ``bwrap`` with every namespace unshared (no network, own pid namespace, own /proc and /tmp),
    the system (/usr, the /bin and /lib links) read-only, only the scratch directory writable, the
    toolchain paths the caller names read-only, nothing else: no repo, no home, no /etc beyond the
    linker cache. Install it with ``apt-get install bubblewrap``.
``netns+rlimits``
    ``unshare`` (util-linux): own network namespace (no network) and, where the kernel allows, own
    pid namespace, so every process of the run dies with it.
``rlimits``
    Resource limits, an own session and the watchdog of :mod:`npukernelbench.sandbox` only.

Under ``bubblewrap`` and ``netns+rlimits`` the command runs below a small shell (:data:`STATUS_SHELL`)
that writes the command's exit status as one line to the shell's own standard input, which is a pipe
from the caller (the command itself reads ``/dev/null`` or a file): the caller learns the command's
real status, and *no* line means that the wrapper (``bwrap``/``unshare``) failed or was killed, an
infrastructure failure that is never the command's doing. (util-linux 2.38's ``unshare`` cannot
re-raise a SIGKILL that ended its child and exits with status 1 and ``unshare: sigprocmask unblock
failed``, indistinguishable by exit status from a compiler error.) ``npukb-confine`` reports on a
second pipe (the *phase channel*) that it has confined the command and is about to exec it; the
command never holds that pipe unless the caller hands it on (``keep_phase``: the launcher, which
reports there that it is about to load candidate code and closes it).

``NPUKB_CONFINEMENT`` (``bubblewrap``, ``netns+rlimits`` or ``rlimits``) caps the wrapper, e.g. to
test the fallbacks; it never raises it. The boundary is applied at every wrapper level.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

BUBBLEWRAP = "bubblewrap"
NETNS = "netns+rlimits"
RLIMITS = "rlimits"
LEVELS = (BUBBLEWRAP, NETNS, RLIMITS)
ENV_CAP = "NPUKB_CONFINEMENT"
BOUNDARY_DIR = Path(__file__).resolve().parent / "boundary"
CONFINER_SOURCES = (BOUNDARY_DIR / "confine.c", BOUNDARY_DIR / "npukb_boundary.h")
PHASE_ENV = "NPUKB_PHASE_FD"

# Top-level links/directories of the system image that programs need (merged /usr or not).
_SYSTEM_ROOTS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
# Single files/directories of /etc that the compiler and dynamic linker may read; all public.
_ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives")

# $1: the command's stdin; then the command. "$?" is 128 + n when the command died of signal n.
STATUS_SHELL = 'in=$1; shift; "$@" <"$in"; s=$?; echo "$s" >&0; exit "$s"'

_UNSHARE_VARIANTS: tuple[tuple[str, ...], ...] = (
    ("--net", "--pid", "--fork", "--kill-child"),
    ("--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child"),
    ("--net",),
    ("--user", "--map-root-user", "--net"),
)


@dataclass(frozen=True)
class Boundary:
    """What ``npukb-confine`` enforces on this machine (see the module doc)."""

    confiner: str | None = None            # path of npukb-confine; None: not available (why in detail)
    landlock: int = 0                      # Landlock ABI applied; 0: none
    seccomp: bool = False
    detail: str = ""

    @property
    def features(self) -> tuple[str, ...]:
        return (("landlock",) if self.landlock else ()) + (("seccomp",) if self.seccomp else ())


NO_BOUNDARY = Boundary(detail="no confiner")


@dataclass(frozen=True)
class Confinement:
    """The active level and how to wrap a command in it."""

    level: str
    detail: str                            # human-readable: what the level gives on this machine
    bwrap: str | None = None               # path of bwrap when level is bubblewrap
    unshare: tuple[str, ...] = ()          # unshare argv prefix when level is netns+rlimits
    boundary: Boundary = NO_BOUNDARY       # the kernel mechanisms applied below the wrapper

    @property
    def pid_namespace(self) -> bool:
        return self.level == BUBBLEWRAP or "--pid" in self.unshare

    @property
    def name(self) -> str:
        """The level as the run header names it: the wrapper, then the boundary's mechanisms."""
        return "+".join((self.level, *self.boundary.features))

    @property
    def confines(self) -> bool:
        """Whether commands run below ``npukb-confine`` (and report on the phase channel)."""
        return self.boundary.confiner is not None

    def reports_status(self, network: bool = False) -> bool:
        """Whether :meth:`wrap` puts the command below :data:`STATUS_SHELL` (whose stdin must then
        be the write end of the caller's status pipe)."""
        return (self.level == BUBBLEWRAP and self.bwrap is not None) or \
            (self.level == NETNS and bool(self.unshare) and not network)

    def confiner_argv(self, argv: Sequence[str], cwd: Path, writable: Sequence[Path] = (),
                      readable: Sequence[Path] = (), network: bool = False, phase_fd: int | None = None,
                      keep_phase: bool = False) -> list[str]:
        """``argv`` below ``npukb-confine`` (unchanged when there is no confiner)."""
        b = self.boundary
        if b.confiner is None:
            return list(argv)
        ro, rw = visible_paths(argv, cwd, writable, readable)
        args = [b.confiner]
        if phase_fd is not None:
            args += ["--phase-fd", str(phase_fd)] + (["--keep-phase"] if keep_phase else [])
        if b.landlock:
            args.append("--landlock")
            for path in ro:
                args += ["--ro", str(path)]
            for path in rw:
                args += ["--rw", str(path)]
            if keep_phase:          # a command of ours that confines itself further (the launcher)
                args.append("--own-proc")
        if b.seccomp:
            args.append("--seccomp")
        if network:
            args.append("--allow-network")
        return [*args, "--", *argv]

    def wrap(self, argv: Sequence[str], cwd: Path, writable: Sequence[Path] = (),
             readable: Sequence[Path] = (), network: bool = False, stdin: str = os.devnull,
             phase_fd: int | None = None, keep_phase: bool = False) -> list[str]:
        """``argv`` as run under this level (the caller still applies limits and the session).
        When :meth:`reports_status`, the command reads ``stdin`` (a path) and the status shell's
        line on its own fd 0 is the command's exit status. ``phase_fd``: the write end of the phase
        channel (passed to the child), ``keep_phase``: hand it on to the command as fd 3."""
        status = ["/bin/sh", "-c", STATUS_SHELL, "sh", stdin]
        inner = self.confiner_argv(argv, cwd, writable, readable, network, phase_fd, keep_phase)
        if self.level == BUBBLEWRAP and self.bwrap:
            return bwrap_argv(self.bwrap, inner, cwd, writable, readable, network, launcher=status)
        if self.level == NETNS and self.unshare and not network:
            # The shell is the namespace's init: the command is not pid 1 (which ignores
            # default-action signals such as SIGXCPU).
            return [*self.unshare, "--", *status, *inner]
        return inner


def _argv_paths(argv: Sequence[str], cwd: Path) -> list[tuple[Path, bool]]:
    """Absolute paths named in ``argv`` (``-I/x``, ``--opt=/x``, ``/x``) as (path, writable): an
    existing path is the caller's toolchain or input, seen read-only; a path that does not exist yet
    is an output, whose directory is writable when it is the scratch directory's parent (a build
    folder holding the scratch source tree)."""
    found: list[tuple[Path, bool]] = []
    build_folder = Path(os.path.abspath(cwd)).parent
    for arg in argv:
        if "/" not in arg:
            continue
        if arg.startswith("-"):
            arg = arg.split("=", 1)[1] if "=" in arg else arg[arg.find("/"):]
        if not arg.startswith("/"):
            continue
        if os.path.exists(arg):
            found.append((Path(arg), False))
        elif Path(os.path.abspath(arg)).parent == build_folder and build_folder != Path("/"):
            found.append((build_folder, True))
    return found


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def _program_path(argv0: str) -> Path | None:
    """Where a bare program name resolves (the confiner must let it be read and executed)."""
    if "/" in argv0:
        return None
    found = shutil.which(argv0)
    return Path(os.path.realpath(found)) if found else None


def visible_paths(argv: Sequence[str], cwd: Path, writable: Sequence[Path] = (),
                  readable: Sequence[Path] = ()) -> tuple[list[Path], list[Path]]:
    """(read-only, read-write) paths a command may see beyond the system: ``readable``, the absolute
    paths named in ``argv`` and the program itself read-only; ``cwd``, ``writable`` and the build
    folder of an output named in ``argv`` read-write. Parents come before their children."""
    ro: dict[Path, None] = {}
    rw: dict[Path, None] = {}
    named = _argv_paths(argv, cwd)
    program = _program_path(str(argv[0])) if argv else None
    for path in [*readable, *(p for p, w in named if not w), *([program] if program else [])]:
        path = Path(os.path.abspath(path))
        if not _inside(path, Path("/usr")) and path.exists():
            ro[path] = None
    for path in (cwd, *writable, *(p for p, w in named if w)):
        rw[Path(os.path.abspath(path))] = None
    order = functools.partial(sorted, key=lambda p: len(p.parts))
    return order(p for p in ro if p not in rw), order(rw)


def bwrap_argv(bwrap: str, argv: Sequence[str], cwd: Path, writable: Sequence[Path] = (),
               readable: Sequence[Path] = (), network: bool = False, launcher: Sequence[str] = ()) -> list[str]:
    """The bubblewrap command line: system read-only, ``cwd`` and ``writable`` read-write,
    ``readable`` and absolute paths named in ``argv`` read-only, private /tmp, /proc and /dev;
    ``launcher`` (a system program and its arguments) goes in front of ``argv``."""
    args = [bwrap, "--unshare-all", "--die-with-parent", "--new-session"]
    if network:
        args.append("--share-net")
    args += ["--ro-bind", "/usr", "/usr"]
    for name in _SYSTEM_ROOTS:
        host = Path("/") / name
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            args += ["--ro-bind", str(host), str(host)]
    for etc in _ETC_FILES:
        args += ["--ro-bind-try", etc, etc]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    ro, rw = visible_paths(argv, cwd, writable, readable)
    binds = {**{p: False for p in ro}, **{p: True for p in rw}}
    # Parents first, so that a deeper bind (a writable scratch inside a read-only tree or the
    # reverse) stays in force. A path that its nearest bound parent already shows with the same access
    # is not bound again: bubblewrap would have to create its mount point inside a read-only bind (and
    # cannot where the path is a symlink, such as a virtual environment's bin/python).
    shown: dict[Path, bool] = {}
    for path in sorted(binds, key=lambda p: len(p.parts)):
        parent = next((shown[a] for a in path.parents if a in shown), None)    # nearest bound ancestor
        if parent is binds[path]:
            continue
        shown[path] = binds[path]
        args += ["--bind" if binds[path] else "--ro-bind", str(path), str(path)]
    args += ["--chdir", str(Path(os.path.abspath(cwd))), "--"]
    return args + list(launcher) + list(argv)


# ----------------------------------------------------------------------------------- the confiner

def _cache_root() -> Path:
    env = os.environ.get("NPUKB_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "npukernelbench" / "ascendc-sim"


def _c_compiler() -> str | None:
    """A compiler for confine.c: the system C compiler, else the C++ compiler in C mode."""
    for name in (os.environ.get("NPUKB_CXX") or "", "cc", "gcc", "clang", "g++", "clang++"):
        if name and (found := shutil.which(name)):
            return found
    return None


def confiner_binary() -> tuple[str | None, str]:
    """(path of npukb-confine, "") compiled for this machine (once; then cached under the cache root),
    or (None, why not)."""
    compiler = _c_compiler()
    if compiler is None:
        return None, "no C compiler to build npukb-confine (apt-get install gcc)"
    digest = hashlib.sha256(os.path.realpath(compiler).encode())
    try:
        for source in CONFINER_SOURCES:
            digest.update(source.read_bytes())
    except OSError as exc:
        return None, f"the confiner's sources are missing from this installation: {exc}"
    for root in (_cache_root(), Path(tempfile.gettempdir()) / f"npukb-boundary-{os.getuid()}"):
        target = root / "boundary" / digest.hexdigest()[:24] / "npukb-confine"
        if target.is_file() and os.access(target, os.X_OK):
            return str(target), ""
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, partial = tempfile.mkstemp(prefix=".npukb-confine-", dir=target.parent)
            os.close(fd)
            out = subprocess.run([compiler, "-x", "c", "-std=gnu11", "-O2", "-w", str(CONFINER_SOURCES[0]), "-o",
                                  partial], capture_output=True, text=True, timeout=120,
                                 env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C",
                                      "TMPDIR": str(target.parent)})
            if out.returncode != 0:
                os.unlink(partial)
                return None, f"npukb-confine does not compile with {compiler}: {out.stderr.strip()[-500:]}"
            os.replace(partial, target)
            return str(target), ""
        except (OSError, subprocess.SubprocessError) as exc:
            why = f"cannot build npukb-confine under {root}: {exc}"
    return None, why


def _probe_boundary() -> Boundary:
    confiner, why = confiner_binary()
    if confiner is None:
        return Boundary(detail=f"no Landlock or seccomp: {why}")
    try:
        out = subprocess.run([confiner, "--probe"], capture_output=True, text=True, timeout=20)
        words = out.stdout.split()
        landlock, seccomp = int(words[1]), words[3] == "1"
    except (OSError, subprocess.SubprocessError, IndexError, ValueError) as exc:
        return Boundary(detail=f"no Landlock or seccomp: npukb-confine --probe failed ({exc})")
    missing = []
    if not landlock:
        missing.append("no Landlock (kernel < 5.13 or Landlock disabled): the file system is confined only "
                       "under bubblewrap")
    if not seccomp:
        missing.append("no seccomp filter: system calls are not restricted")
    detail = (f"capabilities dropped, descriptors closed; Landlock ABI {landlock}: system read-only, only the "
              "scratch directory writable" if landlock else "capabilities dropped, descriptors closed")
    if seccomp:
        detail += "; seccomp: no sockets, tracing, namespaces or mounts (candidate code: an allow-list)"
    return Boundary(confiner=confiner, landlock=landlock, seccomp=seccomp,
                    detail=detail + "".join(f"; {m}" for m in missing))


def _works(candidate: Confinement, cwd: str) -> bool:
    """Whether ``true`` runs under ``candidate``: its status shell reports status 0 on the status
    pipe and its confiner "confined" on the phase channel."""
    read_end, write_end = os.pipe()
    phase_r, phase_w = os.pipe()
    try:
        argv = candidate.wrap([_true()], Path(cwd), phase_fd=phase_w if candidate.confines else None)
        done = subprocess.run(argv, cwd=cwd, stdin=write_end, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=20, env={"PATH": "/usr/bin:/bin"}, pass_fds=(phase_w,))
        os.close(write_end)
        os.close(phase_w)
        write_end = phase_w = -1
        status = os.read(read_end, 64)
        phases = os.read(phase_r, 256)
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        for fd in (read_end, write_end, phase_r, phase_w):
            if fd >= 0:
                os.close(fd)
    wrapped = candidate.reports_status()
    return done.returncode == 0 and (status == b"0\n" or not wrapped) and \
        (phases == b"confined\n" or not candidate.confines)


def _true() -> str:
    return shutil.which("true", path="/usr/bin:/bin") or "/bin/true"


def _probe_bwrap(scratch: str, boundary: Boundary) -> Confinement | None:
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return None
    found = Confinement(BUBBLEWRAP, "bubblewrap: no network, own pid namespace, read-only system, "
                        "only the scratch directory writable", bwrap=bwrap, boundary=boundary)
    return found if _works(found, scratch) else None


def _probe_unshare(scratch: str, boundary: Boundary) -> Confinement | None:
    unshare = shutil.which("unshare")
    if not unshare:
        return None
    for variant in _UNSHARE_VARIANTS:
        pid = "--pid" in variant
        found = Confinement(NETNS, "unshare: no network" + (", own pid namespace" if pid else ""),
                            unshare=(unshare, *variant), boundary=boundary)
        if _works(found, scratch):
            return found
    return None


@functools.cache
def _boundary() -> Boundary:
    return _probe_boundary()


@functools.cache
def _detect(cap: str) -> Confinement:
    allowed = LEVELS[LEVELS.index(cap):] if cap in LEVELS else LEVELS
    boundary = _boundary()
    with tempfile.TemporaryDirectory(prefix="npukb-probe-") as scratch:
        if boundary.confiner is not None and not _works(Confinement(RLIMITS, "", boundary=boundary), scratch):
            boundary = Boundary(detail=f"no Landlock or seccomp: npukb-confine ({boundary.confiner}) does not run "
                                       "`true` here")
        if BUBBLEWRAP in allowed and (found := _probe_bwrap(scratch, boundary)):
            return _with_detail(found)
        if NETNS in allowed and (found := _probe_unshare(scratch, boundary)):
            return _with_detail(found)
    hint = "" if BUBBLEWRAP not in allowed else " (install bubblewrap: apt-get install bubblewrap)"
    return _with_detail(Confinement(RLIMITS, "resource limits and an own session only" + hint, boundary=boundary))


def _with_detail(conf: Confinement) -> Confinement:
    return Confinement(conf.level, f"{conf.detail}; {conf.boundary.detail}", conf.bwrap, conf.unshare, conf.boundary)


def active_confinement() -> Confinement:
    """The strongest level that works here (capped by ``NPUKB_CONFINEMENT``), probed once."""
    cap = os.environ.get(ENV_CAP, "").strip()
    if cap and cap not in LEVELS:
        raise ValueError(f"{ENV_CAP}={cap!r} is not a confinement level; use one of {', '.join(LEVELS)} "
                         "or unset it")
    return _detect(cap)


def confinement_level() -> str:
    """The run header's name of the active level: the wrapper (``bubblewrap``, ``netns+rlimits`` or
    ``rlimits``) and the boundary's mechanisms, e.g. ``netns+rlimits+landlock+seccomp``."""
    return active_confinement().name
