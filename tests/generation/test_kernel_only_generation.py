"""A tiny local model end to end in ``--npukb-mode kernel-only`` and ``full``: one prompt per CSV row of
our own public-layout AddCustom (tests/data/kernel_only), every row's sample recorded under
``<task>#<case_id>`` (the tiny model writes no ``<kernel_impl>`` block, or none of the three files: a
parse error naming what is missing)."""

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
@pytest.mark.parametrize(("mode", "missing"), [("kernel-only", "<kernel_impl>"), ("full", "full-mode answer lacks")])
def test_tiny_model_in_an_upstream_mode(tiny_model: Path, tmp_path: Path, mode: str, missing: str) -> None:
    out = tmp_path / "run"
    shutil.copytree(TREE, tmp_path / "tasks" / "level1")       # tests/data itself is not collected
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("NPUKB_CACHE_DIR", str(tmp_path / "cache"))
    cmd = [sys.executable, "-m", "pytest", "tasks", f"--model=hf:{tiny_model}", "--npukb-mode", mode,
           "--max-tokens=8", "--shapes=static", f"--npukb-out={out}", "-p", "no:cacheprovider", "-q"]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    results = out / "results.jsonl"
    assert results.is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = {r["task"]: r for r in map(json.loads, results.read_text().splitlines())}
    assert set(rows) == {f"level1/Math/AddCustom#{i}" for i in range(3)}
    assert all(r["status"] == "parse_error" and missing in r["message"] for r in rows.values()), rows
    completions = [json.loads(line) for line in (out / "completions.jsonl").read_text().splitlines()]
    assert sorted(c["task"] for c in completions) == sorted(rows)
    assert all(c["tokens"] and c["tokens"] <= 8 for c in completions)
