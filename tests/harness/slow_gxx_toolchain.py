"""The g++ test toolchain with a pause before every kernel run (``NPUKB_TEST_RUN_DELAY_S`` seconds,
default 0.5): a run of a few samples then lasts long enough to be interrupted half way, on any machine;
and a one-time set-up that lasts ``NPUKB_TEST_PREPARE_DELAY_S`` seconds (default 0), to be interrupted
before any sample is evaluated."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence

from gxx_toolchain import GxxToolchain

from npukernelbench.toolchains.base import BuildResult, Launch, RunResult


class SlowGxxToolchain(GxxToolchain):
    name = "gxx-test-slow"

    def run(self, build: BuildResult, launch: Launch) -> RunResult:
        time.sleep(float(os.environ.get("NPUKB_TEST_RUN_DELAY_S", "0.5")))
        return super().run(build, launch)

    def prepare(self, specs: Sequence[object], say: Callable[[str], None]) -> bool:
        delay = float(os.environ.get("NPUKB_TEST_PREPARE_DELAY_S", "0"))
        if delay:
            say(f"gxx-test-slow: setting up for {delay} s")
            time.sleep(delay)
        return bool(delay)
