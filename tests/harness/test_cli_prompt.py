"""``npukb prompt CASE``: exactly the messages generation sends for that case (plain or JSON, project-level
with the toolchain's hardware), and one-line errors (exit 2) for a path that is not one case folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from harness_paths import DATA, HERE

from npukernelbench.cases import load_case
from npukernelbench.options import RunOptions
from npukernelbench.prompt import build_messages, render_messages

TOOL = "gxx_toolchain:GxxToolchain"
CASES = DATA / "gxx_cases"
CASE = CASES / "level1" / "math" / "vadd"


def npukb(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "npukernelbench.cli", "prompt", *args], env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_printed_messages_are_the_generation_prompt(python_env) -> None:
    env = {**python_env, "PYTHONPATH": f"{python_env['PYTHONPATH']}:{HERE}"}
    spec = load_case(CASE)
    plain = npukb(str(CASE), env=env)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout == render_messages(build_messages(spec, RunOptions().prompt_options()))
    project = npukb(str(CASE), "--project-level", "--toolchain", TOOL, "--json", env=env)
    assert project.returncode == 0, project.stderr
    expected = build_messages(spec, RunOptions(project_level=True, toolchain=TOOL).prompt_options())
    assert json.loads(project.stdout) == [dict(m) for m in expected]
    assert "## Hardware" in expected[1]["content"] and "## Hardware" not in plain.stdout


def test_a_path_that_is_not_one_case_is_a_one_line_error(python_env, tmp_path: Path) -> None:
    for path, reason in ((CASES, "cases; give one case folder"), (tmp_path, "is not a case folder"),
                         (tmp_path / "nope", "no such path")):
        proc = npukb(str(path), env=python_env)
        assert proc.returncode == 2 and proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1 and reason in proc.stderr, proc.stderr
