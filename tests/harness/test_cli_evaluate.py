"""``npukb evaluate`` outside pytest: -k, -m, --jobs, the header (confinement level), missing replay
samples, and misconfiguration (exit status 2, one line). Real subprocesses on the g++ test toolchain."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harness_paths import DATA, HERE

TOOL = "--toolchain=gxx_toolchain:GxxToolchain"
VADD, VSCALE = "level1/math/vadd", "level2/norm/vscale"


def npukb(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    full = dict(os.environ)
    full["PYTHONPATH"] = os.pathsep.join([str(HERE.parents[1] / "src"), str(HERE)])
    full.update(env)
    return subprocess.run([sys.executable, "-m", "npukernelbench.cli", *args], cwd=tmp_path, env=full,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    shutil.copytree(DATA / "gxx_cases", tmp_path / "cases")
    return tmp_path / "cases"


def _results(tmp_path: Path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]


def test_keyword_jobs_and_header(tmp_path, cases) -> None:
    proc = npukb(tmp_path, "evaluate", "cases", TOOL, "-k", "vadd", "--jobs", "2", "--samples", "2",
                 "--shapes", "static", "--npukb-out", "out")
    assert proc.returncode == 0, proc.stderr[-3000:]
    header = proc.stdout.splitlines()[0]
    assert header.startswith("npukb evaluate: ") and "jobs=2" in header and "items=2" in header
    assert any(f"confinement={level}" in header for level in ("bubblewrap", "netns+rlimits", "rlimits"))
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("[")]
    progress = sorted(ln.split("] ", 1)[1].split(" (", 1)[0] for ln in lines)
    assert progress == [f"{VADD}[s0] passed", f"{VADD}[s1] passed"]          # each finished item, as it finishes
    assert re.fullmatch(r"\[1/2\] .* passed \(\d+:\d\d elapsed, about \d+:\d\d left\)", lines[0]), lines
    assert lines[1].startswith("[2/2] ") and lines[1].endswith(" passed"), lines    # the last: no estimate
    assert sorted((r["task"], r["sample"]) for r in _results(tmp_path)) == [(VADD, 0), (VADD, 1)]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["confinement"] in header and summary["levels"]["level2"] is None
    seed = json.loads((tmp_path / "out" / "run.json").read_text())["data_seed"]     # drawn, printed, recorded
    assert proc.stdout.splitlines()[1] == (f"npukb evaluate: input data seed {seed} (replay this run's data with "
                                           f"--npukb-data-seed={seed})")


def test_markexpr(tmp_path, cases) -> None:
    proc = npukb(tmp_path, "evaluate", "cases", TOOL, "-m", "level2 and static", "--shapes", "static",
                 "--npukb-out", "out")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert [r["task"] for r in _results(tmp_path)] == [VSCALE]


def test_missing_replay_samples(tmp_path, cases) -> None:
    replay = tmp_path / "replay.jsonl"
    folder = DATA / "gxx_cases" / VADD / "solution"
    files = {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()}
    replay.write_text(json.dumps({"task": VADD, "sample": 0, "files": files}) + "\n")
    args = ("evaluate", "cases", TOOL, f"--model=replay:{replay}", "--shapes", "static", "--npukb-out", "out")
    proc = npukb(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "1 sample(s) with no completion (missing from the replay file" in proc.stderr
    assert [r["task"] for r in _results(tmp_path)] == [VADD]
    strict = npukb(tmp_path, *args, "--strict")
    assert strict.returncode == 2 and f"{VSCALE}[s0]" in strict.stderr and "Traceback" not in strict.stderr


@pytest.mark.parametrize("args, env, needle", [
    (("evaluate", "nowhere"), {}, "no such path: nowhere"),
    (("evaluate", "empty"), {}, "no cases found under empty"),
    (("evaluate", "cases", "-k", "no_such_case"), {}, "select none of the 2 cases"),
    (("evaluate", "cases", "-k", "vadd and ("), {}, "-k: invalid expression"),
    (("evaluate", "cases", "--toolchain=nosuchchain"), {}, "unknown toolchain 'nosuchchain'"),
    (("evaluate", "cases"), {"NPUKB_CXX": "/nonexistent/g++"}, "toolchain 'ascendc-sim' cannot run here"),
], ids=["no_path", "no_cases", "nothing_selected", "bad_expression", "unknown_toolchain", "missing_compiler"])
def test_misconfiguration_exits_non_zero_with_one_line(tmp_path, cases, args, env, needle) -> None:
    (tmp_path / "empty").mkdir()
    proc = npukb(tmp_path, *args, "--npukb-out", "out", **env)
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def _replay(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "replay.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_replay_matching_no_selected_task_is_a_usage_error(tmp_path, cases) -> None:
    """A replay file for other tasks would skip every sample and exit 0: a false green."""
    replay = _replay(tmp_path, [{"task": "level9/other/task", "sample": 0, "completion": "no code"}])
    proc = npukb(tmp_path, "evaluate", "cases", TOOL, f"--model=replay:{replay}", "--shapes", "static",
                 "--npukb-out", "out")
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "holds none of the 2 selected task(s)" in lines[0], proc.stderr
    assert "level9/other/task" in lines[0] and "Traceback" not in proc.stderr


def test_replay_samples_default_to_the_file_and_a_lower_count_says_what_is_left_out(tmp_path, cases) -> None:
    """No code in the completions: parse errors, no kernel build."""
    replay = _replay(tmp_path, [{"task": VADD, "sample": i, "completion": "no code"} for i in range(3)])
    args = ("evaluate", "cases", TOOL, "-k", "vadd", f"--model=replay:{replay}", "--shapes", "static",
            "--npukb-out", "out")
    proc = npukb(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "samples=3" in proc.stdout.splitlines()[0] and "items=3" in proc.stdout.splitlines()[0]
    assert sorted(r["sample"] for r in _results(tmp_path)) == [0, 1, 2]
    assert "leaves out" not in proc.stdout
    fewer = npukb(tmp_path, *args, "--samples", "1")
    assert fewer.returncode == 0, fewer.stderr[-3000:]
    notes = [ln for ln in fewer.stdout.splitlines() if "leaves out" in ln]
    assert notes == ["npukb evaluate: --samples 1 leaves out 2 completion(s) of the replay file (it holds up to 3 "
                     "per task; omit --samples to evaluate them all)"]
    assert [r["sample"] for r in _results(tmp_path)] == [0]


def test_an_unrelated_folder_as_model_is_one_line(tmp_path, cases) -> None:
    """A folder whose config.json is not a model's: one line, not transformers' multi-line tokenizer error."""
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "config.json").write_text('{"name": "my-app", "version": 2}')
    proc = npukb(tmp_path, "evaluate", "cases", TOOL, "--model", "app", "--shapes", "static", "--npukb-out", "out")
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stderr.strip().splitlines() == [
        "npukb evaluate: app/config.json is not a Hugging Face model's config (no 'model_type'): not a model "
        "directory; pass --model a saved model, a server URL or replay:FILE"]
