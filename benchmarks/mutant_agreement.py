"""Mutants' labels vs the harness's classification of their build errors.

    python benchmarks/mutant_agreement.py [CASE_PATHS...] [--samples 8] [--toolchain ascendc-sim] [--jobs 2]

Builds every mutant of every case whose expert solution builds (static shapes only, build step only)
and prints, per class, how many labelled build-error mutants the harness classified as labelled, the
confusions, and the overall rate (the acceptance target is >= 90%). Builds go to a fresh build cache
(``NPUKB_CACHE_DIR`` in a temporary directory, unless ``--keep-cache``): cached failed builds carry
the category they were classified with when they were built.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor


def _build_all(checker, cases) -> object | None:
    """None when every static case builds, else the failed BuildResult."""
    from npukernelbench.evaluate import BuildFailed

    try:
        for case in cases:
            checker.build_case(case)
    except BuildFailed as exc:
        return exc.build
    return None


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("paths", nargs="*", default=["benchmark_cases"])
    p.add_argument("--samples", type=int, default=8)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--toolchain", default="ascendc-sim")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--keep-cache", action="store_true", help="use the normal build cache")
    p.add_argument("-v", "--verbose", action="store_true", help="print every disagreeing mutant's first error")
    ns = p.parse_args()
    if not ns.keep_cache:
        os.environ["NPUKB_CACHE_DIR"] = tempfile.mkdtemp(prefix="npukb-mutant-agreement-")

    from npukernelbench.cases import discover
    from npukernelbench.diagnostics import classify
    from npukernelbench.generators.mutants import mutate
    from npukernelbench.layouts.case_toml.checker import CaseTomlChecker
    from npukernelbench.options import load_toolchain
    from npukernelbench.result import ErrorCategory
    from npukernelbench.shapes import static_cases

    toolchain = load_toolchain(ns.toolchain)
    reason = toolchain.unavailable_reason()
    if reason:
        print(f"toolchain unavailable: {reason}", file=sys.stderr)
        return 2
    classes = {c.value for c in ErrorCategory}
    start = time.monotonic()
    specs = [s for s in discover(ns.paths) if s.solution is not None]

    def expert_builds(spec) -> bool:
        return _build_all(CaseTomlChecker(spec, toolchain, dict(spec.solution)), static_cases(spec)) is None

    with ThreadPoolExecutor(max_workers=ns.jobs) as pool:
        ok = list(pool.map(expert_builds, specs))
    skipped = [s.case_id for s, good in zip(specs, ok, strict=True) if not good]
    specs = [s for s, good in zip(specs, ok, strict=True) if good]

    def one(job):
        spec, i = job
        files, meta = mutate(dict(spec.solution), spec.kernel, spec.case_id, i, ns.seed)
        failed = _build_all(CaseTomlChecker(spec, toolchain, files), static_cases(spec))
        if failed is None:
            return spec.case_id, i, meta, "built", ""
        got = failed.error_category or classify(failed.diagnostics)
        return spec.case_id, i, meta, got.value, failed.diagnostics

    jobs = [(s, i) for s in specs for i in range(ns.samples)]
    with ThreadPoolExecutor(max_workers=ns.jobs) as pool:
        outcomes = list(pool.map(one, jobs))

    total, agree, mix = Counter(), Counter(), Counter()
    confusion: Counter = Counter()
    for case_id, i, meta, got, diag in outcomes:
        label = meta["label"]
        mix[label] += 1
        if label not in classes:
            continue
        confusion[(label, got)] += 1
        if got == "built":
            continue
        total[label] += 1
        agree[label] += got == label
        if got != label and ns.verbose:
            first = diag.strip().splitlines()[0] if diag.strip() else ""
            print(f"  {case_id}[s{i}] {meta['mutation']}: labelled {label}, got {got}: {first[:200]}")
    print(f"cases: {len(specs)} (expert solution does not build, skipped: {', '.join(skipped) or 'none'})")
    print("mutant mix: " + ", ".join(f"{k} {v}" for k, v in sorted(mix.items())))
    for label in sorted(classes - {"other"}):
        print(f"{label:22s} {agree[label]:4d}/{total[label]:<4d}")
    for (label, got), n in sorted(confusion.items()):
        if label != got:
            print(f"  labelled {label} -> {got}: {n}")
    n, a = sum(total.values()), sum(agree.values())
    print(f"agreement: {a}/{n} = {100 * a / n:.1f}%" if n else "agreement: no build-error mutants")
    print(f"time: {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
