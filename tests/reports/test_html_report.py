"""The HTML report from real run directories: self-contained, the expected sections and charts, the
per-task grid with first-failure messages, and (where Debian's ``chromium`` is installed) rendered
headless without console errors, screenshot checked for the charts' and the grid's colours."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from npukernelbench.cli import main
from npukernelbench.html_report import STATUS_COLOURS
from npukernelbench.result import Status

pytest.importorskip("matplotlib", reason="the 'report' extra (matplotlib) is not installed")

EXTERNAL = re.compile(r"""(?:src|href|xlink:href)\s*=\s*["']\s*(?:https?:|//)|url\(\s*["']?\s*(?:https?:|//)|@import""",
                      re.IGNORECASE)


def _first_failure(run: Path, task: str) -> dict:
    rows = [json.loads(ln) for ln in (run / "results.jsonl").read_text().splitlines()]
    return min((r for r in rows if r["task"] == task and r["status"] != "passed"), key=lambda r: r["sample"])


@pytest.fixture(scope="module")
def comparison_html(runs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html") / "compare.html"
    assert main(["compare", str(runs["ref"]), str(runs["mut"]), str(runs["mut_l1"]), str(runs["interrupted"]),
                 "--names", "base,mutants,level1-only,killed", "--html", str(out)]) == 0
    return out


def test_comparison_page(comparison_html, runs):
    html = comparison_html.read_text()
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert not EXTERNAL.search(html), EXTERNAL.search(html)
    assert "<script" not in html
    for anchor in ('id="run-header"', 'id="comparison-table"', 'id="chart-passk"', 'id="chart-taxonomy"',
                   'id="task-grid"', 'id="chart-speedup"'):
        assert anchor in html
    assert html.count("<svg") == 3
    for name in ("base", "mutants", "level1-only", "killed"):          # one pass@k line per run
        assert f'id="passk-mean-{name}"' in html and f'id="taxonomy-{name}"' in html
    assert "1 task(s) common to all 4 runs." in html
    assert "task sets differ" in html and "killed: interrupted run, 7 of 20 planned samples finished" in html
    assert "Estimated speedups: simulator cost model, not measured on hardware." in html
    assert "7 of 20 (interrupted)" in html and "gxx_toolchain:GxxToolchain" in html
    cells = re.findall(r'<td class="cell ([a-z_ ]+)"[^>]*title="([^"]*)"', html)
    assert len(cells) == 2 * 4                                          # 2 tasks x 4 runs
    statuses = {c for c, _ in cells}
    assert "passed" in statuses and "not_run" in statuses               # level1-only has no level2 task
    table = html.split('id="comparison-table"')[1].split("</table>")[0]
    assert "<th>upstream score</th>" in table and 'id="upstream-score-note"' in html   # every run has cases
    rows = {tuple(re.findall(r"<td[^>]*>(.*?)</td>", row)[:2]): re.findall(r"<td[^>]*>(.*?)</td>", row)[-1]
            for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1])}
    assert rows[("level1", "base")] == "100.0" and rows[("mean", "base")] == "20.0 of 20"   # every vadd case
    killed = [json.loads(ln) for ln in (runs["interrupted"] / "results.jsonl").read_text().splitlines()[:7]]
    cases = [r["details"]["cases"] for r in killed if r["task"] == "level1/math/vadd"]
    score = 0.2 * 100 * sum(c["passed"] for c in cases) / sum(c["total"] for c in cases)   # level 1 only
    assert rows[("mean", "killed")] == f"{score:.1f} of 20 ({score - 20:+.1f})"
    assert 'id="turn-table"' not in html and "Multi-turn repair" not in html   # one-turn runs: no turn section


def test_grid_hover_names_the_first_failure(comparison_html, runs):
    from html import unescape

    html = comparison_html.read_text()
    task = "level1/math/vadd"
    first = _first_failure(runs["mut"], task)
    titles = [unescape(t) for t in re.findall(r'title="([^"]*)"', html) if unescape(t).startswith(f"{task} · mutants")]
    assert len(titles) == 1
    assert f"first failure (sample {first['sample']}, {first['status']}" in titles[0]
    assert first["message"].strip()[:80] in titles[0]


