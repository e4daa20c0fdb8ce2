"""Which samples a run evaluates, generates for and reports, on the g++ test toolchain
(tests/harness/gxx_toolchain.py): ``--lf``, explicit node ids, ``-n 2``; the run directory and the
summary only when sample items ran; null for unselected levels; samples missing from a replay file."""

import json
import os
import shutil

import pytest
from harness_paths import DATA, HERE

pytest_plugins = ["pytester"]
TOOL = "--toolchain=gxx_toolchain:GxxToolchain"
VADD, VSCALE = "level1/math/vadd", "level2/norm/vscale"


@pytest.fixture
def tree(pytester, monkeypatch):
    shutil.copytree(DATA / "gxx_cases", pytester.path / "cases")
    src = HERE.parents[1] / "src"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(src), str(HERE)]))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester


def _solution(case: str) -> dict[str, str]:
    folder = DATA / "gxx_cases" / case / "solution"
    return {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()}


def _replay(tree, rows: list[dict]):
    path = tree.path / "replay.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _wrong_vadd() -> dict[str, str]:
    files = _solution(VADD)
    kernel = "op_kernel/vadd.cpp"
    files[kernel] = files[kernel].replace("x[i] + y[i]", "x[i] - y[i]")
    return files


def _lines(tree, name: str) -> list[dict]:
    path = tree.path / "out" / name
    return [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []


def _tasks(tree, name: str) -> set[str]:
    return {row["task"] for row in _lines(tree, name)}


def _base(replay) -> list[str]:
    return ["-p", "npukernelbench.plugin", "cases", TOOL, f"--model=replay:{replay}", "--npukb-out=out",
            "--shapes=static"]


@pytest.mark.parametrize("workers", [[], ["-p", "xdist.plugin", "-n", "2"]], ids=["serial", "xdist"])
def test_lf_and_node_ids_evaluate_and_generate_only_the_selected(tree, workers) -> None:
    replay = _replay(tree, [{"task": VADD, "sample": 0, "files": _wrong_vadd()},
                            {"task": VSCALE, "sample": 0, "files": _solution(VSCALE)}])
    first = tree.runpytest_subprocess(*_base(replay), *workers)
    first.assert_outcomes(passed=1, failed=1)
    assert _tasks(tree, "completions.jsonl") == _tasks(tree, "results.jsonl") == {VADD, VSCALE}
    again = tree.runpytest_subprocess(*_base(replay), "--lf", *workers)
    again.assert_outcomes(failed=1, deselected=0 if workers else 1)     # xdist deselects in the workers
    assert _tasks(tree, "completions.jsonl") == _tasks(tree, "results.jsonl") == {VADD}
    # a case folder as the node id (pytest does not take "DIR::item" for directory collectors)
    node = tree.runpytest_subprocess(*_base(replay)[:2], f"cases/{VSCALE}", *_base(replay)[3:], *workers)
    node.assert_outcomes(passed=1)
    assert _tasks(tree, "completions.jsonl") == _tasks(tree, "results.jsonl") == {VSCALE}
    summary = json.loads((tree.path / "out" / "summary.json").read_text())
    assert summary["levels"]["level1"] is None and summary["levels"]["level3"] is None      # item 8
    assert summary["levels"]["level2"]["er"] == {"pass@1": 1.0}
    deselect = tree.runpytest_subprocess(*_base(replay), *workers, "--deselect", f"cases/{VSCALE}::{VSCALE}[s0]")
    deselect.assert_outcomes(failed=1, deselected=0 if workers else 1)
    assert _tasks(tree, "completions.jsonl") == _tasks(tree, "results.jsonl") == {VADD}


def test_no_run_directory_or_summary_without_sample_items(tree) -> None:
    tree.makepyfile(test_plain="def test_plain():\n    assert True\n")
    plain = tree.runpytest_subprocess("-p", "npukernelbench.plugin", "test_plain.py", TOOL, "--npukb-out=out")
    plain.assert_outcomes(passed=1)
    collect = tree.runpytest_subprocess("-p", "npukernelbench.plugin", "cases", TOOL, "--npukb-out=out", "--co")
    assert collect.ret == 0
    for res in (plain, collect):
        assert "NPUKernelBench" not in res.stdout.str() and "npukernelbench:" not in res.stdout.str()
    assert not (tree.path / "out").exists()
    # a resumed run whose samples all finished already: every item skipped, no new summary
    args = ["-p", "npukernelbench.plugin", "cases", TOOL, "--npukb-out=out", "--shapes=static"]
    tree.runpytest_subprocess(*args).assert_outcomes(passed=2)
    summary = tree.path / "out" / "summary.json"
    stamp = summary.stat().st_mtime_ns
    resumed = tree.runpytest_subprocess(*args, "--npukb-resume")
    resumed.assert_outcomes(skipped=2)
    assert "NPUKernelBench" not in resumed.stdout.str() and summary.stat().st_mtime_ns == stamp


def test_samples_missing_from_the_replay_file_are_left_out(tree) -> None:
    replay = _replay(tree, [{"task": VADD, "sample": 0, "files": _solution(VADD)}])
    res = tree.runpytest_subprocess(*_base(replay), "-rs")
    res.assert_outcomes(passed=1, skipped=1)
    res.stdout.fnmatch_lines(["*warning: 1 sample(s) have no completion (missing from the replay file*",
                              "*no completion (missing from the replay file*not counted anywhere): 1 sample(s)*",
                              f"*{VSCALE} sample 0: missing from the replay file*"])
    assert "parse_error" not in res.stdout.str()
    summary = json.loads((tree.path / "out" / "summary.json").read_text())
    assert summary["missing_completions"] == [{"task": VSCALE, "sample": 0}]
    assert summary["levels"]["level2"] is None and summary["statuses"]["parse_error"] == 0
    assert _tasks(tree, "completions.jsonl") == {VADD}            # nothing invented for the missing one
    strict = tree.runpytest_subprocess(*_base(replay), "--strict")
    assert strict.ret == 4
    strict.stderr.fnmatch_lines([f"ERROR: *1 selected sample(s) have no completion*{VSCALE}[[]s0[]]*"])
