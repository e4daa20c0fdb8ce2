"""The upstream generation modes (``--npukb-mode kernel-only|full``) without the simulator: one task per
CSV row, the prompts (pinned by snapshots), the answer formats and every bad input with its one-line
reason, replay records keyed by case_id, upstream's sampling defaults, and ``npukb prompt --npukb-mode``."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from harness_paths import DATA

from npukernelbench.cases import load_case
from npukernelbench.evaluate import evaluate, files_of
from npukernelbench.extract import ParseError
from npukernelbench.generators.base import Completion
from npukernelbench.generators.replay import ReplayError, ReplayGenerator, check_replay_selection
from npukernelbench.hardware import Hardware
from npukernelbench.modes import FULL, KERNEL_ONLY, PROJECT, ModeError, expand, mode_of, row_of, task_of
from npukernelbench.options import RunOptions, add_argparse_options
from npukernelbench.prompt import PromptOptions, build_messages, render_messages
from npukernelbench.result import Status
from npukernelbench.upstream_extract import full_files_of, kernel_of, strip_thinking
from npukernelbench.upstream_prompt import EXAMPLE_HOST, EXAMPLE_TILING_H, full_answer, with_dtype

TREE = DATA / "kernel_only"
TASK = TREE / "level1" / "Math" / "AddCustom"
ANSWERS = TREE / "answers"
SNAPSHOTS = TREE / "snapshots"
TASK_ID = "level1/Math/AddCustom"
# A fixed device, so that the snapshots pin the prompt's structure whatever the toolchain reports.
HW = Hardware(soc="Ascend910_9392", vector_cores=48, cube_cores=24, ub_bytes=196608, l1_bytes=524288,
              l0a_bytes=65536, l0b_bytes=65536, l0c_bytes=131072)


@pytest.fixture(scope="module")
def spec():
    return load_case(TASK)


def row(spec, mode: str, case_id: str):
    return expand(spec, mode, case_id)[0]


def kernel_answer(name: str, reasoning: str = "I split the 32-byte blocks over the cores.\n") -> str:
    return f"{reasoning}<kernel_impl>\n```cpp\n{(ANSWERS / name).read_text()}```\n</kernel_impl>\n"


# -- one task per row ------------------------------------------------------------------------------------
def test_each_csv_row_is_its_own_task_checked_on_that_row_only(spec) -> None:
    assert expand(spec, PROJECT) == [spec] and mode_of(spec) == PROJECT
    rows = expand(spec, KERNEL_ONLY)
    assert [r.case_id for r in rows] == [f"{TASK_ID}#0", f"{TASK_ID}#1", f"{TASK_ID}#2"]
    for r, case in zip(rows, spec.cases, strict=True):
        assert r.cases == (case,) and not r.dynamic.enabled and mode_of(r) == KERNEL_ONLY
        assert task_of(r) == TASK_ID and row_of(r) == str(case.row["case_id"])
    assert [r.case_id for r in expand(spec, FULL, "1")] == [f"{TASK_ID}#1"]


def test_an_unknown_case_id_or_mode_is_a_one_line_error(spec) -> None:
    with pytest.raises(ModeError, match=r"has no case_id '7' \(its case_ids: 0, 1, 2\)"):
        expand(spec, KERNEL_ONLY, "7")
    with pytest.raises(ModeError, match="unknown generation mode 'kernel'"):
        expand(spec, "kernel")


def test_a_task_without_static_rows_cannot_be_asked_in_an_upstream_mode() -> None:
    case = load_case(DATA / "mkb" / "reference" / "elementwise" / "add.py")      # MultiKernelBench: no rows
    with pytest.raises(ModeError, match="need static cases with a case_id .* this mkb task has none"):
        expand(case, KERNEL_ONLY)
    assert expand(case, PROJECT) == [case]


# -- prompts -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", [KERNEL_ONLY, FULL])
def test_the_prompt_matches_its_snapshot(spec, mode: str) -> None:
    messages = build_messages(row(spec, mode, "1"), PromptOptions(hardware=HW))
    snapshot = SNAPSHOTS / f"{mode}.txt"
    if os.environ.get("NPUKB_UPDATE_SNAPSHOTS"):
        snapshot.write_text(render_messages(messages))
    assert render_messages(messages) == snapshot.read_text()


def test_the_kernel_only_prompt_carries_upstreams_inputs(spec) -> None:
    (message,) = build_messages(row(spec, KERNEL_ONLY, "1"), PromptOptions(hardware=HW))
    text = message["content"]
    assert message["role"] == "user"                                    # upstream sends no system prompt
    assert "## Supported Data Types\n- float16\n" in text              # the row's dtype, added to api_desc.md
    assert "case_id  1\nshape    [80, 2048]\ndtype    float16" in text and "[40, 1024]" not in text
    assert "SoC_version=Ascend910_9392" in text and "vector_core_cnt=48" in text and "ub_size=196608" in text
    assert "all 24 AIC cores or all 48 AIV cores" in text and "GET_TILING_DATA" in text
    template = text[text.index("[Output Template]"):]
    assert "<kernel_impl>" in template and "GM_ADDR workspace)\n" in template and "GM_ADDR tiling" not in template


def test_the_full_prompt_asks_for_three_files_after_separator_lines(spec) -> None:
    (message,) = build_messages(row(spec, FULL, "0"), PromptOptions(hardware=HW))
    template = message["content"][message["content"].index("[Output Template]"):]
    for path in ("op_host/add_custom_tiling.h", "op_host/add_custom.cpp", "op_kernel/add_custom.cpp"):
        assert f"================== {path} ==================\n```cpp\n" in template
    assert "GetCoreNumAiv" not in template                              # the host sets the block dim itself
    assert "<kernel_impl>" not in message["content"]


def test_the_dtype_goes_before_the_functional_description() -> None:
    desc = "# Op\n\n## Functional Description\nadds\n"
    with_type = "# Op\n\n## Supported Data Types\n- bfloat16\n\n## Functional Description\nadds\n"
    assert with_dtype(desc, "bfloat16") == with_type
    assert with_dtype("# Op\n", "float16") == "## Supported Data Types\n- float16\n\n# Op\n"
    assert with_dtype(desc, None) == desc


# -- answers -----------------------------------------------------------------------------------------------
def test_a_kernel_only_answer_builds_with_the_question_host(spec) -> None:
    r = row(spec, KERNEL_ONLY, "0")
    text = "<think>draft: <kernel_impl>int wrong;</kernel_impl></think>\n" + kernel_answer("case0.cpp")
    files = files_of(r, Completion(r.case_id, 0, text=text))
    assert files["op_kernel/add_custom.cpp"] == (ANSWERS / "case0.cpp").read_text()
    assert files["op_host/add_custom.cpp"] == spec.templates["op_host/add_custom.cpp"]
    assert set(files) == {"op_host/add_custom.cpp", "op_kernel/add_custom.cpp"}


def test_thinking_is_stripped_in_both_spellings() -> None:
    assert strip_thinking("<think>a</think>answer") == "answer"
    assert strip_thinking("thoughts the chat template opened</think>\nanswer") == "\nanswer"
    with pytest.raises(ParseError, match="ends inside a <think> section"):
        strip_thinking("<think>still thinking")
    assert kernel_of("<kernel_impl>\nvoid k() {}\n</kernel_impl>") == "void k() {}\n"      # bare code is accepted


@pytest.mark.parametrize(("text", "reason"), [
    ("```cpp\nvoid add_custom() {}\n```", "no <kernel_impl> block"),
    ("<kernel_impl>```cpp\nint a;\n```</kernel_impl>\n<kernel_impl>```cpp\nint b;\n```</kernel_impl>",
     "2 <kernel_impl> blocks; a kernel-only answer has exactly one"),
    ("<kernel_impl>\n```cpp\nint a;\n", "never closed"),
    ("<kernel_impl>\n```cpp\n```\n</kernel_impl>", "the <kernel_impl> block is empty"),
    ("<think>only thoughts <kernel_impl>int a;</kernel_impl></think>", "no <kernel_impl> block"),
    ("", "empty completion"),
])
def test_a_bad_kernel_only_answer_is_a_parse_error_with_a_one_line_reason(spec, text: str, reason: str) -> None:
    r = row(spec, KERNEL_ONLY, "0")
    result = evaluate(r, Completion(r.case_id, 0, text=text), toolchain=None)        # parsed before any build
    assert result.status is Status.PARSE_ERROR and reason in result.message
    assert len(result.message.splitlines()) == 1


def _full_files(spec) -> dict[str, str]:
    return {"op_host/add_custom_tiling.h": EXAMPLE_TILING_H, "op_host/add_custom.cpp": EXAMPLE_HOST,
            "op_kernel/add_custom.cpp": "// kernel\n"}


def test_a_full_answer_gives_its_three_files(spec) -> None:
    r = row(spec, FULL, "0")
    text = "<think>plan</think>Reasoning first.\n" + full_answer(_full_files(spec))
    assert full_files_of(text, r) == {p: t if t.endswith("\n") else t + "\n" for p, t in _full_files(spec).items()}


def test_a_full_answer_missing_a_file_is_a_one_line_parse_error(spec) -> None:
    r = row(spec, FULL, "0")
    files = _full_files(spec)
    del files["op_host/add_custom_tiling.h"]
    result = evaluate(r, Completion(r.case_id, 0, text=full_answer(files)), toolchain=None)
    assert result.status is Status.PARSE_ERROR and len(result.message.splitlines()) == 1
    assert "full-mode answer lacks op_host/add_custom_tiling.h" in result.message
    result = evaluate(r, Completion(r.case_id, 0, text=kernel_answer("case0.cpp")), toolchain=None)
    assert result.status is Status.PARSE_ERROR and "lacks op_host/add_custom_tiling.h, op_host/add_custom.cpp, " \
        "op_kernel/add_custom.cpp" in result.message


# -- replay records, sampling defaults -------------------------------------------------------------------------
def _replay(tmp_path: Path, *records: dict) -> Path:
    path = tmp_path / "replay.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_replay_records_name_their_row(spec, tmp_path: Path) -> None:
    path = _replay(tmp_path, {"task": TASK_ID, "sample": 0, "case_id": 1, "completion": "A"},
                   {"task": TASK_ID, "sample": 0, "case_id": "0", "completion": "B"})
    rows = expand(spec, KERNEL_ONLY)
    assert check_replay_selection(path, [r.case_id for r in rows], 1) is None
    from npukernelbench.generators.base import GenerationRequest, SamplingParams

    requests = [GenerationRequest(task=r, messages=(), sampling=SamplingParams()) for r in rows]
    got = [batch[0] for batch in ReplayGenerator(str(path)).generate(requests)]
    assert [c.text for c in got[:2]] == ["B", "A"] and "missing" in got[2].meta


def test_a_replay_record_with_an_unknown_case_id_is_a_one_line_error(spec, tmp_path: Path) -> None:
    path = _replay(tmp_path, {"task": TASK_ID, "sample": 0, "case_id": 0, "completion": "A"},
                   {"task": TASK_ID, "sample": 0, "case_id": 7, "completion": "B"})
    rows = expand(spec, KERNEL_ONLY)
    with pytest.raises(ReplayError, match=r"task level1/Math/AddCustom has no case_id '7' \(its case_ids: 0, 1, 2\)"):
        check_replay_selection(path, [r.case_id for r in rows], 1, {TASK_ID: ("0", "1", "2")})
    bad = _replay(tmp_path, {"task": TASK_ID, "case_id": [1], "completion": "A"})
    with pytest.raises(ReplayError, match="'case_id' must be the row's case_id"):
        check_replay_selection(bad, [r.case_id for r in rows], 1)


def _parsed(*argv: str) -> RunOptions:
    parser = argparse.ArgumentParser()
    add_argparse_options(parser)
    return RunOptions.from_namespace(parser.parse_args(list(argv)))


def test_upstream_modes_take_upstreams_sampling_defaults_unless_given() -> None:
    project = _parsed()
    assert (project.mode, project.temperature, project.max_tokens, project.samples) == (PROJECT, 0.8, 8192, 1)
    upstream = _parsed("--npukb-mode", KERNEL_ONLY)
    assert (upstream.temperature, upstream.max_tokens, upstream.samples) == (0.7, 16384, 1)
    given = _parsed("--npukb-mode", FULL, "--temperature", "0.2", "--max-tokens", "100")
    assert (given.temperature, given.max_tokens) == (0.2, 100)
    with pytest.raises(SystemExit):
        _parsed("--npukb-mode", "kernel")


# -- npukb prompt ------------------------------------------------------------------------------------------------
def _npukb_prompt(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "npukernelbench.cli", "prompt", *args], env=env, capture_output=True,
                          text=True, timeout=120)


def test_npukb_prompt_prints_exactly_the_messages_of_one_row(python_env, spec) -> None:
    proc = _npukb_prompt(str(TASK), "--npukb-mode", KERNEL_ONLY, "--case-id", "2", "--json", env=python_env)
    assert proc.returncode == 0, proc.stderr
    expected = build_messages(row(spec, KERNEL_ONLY, "2"), RunOptions(mode=KERNEL_ONLY).prompt_options())
    assert json.loads(proc.stdout) == [dict(m) for m in expected]
    first = _npukb_prompt(str(TASK), "--npukb-mode", FULL, env=python_env)           # default: the first row
    assert first.returncode == 0 and first.stdout == render_messages(
        build_messages(row(spec, FULL, "0"), RunOptions(mode=FULL).prompt_options()))
    for args, reason in ((("--npukb-mode", KERNEL_ONLY, "--case-id", "9"), "has no case_id '9'"),
                         (("--case-id", "1"), "--case-id needs --npukb-mode kernel-only or full")):
        bad = _npukb_prompt(str(TASK), *args, env=python_env)
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and reason in bad.stderr, bad.stderr
