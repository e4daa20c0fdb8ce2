"""Acceptance through HARN's plugin: ``pytest benchmark_cases -k add_custom --model=<tiny dir>
--samples 4`` (and the same through ``npukb serve``, and with ``-n 2``) records every sample."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SPLIT = ("parse_error", "build_error", "rejected")
REPO = Path(__file__).resolve().parents[2]


def subprocess_env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def run_bench(tmp_path: Path, model: str, *extra: str) -> tuple[subprocess.CompletedProcess, list[dict], Path]:
    out = tmp_path / "run"
    env = subprocess_env()
    env["NPUKB_CACHE_DIR"] = str(tmp_path / "cache")
    # As a user runs it: the plugin comes from the entry point when installed, else from the root conftest.
    cmd = [sys.executable, "-m", "pytest", "benchmark_cases", "-k", "add_custom",
           f"--model={model}", "--samples=4", "--max-tokens=8", "--shapes=static", f"--npukb-out={out}",
           "-p", "no:cacheprovider", "-q", *extra]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    results_path = out / "results.jsonl"
    assert results_path.is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = [json.loads(line) for line in results_path.read_text().splitlines()]
    return proc, rows, out


def check_four_samples(rows: list[dict], out: Path) -> list[dict]:
    mine = [r for r in rows if r["task"] == "level1/math/add_custom"]
    assert sorted(r["sample"] for r in mine) == [0, 1, 2, 3]
    assert all(r["status"] in SPLIT for r in mine), [r["status"] for r in mine]
    completions = [json.loads(line) for line in (out / "completions.jsonl").read_text().splitlines()]
    completions = [c for c in completions if c["task"] == "level1/math/add_custom"]
    assert len(completions) == 4 and all(c["tokens"] and c["tokens"] <= 8 for c in completions)
    return completions


@pytest.mark.slow
def test_tiny_model_through_the_plugin_with_two_workers(tiny_model, tmp_path):
    pytest.importorskip("xdist")
    proc, rows, out = run_bench(tmp_path, str(tiny_model), "-n", "2")
    completions = check_four_samples(rows, out)
    # One engine: every completion came from the one process that loaded the model (the controller),
    # although the samples were evaluated by two workers.
    assert len({c["meta"]["engine_pid"] for c in completions}) == 1
    # Rerun: served from the completion cache, identical texts, no model load.
    proc2, rows2, out2 = run_bench(tmp_path, str(tiny_model), "-n", "2")
    again = check_four_samples(rows2, out2)
    assert [c["text"] for c in again] == [c["text"] for c in completions]
    assert all(c["meta"].get("cached") for c in again)


@pytest.mark.slow
def test_served_model_through_the_plugin(served_model, tmp_path):
    import urllib.request

    def served() -> int:
        with urllib.request.urlopen(served_model.url.removesuffix("/v1") + "/health", timeout=10) as r:
            return json.loads(r.read())["requests_served"]

    before = served()
    proc, rows, out = run_bench(tmp_path, served_model.url, "-n", "2")
    check_four_samples(rows, out)
    tasks = {r["task"] for r in rows}          # -k add_custom also selects mul_sigmoid_mul_add_custom
    assert served() - before == len(tasks), "one request (n=4) per task, from the controller only"