def test_report_html_of_one_run(runs, tmp_path, capsys):
    run = tmp_path / "ref"
    shutil.copytree(runs["ref"], run)
    (run / "report.html").unlink(missing_ok=True)
    assert main(["report", str(run), "--html"]) == 0
    assert f"html report: {run / 'report.html'}" in capsys.readouterr().out
    html = (run / "report.html").read_text()
    assert "NPUKernelBench report: ref" in html and 'id="passk-mean-ref"' in html
    assert "(+" not in html.split('id="comparison-table"')[1].split("</table>")[0]   # one run: no deltas
    assert "2 task(s) in the run." in html and "common to all" not in html


def _lab(colour: str) -> tuple[float, float, float]:
    """sRGB hex -> CIE L*a*b* (D65)."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def test_wrong_and_runtime_error_colours_are_far_apart_from_each_other_and_the_rest():
    """CIE76 colour difference: about 2.3 is just noticeable; amber vs orange (the old pair) was 30."""
    def delta(a: str, b: str) -> float:
        return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5

    assert delta(STATUS_COLOURS[Status.WRONG], STATUS_COLOURS[Status.RUNTIME_ERROR]) >= 60
    for status in (Status.WRONG, Status.RUNTIME_ERROR):
        others = [c for s, c in STATUS_COLOURS.items() if s is not status]
        assert min(delta(STATUS_COLOURS[status], c) for c in others) >= 35, status


def test_evaluate_npukb_html_points_at_the_page(runs):
    stdout = (runs["mut"].parent / "mut.stdout").read_text()
    assert f"html report: {runs['mut'] / 'report.html'}" in stdout
    assert 'id="task-grid"' in (runs["mut"] / "report.html").read_text()


# -- headless Chromium ------------------------------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                             "(apt-get install chromium)")


def _render(page: Path, shot: Path) -> tuple[str, list[str]]:
    """(the DOM after rendering, console messages) of ``page``, and its screenshot in ``shot``."""
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            f"--user-data-dir={shot.parent / 'chromium-profile'}", "--enable-logging=stderr", "--v=0",
            "--window-size=1280,2600"]
    url = page.resolve().as_uri()
    shot_run = subprocess.run([*base, f"--screenshot={shot}", url], capture_output=True, text=True, timeout=120)
    dom = subprocess.run([*base, "--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    console = [ln for ln in (shot_run.stderr + dom.stderr).splitlines() if ":CONSOLE" in ln]
    return dom.stdout, console


def _pixels(shot: Path, colour: str) -> int:
    from PIL import Image

    want = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    image = Image.open(shot).convert("RGB")
    return sum(count for count, rgb in image.getcolors(maxcolors=1 << 20) if rgb == want)


@needs_chromium
def test_renders_in_headless_chromium(comparison_html, tmp_path):
    dom, console = _render(comparison_html, tmp_path / "page.png")
    assert console == []
    assert dom.count("<svg") == 3 and dom.count('class="cell ') == 8
    for anchor in ("chart-passk", "chart-taxonomy", "chart-speedup", "task-grid", "comparison-table"):
        assert f'id="{anchor}"' in dom
    shot = tmp_path / "page.png"
    assert shot.stat().st_size > 20_000
    assert _pixels(shot, STATUS_COLOURS[Status.PASSED]) > 500           # the grid's passed cells
    assert _pixels(shot, "#1f77b4") > 200                               # the first run's lines and bars
    assert _pixels(shot, "#ff7f0e") > 200                               # the second run's


@needs_chromium
def test_console_check_catches_a_broken_page(comparison_html, tmp_path):
    broken = tmp_path / "broken.html"
    broken.write_text(comparison_html.read_text().replace("</body>", "<script>undefinedCall();</script></body>"))
    _, console = _render(broken, tmp_path / "broken.png")
    assert any("undefinedCall" in line for line in console)
