"""The prompt: deterministic, laid out as in the paper's appendix D.4, pinned by snapshots.

Regenerate the snapshots after an intended change with ``python tests/generation/update_snapshots.py``;
a test run never writes them.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from npukernelbench.prompt import PromptOptions, build_messages, describe_case, prompt_hash, render_messages
from npukernelbench.spec import load_spec

SNAPSHOTS = Path(__file__).parent / "snapshots"


UPDATE = "python tests/generation/update_snapshots.py"


def check_snapshot(name: str, text: str) -> None:
    """Compare only: updating is a separate, deliberate command."""
    path = SNAPSHOTS / name
    assert path.is_file(), f"missing snapshot {path}; create it with {UPDATE}"
    assert text == path.read_text(encoding="utf-8"), f"prompt differs from {path} ({UPDATE} if intended)"


@pytest.mark.parametrize("project_level", [False, True], ids=["kernel", "project"])
def test_add_custom_snapshot(add_custom, project_level):
    messages = build_messages(add_custom, PromptOptions(project_level=project_level))
    check_snapshot(f"add_custom_{'project' if project_level else 'kernel'}.txt", render_messages(messages))


def test_snapshots_are_not_written_by_a_test_run(add_custom, monkeypatch):
    monkeypatch.setenv("NPUKB_UPDATE_SNAPSHOTS", "1")            # the old opt-in must have no effect
    before = {p.name: p.stat().st_mtime_ns for p in SNAPSHOTS.iterdir()}
    with pytest.raises(AssertionError, match="prompt differs"):
        check_snapshot("add_custom_kernel.txt", "not the prompt")
    assert {p.name: p.stat().st_mtime_ns for p in SNAPSHOTS.iterdir()} == before


def test_layout_and_order(add_custom):
    system, user = build_messages(add_custom)
    assert system["role"] == "system" and user["role"] == "user"
    assert system["content"].startswith("You are a professional Ascend kernel development engineer.")
    assert "AscendC" in system["content"] and "comments" in system["content"]
    assert "=== op_host/add_custom.cpp ===\n```cpp" in system["content"]
    assert "op_host/add_custom_tiling.h" in system["content"]
    text = user["content"]
    desc = text.index("## API description")
    host = text.index("=== op_host/add_custom.cpp ===")
    kernel = text.index("=== op_kernel/add_custom.cpp ===")
    assert desc < host < kernel
    assert add_custom.description.strip() in text
    for template in add_custom.templates.values():
        assert template.strip() in text
    assert "Ascend910B" not in text and "## Test cases" not in text


def test_project_level_adds_cases_and_hardware(add_custom):
    user = build_messages(add_custom, PromptOptions(project_level=True))[1]["content"]
    assert user.index("## Test cases") < user.index("## Hardware")
    assert "case 2: inputs x: float16 [3, 777], y: float16 [3, 777]; outputs z: float16" in user
    assert "40" in user and "20" in user and "196,608 bytes" in user and "Ascend910B" in user
    hardware = replace(PromptOptions().target_hardware(), soc="Ascend910B2", vector_cores=48, cube_cores=24)
    other = build_messages(add_custom, PromptOptions(project_level=True, hardware=hardware))
    assert "Ascend910B2" in other[1]["content"] and "(AIV): 48" in other[1]["content"]


def test_deterministic_and_hash_sensitive(add_custom):
    a = build_messages(add_custom)
    assert a == build_messages(add_custom)
    assert prompt_hash(a) == prompt_hash(build_messages(add_custom))
    assert prompt_hash(a) != prompt_hash(build_messages(add_custom, PromptOptions(project_level=True)))
    assert len(prompt_hash(a)) == 64


def test_case_description_with_attrs_and_optional_input(tmp_path):
    src = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom"
    case = tmp_path / "scale_custom"
    shutil.copytree(src, case)
    toml = (case / "case.toml").read_text()
    toml = toml.replace('[[outputs]]', '[[inputs]]\nname = "bias"\ndtype = "T"\noptional = true\n\n[[outputs]]', 1)
    toml = toml.replace('[[cases]]', '[[attrs]]\nname = "alpha"\ntype = "float"\ndefault = 1.5\n\n[[cases]]', 1)
    (case / "case.toml").write_text(toml)
    spec = load_spec(case, tmp_path)
    line = describe_case(spec, spec.cases[0])
    assert line == ("case 0: inputs x: float16 [2048], y: float16 [2048], bias: absent; outputs z: float16; "
                    "attrs alpha=1.5")
