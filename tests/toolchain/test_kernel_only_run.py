"""``pytest TASKS --npukb-mode kernel-only --model=replay:FILE --shapes static`` end to end on ascendc-sim, on
our own AddCustom task (tests/data/kernel_only, three CSV rows) and our own kernel-only answers
(tests/data/kernel_only/answers): a correct kernel for its row passes; one that returns early or is sized
for another row fails; a bad answer is a parse error with its reason; a record naming an unknown case_id
stops the run with a one-line usage error; the same task in project mode is unchanged."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from npukernelbench.cli import main
from npukernelbench.toolchains.ascendc_sim.kernel_prelude import entry_arity
from npukernelbench.toolchains.base import KernelProject, ParamSlot
from npukernelbench.upstream_prompt import EXAMPLE_FULL_KERNEL, EXAMPLE_HOST, EXAMPLE_TILING_H, full_answer

TREE = Path(__file__).resolve().parents[1] / "data" / "kernel_only"
ANSWERS = TREE / "answers"
TASK_ID = "level1/Math/AddCustom"
pytest_plugins = ["pytester"]


def kernel_only(name: str, thinking: bool = True) -> str:
    think = "<think>Draft: <kernel_impl>int draft;</kernel_impl></think>\n" if thinking else ""
    return f"{think}Reasoning: blocks split over the cores.\n<kernel_impl>\n```cpp\n{(ANSWERS / name).read_text()}" \
           "```\n</kernel_impl>\n"


def _run(pytester: pytest.Pytester, sim, records: list[dict], *args: str):
    shutil.copytree(TREE / "level1", pytester.path / "tasks" / "level1")
    (pytester.path / "replay.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    pytester._monkeypatch.setenv("NPUKB_CACHE_DIR", os.environ.get("NPUKB_CACHE_DIR", str(sim.cache.root)))
    return pytester.runpytest_subprocess("tasks", "--model=replay:replay.jsonl", "--shapes", "static",
                                         "--npukb-out=out", *args)


def test_kernel_only_answers_pass_on_their_row_and_fail_elsewhere(pytester: pytest.Pytester, sim) -> None:
    two_blocks = "<kernel_impl>```cpp\nint a;\n```</kernel_impl>\n<kernel_impl>```cpp\nint b;\n```</kernel_impl>"
    records = [
        {"task": TASK_ID, "sample": 0, "case_id": 0, "completion": kernel_only("case0.cpp")},
        {"task": TASK_ID, "sample": 0, "case_id": "1", "completion": kernel_only("case1.cpp", thinking=False)},
        {"task": TASK_ID, "sample": 0, "case_id": 2, "completion": kernel_only("case1.cpp")},     # sized for row 1
        {"task": TASK_ID, "sample": 1, "case_id": 0, "completion": kernel_only("case0_early_return.cpp")},
        {"task": TASK_ID, "sample": 1, "case_id": 1, "completion": "```cpp\nvoid add_custom() {}\n```"},
        {"task": TASK_ID, "sample": 1, "case_id": 2, "completion": two_blocks},
    ]
    res = _run(pytester, sim, records, "--npukb-mode", "kernel-only")
    res.assert_outcomes(passed=2, failed=4)
    results = {(r["task"], r["sample"]): r for r in map(json.loads, (pytester.path / "out" / "results.jsonl")
                                                        .read_text().splitlines())}
    status = {key: r["status"] for key, r in results.items()}
    assert status == {(f"{TASK_ID}#0", 0): "passed", (f"{TASK_ID}#1", 0): "passed",
                      (f"{TASK_ID}#2", 0): "runtime_error", (f"{TASK_ID}#0", 1): "wrong",
                      (f"{TASK_ID}#1", 1): "parse_error", (f"{TASK_ID}#2", 1): "parse_error"}
    assert "no <kernel_impl> block" in results[(f"{TASK_ID}#1", 1)]["message"]
    assert "2 <kernel_impl> blocks" in results[(f"{TASK_ID}#2", 1)]["message"]
    assert "runs past its end" in results[(f"{TASK_ID}#2", 0)]["message"]
    assert "case_id=2" in results[(f"{TASK_ID}#2", 0)]["message"]                 # checked on its own row only
    stored = [json.loads(line) for line in (pytester.path / "out" / "completions.jsonl").read_text().splitlines()]
    assert any("<think>Draft" in (c["text"] or "") for c in stored)                 # the thinking is kept


def test_upstream_score_counts_each_row_and_compare_shows_it(pytester: pytest.Pytester, sim, capsys) -> None:
    """Upstream's score of a kernel-only run: every row result is one item of its task (2 of 3 rows pass:
    66.67 for the task, 0.2 x 66.67 overall, of 20 possible with level 1 alone), in summary.json,
    report.md, the terminal and ``npukb compare``; the run's SoC is recorded."""
    records = [{"task": TASK_ID, "sample": 0, "case_id": 0, "completion": kernel_only("case0.cpp")},
               {"task": TASK_ID, "sample": 0, "case_id": 1, "completion": kernel_only("case1.cpp")},
               {"task": TASK_ID, "sample": 0, "case_id": 2, "completion": kernel_only("case1.cpp")}]
    res = _run(pytester, sim, records, "--npukb-mode", "kernel-only")
    res.assert_outcomes(passed=2, failed=1)
    out = pytester.path / "out"
    summary = json.loads((out / "summary.json").read_text())
    block = summary["upstream_score"]
    assert block["tasks"] == {TASK_ID: {"level": "level1", "samples": 3, "cases_passed": 2, "cases": 3,
                                        "score": pytest.approx(100 * 2 / 3, abs=1e-4)}}
    assert block["overall"] == pytest.approx(0.2 * 100 * 2 / 3, abs=1e-3) and block["max_possible"] == 20
    assert summary["socs"] == ["Ascend910_9392"]
    assert json.loads((out / "run.json").read_text())["socs"] == ["Ascend910_9392"]
    res.stdout.fnmatch_lines(["*upstream score (levels weighted 0.2/0.3/0.5): 13.3 of 20 possible; "
                              "level1 66.7 (2/3 cases, weight 0.2)*", "*SoC profile(s): Ascend910_9392*"])
    report = (out / "report.md").read_text()
    assert f"| {TASK_ID} | level1 | 3 | 2 | 3 | 66.67 |" in report and "- SoC profile(s): Ascend910_9392" in report
    capsys.readouterr()
    assert main(["compare", str(out), str(out), "--names", "a,b"]) == 0
    assert "upstream NPUKernelBench score (case pass rate, levels weighted 0.2/0.3/0.5): a 13.3 of 20, " \
           "b 13.3 of 20 (+0.0)" in capsys.readouterr().out


