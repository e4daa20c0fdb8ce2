"""Which confinement this machine offers, and how a command is wrapped in it.

Three levels, strongest first (the run header names the active one):

``bubblewrap``
    ``bwrap`` with every namespace unshared (no network, own pid namespace, own /proc and /tmp),
    the system (/usr, the /bin and /lib links) read-only, only the scratch directory writable, the
    toolchain paths the caller names read-only, nothing else: no repo, no home, no /etc beyond the
    linker cache. Install it with ``apt-get install bubblewrap``.
``netns+rlimits``
    ``unshare`` (util-linux): own network namespace (no network) and, where the kernel allows, own
    pid namespace, so every process of the run dies with it. The file system is not confined.
``rlimits``
    Resource limits, an own session and the watchdog of :mod:`npukernelbench.sandbox` only.

Under ``bubblewrap`` and ``netns+rlimits`` the command runs below a small shell (:data:`STATUS_SHELL`)
that writes the command's exit status as one line to the shell's own standard input, which is a pipe
from the caller (the command itself reads ``/dev/null`` or a file): the caller learns the command's
real status, and *no* line means that the wrapper (``bwrap``/``unshare``) failed or was killed, an
infrastructure failure that is never the command's doing. (util-linux 2.38's ``unshare`` cannot
re-raise a SIGKILL that ended its child and exits with status 1 and ``unshare: sigprocmask unblock
failed``, indistinguishable by exit status from a compiler error.)

The level is found once per process by actually running ``true`` under each level, status shell
included (user namespaces may be disabled even when ``bwrap`` is installed), and cached.
``NPUKB_CONFINEMENT`` (``bubblewrap``, ``netns+rlimits`` or ``rlimits``) caps the level, e.g. to test
the fallbacks; it never raises it.
"""

from __future__ import annotations

import functools
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
class Confinement:
    """The active level and how to wrap a command in it."""

    level: str
    detail: str                            # human-readable: what the level gives on this machine
    bwrap: str | None = None               # path of bwrap when level is bubblewrap
    unshare: tuple[str, ...] = ()          # unshare argv prefix when level is netns+rlimits

    @property
    def pid_namespace(self) -> bool:
        return self.level == BUBBLEWRAP or "--pid" in self.unshare

    def reports_status(self, network: bool = False) -> bool:
        """Whether :meth:`wrap` puts the command below :data:`STATUS_SHELL` (whose stdin must then
        be the write end of the caller's status pipe)."""
        return (self.level == BUBBLEWRAP and self.bwrap is not None) or \
            (self.level == NETNS and bool(self.unshare) and not network)

    def wrap(self, argv: Sequence[str], cwd: Path, writable: Sequence[Path] = (),
             readable: Sequence[Path] = (), network: bool = False, stdin: str = os.devnull) -> list[str]:
        """``argv`` as run under this level (the caller still applies limits and the session).
        When :meth:`reports_status`, the command reads ``stdin`` (a path) and the status shell's
        line on its own fd 0 is the command's exit status."""
        status = ["/bin/sh", "-c", STATUS_SHELL, "sh", stdin]
        if self.level == BUBBLEWRAP and self.bwrap:
            return bwrap_argv(self.bwrap, argv, cwd, writable, readable, network, launcher=status)
        if self.level == NETNS and self.unshare and not network:
            # The shell is the namespace's init: the command is not pid 1 (which ignores
            # default-action signals such as SIGXCPU).
            return [*self.unshare, "--", *status, *argv]
        return list(argv)


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
    binds: dict[Path, bool] = {}            # path -> writable
    named = _argv_paths(argv, cwd)
    for path in [*readable, *(p for p, w in named if not w)]:
        path = Path(os.path.abspath(path))
        if not _inside(path, Path("/usr")) and path.exists():
            binds.setdefault(path, False)
    for path in (cwd, *writable, *(p for p, w in named if w)):
        binds[Path(os.path.abspath(path))] = True
    # Parents first, so that a deeper bind (a writable scratch inside a read-only tree or the
    # reverse) stays in force.
    for path in sorted(binds, key=lambda p: len(p.parts)):
        args += ["--bind" if binds[path] else "--ro-bind", str(path), str(path)]
    args += ["--chdir", str(Path(os.path.abspath(cwd))), "--"]
    return args + list(launcher) + list(argv)


def _works(candidate: Confinement, cwd: str) -> bool:
    """Whether ``true`` runs under ``candidate`` and its status shell reports status 0 on the pipe."""
    read_end, write_end = os.pipe()
    try:
        argv = candidate.wrap([_true()], Path(cwd))
        done = subprocess.run(argv, cwd=cwd, stdin=write_end, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=20, env={"PATH": "/usr/bin:/bin"})
        os.close(write_end)
        write_end = -1
        status = os.read(read_end, 64)
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    return done.returncode == 0 and status == b"0\n"


def _true() -> str:
    return shutil.which("true", path="/usr/bin:/bin") or "/bin/true"


def _probe_bwrap(scratch: str) -> Confinement | None:
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return None
    found = Confinement(BUBBLEWRAP, "bubblewrap: no network, own pid namespace, read-only system, "
                        "only the scratch directory writable", bwrap=bwrap)
    return found if _works(found, scratch) else None


def _probe_unshare(scratch: str) -> Confinement | None:
    unshare = shutil.which("unshare")
    if not unshare:
        return None
    for variant in _UNSHARE_VARIANTS:
        pid = "--pid" in variant
        found = Confinement(NETNS, "unshare: no network" + (", own pid namespace" if pid else "")
                            + "; file system not confined", unshare=(unshare, *variant))
        if _works(found, scratch):
            return found
    return None


@functools.cache
def _detect(cap: str) -> Confinement:
    allowed = LEVELS[LEVELS.index(cap):] if cap in LEVELS else LEVELS
    with tempfile.TemporaryDirectory(prefix="npukb-probe-") as scratch:
        if BUBBLEWRAP in allowed and (found := _probe_bwrap(scratch)):
            return found
        if NETNS in allowed and (found := _probe_unshare(scratch)):
            return found
    hint = "" if BUBBLEWRAP not in allowed else " (install bubblewrap: apt-get install bubblewrap)"
    return Confinement(RLIMITS, "resource limits and an own session only" + hint)


def active_confinement() -> Confinement:
    """The strongest level that works here (capped by ``NPUKB_CONFINEMENT``), probed once."""
    cap = os.environ.get(ENV_CAP, "").strip()
    if cap and cap not in LEVELS:
        raise ValueError(f"{ENV_CAP}={cap!r} is not a confinement level; use one of {', '.join(LEVELS)} "
                         "or unset it")
    return _detect(cap)


def confinement_level() -> str:
    """``"bubblewrap"``, ``"netns+rlimits"`` or ``"rlimits"``: for the run header."""
    return active_confinement().level
