"""A build killed mid-way resumes: finished stages are reused, and the result equals an uninterrupted build."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "ascend_cot"
TINY = EXAMPLES / "tiny.yaml"


def test_killed_build_resumes_to_the_same_corpus(tiny_build, tmp_path):
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    cmd = [sys.executable, "-m", "ascend_cot.cli", "build", str(TINY), "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 300
    while not (out / "work" / "kernel.json").exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the build finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (out / "stats.json").exists()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    stats = json.loads((out / "stats.json").read_text())
    assert stats["stages"]["docs"]["resumed"] and stats["stages"]["kernel"]["resumed"]
    assert not stats["stages"]["errors"]["resumed"]
    assert (out / "data.jsonl").read_text() == (tiny_build.out / "data.jsonl").read_text()