def test_an_unknown_case_id_stops_the_run_with_a_one_line_reason(pytester: pytest.Pytester, sim) -> None:
    records = [{"task": TASK_ID, "sample": 0, "case_id": 0, "completion": kernel_only("case0.cpp")},
               {"task": TASK_ID, "sample": 0, "case_id": 5, "completion": kernel_only("case0.cpp")}]
    res = _run(pytester, sim, records, "--npukb-mode", "kernel-only")
    assert res.ret == pytest.ExitCode.USAGE_ERROR
    lines = [ln for ln in res.stderr.lines if "case_id" in ln]
    assert len(lines) == 1 and "has no case_id '5' (its case_ids: 0, 1, 2)" in lines[0], res.stderr.str()


def test_a_full_mode_answer_builds_its_own_host(pytester: pytest.Pytester, sim) -> None:
    files = {"op_host/add_custom_tiling.h": EXAMPLE_TILING_H, "op_host/add_custom.cpp": EXAMPLE_HOST,
             "op_kernel/add_custom.cpp": EXAMPLE_FULL_KERNEL}
    answer = "<think>plan</think>The host computes the length; tiles of 2048.\n" + full_answer(files)
    missing = full_answer({p: t for p, t in files.items() if not p.endswith("_tiling.h")})
    records = [{"task": TASK_ID, "sample": 0, "case_id": 1, "completion": answer},
               {"task": TASK_ID, "sample": 0, "case_id": 2, "completion": missing}]
    res = _run(pytester, sim, records, "--npukb-mode", "full")
    res.assert_outcomes(passed=1, failed=1, skipped=1)                  # row 0 has no record
    res.stdout.fnmatch_lines(["*AddCustom#2 sample 0: parse_error: full-mode answer lacks "
                              "op_host/add_custom_tiling.h*"])


def test_project_mode_still_runs_the_whole_task(pytester: pytest.Pytester, sim) -> None:
    res = _run(pytester, sim, [], "--npukb-mode", "project")      # the replay file is not read by the reference
    assert res.ret == pytest.ExitCode.USAGE_ERROR                 # a replay without the task: as before
    res = pytester.runpytest_subprocess("tasks", "--model=reference", "--shapes", "static", "--npukb-out=out2")
    res.assert_outcomes(passed=1)


def test_the_entry_may_end_at_workspace() -> None:
    params = (ParamSlot("x", "input", "REQUIRED", "float16"), ParamSlot("z", "output", "REQUIRED", "float16"))

    def arity(signature: str) -> int:
        files = {"op_kernel/k.cpp": f'extern "C" __global__ __aicore__ void k({signature})\n{{\n}}\n'}
        return entry_arity(KernelProject(op="K", kernel="k", files=files, params=params))

    assert arity("GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling") == 4
    assert arity("GM_ADDR x, GM_ADDR z, GM_ADDR workspace") == 3
    assert arity("GM_ADDR x, GM_ADDR z, GM_ADDR ws") == 4            # not a workspace: the build reports it
    assert arity("GM_ADDR x, GM_ADDR z") == 4
