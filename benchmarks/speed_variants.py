"""The estimated speed of add_custom variants (issue 17's table): honest tunings with a known order on
an Ascend 910B, and ways to game the speedup, each through the real evaluate pipeline.

    PYTHONPATH=src python benchmarks/speed_variants.py [--no-raw-access-costing]

Prints, per variant, the evaluation's status, the estimated time over the case's four static shapes
(with the simulator's fixed 3 us launch overhead per shape), the kernel time without it, the speedup
over the expert on kernel times, and what the variant does on hardware. ``--no-raw-access-costing``
builds kernels without the raw-access instrumentation, to show what that cost rule changes. The
variants live in tests/adversarial/add_custom_variants.py (the tests check the same order).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "adversarial"))

from add_custom_variants import HARDWARE_ORDER, ORDERED, VARIANTS, order_violations  # noqa: E402

from npukernelbench.evaluate import EvalOptions, evaluate  # noqa: E402
from npukernelbench.generators.base import Completion  # noqa: E402
from npukernelbench.spec import load_spec  # noqa: E402
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain  # noqa: E402

CASE = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--no-raw-access-costing", action="store_true")
    p.add_argument("--seeds", type=int, default=1, help="input seeds per shape (correctness), default 1")
    args = p.parse_args()
    sim = AscendCSimToolchain(raw_access_costing=not args.no_raw_access_costing)
    reason = sim.unavailable_reason()
    if reason:
        print(f"ascendc-sim unavailable: {reason}", file=sys.stderr)
        return 2
    spec = load_spec(CASE, ROOT / "benchmark_cases")
    options = EvalOptions(shapes="static", seeds=args.seeds, run_timeout_s=300.0)
    names = [*ORDERED, *(n for n in VARIANTS if n not in ORDERED)]
    rows = []
    kernel_times: dict[str, float] = {}
    for name in names:
        variant = VARIANTS[name]
        start = time.monotonic()
        r = evaluate(spec, Completion(task=spec.case_id, sample=0, files=variant.make(spec.solution)), sim, options)
        status = r.status.value + (" suspect" if r.suspect else "")
        kernel = r.details.get("kernel_time_us")
        if kernel is not None and r.passed and not r.suspect:
            kernel_times[name] = kernel
        speedup = f"{r.speedup:.4f}x" if r.speedup is not None else "-"
        why = "; ".join(r.details.get("suspect_reasons", [])) if r.suspect else ("" if r.passed else r.message)
        rows.append((name, status, f"{r.time_us:.1f}" if r.time_us else "-", f"{kernel:.2f}" if kernel else "-",
                     speedup, variant.on_910b, why[:160], f"{time.monotonic() - start:.0f}s"))
        print(f"  evaluated {name} in {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    head = ("variant", "status", "est. us", "kernel us", "speedup", "on a 910B", "why (failed or suspect)", "eval")
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows, strict=True)]
    print(f"add_custom variants, estimated on ascendc-sim (raw-access costing "
          f"{'off' if args.no_raw_access_costing else 'on'}); speedup = expert kernel time / variant kernel time")
    for row in (head, *rows):
        print("  ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=True)).rstrip())
    known = [(a, b) for a, b in HARDWARE_ORDER if a in kernel_times and b in kernel_times]
    bad = order_violations(kernel_times, tuple(known))
    print(f"hardware order ({len(known)} pairs): " + ("respected" if not bad else "VIOLATED: " + "; ".join(bad)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
