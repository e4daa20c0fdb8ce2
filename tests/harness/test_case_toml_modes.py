"""The upstream generation modes (``--npukb-mode kernel-only|full``) on our ``case.toml`` cases, without the
simulator: each static case is one row (case_id = its index) checked on that case only; the row table is
built from the case's shapes, dtypes and attributes; the question host is generated from case.toml and
launches on all AIV cores (all AIC for a task whose solution uses the cube unit, or as ``cores`` says);
the kernel-only prompt of add_custom's case 0 is pinned by a snapshot; bad answers and an unknown case_id
are one-line errors; project mode is unchanged."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harness_paths import DATA

from npukernelbench.cases import load_case
from npukernelbench.evaluate import evaluate, files_of
from npukernelbench.generators.base import Completion
from npukernelbench.hardware import Hardware
from npukernelbench.layouts import layout_of
from npukernelbench.layouts.case_toml.layout import launch_cores
from npukernelbench.modes import FULL, KERNEL_ONLY, PROJECT, ModeError, expand, mode_of, row_data, row_of, task_of
from npukernelbench.prompt import PromptOptions, build_messages, render_messages
from npukernelbench.result import Status
from npukernelbench.spec import SpecError
from npukernelbench.upstream_prompt import EXAMPLE_HOST, EXAMPLE_TILING_H, full_answer

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "benchmark_cases"
ADD = CASES / "level1" / "math" / "add_custom"
ANSWERS = DATA / "case_toml_modes" / "answers"
SNAPSHOTS = DATA / "case_toml_modes" / "snapshots"
TASK_ID = "level1/math/add_custom"
HW = Hardware(soc="Ascend910_9392", vector_cores=48, cube_cores=24, ub_bytes=196608, l1_bytes=524288,
              l0a_bytes=65536, l0b_bytes=65536, l0c_bytes=131072)
AIV_LINE = "context->SetBlockDim(platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAiv());"


@pytest.fixture(scope="module")
def spec():
    return load_case(ADD)


def kernel_answer(name: str) -> str:
    return f"Blocks split over the cores.\n<kernel_impl>\n```cpp\n{(ANSWERS / name).read_text()}```\n</kernel_impl>\n"


# -- rows --------------------------------------------------------------------------------------------------
def test_each_static_case_is_one_row_checked_on_that_case_only(spec) -> None:
    rows = expand(spec, KERNEL_ONLY)
    assert [r.case_id for r in rows] == [f"{TASK_ID}#{i}" for i in range(len(spec.cases))]
    for r, case in zip(rows, spec.cases, strict=True):
        assert r.cases == (case,) and not r.dynamic.enabled and mode_of(r) == KERNEL_ONLY
        assert task_of(r) == TASK_ID and row_of(r) == str(case.index)
    assert [r.case_id for r in expand(spec, FULL, "2")] == [f"{TASK_ID}#2"]
    with pytest.raises(ModeError, match=r"has no case_id '9' \(its case_ids: 0, 1, 2, 3\)"):
        expand(spec, KERNEL_ONLY, "9")


def test_the_row_is_built_from_the_cases_shapes_dtypes_and_attrs(spec) -> None:
    assert [row_data(r) for r in expand(spec, KERNEL_ONLY)] == [
        {"case_id": 0, "shape": "[2048]", "dtype": "float16"},
        {"case_id": 1, "shape": "[48, 1000]", "dtype": "float32"},
        {"case_id": 2, "shape": "[3, 777]", "dtype": "float16"},
        {"case_id": 3, "shape": "[64, 32768]", "dtype": "bfloat16"}]
    gather = load_case(CASES / "level1" / "index" / "gather_v3")      # inputs of other shapes and dtypes, an attr
    case = gather.cases[0]
    row = row_data(expand(gather, KERNEL_ONLY, "0")[0])
    assert row == {"case_id": 0, "x_shape": str(list(case.shapes["x"])).replace("'", ""),
                   "index_shape": str(list(case.shapes["index"])),
                   "x_dtype": case.dtype_of(gather.inputs[0]), "index_dtype": case.dtype_of(gather.inputs[1]),
                   "y_dtype": case.dtype_of(gather.outputs[0]), "dim": str(case.attrs["dim"])}
    assert layout_of(spec).mode_row(spec, spec.cases[0]) == {"case_id": 0, "shape": "[2048]", "dtype": "float16"}


# -- question templates and cores --------------------------------------------------------------------------
def test_the_question_host_launches_on_all_vector_cores_and_project_mode_is_unchanged(spec) -> None:
    r = expand(spec, KERNEL_ONLY, "0")[0]
    host = r.templates["op_host/add_custom.cpp"]
    assert AIV_LINE in host and '#include "tiling/platform/platform_ascendc.h"' in host and "TODO" not in host
    assert "GM_ADDR workspace, GM_ADDR tiling" in r.templates["op_kernel/add_custom.cpp"]
    assert expand(spec, PROJECT) == [spec] and "SetBlockDim" not in spec.templates["op_host/add_custom.cpp"]
    project_prompt = render_messages(build_messages(spec, PromptOptions(hardware=HW)))
    assert "<kernel_impl>" not in project_prompt and "TODO: compute the tiling" in project_prompt


def test_a_cube_task_launches_on_all_cube_cores_unless_case_toml_says(tmp_path: Path) -> None:
    gemm = load_case(CASES / "level3" / "gmm" / "gemm")                 # its solution uses the cube unit
    assert launch_cores(gemm) == "aic"
    assert "GetCoreNumAic()" in expand(gemm, FULL, "0")[0].templates["op_host/gemm.cpp"]
    folder = tmp_path / "add_custom"
    shutil.copytree(ADD, folder)
    toml = folder / "case.toml"
    toml.write_text('cores = "aic"\n' + toml.read_text())
    assert launch_cores(load_case(folder)) == "aic"
    assert "GetCoreNumAic()" in expand(load_case(folder), KERNEL_ONLY, "0")[0].templates["op_host/add_custom.cpp"]
    toml.write_text(toml.read_text().replace('cores = "aic"', 'cores = "cube"'))
    with pytest.raises(SpecError, match="cores.*use 'aiv' .* or 'aic'"):
        load_case(folder)


# -- the prompt ---------------------------------------------------------------------------------------------
def test_the_kernel_only_prompt_of_case_0_matches_its_snapshot(spec) -> None:
    messages = build_messages(expand(spec, KERNEL_ONLY, "0")[0], PromptOptions(hardware=HW))
    snapshot = SNAPSHOTS / "add_custom-kernel-only-0.txt"
    if os.environ.get("NPUKB_UPDATE_SNAPSHOTS"):
        snapshot.write_text(render_messages(messages))
    assert render_messages(messages) == snapshot.read_text()
    text = messages[0]["content"]
    assert "case_id  0\nshape    [2048]\ndtype    float16" in text and "[48, 1000]" not in text
    assert "## Supported Data Types\n- float16\n" in text
    template = text[text.index("[Output Template]"):]
    assert "void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace)\n" in template


def test_the_full_prompt_asks_for_three_files_and_leaves_the_block_dim_to_the_host(spec) -> None:
    (message,) = build_messages(expand(spec, FULL, "1")[0], PromptOptions(hardware=HW))
    template = message["content"][message["content"].index("[Output Template]"):]
    for path in ("op_host/add_custom_tiling.h", "op_host/add_custom.cpp", "op_kernel/add_custom.cpp"):
        assert f"================== {path} ==================\n```cpp\n" in template
    assert "GetCoreNumAiv" not in template and "REGISTER_TILING_DATA_CLASS(AddCustom, TilingData)" in template
    assert "case_id  1\nshape    [48, 1000]\ndtype    float32" in message["content"]


# -- answers --------------------------------------------------------------------------------------------------
def test_a_kernel_only_answer_builds_with_the_generated_question_host(spec) -> None:
    r = expand(spec, KERNEL_ONLY, "0")[0]
    files = files_of(r, Completion(r.case_id, 0, text="<think>x</think>" + kernel_answer("add_custom_row0.cpp")))
    assert files == {"op_host/add_custom.cpp": r.templates["op_host/add_custom.cpp"],
                     "op_kernel/add_custom.cpp": (ANSWERS / "add_custom_row0.cpp").read_text()}


@pytest.mark.parametrize(("mode", "text", "reason"), [
    (KERNEL_ONLY, "```cpp\nvoid add_custom() {}\n```", "no <kernel_impl> block"),
    (KERNEL_ONLY, "<kernel_impl>int a;</kernel_impl>\n<kernel_impl>int b;</kernel_impl>", "2 <kernel_impl> blocks"),
    (KERNEL_ONLY, "<kernel_impl>\n```cpp\nint a;\n", "never closed"),
    (FULL, full_answer({"op_host/add_custom_tiling.h": EXAMPLE_TILING_H, "op_host/add_custom.cpp": EXAMPLE_HOST}),
     "full-mode answer lacks op_kernel/add_custom.cpp"),
])
def test_a_bad_answer_is_a_one_line_parse_error(spec, mode: str, text: str, reason: str) -> None:
    r = expand(spec, mode, "0")[0]
    result = evaluate(r, Completion(r.case_id, 0, text=text), toolchain=None)
    assert result.status is Status.PARSE_ERROR and reason in result.message
    assert len(result.message.splitlines()) == 1


def test_npukb_prompt_prints_the_messages_of_one_static_case(python_env, spec) -> None:
    proc = subprocess.run([sys.executable, "-m", "npukernelbench.cli", "prompt", str(ADD), "--npukb-mode", KERNEL_ONLY,
                           "--case-id", "3"], env=python_env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "case_id  3\nshape    [64, 32768]\ndtype    bfloat16" in proc.stdout and "<kernel_impl>" in proc.stdout
    bad = subprocess.run([sys.executable, "-m", "npukernelbench.cli", "prompt", str(ADD), "--npukb-mode", FULL,
                          "--case-id", "4"], env=python_env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "has no case_id '4'" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
