"""Progress of a benchmark run in pytest: samples done of the total, elapsed time and an ETA.

The run controller (the serial process, or the pytest-xdist controller) sees every report; after a
sample's last report it counts the sample as done and, every tenth of the run or every ``interval``
seconds (whichever comes first) until the last sample, writes one line through pytest's terminal
reporter (which starts a fresh line first, so pytest's own dots and ``-v`` lines stay intact). The
clock starts when the first sample item starts (other tests of the same session come before). The
ETA is an estimate: the wall time per finished sample so far (which already includes the
parallelism of ``-n``) times the samples left, printed as "about".
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

STEPS = 10                   # a line at least every tenth of the run
INTERVAL_S = 30.0            # ... and at least every 30 s while samples finish


def clock(seconds: float) -> str:
    """``m:ss`` or ``h:mm:ss``."""
    seconds = max(0, int(round(seconds)))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def time_left(elapsed: float, done: int, total: int) -> float:
    """An estimate of the seconds left: the wall time per finished sample so far times the samples left."""
    return elapsed / done * (total - done)


def sample_of(node_id: str) -> tuple[str, int] | None:
    """(task, sample) of a sample item's node id (``...::TASK[sN]``), None for other items."""
    name = node_id.rsplit("::", 1)[-1]
    if not name.endswith("]"):
        return None
    task, _, sample = name[:-1].rpartition("[s")
    return (task, int(sample)) if task and sample.isdigit() else None


@dataclass
class RunProgress:
    """Counts finished samples and says when a progress line is due."""

    total: int
    write: Callable[[str], None]
    interval: float = INTERVAL_S
    now: Callable[[], float] = time.monotonic
    start: float = field(default=0.0)
    done: set[tuple[str, int]] = field(default_factory=set)
    outcomes: Counter[str] = field(default_factory=Counter)
    _outcome: dict[tuple[str, int], str] = field(default_factory=dict)
    _last_line: float = 0.0
    _last_count: int = 0

    def __post_init__(self) -> None:
        self.start = self.start or self.now()
        self._last_line = self.start
        self._began = False

    def item_started(self, node_id: str) -> None:
        """An item starts (pytest's logstart): the clock starts with the first sample item, so that
        the project's own tests run in the same session do not count as sample time."""
        if not self._began and sample_of(node_id) is not None:
            self._began = True
            self.start = self._last_line = self.now()

    def report(self, node_id: str, when: str, outcome: str) -> None:
        """One pytest report (``when``: setup, call, teardown; anything else is the report of an item
        whose xdist worker died, its last). A sample is done at its last report; its outcome is the
        call's, or the setup's when setup did not pass (skipped, error)."""
        key = sample_of(node_id)
        if key is None or key in self.done:
            return
        if when == "call" or (when == "setup" and outcome != "passed"):
            self._outcome[key] = "error" if when == "setup" and outcome == "failed" else outcome
        if when == "teardown" and outcome == "failed" and self._outcome.get(key, "passed") == "passed":
            self._outcome[key] = "error"
        if when in ("setup", "call"):
            return
        self.done.add(key)
        self.outcomes[self._outcome.pop(key, "error" if when != "teardown" else "passed")] += 1
        if self.due():
            self.write(self.line())

    def due(self) -> bool:
        count = len(self.done)
        if count >= self.total:          # the end: pytest's summary follows (a line here would split its [100%])
            return False
        step = max(1, self.total // STEPS)
        if count - self._last_count >= step or self.now() - self._last_line >= self.interval:
            return True
        return False

    def line(self) -> str:
        """``npukernelbench: progress 12/40 samples (11 passed, 1 failed), 2:05 elapsed, about 4:51 left``."""
        now = self.now()
        self._last_line, self._last_count = now, len(self.done)
        count = len(self.done)
        elapsed = now - self.start
        left = f"about {clock(time_left(elapsed, count, self.total))} left" if count else "ETA unknown"
        counts = ", ".join(f"{n} {name}" for name, n in sorted(self.outcomes.items()))
        return (f"npukernelbench: progress {count}/{self.total} samples ({counts}), {clock(elapsed)} elapsed, "
                f"{left}")
