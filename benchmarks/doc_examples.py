"""The AscendC API reference's own call examples compiled against the simulator's headers.

Usage::

    python benchmarks/doc_examples.py [--docs DIR] [--json] [--list fails|fragments] [--family F]

Every "调用示例" / "使用示例" code block of the API pages ``api_coverage`` counts (910B / A3, families in
scope) is wrapped, compiled by g++ with the declaration probes' prelude and flags, and classified:
``compiles``, ``fragment`` (it only misses names of its own: variables the example never declares) or
``fails`` (any other error: a gap of the simulator, or of the example). The rules are in
``benchmarks/apicov/examples.py``. Prints per-family counts and totals (``--list``: one line per block
with its first error or its free names; ``--json``: every block); the last line is always one JSON
object: ``blocks``, ``compiles``, ``fragments``, ``fails``, ``compile_rate`` (compiles / (compiles + fails)),
``seconds``.

Exit status: 0; 2 on misuse (a missing docs folder or headers, no compiler), one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from apicov import doc_tree, examples, probes  # noqa: E402

DEFAULT_DOCS = ROOT.parent / "shared" / "asc-devkit-docs" / "docs" / "api"
DEFAULT_INCLUDE = ROOT / "src" / "npukernelbench" / "toolchains" / "ascendc_sim" / "include"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=Path, default=DEFAULT_DOCS, help="the API reference folder (README.md tree)")
    ap.add_argument("--include", type=Path, default=DEFAULT_INCLUDE, help="the simulator's header folder")
    ap.add_argument("--cxx", default=shutil.which("g++") or "", help="the C++ compiler (g++)")
    ap.add_argument("--json", action="store_true", help="every block as JSON (before the summary line)")
    ap.add_argument("--list", choices=("fails", "fragments"), help="one line per failing block / fragment")
    ap.add_argument("--family", help="only this family (path or English label, or a prefix of either)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return ap.parse_args(argv)


def summary(run: examples.ExampleRun, seconds: float) -> dict:
    c = Counter(b.status for b in run.blocks)
    decided = c["compiles"] + c["fails"]
    return {"blocks": len(run.blocks), "compiles": c["compiles"], "fragments": c["fragment"], "fails": c["fails"],
            "compile_rate": round(c["compiles"] / decided, 4) if decided else None,
            "skipped": len(run.skipped), "gxx_calls": run.compiles, "seconds": round(seconds, 1)}


def table(run: examples.ExampleRun) -> str:
    per: dict[str, Counter] = {}
    for b in run.blocks:
        c = per.setdefault(b.page.family, Counter())
        c["blocks"] += 1
        c[b.status] += 1
    lines = [f"{'family':58s} {'blocks':>6s} {'comp':>5s} {'frag':>5s} {'fail':>5s} {'rate':>5s}"]
    total: Counter = Counter()
    for fam, c in per.items():
        total.update(c)
        lines.append(_row(doc_tree.label_of(fam), c))
    lines.append(_row("total", total))
    reasons = Counter(s.reason if not s.reason.startswith("labelled") else "labelled another language"
                      for s in run.skipped)
    lines.append(f"skipped (not C++): {len(run.skipped)}: " + ", ".join(f"{r} {n}" for r, n in reasons.most_common()))
    return "\n".join(lines)


def _row(label: str, c: Counter) -> str:
    decided = c["compiles"] + c["fails"]
    rate = f"{100.0 * c['compiles'] / decided:.0f}%" if decided else "-"
    return f"{label[:58]:58s} {c['blocks']:6d} {c['compiles']:5d} {c['fragment']:5d} {c['fails']:5d} {rate:>5s}"


def listing(run: examples.ExampleRun, what: str) -> str:
    status = "fails" if what == "fails" else "fragment"
    out = []
    for b in run.blocks:
        if b.status != status:
            continue
        detail = b.cause if status == "fails" else "free: " + ", ".join(b.free_names)
        out.append(f"{b.page.family} | {b.where} ({b.side}) | {detail}")
    return "\n".join(out)


def as_json(b: examples.Block) -> dict:
    return {"page": b.page.path, "index": b.index, "family": b.page.family, "title": b.page.title,
            "side": b.side, "status": b.status, "cause": b.cause, "errors": b.errors[:5], "free_names": b.free_names,
            "dropped_includes": b.dropped_includes}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not (args.docs / "README.md").is_file():
        print(f"doc_examples: no AscendC API reference at {args.docs} (README.md missing); pass --docs DIR",
              file=sys.stderr)
        return 2
    if not args.include.is_dir():
        print(f"doc_examples: no simulator headers at {args.include}; pass --include DIR", file=sys.stderr)
        return 2
    t0 = time.monotonic()

    def progress(done: int, total: int) -> None:
        if not args.quiet:
            print(f"doc_examples: batch {done}/{total} ({time.monotonic() - t0:.0f} s)", file=sys.stderr)

    try:
        run = examples.measure(args.docs, args.include, args.cxx, args.family, progress)
    except (doc_tree.DocsError, probes.ProbeError) as exc:
        print(f"doc_examples: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([as_json(b) for b in run.blocks], ensure_ascii=False, indent=1))
    elif args.list:
        print(listing(run, args.list))
    else:
        print(table(run))
    print(json.dumps(summary(run, time.monotonic() - t0)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
