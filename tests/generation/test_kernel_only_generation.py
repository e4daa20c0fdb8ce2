"""A tiny local model end to end in ``--npukb-mode kernel-only``: one prompt per CSV row of our own
public-layout AddCustom (tests/data/kernel_only), every row's sample recorded under ``<task>#<case_id>``
(the tiny model writes no ``<kernel_impl>`` block: a parse error naming it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TREE = REPO / "tests" / "data" / "kernel_only" / "level1"


@pytest.mark.slow
def test_tiny_model_in_kernel_only_mode(tiny_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    shutil.copytree(TREE, tmp_path / "tasks" / "level1")       # tests/data itself is not collected
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("NPUKB_CACHE_DIR", str(tmp_path / "cache"))
    cmd = [sys.executable, "-m", "pytest", "tasks", f"--model=hf:{tiny_model}", "--npukb-mode", "kernel-only",
           "--max-tokens=8", "--shapes=static", f"--npukb-out={out}", "-p", "no:cacheprovider", "-q"]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    results = out / "results.jsonl"
    assert results.is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = {r["task"]: r for r in map(json.loads, results.read_text().splitlines())}
    assert set(rows) == {f"level1/Math/AddCustom#{i}" for i in range(3)}
    assert all(r["status"] == "parse_error" and "<kernel_impl>" in r["message"] for r in rows.values())
    completions = [json.loads(line) for line in (out / "completions.jsonl").read_text().splitlines()]
    assert sorted(c["task"] for c in completions) == sorted(rows)
    assert all(c["tokens"] and c["tokens"] <= 8 for c in completions)
