"""benchmarks/gpu_train_check.py in its smoke form (CPU, a tiny model): every stage runs and the
last stdout line is the JSON object the docs describe."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_stage_runs_on_cpu_and_reports(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "gpu_train_check.py"), "--out", str(tmp_path / "out"),
         "--device", "cpu", "--hidden", "64", "--layers", "2", "--heads", "2", "--vocab", "1024",
         "--sft-steps", "2", "--grpo-steps", "1", "--generations", "2", "--max-tokens", "16", "--jobs", "1",
         "--batch", "2", "--max-length", "4096", "--task", "level1/math/add_custom", "--turns", "2"],
        capture_output=True, text=True, timeout=600, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    assert figures["device"] == "cpu" and figures["model"]["hidden_size"] == 64
    for stage in ("sft-lora", "sft-full"):
        assert figures[stage]["seconds_per_step"] > 0 and figures[stage]["loss_first"] is not None
    grpo = figures["grpo"]
    # two episodes of up to two turns each: every failing first turn is answered again with its feedback
    assert grpo["turns"] == 2 and sum(grpo["final_turns"].values()) == 2, grpo
    assert 2 <= grpo["evaluations"] <= 4 and sum(grpo["verdicts"].values()) == grpo["evaluations"], grpo


def test_cuda_without_a_gpu_is_refused(tmp_path):
    import torch

    if torch.cuda.is_available():
        return
    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "gpu_train_check.py"), "--out",
                           str(tmp_path / "out")], capture_output=True, text=True, timeout=300, cwd=REPO)
    assert proc.returncode == 2 and "torch sees no GPU" in proc.stderr
    assert not (tmp_path / "out").exists()
