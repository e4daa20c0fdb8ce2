"""Mutants' labels vs the harness's classification of their build errors.

    python benchmarks/mutant_agreement.py [CASE_PATHS...] [--samples 8] [--toolchain ascendc-sim]

Builds every mutant of every case (static shapes only, build step only) and prints, per class,
how many labelled build-error mutants the harness classified as labelled, and the overall rate
(the acceptance target is >= 90%).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from npukernelbench.cases import discover
from npukernelbench.diagnostics import classify
from npukernelbench.evaluate import BuildFailed, KernelChecker
from npukernelbench.generators.mutants import mutate
from npukernelbench.options import load_toolchain
from npukernelbench.result import ErrorCategory
from npukernelbench.shapes import static_cases


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("paths", nargs="*", default=["benchmark_cases"])
    p.add_argument("--samples", type=int, default=8)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--toolchain", default="ascendc-sim")
    ns = p.parse_args()
    toolchain = load_toolchain(ns.toolchain)
    reason = toolchain.unavailable_reason()
    if reason:
        print(f"toolchain unavailable: {reason}", file=sys.stderr)
        return 2
    classes = {c.value for c in ErrorCategory}
    total, agree = Counter(), Counter()
    confusion: Counter = Counter()
    for spec in discover(ns.paths):
        if spec.solution is None:
            continue
        for i in range(ns.samples):
            files, meta = mutate(dict(spec.solution), spec.kernel, spec.case_id, i, ns.seed)
            label = meta["label"]
            if label not in classes:
                continue
            checker = KernelChecker(spec, toolchain, files)
            try:
                for case in static_cases(spec):
                    checker.build_case(case)
            except BuildFailed as exc:
                got = exc.build.error_category or classify(exc.build.diagnostics)
                total[label] += 1
                agree[label] += got.value == label
                confusion[(label, got.value)] += 1
                continue
            confusion[(label, "built")] += 1
    for label in sorted(total):
        print(f"{label:22s} {agree[label]:4d}/{total[label]:<4d}")
    for (label, got), n in sorted(confusion.items()):
        if label != got:
            print(f"  labelled {label} -> {got}: {n}")
    n, a = sum(total.values()), sum(agree.values())
    print(f"agreement: {a}/{n} = {100 * a / n:.1f}%" if n else "agreement: no build-error mutants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
