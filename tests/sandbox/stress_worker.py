"""One stress worker process (run by test_stress.py, like one pytest-xdist worker): many confined
runs from several threads at once; prints one JSON line with what went wrong.

Usage: python stress_worker.py LEVEL JOBS THREADS GXX_SOURCE [CASE_DIR CACHE_DIR TAG]
"""

from __future__ import annotations

import json
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from npukernelbench.confinement import _detect
from npukernelbench.sandbox import Limits, ProcessOutcome, Request, clean_env, run_confined


def _job(conf, index: int, source: str) -> str | None:
    """One run; None when it went as it must, else what happened."""
    scratch = Path(tempfile.mkdtemp(prefix="npukb-stress-"))
    kinds = [
        (["sh", "-c", "echo ok"], lambda o: o.ok and o.stdout.strip() == "ok"),
        (["g++", "-std=c++17", "-O1", source, "-o", str(scratch / "a.out")], lambda o: o.ok),
        (["sh", "-c", "kill -SEGV $$"], lambda o: o.signal_name == "SIGSEGV" and o.infrastructure is None),
        (["sh", "-c", "exit 3"], lambda o: o.returncode == 3 and o.infrastructure is None),
    ]
    argv, expected = kinds[index % len(kinds)]
    out: ProcessOutcome = run_confined(Request(argv=argv, cwd=scratch, limits=Limits(wall_s=120), env=clean_env()),
                                       conf)
    if expected(out):
        return None
    return f"{argv[0]} {argv[1]}: rc={out.returncode} signal={out.signal_name} infrastructure={out.infrastructure} " \
           f"stderr={out.stderr[-300:]!r}"


def _evaluations(case_dir: str, cache_dir: str, tag: str, count: int) -> list[str]:
    """The case's expert solution, made unique by a ``tag`` comment (so that it really builds),
    evaluated ``count`` times (the build cached after the first)."""
    from npukernelbench.cases import load_case
    from npukernelbench.evaluate import EvalOptions, evaluate
    from npukernelbench.generators.base import Completion
    from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain

    spec = load_case(Path(case_dir))
    toolchain = AscendCSimToolchain(cache_dir=cache_dir)
    files = {name: f"// stress {tag}\n{text}" for name, text in spec.solution.items()}
    problems = []
    for i in range(count):
        result = evaluate(spec, Completion(spec.case_id, i, files=files), toolchain,
                          EvalOptions(shapes="static", speed=False))
        if not result.passed:
            problems.append(f"evaluate: {result.status.value}: {result.message}")
    return problems


def main(argv: list[str]) -> int:
    level, jobs, threads, source = argv[0], int(argv[1]), int(argv[2]), argv[3]
    conf = _detect(level)
    problems: list[str] = []
    with ThreadPoolExecutor(threads) as pool:
        pending = pool.submit(_evaluations, argv[4], argv[5], argv[6], 2) if len(argv) > 6 else None
        problems += [p for p in pool.map(lambda i: _job(conf, i, source), range(jobs)) if p]
        if pending is not None:
            problems += pending.result()
    print(json.dumps({"level": conf.level, "jobs": jobs, "problems": problems}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
