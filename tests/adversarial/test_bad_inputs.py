"""Bad input everywhere else (issue 6): each gives one clear message naming the thing and what to do,
never a traceback, and no finished result is lost. Real ``pytest`` subprocesses on a copy of the
add_custom case (static shapes only)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from plugin_runs import clean_error as _clean_error
from plugin_runs import copy_add_custom, plugin_argv, plugin_env, pytest_run


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    return copy_add_custom(tmp_path / "cases")


# -- case specs ----------------------------------------------------------------------------------
@pytest.mark.parametrize("edit, needles", [
    (lambda t: t.replace("level = 1", 'level = "one"'), ["case.toml", "'level'", "expected an integer"]),
    (lambda t: t.replace('op = "AddCustom"\n', ""), ["case.toml", "'op'", "missing"]),
    (lambda t: t + "\n[oops\n", ["case.toml"]),
], ids=["wrong_type", "missing_field", "not_toml"])
def test_bad_case_spec_is_a_collection_error(tmp_path, cases, edit, needles) -> None:
    broken = cases / "level1" / "math" / "broken"
    shutil.copytree(cases / "level1" / "math" / "add_custom", broken)
    spec = broken / "case.toml"
    spec.write_text(edit(spec.read_text().replace('kernel = "add_custom"', 'kernel = "broken"')))
    proc = pytest_run(tmp_path, "cases", "--collect-only", "--npukb-out=out")
    assert proc.returncode == 2, proc.stdout[-3000:]
    out = _clean_error(proc, "ERROR collecting cases/level1/math/broken", *needles)
    assert "add_custom[s0]" in out          # the good case is still collected


# -- model specs and replay files ------------------------------------------------------------------
def test_unknown_model_spec(tmp_path, cases) -> None:
    proc = pytest_run(tmp_path, "cases", "--model=gpt-17", "--npukb-out=out")
    assert proc.returncode == 4
    _clean_error(proc, "unknown model spec 'gpt-17'", "replay:PATH.jsonl")


@pytest.mark.parametrize("content, needles", [
    (None, ["does not exist", "--model=replay:PATH.jsonl"]),
    ("this is not json\n", ["replay.jsonl:1", "not valid JSON"]),
    ('{"tusk": "level1/math/add_custom", "completion": "x"}\n', ["replay.jsonl:1", "'task'"]),
    ('{"task": "level1/math/add_custom", "sample": 0, "files": ["a.cpp"]}\n', ["replay.jsonl:1", "'files'"]),
    ('{"task": "level1/math/add_custom", "sample": "first", "completion": "x"}\n', ["replay.jsonl:1", "'sample'"]),
], ids=["missing", "not_json", "no_task", "files_not_a_map", "sample_not_int"])
def test_unreadable_replay_file(tmp_path, cases, content, needles) -> None:
    replay = tmp_path / "replay.jsonl"
    if content is not None:
        replay.write_text(content)
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.jsonl").write_text('{"finished": "earlier run"}\n')
    proc = pytest_run(tmp_path, "cases", f"--model=replay:{replay}", "--npukb-out=out")
    assert proc.returncode == 4, proc.stdout[-3000:]
    _clean_error(proc, *needles)
    assert (out / "results.jsonl").read_text() == '{"finished": "earlier run"}\n'   # nothing lost


# -- run directory ----------------------------------------------------------------------------------
def test_unwritable_output_directory(tmp_path, cases) -> None:
    (tmp_path / "a_file").write_text("")
    proc = pytest_run(tmp_path, "cases", "--npukb-out=a_file/out")
    assert proc.returncode == 4
    _clean_error(proc, "cannot write the run directory", "a_file/out", "--npukb-out")


@pytest.mark.parametrize("option, message", [
    ("--samples=0", "--samples must be >= 1"),
    ("--npukb-run-timeout=0", "--npukb-run-timeout must be a number of seconds > 0, got 0.0"),
    ("--npukb-run-timeout=nan", "--npukb-run-timeout must be a number of seconds > 0, got nan"),
])
def test_bad_option_values(tmp_path, cases, option, message) -> None:
    proc = pytest_run(tmp_path, "cases", option, "--npukb-out=out")
    assert proc.returncode == 4
    _clean_error(proc, message)


# -- misconfiguration: exit status 4 and one line, never "everything skipped, exit 0" ----------------------
def _usage_error(proc: subprocess.CompletedProcess, *needles: str) -> str:
    out = _clean_error(proc, *needles)
    assert proc.returncode == 4, out[-3000:]
    errors = [ln for ln in out.splitlines() if ln.startswith("ERROR:")]
    assert len(errors) == 1, out[-3000:]
    assert "passed" not in out and "skipped" not in out
    return errors[0]


def test_missing_compiler_is_a_usage_error(tmp_path, cases) -> None:
    line = _usage_error(pytest_run(tmp_path, "cases", "--npukb-out=out", NPUKB_CXX="/nonexistent/g++"),
                        "toolchain 'ascendc-sim' cannot run here", "/nonexistent/g++")
    assert "NPUKB_CXX" in line
    assert not (tmp_path / "out").exists()            # nothing written, nothing replaced


def test_unknown_toolchain_is_a_usage_error(tmp_path, cases) -> None:
    _usage_error(pytest_run(tmp_path, "cases", "--npukb-out=out", "--toolchain=nosuchchain"),
                 "unknown toolchain 'nosuchchain'", "ascendc-sim")
    _usage_error(pytest_run(tmp_path, "cases", "--npukb-out=out", "--toolchain=no_such_module:Chain"),
                 "cannot load toolchain 'no_such_module:Chain'")


def test_case_root_without_cases_is_a_usage_error(tmp_path, cases) -> None:
    (tmp_path / "empty").mkdir()
    _usage_error(pytest_run(tmp_path, "cases", "--npukb-out=out", "--npukb-cases=empty"),
                 "--npukb-cases=empty", "holds no case folder")
    _usage_error(pytest_run(tmp_path, "cases", "--npukb-out=out", "--npukb-cases=nowhere"),
                 "--npukb-cases=nowhere", "does not exist")
    # a PATH argument with no case and no test collects nothing: pytest's own non-zero status
    proc = pytest_run(tmp_path, "empty", "--npukb-out=out")
    assert proc.returncode == 5, proc.stdout[-3000:]


def test_missing_compiler_does_not_stop_runs_without_samples(tmp_path) -> None:
    """The compiler is checked when benchmark samples are selected, not for unrelated tests."""
    (tmp_path / "test_plain.py").write_text("def test_plain():\n    assert 1 + 1 == 2\n")
    proc = pytest_run(tmp_path, "test_plain.py", "--npukb-out=out", NPUKB_CXX="/nonexistent/g++")
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout[-3000:]
    assert "NPUKernelBench" not in proc.stdout and not (tmp_path / "out").exists()


# -- a run killed mid-way ------------------------------------------------------------------------------
def test_sigkill_then_resume_loses_nothing(tmp_path, cases) -> None:
    samples = 4
    args = ("cases", f"--samples={samples}", "--npukb-out=out")
    results = tmp_path / "out" / "results.jsonl"
    proc = subprocess.Popen(plugin_argv(tmp_path, *args), cwd=tmp_path, env=plugin_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if results.is_file() and results.read_text().count("\n") >= 1:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run finished before it could be killed; use more samples"
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    before = [ln for ln in results.read_text().splitlines() if ln.strip()]
    finished = [json.loads(ln) for ln in before if ln.endswith("}")]
    assert 1 <= len(finished) < samples
    again = pytest_run(tmp_path, *args, "--npukb-resume", "-rs")
    assert again.returncode == 0, again.stdout[-3000:]
    _clean_error(again, f"{len(finished)} skipped", f"{samples - len(finished)} passed")
    after = results.read_text().splitlines()
    assert after[:len(finished)] == before[:len(finished)]          # finished lines kept as written
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["levels"]["mean"]["samples"] == samples
    assert summary["levels"]["mean"]["er"]["pass@1"] == 1.0


def test_fresh_rerun_keeps_previous_results(tmp_path, cases) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.jsonl").write_text('{"finished": "earlier run"}\n')
    replay = tmp_path / "replay.jsonl"                  # a completion without code: it fails before any build
    replay.write_text('{"task": "level1/math/add_custom", "sample": 0, "completion": "x"}\n')
    proc = pytest_run(tmp_path, "cases", "--npukb-out=out", f"--model=replay:{replay}")
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert (out / "results.prev.jsonl").read_text() == '{"finished": "earlier run"}\n'
    assert "earlier run" not in (out / "results.jsonl").read_text()
