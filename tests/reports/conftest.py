"""Real run directories for the report tests, made once per session by ``npukb evaluate`` on the g++
test toolchain (tests/harness/gxx_toolchain.py) with the reference and mutants generators."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "data" / "gxx_cases"
TOOL = "--toolchain=gxx_toolchain:GxxToolchain"


def evaluate(out: Path, *args: str, cases: Path = CASES) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests" / "harness")]))
    done = subprocess.run([sys.executable, "-m", "npukernelbench.cli", "evaluate", str(cases), TOOL,
                           "--shapes=static", f"--npukb-out={out}", *args],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> dict[str, Path]:
    """reference (1 sample), mutants (10 samples, HTML written by --npukb-html), mutants on level 1
    only, reference on level 2 only, and an interrupted copy of the mutants run."""
    root = tmp_path_factory.mktemp("runs")
    made = {"ref": root / "ref", "mut": root / "mut", "mut_l1": root / "mut_l1", "ref_l2": root / "ref_l2"}
    evaluate(made["ref"], "--model=reference")
    done = evaluate(made["mut"], "--model=mutants", "--samples=10", "--npukb-html")
    (root / "mut.stdout").write_text(done.stdout)
    evaluate(made["mut_l1"], "--model=mutants", "--samples=4", "--seed=3", cases=CASES / "level1")
    evaluate(made["ref_l2"], "--model=reference", cases=CASES / "level2")
    # A run killed part-way: results are appended and flushed line by line, so a kill leaves the
    # finished lines and at most one torn line (as tests/harness/test_plugin.py's resume test does).
    cut = root / "interrupted"
    shutil.copytree(made["mut"], cut)
    lines = (cut / "results.jsonl").read_text().splitlines()
    (cut / "results.jsonl").write_text("\n".join(lines[:7]) + "\n" + lines[7][:25])
    made["interrupted"] = cut
    return made
