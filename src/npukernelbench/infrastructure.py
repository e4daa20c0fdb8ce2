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
"""

from __future__ import annotations

import errno
import os
import re
import time
from collections.abc import Callable
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
