"""The evaluation profile (``EvalOptions(profile=True)``, ``phase_clock.py``): nested phases count
once, a split moves a phase's seconds into its steps, and a real evaluation on ascendc-sim reports
its builds, runs (with the launcher's own phases) and host-side phases adding up to its total."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.phase_clock import PhaseClock
from npukernelbench.result import Status
from npukernelbench.spec import load_spec

ADD = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom"


_PEAKS = """
import json, numpy as np
from npukernelbench.phase_clock import PhaseClock
clock = PhaseClock()
with clock("outer"):
    a = np.ones(100 << 20, dtype=np.uint8)          # 100 MiB touched in the outer phase itself
    with clock("inner"):
        b = np.ones(150 << 20, dtype=np.uint8)      # 150 MiB more inside the inner one
    del a, b
with clock("small"):
    c = np.ones(1 << 20, dtype=np.uint8)            # well under the peak already reached
print(json.dumps(clock.figures))
"""


def test_phases_that_raise_the_peak_memory_are_named() -> None:
    # a fresh process: the figures are increments of its peak resident memory. Linux carries the peak
    # across exec (a child exec'd straight from this pytest process would start at its peak): a shell
    # in between forks the interpreter afresh.
    out = subprocess.run(["sh", "-c", '"$1" -c "$2"; exit $?', "sh", sys.executable, _PEAKS],
                         capture_output=True, text=True, check=True).stdout
    figures = {k.split(":", 1)[1]: v / 1024 for k, v in json.loads(out).items()}
    assert 140 <= figures["inner"] <= 170                       # MiB
    # without the inner phase's (at least 100 MiB less whatever the imports' transient peak took)
    assert 50 <= figures["outer"] <= 110
    assert figures.get("small", 0.0) == 0.0


def test_nested_phases_count_once_and_splits_move_seconds() -> None:
    clock = PhaseClock()
    with clock("outer"):
        time.sleep(0.05)
        with clock("inner"):
            time.sleep(0.1)
    assert 0.1 <= clock.wall["inner"] < 0.2
    assert 0.05 <= clock.wall["outer"] < 0.1          # without the inner phase's 0.1 s
    with clock.section("baseline"):
        with clock("run"):
            time.sleep(0.02)
    clock.split("run", {"kernel": 0.5})                # not this section's phase: nothing to move
    assert "run" not in clock.wall and clock.wall["baseline:run"] >= 0.02
    clock.add("build", 1.0)
    clock.split("build", {"kernel": 0.75, "link": 5.0})   # never more than the phase holds
    assert clock.wall["build:kernel"] == 0.75 and clock.wall["build:link"] == 0.25 and clock.wall["build"] == 0.0


def test_a_profiled_evaluation_reports_where_its_time_went(sim) -> None:
    spec = load_spec(ADD)
    options = EvalOptions(shapes="static", seeds=1, speed=False, data_seed=0, profile=True)
    result = evaluate(spec, Completion(spec.case_id, 0, files=dict(spec.solution)), sim, options)
    assert result.status is Status.PASSED, result.message
    phases = result.details["phases"]
    wall = phases["wall"]
    for name in ("static_checks", "inputs", "reference", "compare", "run", "run:launcher_kernel",
                 "run:launcher_load", "run:launcher_write"):
        assert name in wall, (name, sorted(wall))
    assert any(name.startswith("build") for name in wall)
    assert phases["counts"]["run"] == 2 * len(spec.cases)     # each case once, then the determinism re-run
    assert sum(wall.values()) <= phases["total_seconds"] + 0.05
    assert phases["figures"]["simulator_peak_rss_kb"] > 1000 and phases["figures"]["worker_peak_rss_kb"] > 1000
    assert phases["cpu"]["run:launcher_cpu"] > 0
    plain = evaluate(spec, Completion(spec.case_id, 0, files=dict(spec.solution)), sim,
                     EvalOptions(shapes="static", seeds=1, speed=False, data_seed=0))
    assert "phases" not in plain.details and plain.status is Status.PASSED
