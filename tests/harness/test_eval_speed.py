"""benchmarks/eval_speed.py's RL shape (--mutants N): distinct mutants of the answers, evaluated on a fresh
build cache, with evaluations per second; and its bad inputs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "eval_speed.py"
CASE = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom"


def _run(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def test_bad_counts_exit_2_with_one_line() -> None:
    out = _run(str(CASE), "--mutants", "0")
    assert out.returncode == 2, out
    assert "--mutants must be at least 1" in out.stderr


def test_rl_shape_evaluates_distinct_mutants_on_a_fresh_cache() -> None:
    out = _run(str(CASE), "--mutants", "3", "--jobs", "1")
    assert out.returncode == 0, out.stderr[-2000:]
    text = out.stdout
    cache = re.search(r"fresh build cache (\S+)", text)
    assert cache, text
    assert not Path(cache.group(1)).exists(), "the fresh cache was left behind"
    assert "3 answers evaluated, 0 not evaluated" in text, text
    figure = re.search(r"RL shape: 3 distinct completions in ([\d.]+) s wall with 1 job\(s\): ([\d.]+) evaluations "
                       r"per second", text)
    assert figure and float(figure.group(2)) > 0, text
    # three lines, one per completion, none of them a build-cache hit of an earlier run
    lines = [line for line in text.splitlines() if line.startswith("[") and "add_custom" in line]
    assert len(lines) == 3 and not any("build:cached" in line for line in lines), lines
