"""``npukb compare`` and ``npukb report`` on real run directories: the Table-2-shaped table, its
deltas, common-task restriction, interrupted runs, and one-line errors for unusable inputs."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from npukernelbench.cli import main
from npukernelbench.metrics import pass_at_k


def _er(run: Path, k: int, level: int | None = None) -> float:
    """ER pass@k in percent, from results.jsonl directly (last record per sample wins)."""
    latest = {}
    for line in (run / "results.jsonl").read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        latest[(row["task"], row["sample"])] = row
    tasks = defaultdict(list)
    for row in latest.values():
        if level is None or row["level"] == level:
            tasks[row["task"]].append(row["status"] == "passed")
    values = [pass_at_k(len(v), sum(v), k) for v in tasks.values() if len(v) >= k]
    return 100 * sum(values) / len(values)


def _records(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


def test_table2_across_runs(runs, tmp_path, capsys):
    md, table = tmp_path / "t.md", tmp_path / "t.csv"
    assert main(["compare", str(runs["ref"]), str(runs["mut"]), "--names", "base,mutants",
                 "--markdown", str(md), "--csv", str(table)]) == 0
    out = capsys.readouterr().out
    header = next(ln for ln in out.splitlines() if ln.startswith("level "))
    for col in ("CR@1", "CR@10", "ER@1", "ER@10", "speedup (estimated)", "fast_1"):
        assert col in header
    assert "note:" not in out                              # same tasks, same toolchain, both complete
    recs = _records(table)
    assert [(r["level"], r["run"]) for r in recs] == [(lv, run) for lv in ("level1", "level2", "mean")
                                                      for run in ("base", "mutants")]
    by = {(r["level"], r["run"]): r for r in recs}
    for level, number in (("level1", 1), ("level2", 2), ("mean", None)):
        base, mut = by[(level, "base")], by[(level, "mutants")]
        assert float(base["ER@1"]) == 100.0 and base["ER@10"] == "" and base["dER@1"] == ""
        assert float(mut["ER@1"]) == pytest.approx(_er(runs["mut"], 1, number), abs=1e-3)
        assert float(mut["ER@10"]) == pytest.approx(_er(runs["mut"], 10, number), abs=1e-3)
        assert float(mut["dER@1"]) == pytest.approx(float(mut["ER@1"]) - 100.0, abs=1e-3)
        assert mut["dER@10"] == ""                         # the base run has no pass@10
        assert mut["samples"] == ("20" if level == "mean" else "10")
    er1 = float(by[("mean", "mutants")]["ER@1"])
    assert er1 < 100.0                                     # the mutants really fail some samples
    row = next(ln for ln in out.splitlines() if ln.startswith("mean") and "mutants" in ln)
    assert f"{er1:.1f} ({er1 - 100:+.1f})" in row
    text = md.read_text()
    assert "| level | run | tasks | samples | CR@1 | CR@10 | ER@1 | ER@10 |" in text
    assert text.count("\n| mean |") == 2
    assert "upstream" not in header and "upstream" not in text.split("\n\n")[1]   # the table: a line of its own
    # upstream's score (both runs record every sample's cases): per level its case pass rate, on the mean
    # row the weighted overall, as in each run's summary.json (same tasks), with the difference to the first
    for level in ("level1", "level2", "mean"):
        for run, name in (("ref", "base"), ("mut", "mutants")):
            block = json.loads((runs[run] / "summary.json").read_text())["upstream_score"]
            rec = by[(level, name)]
            want = block["overall"] if level == "mean" else block["levels"][level]["score"]
            assert float(rec["upstream_score"]) == pytest.approx(want, abs=1e-3)
            if level != "mean":
                assert int(rec["upstream_cases"]) == block["levels"][level]["cases"]
        assert float(by[(level, "mutants")]["dupstream_score"]) == pytest.approx(
            float(by[(level, "mutants")]["upstream_score"]) - float(by[(level, "base")]["upstream_score"]), abs=1e-3)
    assert float(by[("mean", "base")]["upstream_score"]) == 50.0      # the expert answers: every case, levels 1-2
    assert float(by[("mean", "mutants")]["upstream_score"]) < 50.0


def test_one_sample_run_has_only_pass_at_1(runs, capsys):
    assert main(["compare", str(runs["ref"])]) == 0
    header = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("level "))
    assert "ER@1" in header and "@10" not in header and "(+" not in header


def test_different_task_sets_compare_common_tasks(runs, tmp_path, capsys):
    table = tmp_path / "t.csv"
    assert main(["compare", str(runs["mut"]), str(runs["mut_l1"]), "--csv", str(table)]) == 0
    out = capsys.readouterr().out
    assert "note: task sets differ: compared on the 1 task(s) common to all runs (mut has 2, mut_l1 has 1)" in out
    recs = _records(table)
    assert {r["level"] for r in recs} == {"level1", "mean"} and {r["tasks"] for r in recs} == {"1"}
    mut = next(r for r in recs if r["level"] == "level1" and r["run"] == "mut")
    assert float(mut["ER@1"]) == pytest.approx(_er(runs["mut"], 1, 1), abs=1e-3)


def test_disjoint_task_sets_are_an_error(runs, capsys):
    assert main(["compare", str(runs["mut_l1"]), str(runs["ref_l2"])]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["npukb compare: no task is common to all runs (mut_l1: 1 tasks; ref_l2: 1 tasks)"]


def test_interrupted_run_is_reported_and_counted(runs, tmp_path, capsys):
    table = tmp_path / "t.csv"
    assert main(["compare", str(runs["mut"]), str(runs["interrupted"]), "--csv", str(table)]) == 0
    out = capsys.readouterr().out
    assert "note: interrupted: interrupted run, 7 of 20 planned samples finished" in out
    inter = {r["level"]: r for r in _records(table) if r["run"] == "interrupted"}
    assert inter["mean"]["samples"] == "7"
    assert float(inter["level1"]["ER@1"]) == pytest.approx(_er(runs["interrupted"], 1, 1), abs=1e-3)
    assert inter["level1"]["ER@10"] == ""              # 7 samples of one task: pass@10 undefined


def test_same_folder_names_are_made_unique(runs, tmp_path, capsys):
    other = tmp_path / "x" / "mut"
    shutil.copytree(runs["mut"], other)
    assert main(["compare", str(runs["mut"]), str(other)]) == 0
    out = capsys.readouterr().out
    assert "mut#2:" in out and "(+0.0)" in out


# -- unusable inputs: one line on stderr, exit 2 ---------------------------------------------------------
def _bad(tmp_path: Path, runs, kind: str) -> Path:
    bad = tmp_path / "bad"
    shutil.copytree(runs["mut"], bad)
    results = bad / "results.jsonl"
    lines = results.read_text().splitlines()
    if kind == "missing_dir":
        return tmp_path / "nowhere"
    if kind == "not_a_run":
        results.unlink()
    elif kind == "corrupt_middle":
        results.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    elif kind == "unknown_status":
        row = json.loads(lines[2])
        row["status"] = "exploded"
        results.write_text("\n".join([*lines[:2], json.dumps(row), *lines[3:]]) + "\n")
    elif kind == "missing_field":
        row = json.loads(lines[0])
        del row["task"]
        results.write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n")
    elif kind == "empty":
        results.write_text("")
    elif kind == "corrupt_header":
        (bad / "run.json").write_text("{\"model\": ")
    return bad


@pytest.mark.parametrize(("kind", "message"), [
    ("missing_dir", "nowhere: no such run directory"),
    ("not_a_run", "holds no results.jsonl (is it a run directory? set by --npukb-out)"),
    ("corrupt_middle", "results.jsonl:2: not valid JSON; fix or delete the line"),
    ("unknown_status", "results.jsonl: record 3 is not a result this version of npukernelbench reads (ValueError: "
                       "'exploded' is not a valid Status)"),
    ("missing_field", "results.jsonl: record 1 is not a result this version of npukernelbench reads (TypeError"),
    ("empty", "results.jsonl: no finished sample yet; nothing to report"),
    ("corrupt_header", "run.json: not valid JSON"),
])
def test_unusable_run_directory(runs, tmp_path, capsys, kind, message):
    bad = _bad(tmp_path, runs, kind)
    before = {p.name: p.read_bytes() for p in bad.iterdir()} if bad.is_dir() else {}
    assert main(["compare", str(runs["ref"]), str(bad), "--csv", str(tmp_path / "t.csv")]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("npukb compare: ") and message in err[0], err
    assert not (tmp_path / "t.csv").exists()
    assert before == ({p.name: p.read_bytes() for p in bad.iterdir()} if bad.is_dir() else {})   # nothing lost


def test_names_must_match_the_runs(runs, capsys):
    assert main(["compare", str(runs["ref"]), str(runs["mut"]), "--names", "a"]) == 2
    assert capsys.readouterr().err.strip() == "npukb compare: --names gives 1 name(s) for 2 run director(y/ies)"


def test_html_without_matplotlib_is_a_one_line_error(runs, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)          # as if the 'report' extra were missing
    assert main(["compare", str(runs["ref"]), "--html", str(tmp_path / "c.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install 'npukernelbench[report]'" in err[0]
    assert not (tmp_path / "c.html").exists()
    copy = tmp_path / "run"
    shutil.copytree(runs["ref"], copy)
    (copy / "report.html").unlink(missing_ok=True)
    assert main(["report", str(copy), "--html"]) == 2
    assert not (copy / "report.html").exists()
