"""``--npukb-mode kernel-only|full`` on one of our ``case.toml`` cases (benchmark_cases/level1/math/add_custom)
end to end on ascendc-sim: each static case is a row ``<task>#<index>`` checked on that case only; our own
kernel-only answer for case 0 passes with the question host generated from case.toml; one sized for case 2
or returning early fails; a full-mode answer with our own three files passes, one missing a file is a parse
error naming it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from npukernelbench.upstream_prompt import EXAMPLE_FULL_KERNEL, EXAMPLE_HOST, EXAMPLE_TILING_H, full_answer

REPO = Path(__file__).resolve().parents[2]
CASE = REPO / "benchmark_cases" / "level1" / "math" / "add_custom"
ANSWERS = Path(__file__).resolve().parents[1] / "data" / "case_toml_modes" / "answers"
TASK_ID = "level1/math/add_custom"
pytest_plugins = ["pytester"]


def kernel_only(name: str) -> str:
    return (f"<think>plan the split</think>Blocks over the cores.\n<kernel_impl>\n```cpp\n"
            f"{(ANSWERS / name).read_text()}```\n</kernel_impl>\n")


def _run(pytester: pytest.Pytester, sim, records: list[dict], *args: str):
    shutil.copytree(CASE, pytester.path / "tasks" / "level1" / "math" / "add_custom")
    (pytester.path / "replay.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    pytester._monkeypatch.setenv("NPUKB_CACHE_DIR", os.environ.get("NPUKB_CACHE_DIR", str(sim.cache.root)))
    res = pytester.runpytest_subprocess("tasks", "--model=replay:replay.jsonl", "--shapes", "static",
                                        "--npukb-out=out", *args)
    results = {(r["task"], r["sample"]): r for r in map(json.loads, (pytester.path / "out" / "results.jsonl")
                                                        .read_text().splitlines())}
    return res, results


def test_kernel_only_answers_for_a_case_toml_case(pytester: pytest.Pytester, sim) -> None:
    records = [
        {"task": TASK_ID, "sample": 0, "case_id": 0, "completion": kernel_only("add_custom_row0.cpp")},
        {"task": TASK_ID, "sample": 1, "case_id": 0, "completion": kernel_only("add_custom_row2_sizes.cpp")},
        {"task": TASK_ID, "sample": 2, "case_id": 0, "completion": kernel_only("add_custom_row0_early_return.cpp")},
        {"task": TASK_ID, "sample": 3, "case_id": 0, "completion": "```cpp\nvoid add_custom() {}\n```"},
    ]
    res, results = _run(pytester, sim, records, "--npukb-mode", "kernel-only", "--samples", "4")
    status = {key: r["status"] for key, r in results.items()}
    assert status == {(f"{TASK_ID}#0", 0): "passed", (f"{TASK_ID}#0", 1): "runtime_error",
                      (f"{TASK_ID}#0", 2): "wrong", (f"{TASK_ID}#0", 3): "parse_error"}, res.stdout.str()
    assert "no <kernel_impl> block" in results[(f"{TASK_ID}#0", 3)]["message"]
    sized = results[(f"{TASK_ID}#0", 1)]["message"]
    assert "runs past its end" in sized and "x=[2048] y=[2048] T=float16" in sized      # checked on case 0 only
    assert "outside rtol" in results[(f"{TASK_ID}#0", 2)]["message"]


def test_full_mode_answers_for_a_case_toml_case(pytester: pytest.Pytester, sim) -> None:
    files = {"op_host/add_custom_tiling.h": EXAMPLE_TILING_H, "op_host/add_custom.cpp": EXAMPLE_HOST,
             "op_kernel/add_custom.cpp": EXAMPLE_FULL_KERNEL}
    missing = full_answer({p: t for p, t in files.items() if not p.endswith("_tiling.h")})
    records = [{"task": TASK_ID, "sample": 0, "case_id": 0, "completion": "The host sizes it.\n" + full_answer(files)},
               {"task": TASK_ID, "sample": 1, "case_id": 0, "completion": missing}]
    res, results = _run(pytester, sim, records, "--npukb-mode", "full", "--samples", "2")
    assert results[(f"{TASK_ID}#0", 0)]["status"] == "passed", res.stdout.str()
    assert results[(f"{TASK_ID}#0", 1)]["status"] == "parse_error"
    assert "lacks op_host/add_custom_tiling.h" in results[(f"{TASK_ID}#0", 1)]["message"]
