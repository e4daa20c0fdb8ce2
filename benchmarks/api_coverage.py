"""API coverage of the ascendc-sim simulator against the AscendC API reference (910B / A3).

Usage::

    python benchmarks/api_coverage.py [--docs DIR] [--json] [--markdown]
        [--list missing|partial|untested [--family F]] [--min-declared P --min-tested P]

For every API the reference documents for the Atlas A2 / A3 training series (910B, 910_93), grouped
into the reference's families, it says whether the simulator's headers declare every documented
overload (g++ compiles a probe per overload: a call with the documented template arguments and
parameter types, see ``benchmarks/apicov/``) and whether a test under ``tests/`` checks its documented
semantics (``@pytest.mark.api("Title")``). ``--markdown`` writes the table into docs/simulator.md
between ``<!-- api-coverage:begin -->`` and ``<!-- api-coverage:end -->``. Families outside the
simulator's scope are listed apart, with how many files of the test corpora (``--corpus``) use them.

Exit status: 0; 1 when ``--min-declared`` / ``--min-tested`` floors (percent of in-scope APIs) are not
met; 2 on misuse (a missing docs folder, an unknown option).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from apicov import coverage, doc_tree, probes, report  # noqa: E402

DEFAULT_DOCS = ROOT.parent / "shared" / "asc-devkit-docs" / "docs" / "api"
DEFAULT_CORPUS = (ROOT.parent / "shared" / "npukernelbench" / "tasks", ROOT.parent / "shared" / "third-party-ascendc")
DEFAULT_INCLUDE = ROOT / "src" / "npukernelbench" / "toolchains" / "ascendc_sim" / "include"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=Path, default=DEFAULT_DOCS, help="the API reference folder (README.md tree)")
    ap.add_argument("--include", type=Path, default=DEFAULT_INCLUDE, help="the simulator's header folder")
    ap.add_argument("--tests", type=Path, default=ROOT / "tests", help="where api markers are counted")
    ap.add_argument("--corpus", type=Path, nargs="*", default=list(DEFAULT_CORPUS),
                    help="kernel source folders whose use of out-of-scope families is measured (missing ones skipped)")
    ap.add_argument("--doc", type=Path, default=ROOT / "docs" / "simulator.md", help="the file --markdown writes")
    ap.add_argument("--cxx", default=shutil.which("g++") or "", help="the C++ compiler of the probes (g++)")
    ap.add_argument("--json", action="store_true", help="print the whole measurement as JSON")
    ap.add_argument("--markdown", action="store_true", help="write the table into --doc")
    ap.add_argument("--list", choices=("missing", "partial", "untested"), help="per-API detail")
    ap.add_argument("--family", help="with --list: only this family (path or English label, or a prefix)")
    ap.add_argument("--min-declared", type=float, help="fail (exit 1) below this percent declared fully")
    ap.add_argument("--min-tested", type=float, help="fail (exit 1) below this percent tested")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args(argv)
    if args.family and not args.list:
        ap.error("--family needs --list")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not (args.docs / "README.md").is_file():
        print(f"api_coverage: no AscendC API reference at {args.docs} (README.md missing); pass --docs DIR",
              file=sys.stderr)
        return 2
    if not args.include.is_dir():
        print(f"api_coverage: no simulator headers at {args.include}; pass --include DIR", file=sys.stderr)
        return 2
    t0 = time.monotonic()

    def progress(rnd: int, pending: int) -> None:
        if not args.quiet:
            print(f"api_coverage: probe round {rnd}: {pending} checks ({time.monotonic() - t0:.0f} s)",
                  file=sys.stderr)

    try:
        m = coverage.measure(args.docs, args.include, args.tests, args.cxx, progress)
    except doc_tree.DocsError as exc:
        print(f"api_coverage: {exc}", file=sys.stderr)
        return 2
    except probes.ProbeError as exc:
        print(f"api_coverage: {exc}", file=sys.stderr)
        return 2
    corpus = [c for c in args.corpus if c.is_dir()]
    oos = report.out_of_scope_rows(m, args.docs, corpus)
    seconds = time.monotonic() - t0
    if args.json:
        print(json.dumps(report.to_json(m, oos, seconds), ensure_ascii=False, indent=1))
    elif args.list:
        print(report.listing(m, args.list, args.family))
    else:
        print(report.table(m, oos))
        for w in m.marker_warnings:
            print(f"warning: {w}")
        print(f"{m.probe_compiles} probe compiles, {seconds:.0f} s")
    if args.markdown:
        report.write_markdown(args.doc, report.markdown(m, oos))
    t = report.totals(m)
    failed = []
    if args.min_declared is not None and 100.0 * t["full"] / max(t["documented"], 1) < args.min_declared:
        failed.append(f"declared {report.pct(t['full'], t['documented'])} < {args.min_declared}%")
    if args.min_tested is not None and 100.0 * t["tested"] / max(t["documented"], 1) < args.min_tested:
        failed.append(f"tested {report.pct(t['tested'], t['documented'])} < {args.min_tested}%")
    if failed:
        print("api_coverage: below the floor: " + "; ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
