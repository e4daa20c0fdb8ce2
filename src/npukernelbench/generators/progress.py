"""A generation progress bar on stderr: samples done, tokens/s and ETA (no tqdm needed).

On a terminal the bar redraws in place; otherwise (CI logs, captured stderr) it prints a line at
most every ``interval`` seconds and a final line, so logs stay short.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class GenerationProgress:
    """Thread-safe; ``update`` after each finished batch of samples."""

    def __init__(self, total_samples: int, label: str = "generating", stream: TextIO | None = None,
                 interval: float = 5.0, enabled: bool = True):
        self.total = total_samples
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.enabled = enabled and total_samples > 0
        self.samples = 0
        self.tokens = 0
        self.start = time.monotonic()
        self._last_print = 0.0
        self._lock = threading.Lock()
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        rate = self.tokens / elapsed if elapsed > 0 else 0.0
        if 0 < self.samples < self.total:
            eta = _clock(elapsed / self.samples * (self.total - self.samples))
        else:
            eta = "0:00" if self.samples >= self.total else "?"
        width = 24
        filled = width * self.samples // self.total if self.total else width
        bar = "#" * filled + "." * (width - filled)
        return (f"{self.label} [{bar}] {self.samples}/{self.total} samples | {self.tokens} tokens | "
                f"{rate:.1f} tok/s | elapsed {_clock(elapsed)} | ETA {eta}")

    def update(self, samples: int, tokens: int) -> None:
        with self._lock:
            self.samples += samples
            self.tokens += tokens
            if not self.enabled:
                return
            now = time.monotonic()
            if self._tty:
                self.stream.write("\r" + self.line())
                self.stream.flush()
            elif now - self._last_print >= self.interval and self.samples < self.total:
                self._last_print = now
                self.stream.write(self.line() + "\n")
                self.stream.flush()

    def close(self) -> None:
        with self._lock:
            if not self.enabled:
                return
            self.stream.write(("\r" if self._tty else "") + self.line() + "\n")
            self.stream.flush()
            self.enabled = False

    def __enter__(self) -> GenerationProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
