"""The first-run set-up of the ascendc-sim toolchain, timed: the simulator runtime and the precompiled
headers a run builds once (what the plugin announces before any item and follows with "toolchain set up
in N s"), each with a fresh, empty build cache.

    PYTHONPATH=src python benchmarks/setup_time.py [--cases benchmark_cases] [--repeat 1]

Two selections are timed, as a user meets them: one task (``--one``, default add_custom: what
``pytest benchmark_cases -k add_custom`` sets up) and every case under ``--cases`` (the main job).
The machine's load average is printed beside the figures: on a shared machine the wall time says
little about an idle one.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def time_set_up(specs: list, label: str) -> tuple[float, str]:
    """Wall seconds of one set-up of ``specs`` in a fresh cache, and how many headers it built."""
    from npukernelbench.toolchains.ascendc_sim.toolchain import AscendCSimToolchain

    cache = Path(tempfile.mkdtemp(prefix="npukb-setup-"))
    lines: list[str] = []
    try:
        toolchain = AscendCSimToolchain(cache_dir=cache)
        start = time.monotonic()
        toolchain.prepare(specs, lines.append)
        seconds = time.monotonic() - start
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    found = [m for line in lines if (m := re.search(r"(\d+) precompiled header", line))]
    headers = found[0][1] if found else "?"
    print(f"{label}: {len(specs)} task(s), runtime + {headers} precompiled header(s): {seconds:.1f} s wall "
          f"(load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs)", flush=True)
    return seconds, headers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=ROOT / "benchmark_cases", help="case root")
    parser.add_argument("--one", default="add_custom", help="the single task timed first (a case folder name)")
    parser.add_argument("--repeat", type=int, default=1, help="time each selection this many times")
    ns = parser.parse_args(argv)
    from npukernelbench.cases import find_case_dirs, load_case

    specs = [load_case(folder, ns.cases) for folder in find_case_dirs(ns.cases)]
    one = [s for s in specs if s.case_id.rsplit("/", 1)[-1] == ns.one]
    if not one:
        print(f"setup_time: no case named {ns.one!r} under {ns.cases}", file=sys.stderr)
        return 2
    for _ in range(ns.repeat):
        time_set_up(one, f"one task ({one[0].case_id})")
        time_set_up(specs, f"all of {ns.cases.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
