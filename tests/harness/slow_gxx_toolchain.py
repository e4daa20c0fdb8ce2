"""The g++ test toolchain with a pause before every kernel run (``NPUKB_TEST_RUN_DELAY_S`` seconds,
default 0.5): a run of a few samples then lasts long enough to be interrupted half way, on any machine."""

from __future__ import annotations

import os
import time

from gxx_toolchain import GxxToolchain

from npukernelbench.toolchains.base import BuildResult, Launch, RunResult


class SlowGxxToolchain(GxxToolchain):
    name = "gxx-test-slow"

    def run(self, build: BuildResult, launch: Launch) -> RunResult:
        time.sleep(float(os.environ.get("NPUKB_TEST_RUN_DELAY_S", "0.5")))
        return super().run(build, launch)
