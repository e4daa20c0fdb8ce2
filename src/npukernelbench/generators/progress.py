"""A generation progress line on stderr: requests and samples done, tokens/s and ETA (no tqdm needed).

Generators call ``update`` when a request (one prompt, its ``n`` samples) finishes, and may call
``decoding`` while a request is still generating (the transformers backend does, once per decode
step), so a long request shows its tokens/s before it ends. On a terminal the line redraws in
place; otherwise (CI logs, captured stderr) every finished request prints a line, and decoding
prints one at most every ``interval`` seconds, so logs stay short. The ETA is an estimate: the wall
time per finished request so far times the requests left, less the time since the last one finished.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from npukernelbench.run_progress import clock

REDRAW_S = 0.2               # a terminal line redraws at most this often while decoding


class GenerationProgress:
    """Thread-safe; ``update`` after each finished request, ``decoding`` during one."""

    def __init__(self, total_samples: int, label: str = "generating", stream: TextIO | None = None,
                 interval: float = 5.0, enabled: bool = True, total_requests: int | None = None):
        self.total = total_samples
        self.total_requests = total_requests
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.enabled = enabled and total_samples > 0
        self.samples = 0
        self.requests = 0
        self.tokens = 0
        self.in_flight = 0           # tokens of requests still decoding (replaced by exact counts at update)
        self.start = time.monotonic()
        self._last_print = 0.0
        self._done_at = self.start   # when the last request finished
        self._lock = threading.Lock()
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        tokens = self.tokens + self.in_flight
        rate = tokens / elapsed if elapsed > 0 else 0.0
        if self.total_requests:
            done, total = self.requests, self.total_requests
        else:
            done, total = self.samples, self.total
        if 0 < done < total:          # time per finished request, less what the next one already took
            finished_at = self._done_at - self.start
            eta = "about " + clock(max(0.0, finished_at / done * (total - done) - (elapsed - finished_at)))
        else:
            eta = "0:00" if done >= total else "unknown"
        width = 24
        filled = width * self.samples // self.total if self.total else width
        bar = "#" * filled + "." * (width - filled)
        requests = f"{self.requests}/{self.total_requests} requests, " if self.total_requests else ""
        return (f"{self.label} [{bar}] {requests}{self.samples}/{self.total} samples | {tokens} tokens | "
                f"{rate:.1f} tok/s | elapsed {clock(elapsed)} | ETA {eta}")

    def _write(self, now: float) -> None:
        self._last_print = now
        self.stream.write(("\r" + self.line()) if self._tty else (self.line() + "\n"))
        self.stream.flush()

    def decoding(self, tokens: int) -> None:
        """``tokens`` more tokens of a request that is still generating."""
        with self._lock:
            self.in_flight += tokens
            if not self.enabled:
                return
            now = time.monotonic()
            if now - self._last_print >= (REDRAW_S if self._tty else self.interval):
                self._write(now)

    def update(self, samples: int, tokens: int, requests: int = 1, decoded: int = 0) -> None:
        """A request finished: its ``samples`` and their exact ``tokens``; ``decoded``: what its
        ``decoding`` calls counted (taken back out of the in-flight count)."""
        with self._lock:
            self.samples += samples
            self.requests += requests
            self.tokens += tokens
            self.in_flight = max(0, self.in_flight - decoded)
            self._done_at = time.monotonic()
            if not self.enabled:
                return
            if self._tty or self.samples < self.total:
                self._write(time.monotonic())

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
