"""Failures of the harness's own machinery, kept apart from every outcome a kernel can have.

A confinement wrapper that fails, a compiler that is missing or crashes, a full scratch disk, a
child process killed from outside the sandbox, a request the simulator cannot read: none of these
says anything about the candidate. They raise :class:`InfrastructureError` (from the toolchain, the
sandbox's ``ProcessOutcome.infrastructure`` turned into an exception) instead of becoming
``build_error``, ``runtime_error`` or ``wrong``, so they never reach the error taxonomy, pass@k or
the build cache.

The contract of :func:`npukernelbench.evaluate.evaluate` for its callers:

- an infrastructure failure is retried once (the whole sample, after a short pause);
- if it happens again, ``evaluate`` raises :class:`InfrastructureError` and the sample has **no
  outcome**: the pytest plugin reports an item *error* naming the cause (not a failure, not in
  results.jsonl, so ``--npukb-resume`` evaluates it again), ``npukb evaluate`` reports it and exits
  non-zero, and dataset or training code (verification, rewards, preference pairs) must catch it
  and skip the sample: it is neither a positive nor a negative example.

Because an infrastructure failure takes a sample out of the rewards, the candidate must not be able
to produce one: only what the harness observed *outside* the candidate counts (:data:`BLAME_RULES`,
one row per case, decided by :func:`blame` on an :class:`Observation`). A death the candidate can
cause -- a signal it sent itself, an abort, a trapped system call, a limit of ours it exhausted, a
crash -- is the candidate's.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

RETRY_PAUSE_S = 1.0
# Free space below which a failed step on the scratch file system is blamed on the disk, not the
# candidate; with a "no space left" message in the step's output, the threshold is larger.
DISK_MARGIN_BYTES = 32 << 20
DISK_MESSAGE_MARGIN_BYTES = 1 << 30
_DISK_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)
_DISK_MESSAGES = (os.strerror(errno.ENOSPC), os.strerror(errno.EDQUOT))


@dataclass(frozen=True)
class Observation:
    """What the harness itself saw of how a confined command ended; nothing the command printed or
    wrote counts here (it could be forged)."""

    started: bool = True                 # the program exists and could be executed
    confiner_failure: str | None = None  # what npukb-confine reported on the phase channel instead of starting it
    confined: bool = True                # npukb-confine reported "confined" (or there is no confiner)
    status_reported: bool = True         # the wrapper's status shell reported an exit status (or there is none)
    limit: str | None = None             # our limit that stopped it: wall-clock, cpu, processes, file-size
    signal: int | None = None            # the signal it died of
    oom_kill: bool = False               # the kernel's out-of-memory killer killed a process during the run
    peak_rss: int = 0                    # bytes: the largest resident set among the run's reaped processes
    peak_rss_floor: int = 0              # bytes: what peak_rss may have inherited from the harness's process
                                         # (Linux keeps the parent's peak across exec); not above it: unknown
    memory_limit: int = 0                # bytes: each process's address-space limit


@dataclass(frozen=True)
class BlameRule:
    name: str
    infrastructure: bool                 # True: our machinery's failure; False: the command's own outcome
    applies: Callable[[Observation], bool]
    why: str


# First matching row decides. docs/security.md ("Infrastructure failures") shows the same table.
BLAME_RULES: tuple[BlameRule, ...] = (
    BlameRule("not-started", True, lambda o: not o.started, "the program could not be started"),
    BlameRule("confiner-failed", True, lambda o: o.confiner_failure is not None,
              "the confinement failed before the command started"),
    BlameRule("limit", False, lambda o: o.limit is not None, "the command exhausted a limit of the harness"),
    BlameRule("wrapper-failed", True, lambda o: not o.status_reported,
              "the confinement wrapper failed before the command reported its exit status"),
    BlameRule("confiner-silent", True, lambda o: not o.confined,
              "the confinement ended without starting the command"),
    BlameRule("oom-killer", True,
              lambda o: o.signal == signal.SIGKILL and o.oom_kill
              and (o.peak_rss <= o.peak_rss_floor or 2 * o.peak_rss < o.memory_limit),
              "the kernel's out-of-memory killer ran while the command was far below its own memory limit (or "
              "its own peak is unknown: not above what it inherited from the harness): the machine is short of "
              "memory"),
    BlameRule("oom-own", False, lambda o: o.signal == signal.SIGKILL and o.oom_kill,
              "the command held at least half its memory limit when the out-of-memory killer ran"),
    BlameRule("signal", False, lambda o: o.signal is not None,
              "a death by a signal no limit or out-of-memory kill of ours explains: the command's own (a signal "
              "it sent itself, an abort, a crash, a trapped system call)"),
    BlameRule("exit", False, lambda o: True, "the command's own exit status"),
)


def blame(observation: Observation) -> BlameRule:
    """The row of :data:`BLAME_RULES` that decides ``observation``."""
    return next(rule for rule in BLAME_RULES if rule.applies(observation))


class InfrastructureError(Exception):
    """Our machinery failed; ``cause`` is one sentence naming what (shown as the item error)."""

    def __init__(self, cause: str):
        super().__init__(cause)
        self.cause = cause


def retry_once(attempt: Callable[[], T], pause_s: float = RETRY_PAUSE_S) -> T:
    """``attempt()``; after an :class:`InfrastructureError`, once more. A second failure raises an
    InfrastructureError naming both causes."""
    try:
        return attempt()
    except InfrastructureError as first:
        time.sleep(pause_s)
        try:
            return attempt()
        except InfrastructureError as second:
            again = "the same again" if second.cause == first.cause else f"first: {first.cause}"
            raise InfrastructureError(f"{second.cause} (after one retry; {again})") from second


def free_bytes(path: Path) -> int | None:
    """Bytes available to us on the file system of ``path`` (None when it cannot be asked)."""
    try:
        st = os.statvfs(path)
    except OSError:
        return None
    return st.f_bavail * st.f_frsize


def disk_trouble(path: Path, output: str = "") -> str | None:
    """Why a step that failed in ``path`` may have failed for lack of disk space, or None. ``output``
    is what the step printed (a compiler's "No space left on device")."""
    free = free_bytes(path)
    if free is None:
        return None
    said = any(message in output for message in _DISK_MESSAGES)
    if free < DISK_MARGIN_BYTES or (said and free < DISK_MESSAGE_MARGIN_BYTES):
        return f"the scratch disk is full: {free >> 20} MiB free on the file system of {path}"
    return None


def disk_error(exc: OSError, what: str, path: Path | None = None) -> InfrastructureError | None:
    """An InfrastructureError for an OSError of our own file writes that is the disk's doing: a
    disk errno, or (for writers that report no errno, such as numpy's) a full file system at ``path``."""
    if exc.errno in _DISK_ERRNOS:
        return InfrastructureError(f"{what}: {exc.strerror or exc} (the scratch disk is full or failing)")
    trouble = disk_trouble(path, str(exc)) if path is not None else None
    return InfrastructureError(f"{what}: {trouble}") if trouble else None


# g++ exits with 4 after an internal compiler error; clang's driver names a crashed front end.
_GCC_ICE_EXIT = 4
_CLANG_CRASH = re.compile(r"^\S*clang\S*: error: (clang frontend command failed|unable to execute command)",
                          re.MULTILINE)


def compiler_crash(outcome: Any) -> str | None:
    """Why a failed compiler run (a ``sandbox.ProcessOutcome``) is the compiler's own crash, an
    infrastructure failure, or None."""
    log = outcome.stderr + outcome.stdout
    if outcome.signal_name and outcome.limit is None:
        return f"the compiler died of {outcome.signal_name}"
    if outcome.returncode == _GCC_ICE_EXIT and "internal compiler error" in log:
        line = next(ln for ln in log.splitlines() if "internal compiler error" in ln)
        return f"internal compiler error ({line.strip()[-200:]})"
    if (match := _CLANG_CRASH.search(log)) is not None:
        return f"the compiler crashed ({match.group(0)[-200:]})"
    return None
