"""Counted progress for the per-sample lines of a rollout: ``[k/N] TASK[sI] STATUS (m:ss elapsed, about
m:ss left)``, so that ``kernelgen-lm sample`` shows the samples evaluated and a time estimate like
``npukb evaluate``. Other lines pass through unchanged."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

SAMPLE_LINE = re.compile(r"^\S+\[s\d+\] ")


class CountedLog:
    """Wraps ``log``: a sample line gets its number of ``total`` and, from the second one on, the
    time since the first and an estimate of the time left (the pace between evaluations so far;
    generation, which comes before the first, is not counted)."""

    def __init__(self, log: Callable[[str], None], total: int, done: int = 0,
                 clock_fn: Callable[[], float] = time.monotonic):
        self.log = log
        self.total = total
        self.done = done
        self.clock_fn = clock_fn
        self._first: tuple[float, int] | None = None

    def __call__(self, line: str) -> None:
        from npukernelbench.run_progress import clock, time_left

        if not SAMPLE_LINE.match(line):
            self.log(line)
            return
        self.done += 1
        now = self.clock_fn()
        suffix = ""
        if self._first is None:
            self._first = (now, self.done)
        elif self.done < self.total:
            elapsed, counted = now - self._first[0], self.done - self._first[1]
            left = time_left(elapsed, counted, self.total - self._first[1])     # the pace since the first
            suffix = f" ({clock(elapsed)} elapsed, about {clock(left)} left)"
        self.log(f"[{self.done}/{self.total}] {line}{suffix}")
