"""What the README's own commands write (``runs/...``, the default ``npukb-out/``) is ignored by git,
so that a newcomer's first hour leaves ``git status`` clean."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from harness_paths import HERE

ROOT = HERE.parents[1]


def _output_dirs() -> list[str]:
    """Top-level folders the README's commands write: the first component of their ``runs/`` paths."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = sorted({m.group(1) for m in re.finditer(r"(?<![\w/.])(runs)/[\w.-]+", text)})
    return [*found, "npukb-out"]


def test_readme_outputs_are_ignored() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    dirs = _output_dirs()
    assert "runs" in dirs
    proc = subprocess.run(["git", "check-ignore", "--no-index", *(f"{d}/x/results.jsonl" for d in dirs)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    ignored = {line.split("/", 1)[0] for line in proc.stdout.splitlines()}
    assert ignored == set(dirs), f"not in .gitignore: {sorted(set(dirs) - ignored)}"
