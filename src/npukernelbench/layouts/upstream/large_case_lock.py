"""One large public-task row at a time per machine.

The public benchmark has rows of half a billion elements (a gigabyte per tensor). Checking one such
row needs about 15 GB at its peak in the pytest worker plus the launcher's child, so two of them at
once (``-n 2``) would exhaust a 24 GB machine and the kernel's OOM killer would take a worker down.
Rows whose inputs exceed :data:`LARGE_INPUT_BYTES` therefore take turns on an exclusive ``flock`` in
the build cache folder (shared by every pytest worker and every run of this user); smaller rows never
wait. The lock is released when its holder exits, however it exits.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path

LARGE_INPUT_BYTES = 256 << 20
LOCK_NAME = "large-case.lock"


@contextlib.contextmanager
def large_case_turn(input_bytes: int, root: Path) -> Iterator[bool]:
    """Hold the machine's large-case turn while the block runs when ``input_bytes`` is large
    (yields whether it waited for the turn); small rows pass straight through."""
    if input_bytes < LARGE_INPUT_BYTES:
        yield False
        return
    root.mkdir(parents=True, exist_ok=True)
    with open(root / LOCK_NAME, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
