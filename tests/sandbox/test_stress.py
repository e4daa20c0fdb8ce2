"""Many confined builds and runs at once (threads in several processes, as under pytest-xdist) at
every confinement level this machine offers: zero infrastructure failures, every outcome exact.

This is the regression test of the concurrent-watchdog bug: a finished run's final sweep matched
processes by pid namespace inode and by session id, both recycled by the kernel, and SIGKILLed a
concurrent run's namespace (util-linux 2.38's ``unshare`` then exited 1 with ``sigprocmask unblock
failed``, which looked like a compiler error). Before the fix about one run in ten failed here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from npukernelbench import confinement as conf_mod
from npukernelbench.toolchains.ascendc_sim.build_cache import default_root

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ADD_CUSTOM = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom"
LEVELS = sorted({conf_mod._detect(level).level for level in conf_mod.LEVELS}, key=conf_mod.LEVELS.index)
WORKERS, JOBS, THREADS = 3, 80, 4


@pytest.mark.parametrize("level", LEVELS)
def test_concurrent_confined_runs_have_no_infrastructure_failures(level: str, tmp_path: Path) -> None:
    source = tmp_path / "tiny.cpp"
    source.write_text("#include <vector>\nint main() { std::vector<int> v(8, 1); return v[3] - 1; }\n")
    env = dict(os.environ, NPUKB_CONFINEMENT=level)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    procs = []
    for _ in range(WORKERS):
        args = [sys.executable, str(HERE / "stress_worker.py"), level, str(JOBS), str(THREADS), str(source)]
        # every worker also builds (a fresh variant: a real compile) and evaluates a real kernel meanwhile;
        # the cache's shared runtime objects and precompiled headers are reused
        args += [str(ADD_CUSTOM), str(default_root()), uuid.uuid4().hex]
        procs.append(subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err[-3000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    assert all(r["level"] == level for r in reports)
    problems = [p for r in reports for p in r["problems"]]
    assert problems == [], f"{len(problems)} of {WORKERS * JOBS} runs went wrong:\n" + "\n".join(problems[:10])
