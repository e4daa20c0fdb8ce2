"""Upstream NPUKernelBench's score beside pass@k (upstream_score.py): the formula on hand-made results
(items per row and sample, pooled per level, levels weighted 0.2/0.3/0.5, absent levels adding nothing),
the per-case count of a project-mode sample (Checker.count_static), report.md / terminal rendering, the
SoC profiles in the summary, and ``npukb report`` / ``npukb compare`` on hand-made run directories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from npukernelbench.cases import load_case
from npukernelbench.checker import BuildFailed, CaseOutcome, Checker, EvalOptions, SeedChecked
from npukernelbench.cli import main
from npukernelbench.report import markdown, terminal_lines
from npukernelbench.result import SampleResult, Stage, Status
from npukernelbench.run_summary import build_summary, run_socs
from npukernelbench.toolchains.base import BuildResult
from npukernelbench.upstream_score import LEVEL_WEIGHTS, case_counts, upstream_score

TASK = Path(__file__).resolve().parents[1] / "data" / "kernel_only" / "level1" / "Math" / "AddCustom"


def res(task: str, level: int, sample: int, status: Status, cases: tuple[int, int] | None = None,
        soc: str | None = "Ascend910B3") -> SampleResult:
    details: dict = {}
    if cases is not None:
        details["cases"] = {"passed": cases[0], "total": cases[1]}
    if soc is not None:
        details["soc"] = soc
    return SampleResult(task, level, "math", sample, status, details=details)


# -- the formula ---------------------------------------------------------------------------------------
def test_items_are_rows_times_samples_pooled_per_level_and_weighted() -> None:
    results = [
        res("level1/a", 1, 0, Status.PASSED, (3, 3)),
        res("level1/a", 1, 1, Status.WRONG, (1, 3)),          # partial rows
        res("level1/b", 1, 0, Status.BUILD_ERROR, (0, 5)),
        res("level2/c", 2, 0, Status.WRONG, (2, 4)),
        res("level2/c", 2, 1, Status.PASSED, (4, 4)),
        res("level3/d", 3, 0, Status.PARSE_ERROR, (0, 2)),
    ]
    block = upstream_score(results)
    assert block["tasks"]["level1/a"] == {"level": "level1", "samples": 2, "cases_passed": 4, "cases": 6,
                                          "score": pytest.approx(100 * 4 / 6, abs=1e-4)}
    assert block["tasks"]["level1/b"]["score"] == 0.0
    level1 = 100 * 4 / 11                                     # pooled: (3 + 1 + 0) / (3 + 3 + 5), not a task mean
    assert block["levels"]["level1"]["score"] == pytest.approx(level1, abs=1e-4)
    assert block["levels"]["level1"]["score"] != pytest.approx((100 * 4 / 6 + 0) / 2, abs=1e-2)
    level2 = 100 * 6 / 8
    assert block["levels"]["level2"] == {"tasks": 1, "cases_passed": 6, "cases": 8,
                                         "score": pytest.approx(level2), "weight": 0.3}
    assert block["levels"]["level3"]["score"] == 0.0
    assert block["overall"] == pytest.approx(0.2 * level1 + 0.3 * level2 + 0.5 * 0.0, abs=1e-3)
    assert block["max_possible"] == 100 and block["weights"] == dict(LEVEL_WEIGHTS)
    assert block["items"] == "one per static case of each sample" and block["results_without_case_record"] == 0


def test_an_absent_level_adds_nothing_and_other_levels_are_not_weighted() -> None:
    block = upstream_score([res("level2/c", 2, 0, Status.PASSED, (4, 4)),
                            res("level0/x", 0, 0, Status.PASSED, (1, 1))])
    assert block["overall"] == pytest.approx(30.0)           # 0.3 x 100; not renormalised to 100
    assert block["max_possible"] == pytest.approx(30.0)
    assert block["unweighted_levels"] == ["level0"] and block["levels"]["level0"]["weight"] is None
    assert upstream_score([res("level0/x", 0, 0, Status.PASSED, (1, 1))])["overall"] is None
    assert upstream_score([]) is None
    mkb = SampleResult("mkb/relu", 1, "activation", 0, Status.PASSED,
                       details={"benchmark": "multikernelbench", "cases": {"passed": 1, "total": 1}})
    assert upstream_score([mkb]) is None                      # another benchmark's task: its own metrics
    block = upstream_score([mkb, res("level1/a", 1, 0, Status.WRONG, (0, 2))])
    assert block["overall"] == 0.0 and block["other_benchmark_results"] == 1


def test_upstream_mode_rows_map_back_to_their_task() -> None:
    rows = [res("level1/Math/AddCustom#0", 1, 0, Status.PASSED, (1, 1)),
            res("level1/Math/AddCustom#1", 1, 0, Status.WRONG, (0, 1)),
            res("level1/Math/AddCustom#2", 1, 0, Status.PASSED, (1, 1)),
            res("level1/Math/AddCustom#0", 1, 1, Status.PARSE_ERROR, (0, 1))]
    block = upstream_score(rows)
    assert list(block["tasks"]) == ["level1/Math/AddCustom"]
    assert block["tasks"]["level1/Math/AddCustom"] == {"level": "level1", "samples": 4, "cases_passed": 2,
                                                       "cases": 4, "score": 50.0}
    assert block["overall"] == pytest.approx(10.0) and block["items"].startswith("one per row result")


def test_results_without_a_case_record_count_once() -> None:
    block = upstream_score([res("level1/a", 1, 0, Status.PASSED), res("level1/a", 1, 1, Status.WRONG),
                            res("level1/a", 1, 2, Status.WRONG, (2, 4))])
    assert block["results_without_case_record"] == 2
    assert block["tasks"]["level1/a"]["cases_passed"] == 3 and block["tasks"]["level1/a"]["cases"] == 6
    for bad in ({"passed": 5, "total": 4}, {"passed": 1, "total": 0}, {"passed": "1", "total": 2}, [1, 2]):
        assert case_counts(SampleResult("t", 1, "c", 0, Status.WRONG, details={"cases": bad})) is None


# -- the per-case count of a project-mode sample ---------------------------------------------------------
class _RowChecker(Checker):
    """A checker whose rows pass, fail or fail to build as told (no toolchain)."""

    def __init__(self, verdicts: list[str], **options) -> None:
        super().__init__(load_case(TASK), None, {}, EvalOptions(data_seed=1, **options))  # type: ignore[arg-type]
        self.verdicts = verdicts
        self.seen: list[str] = []

    def _index(self, case) -> int:
        return int(case.label.removeprefix("static[").rstrip("]"))

    def check_seed(self, case, seed, first):
        verdict = self.verdicts[self._index(case)]
        self.seen.append(case.label)
        if verdict == "crash":
            raise RuntimeError("the machinery failed")
        if verdict == "build":
            raise BuildFailed(BuildResult(ok=False, artifact=None, key="k", diagnostics="error: no"))
        if verdict == "pass":
            self._reach(Stage.MATCHED)
            return SeedChecked()
        return CaseOutcome(Status.WRONG if verdict == "wrong" else Status.TIMEOUT, "bad", case=case)


@pytest.mark.parametrize(("verdicts", "counted"), [
    (["pass", "pass", "pass"], (3, 3)),
    (["pass", "wrong", "pass"], (2, 3)),
    (["wrong", "build", "pass"], (1, 3)),
    (["wrong", "timeout", "pass"], (0, 3)),                   # a timeout ends the count
    (["timeout", "pass", "pass"], (0, 3)),
    (["wrong", "crash", "pass"], (0, 3)),                     # an error of the machinery ends the count too
])
def test_the_rest_of_the_rows_are_counted_without_changing_the_verdict(verdicts, counted) -> None:
    checker = _RowChecker(verdicts)
    outcomes = checker.check_static()
    status, stage, checked = outcomes[-1].status, checker.stage, checker.shapes_checked
    assert checker.count_static(outcomes) == counted
    assert (outcomes[-1].status, checker.stage, checker.shapes_checked) == (status, stage, checked)


def test_the_count_can_be_turned_off() -> None:
    checker = _RowChecker(["wrong", "pass", "pass"], case_score=False)
    outcomes = checker.check_static()
    assert checker.count_static(outcomes) == (0, 3) and checker.seen == ["static[0]"]


# -- rendering, SoC, npukb report / compare --------------------------------------------------------------
def _results() -> list[SampleResult]:
    return [res("level1/a", 1, 0, Status.PASSED, (3, 3)), res("level1/a", 1, 1, Status.WRONG, (1, 3)),
            res("level2/c", 2, 0, Status.WRONG, (2, 4), soc="Ascend910_9392")]


def test_summary_terminal_and_report_carry_the_score_and_the_socs() -> None:
    done = build_summary(_results(), "m", "ascendc-sim", 2, None)
    block = done.summary["upstream_score"]
    assert block["overall"] == pytest.approx(0.2 * 100 * 4 / 6 + 0.3 * 50, abs=1e-3)
    assert done.summary["socs"] == ["Ascend910B3", "Ascend910_9392"]
    lines = terminal_lines(done.summary)
    line = next(ln for ln in lines if ln.startswith("upstream score"))
    assert f"{block['overall']:.1f} of 50 possible" in line and "level1 66.7 (4/6 cases, weight 0.2)" in line
    assert "SoC profile(s): Ascend910B3, Ascend910_9392" in lines
    text = markdown(done.summary, done.results)
    assert "## Upstream NPUKernelBench score" in text and "- SoC profile(s): Ascend910B3, Ascend910_9392" in text
    assert f"overall: **{block['overall']:.2f}** of 50 possible" in text
    assert "| level1/a | level1 | 2 | 4 | 6 | 66.67 |" in text and "| level2 | 1 | 2 | 4 | 50.00 | 0.3 |" in text


def test_run_socs_follow_the_option_and_the_tasks_own() -> None:
    spec = load_case(TASK)
    assert run_socs([spec], "Ascend910_9392") == ["Ascend910_9392"]
    assert run_socs([spec], None) == ["Ascend910B3"]


def _run_dir(path: Path, results: list[SampleResult], model: str) -> Path:
    path.mkdir()
    (path / "run.json").write_text(json.dumps({"model": model, "toolchain": "ascendc-sim", "samples_per_task": 2}))
    (path / "results.jsonl").write_text("".join(json.dumps(r.to_json()) + "\n" for r in results))
    return path


def test_npukb_report_recomputes_and_compare_shows_each_runs_score(tmp_path, capsys) -> None:
    a = _run_dir(tmp_path / "a", _results(), "m1")
    better = [res("level1/a", 1, 0, Status.PASSED, (3, 3)), res("level1/a", 1, 1, Status.PASSED, (3, 3)),
              res("level2/c", 2, 0, Status.PASSED, (4, 4))]
    b = _run_dir(tmp_path / "b", better, "m2")
    assert main(["report", str(a)]) == 0
    summary = json.loads((a / "summary.json").read_text())
    assert summary["upstream_score"] == json.loads(json.dumps(upstream_score(_results())))
    assert summary["socs"] == ["Ascend910B3", "Ascend910_9392"]
    assert "## Upstream NPUKernelBench score" in (a / "report.md").read_text()
    capsys.readouterr()
    md = tmp_path / "c.md"
    assert main(["compare", str(a), str(b), "--markdown", str(md)]) == 0
    out = capsys.readouterr().out
    first = 0.2 * 100 * 4 / 6 + 0.3 * 50
    line = next(ln for ln in out.splitlines() if ln.startswith("upstream NPUKernelBench score"))
    assert f"a {first:.1f} of 50" in line and f"b 50.0 of 50 ({50 - first:+.1f})" in line
    assert line in md.read_text()


def test_a_real_project_mode_run_records_every_samples_cases(runs) -> None:
    """``npukb evaluate`` with the mutants generator (g++ test toolchain): every result carries its
    per-case count (all cases for a passed sample, fewer for a failed one), and summary.json's score is
    the formula applied to results.jsonl."""
    rows = [json.loads(line) for line in (runs["mut"] / "results.jsonl").read_text().splitlines()]
    counts = [(r["details"]["cases"]["passed"], r["details"]["cases"]["total"]) for r in rows]
    assert all(t >= 1 for _, t in counts)
    assert all(p == t for (p, t), r in zip(counts, rows, strict=True) if r["status"] == "passed")
    assert all(p < t for (p, t), r in zip(counts, rows, strict=True) if r["status"] in ("wrong", "build_error"))
    summary = json.loads((runs["mut"] / "summary.json").read_text())
    expected = upstream_score([SampleResult.from_json(r) for r in rows])
    assert summary["upstream_score"] == json.loads(json.dumps(expected))
    assert summary["socs"]


# -- the score in npukb compare --csv and the HTML report: a column only where some run has it ------------
BASE_CSV = ["level", "run", "model", "toolchain", "tasks", "samples", "CR@1", "ER@1", "speedup", "fast_1",
            "dCR@1", "dER@1", "dspeedup", "dfast_1"]
UPSTREAM_CSV = ["upstream_score", "upstream_max_possible", "upstream_cases_passed", "upstream_cases",
                "upstream_weight", "dupstream_score"]


def _no_records() -> list[SampleResult]:
    """The same samples as ``_results`` as a run directory from before the per-case record."""
    return [res(r.task, r.level, r.sample, r.status) for r in _results()]


def _csv(tmp_path: Path, *runs: Path) -> tuple[list[str], dict[tuple[str, str], dict[str, str]]]:
    import csv

    table = tmp_path / "t.csv"
    assert main(["compare", *map(str, runs), "--csv", str(table)]) == 0
    reader = csv.DictReader(table.open())
    records = list(reader)
    return list(reader.fieldnames or []), {(r["level"], r["run"]): r for r in records}


def test_compare_csv_gives_each_level_and_the_overall_score(tmp_path, capsys) -> None:
    a = _run_dir(tmp_path / "a", _results(), "m1")
    better = [res("level1/a", 1, 0, Status.PASSED, (3, 3)), res("level1/a", 1, 1, Status.PASSED, (3, 3)),
              res("level2/c", 2, 0, Status.WRONG, (3, 4))]
    b = _run_dir(tmp_path / "b", better, "m2")
    old = _run_dir(tmp_path / "old", _no_records(), "m3")
    fields, by = _csv(tmp_path, a, b, old)
    assert fields == BASE_CSV + UPSTREAM_CSV
    level1 = 100 * 4 / 6
    assert float(by[("level1", "a")]["upstream_score"]) == pytest.approx(level1, abs=1e-3)
    one = by[("level1", "a")]
    assert (one["upstream_cases_passed"], one["upstream_cases"], one["upstream_weight"]) == ("4", "6", "0.2")
    assert float(one["upstream_max_possible"]) == 100
    assert by[("level1", "a")]["dupstream_score"] == ""                 # the first run
    assert float(by[("level1", "b")]["dupstream_score"]) == pytest.approx(100 - level1, abs=1e-3)
    assert float(by[("level2", "b")]["upstream_score"]) == 75.0 and by[("level2", "b")]["upstream_weight"] == "0.3"
    mean_a, mean_b = by[("mean", "a")], by[("mean", "b")]
    overall_a, overall_b = 0.2 * level1 + 0.3 * 50, 0.2 * 100 + 0.3 * 75
    assert float(mean_a["upstream_score"]) == pytest.approx(overall_a, abs=1e-3)
    assert (mean_a["upstream_cases_passed"], mean_a["upstream_cases"], mean_a["upstream_weight"]) == ("6", "10", "")
    assert float(mean_a["upstream_max_possible"]) == 50
    assert float(mean_b["dupstream_score"]) == pytest.approx(overall_b - overall_a, abs=1e-3)
    for level in ("level1", "level2", "mean"):                        # no per-case record: no score, no delta
        assert all(by[(level, "old")][c] == "" for c in UPSTREAM_CSV), by[(level, "old")]
    capsys.readouterr()


def test_runs_without_the_score_keep_the_csv_they_had(tmp_path) -> None:
    old = _run_dir(tmp_path / "old", _no_records(), "m3")
    other = _run_dir(tmp_path / "other", _no_records(), "m4")
    fields, by = _csv(tmp_path, old, other)
    assert fields == BASE_CSV
    assert set(by[("mean", "old")]) == set(BASE_CSV)
    mkb = SampleResult("mkb/relu", 1, "activation", 0, Status.PASSED,
                       details={"benchmark": "multikernelbench", "cases": {"passed": 1, "total": 1}})
    assert _csv(tmp_path, _run_dir(tmp_path / "mkb", [mkb], "m5"))[0] == BASE_CSV   # another benchmark's only


def _comparison_table(html: str) -> list[list[str]]:
    import re
    from html import unescape

    body = html.split('<table id="comparison-table">')[1].split("</table>")[0]
    return [[unescape(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", body)]


def test_html_table_has_the_score_column_only_when_a_run_has_the_score(tmp_path, capsys) -> None:
    pytest.importorskip("matplotlib", reason="the 'report' extra (matplotlib) is not installed")
    a = _run_dir(tmp_path / "a", _results(), "m1")
    old = _run_dir(tmp_path / "old", _no_records(), "m3")
    page = tmp_path / "c.html"
    assert main(["compare", str(a), str(old), "--html", str(page)]) == 0
    html = page.read_text()
    rows = _comparison_table(html)
    assert rows[0][-1] == "upstream score" and len(rows) == 1 + 3 * 2
    cells = {(r[0], r[1]): r[-1] for r in rows[1:]}
    first = 0.2 * 100 * 4 / 6 + 0.3 * 50
    assert cells[("level1", "a")] == "66.7" and cells[("level2", "a")] == "50.0"
    assert cells[("mean", "a")] == f"{first:.1f} of 50"
    assert cells[("level1", "old")] == cells[("mean", "old")] == "-"
    assert 'id="upstream-score-note"' in html and "old: no per-case record, so no upstream score (-)." in html
    alone = tmp_path / "old.html"
    assert main(["compare", str(old), "--html", str(alone)]) == 0
    html = alone.read_text()
    assert _comparison_table(html)[0] == ["level", "run", "tasks", "samples", "CR@1", "ER@1",
                                          "speedup (estimated)", "fast_1"]
    assert "upstream" not in html.lower() and 'id="turn-table"' not in html
    capsys.readouterr()
