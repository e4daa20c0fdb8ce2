"""Multi-turn repair (``npukb evaluate --npukb-turns=N``), driven by replay files with per-turn rows:
the follow-up conversation (history, the turn's own feedback), per-turn pass@k and the first passing
turn in summary.json / report.md, infrastructure failures never fed back, resume, turns=1 unchanged,
and bad values (one line, exit 2). Real subprocesses on the g++ test toolchain."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harness_paths import DATA, HERE

TOOL = "--toolchain=gxx_toolchain:GxxToolchain"
INFRA_TOOL = "--toolchain=multiturn_helpers:InfraGxx"
VADD = "level1/math/vadd"
SOLUTION = DATA / "gxx_cases" / VADD / "solution"
GOOD = {p.relative_to(SOLUTION).as_posix(): p.read_text() for p in SOLUTION.rglob("*") if p.is_file()}
KERNEL = "op_kernel/vadd.cpp"


def variant(kernel: str) -> dict[str, str]:
    return {**GOOD, KERNEL: kernel}


BROKEN = variant(GOOD[KERNEL].replace("z[i] = x[i] + y[i];", "z[i] = x[i] + undeclared_name;"))
WRONG = variant(GOOD[KERNEL].replace("x[i] + y[i]", "x[i] - y[i]"))
INFRA = variant(GOOD[KERNEL] + "\n// INFRA_FAIL\n")


def npukb(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parents[1] / "src"), str(HERE)])
    return subprocess.run([sys.executable, "-m", "npukernelbench.cli", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    shutil.copytree(DATA / "gxx_cases", tmp_path / "cases")
    return tmp_path / "cases"


def replay(tmp_path: Path, rows: list[tuple[int, int, dict[str, str]]]) -> Path:
    path = tmp_path / "replay.jsonl"
    path.write_text("".join(json.dumps({"task": VADD, "sample": s, **({"turn": t} if t > 1 else {}), "files": f})
                            + "\n" for s, t, f in rows))
    return path


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def evaluate(tmp_path: Path, path: Path, *extra: str, tool: str = TOOL) -> subprocess.CompletedProcess:
    samples = 1 + max(row["sample"] for row in jsonl(path))
    return npukb(tmp_path, "evaluate", "cases", tool, "-k", "vadd", f"--model=multiturn_helpers:RecordingReplay:{path}",
                 "--shapes", "static", "--npukb-out", "out", "--samples", str(samples), *extra)


EPISODES = [(0, 1, BROKEN), (0, 2, GOOD),          # s0: build error, repaired at turn 2
            (1, 1, GOOD), (1, 2, BROKEN),          # s1: passes at once (its turn-2 row is never asked for)
            (2, 1, WRONG), (2, 2, WRONG), (2, 3, GOOD)]   # s2: wrong twice; turn 3 lies beyond --npukb-turns=2


def test_episode_per_turn_metrics_and_records(tmp_path, cases) -> None:
    path = replay(tmp_path, EPISODES)
    proc = evaluate(tmp_path, path, "--npukb-turns=2")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    results = jsonl(tmp_path / "out" / "results.jsonl")
    assert sorted((r["sample"], r["turn"], r["status"]) for r in results) == [
        (0, 1, "build_error"), (0, 2, "passed"), (1, 1, "passed"), (2, 1, "wrong"), (2, 2, "wrong")]
    turns = sorted((r["sample"], r.get("turn", 1)) for r in jsonl(tmp_path / "out" / "completions.jsonl"))
    assert turns == [(0, 1), (0, 2), (1, 1), (2, 1), (2, 2)]
    multi = json.loads((tmp_path / "out" / "summary.json").read_text())["multi_turn"]
    assert multi["by_turn"]["1"]["er"]["pass@1"] == pytest.approx(1 / 3, abs=1e-6)
    assert multi["by_turn"]["2"]["er"]["pass@1"] == pytest.approx(2 / 3, abs=1e-6)
    assert multi["by_turn"]["1"]["cr"]["pass@1"] == pytest.approx(2 / 3, abs=1e-6)
    assert multi["first_passing_turn"] == {"1": 1, "2": 1} and multi["never_passed"] == 1
    assert multi["task_first_passing_turn"] == {VADD: 1}
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["levels"]["mean"]["er"]["pass@1"] == pytest.approx(2 / 3, abs=1e-6)   # the final turn counts
    assert "multi-turn repair (2 turns): ER after turn 1: pass@1 0.333, after turn 2: pass@1 0.667" in proc.stdout
    assert "first passing turn (samples): turn 1: 1, turn 2: 1; never passed: 1" in \
        (tmp_path / "out" / "report.md").read_text()
    # the follow-ups: one conversation per failing sample, ending with that sample's own feedback
    follow = [r for r in jsonl(Path(str(path) + ".requests.jsonl")) if r["turn"] == 2]
    assert sorted(r["sample"] for r in follow) == [0, 2] and all(r["n"] == 1 for r in follow)
    s0 = next(r for r in follow if r["sample"] == 0)["messages"]
    assert [m["role"] for m in s0[-3:]] == ["user", "assistant", "user"]
    assert "undeclared_name" in s0[-2]["content"]                     # its own answer, in the history
    assert "did not pass (turn 1 of 2): the project did not build" in s0[-1]["content"]
    assert "undeclared_name" in s0[-1]["content"] and "error" in s0[-1]["content"]   # the compiler's words
    s2 = next(r for r in follow if r["sample"] == 2)["messages"][-1]["content"]
    assert "output differs from the reference" in s2 and "Failing case:" in s2
    # each turn is checked on its own input draw, derived from the run's data seed (a reported expected
    # value cannot be written into the next answer)
    import re

    from npukernelbench.data_seed import turn_data_seed

    run_seed = json.loads((tmp_path / "out" / "run.json").read_text())["data_seed"]
    seeds = {r["turn"]: int(re.search(r"data seed (\d+)", r["message"]).group(1))
             for r in results if r["sample"] == 2}
    assert seeds == {1: run_seed, 2: turn_data_seed(run_seed, 2)} and seeds[1] != seeds[2]
    # npukb report recomputes the same section from the run directory
    again = npukb(tmp_path, "report", "out")
    assert again.returncode == 0 and "multi-turn repair (2 turns)" in again.stdout
    merged = npukb(tmp_path, "report", "--out", "merged", "out")       # shard merging keeps every turn
    assert merged.returncode == 0, merged.stderr[-2000:]
    assert len(jsonl(tmp_path / "merged" / "results.jsonl")) == 5
    assert len(jsonl(tmp_path / "merged" / "completions.jsonl")) == 5
    assert json.loads((tmp_path / "merged" / "summary.json").read_text())["multi_turn"] == multi


def _html_table(html: str, table_id: str) -> list[list[str]]:
    """The text cells of one table of the HTML report, header row first."""
    import re
    from html import unescape

    body = html.split(f'<table id="{table_id}">')[1].split("</table>")[0]
    return [[unescape(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", body)]


def test_report_html_has_the_per_turn_table(tmp_path, cases) -> None:
    """report.html of a real 2-turn run: pass rate, CR and ER after each turn and what each turn fixed
    (s0 repaired at turn 2, s1 passed at once, s2 wrong twice); the samples answered at each turn."""
    pytest.importorskip("matplotlib", reason="the 'report' extra (matplotlib) is not installed")
    proc = evaluate(tmp_path, replay(tmp_path, EPISODES), "--npukb-turns=2", "--npukb-html")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    html = (tmp_path / "out" / "report.html").read_text()
    assert "<h2>Multi-turn repair</h2>" in html and "Samples that never passed: 1." in html
    assert _html_table(html, "turn-table") == [
        ["run", "turn", "answered", "passed after", "pass rate", "CR@1", "ER@1", "fixed"],
        ["out", "1", "3", "1/3", "33.3", "66.7", "33.3", "-"],
        ["out", "2", "2", "2/3", "66.7", "100.0", "66.7", "1"]]
    # the table follows the run directory: a third turn that fixes s2 shows up after resuming
    again = evaluate(tmp_path, replay(tmp_path, EPISODES), "--npukb-turns=3", "--npukb-resume", "--npukb-html")
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    rows = _html_table((tmp_path / "out" / "report.html").read_text(), "turn-table")
    assert rows[-1] == ["out", "3", "1", "3/3", "100.0", "100.0", "100.0", "1"] and len(rows) == 4


def test_resume_continues_the_episodes(tmp_path, cases) -> None:
    path = replay(tmp_path, EPISODES)
    first = evaluate(tmp_path, path, "--npukb-turns=2")
    assert first.returncode == 0, first.stderr[-3000:]
    proc = evaluate(tmp_path, path, "--npukb-turns=3", "--npukb-resume")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    results = jsonl(tmp_path / "out" / "results.jsonl")
    assert sorted((r["sample"], r["turn"]) for r in results) == [(0, 1), (0, 2), (1, 1), (2, 1), (2, 2), (2, 3)]
    asked = [(r["sample"], r["turn"]) for r in jsonl(Path(str(path) + ".requests.jsonl")) if r["turn"] > 1]
    assert asked == [(0, 2), (2, 2), (2, 3)]           # turn 2 came from completions.jsonl on resume
    multi = json.loads((tmp_path / "out" / "summary.json").read_text())["multi_turn"]
    assert multi["first_passing_turn"] == {"1": 1, "2": 1, "3": 1} and multi["never_passed"] == 0
    turn3 = next(r for r in jsonl(Path(str(path) + ".requests.jsonl")) if r["turn"] == 3)["messages"]
    assert len(turn3) == 2 + 4 and "(turn 2 of 3)" in turn3[-1]["content"]     # the whole history


def test_infrastructure_failures_are_not_fed_back(tmp_path, cases) -> None:
    path = replay(tmp_path, [(0, 1, INFRA), (0, 2, GOOD), (1, 1, BROKEN), (1, 2, INFRA)])
    proc = evaluate(tmp_path, path, "--npukb-turns=3", tool=INFRA_TOOL)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]       # samples without an outcome
    results = jsonl(tmp_path / "out" / "results.jsonl")
    assert sorted((r["sample"], r["turn"]) for r in results) == [(1, 1)]
    asked = [(r["sample"], r["turn"]) for r in jsonl(Path(str(path) + ".requests.jsonl")) if r["turn"] > 1]
    assert asked == [(1, 2)]             # s0's failure was ours: no follow-up; s1's turn-2 failure ends it
    text = json.dumps(jsonl(Path(str(path) + ".requests.jsonl")))
    assert "SIGKILL" not in text and "infrastructure" not in text
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert sorted((f["sample"], f.get("turn", 1)) for f in summary["infrastructure_failures"]) == [(0, 1), (1, 2)]


def test_one_turn_is_unchanged(tmp_path, cases) -> None:
    path = replay(tmp_path, [(0, 1, BROKEN), (0, 2, GOOD)])
    proc = evaluate(tmp_path, path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = jsonl(tmp_path / "out" / "results.jsonl")
    assert [(r["sample"], r["status"]) for r in results] == [(0, "build_error")] and "turn" not in results[0]
    assert all("turn" not in r for r in jsonl(tmp_path / "out" / "completions.jsonl"))
    assert "multi_turn" not in json.loads((tmp_path / "out" / "summary.json").read_text())
    assert "turns" not in json.loads((tmp_path / "out" / "run.json").read_text())
    assert [r["turn"] for r in jsonl(Path(str(path) + ".requests.jsonl"))] == [1]


@pytest.mark.parametrize("value", ["0", "-1", "1.5", "two"])
def test_bad_turns_is_one_line_exit_2(tmp_path, cases, value) -> None:
    path = replay(tmp_path, [(0, 1, GOOD)])
    proc = evaluate(tmp_path, path, f"--npukb-turns={value}")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [f"npukb evaluate: --npukb-turns must be a whole number >= 1, "
                                                f"got {value!r}"]


def pytest_run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parents[1] / "src"), str(HERE)])
    return subprocess.run([sys.executable, "-m", "pytest", "cases", TOOL, "-q", "-p", "no:cacheprovider", *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


def test_pytest_plugin_runs_the_later_turns_after_the_items(tmp_path, cases) -> None:
    """Under pytest the items are turn 1 (their pass/fail); turns 2 .. N run at the end of the session
    and go to results.jsonl and the summary like npukb evaluate's."""
    path = replay(tmp_path, EPISODES)
    proc = pytest_run(tmp_path, "-k", "vadd", f"--model=multiturn_helpers:RecordingReplay:{path}",
                      "--shapes", "static", "--npukb-out", "out", "--samples", "3", "--npukb-turns", "2")
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]       # two items failed at turn 1
    results = jsonl(tmp_path / "out" / "results.jsonl")
    assert sorted((r["sample"], r["turn"], r["status"]) for r in results) == [
        (0, 1, "build_error"), (0, 2, "passed"), (1, 1, "passed"), (2, 1, "wrong"), (2, 2, "wrong")]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["multi_turn"]["first_passing_turn"] == {"1": 1, "2": 1}
    assert summary["levels"]["mean"]["er"]["pass@1"] == pytest.approx(2 / 3, abs=1e-6)
    assert "multi-turn repair (2 turns): ER after turn 1: pass@1 0.333, after turn 2: pass@1 0.667" in proc.stdout


