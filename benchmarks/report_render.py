"""How long reporting takes on real run directories, and how large the HTML page is.

    python benchmarks/report_render.py RUN_DIR [RUN_DIR...] [--names a,b] [--repeat 3] [--html OUT]

Prints, for the given runs: results loaded, tasks compared, and the best-of-``--repeat`` wall time of
loading the run directories, building the comparison (pass@k per level and run), rendering the
terminal/markdown/CSV tables, and rendering the HTML page (matplotlib charts included), plus the page's
size and chart count. Needs the ``report`` extra.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def _best(repeat: int, fn):
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dirs", nargs="+", type=Path)
    parser.add_argument("--names")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--html", type=Path, help="also keep the rendered page here")
    ns = parser.parse_args(argv)

    from npukernelbench.html_report import render_html, write_html
    from npukernelbench.loaded_run import RunLoadError, load_runs
    from npukernelbench.run_comparison import compare_runs, csv_text, markdown, terminal_lines

    names = ns.names.split(",") if ns.names else None
    try:
        t_load, runs = _best(ns.repeat, lambda: load_runs(ns.run_dirs, names))
        t_compare, comparison = _best(ns.repeat, lambda: compare_runs(runs))
    except RunLoadError as exc:
        print(f"report_render: {exc}", file=sys.stderr)
        return 2
    t_tables, _ = _best(ns.repeat, lambda: (terminal_lines(comparison), markdown(comparison), csv_text(comparison)))
    t_html, page = _best(ns.repeat, lambda: render_html(comparison))
    if ns.html:
        write_html(ns.html, page)
    results = sum(len(run.results) for run in runs)
    cells = page.count('class="cell ')
    print(f"runs: {len(runs)}   results: {results}   tasks compared: {len(comparison.tasks)}   "
          f"levels: {', '.join(comparison.levels())}")
    print(f"load run directories   {1000 * t_load:9.1f} ms")
    print(f"compare (pass@k etc.)  {1000 * t_compare:9.1f} ms")
    print(f"tables (term/md/csv)   {1000 * t_tables:9.1f} ms")
    print(f"html page (3 charts)   {1000 * t_html:9.1f} ms   size {len(page.encode()) / 1024:.0f} KiB, "
          f"{page.count('<svg')} inline SVG chart(s), {cells} grid cells")
    return 0


if __name__ == "__main__":
    sys.exit(main())