@pytest.mark.parametrize("value", ["0", "x"])
def test_pytest_plugin_refuses_bad_turns(tmp_path, cases, value) -> None:
    proc = pytest_run(tmp_path, f"--npukb-turns={value}")
    assert proc.returncode == 4 and f"--npukb-turns must be a whole number >= 1, got {value!r}" in proc.stderr, \
        proc.stdout[-2000:] + proc.stderr[-2000:]


def test_tiny_model_answers_its_own_feedback(tmp_path, cases, tiny_model) -> None:
    """A real model (the tiny transformers model, hf backend): its turn-1 noise is judged (a parse
    error), and the turn-2 conversation it receives holds its answer and that turn's report."""
    requests = tmp_path / "requests.jsonl"
    env = dict(os.environ, NPUKB_TEST_REQUESTS=str(requests),
               PYTHONPATH=os.pathsep.join([str(HERE.parents[1] / "src"), str(HERE)]))
    proc = subprocess.run([sys.executable, "-m", "npukernelbench.cli", "evaluate", "cases", TOOL, "-k", "vadd",
                           f"--model=multiturn_helpers:RecordingHF:{tiny_model}", "--max-tokens", "8",
                           "--temperature", "0", "--shapes", "static", "--npukb-out", "out", "--npukb-turns", "2"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    results = jsonl(tmp_path / "out" / "results.jsonl")
    assert [(r["turn"], r["status"]) for r in results] == [(1, "parse_error"), (2, "parse_error")]
    answers = {r.get("turn", 1): r["text"] for r in jsonl(tmp_path / "out" / "completions.jsonl")}
    asked = jsonl(requests)
    assert [r["turn"] for r in asked] == [1, 2]
    second = asked[1]["messages"]
    assert second[:-2] == asked[0]["messages"] and second[-2] == {"role": "assistant", "content": answers[1]}
    assert second[-1]["role"] == "user" and results[0]["message"] in second[-1]["content"]
    assert "could not be parsed into project files" in second[-1]["content"]
