"""A full ``--model=mutants`` run in a subprocess gives every labelled mutant the verdict its label
calls for, leaves no process behind and writes nothing outside its run directory and its scratch
(HOME/TMPDIR pointed at fresh folders)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASE = "benchmark_cases/level1/math/add_custom"
SOURCE_SUFFIXES = (".py", ".toml", ".md", ".cpp", ".h", ".hpp", ".txt", ".yml", ".yaml", ".cfg")


def _tree(root: Path) -> set[str]:
    found = set()
    for dirpath, dirnames, filenames in os.walk(root):
        # caches of the tools running the project's own tests (the suite's in-process hypothesis tests
        # write .hypothesis/ in the cwd, possibly on the other xdist worker meanwhile; that a benchmark
        # run's shape search writes nothing there is tests/harness/test_scratch_dir.py's job)
        dirnames[:] = [d for d in dirnames
                       if d not in (".git", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis")]
        found.update(os.path.join(dirpath, f) for f in filenames)
    return found


def _processes_mentioning(marker: str) -> list[str]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                if fh.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmd = fh.read()
            with open(f"/proc/{name}/environ", "rb") as fh:
                env = fh.read()
        except OSError:
            continue
        if marker.encode() in cmd or marker.encode() in env:
            shown = cmd.replace(b"\0", b" ")[:200]
            found.append(f"{name}: {shown!r}")
    return found


def test_mutants_run_leaves_nothing_behind(tmp_path: Path) -> None:
    home, tmp, run = tmp_path / "home", tmp_path / "tmp", tmp_path / "run"
    home.mkdir()
    tmp.mkdir()
    before_repo = _tree(ROOT)
    before_tmp = set(os.listdir("/tmp"))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "TMPDIR": str(tmp),
           "PYTHONPATH": str(ROOT / "src"), "PYTHONDONTWRITEBYTECODE": "1", "LC_ALL": "C.UTF-8"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", CASE, "--model=mutants", "--samples=6", "--shapes=static",
         f"--npukb-out={run}", "-p", "no:cacheprovider", "-q", "--no-header"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert (run / "results.jsonl").is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    results = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    assert sorted(r["sample"] for r in results) == list(range(6)), done.stdout[-3000:]
    labels = {r["sample"]: r["details"].get("expected_category") for r in results}
    assert all(labels.values()), labels
    for r in results:
        label, status = labels[r["sample"]], r["status"]
        if label == "passed":
            assert status == "passed", r
        elif label == "wrong":
            assert status in ("wrong", "runtime_error"), r        # a wrong kernel never passes
        else:
            assert status == "build_error", r                     # taxonomy mutants do not compile
    assert {"passed", "wrong"} & set(labels.values()) and len(set(labels.values())) >= 4, labels
    summary = json.loads((run / "summary.json").read_text())
    assert summary["samples_per_task"] == 6 and sum(summary["statuses"].values()) == 6
    assert summary["statuses"]["passed"] == sum(1 for v in labels.values() if v == "passed")
    assert done.returncode == (0 if all(v == "passed" for v in labels.values()) else 1), done.stdout[-2000:]
    time.sleep(0.5)
    assert _processes_mentioning(str(tmp_path)) == []
    # Source files appearing elsewhere in the tree are other people's edits in a shared checkout
    # (CI has none); anything a run writes (results, caches, objects, binaries) is still caught.
    new_repo = sorted(p for p in _tree(ROOT) - before_repo
                      if not (p.endswith(SOURCE_SUFFIXES) and not p.startswith(str(ROOT / CASE))))
    # The same session's benchmark items (`pytest tests benchmark_cases`) write the default run directory
    # npukb-out/ meanwhile; the mutants run's own results (labelled) must not be among them.
    default_out = str(ROOT / "npukb-out") + os.sep
    ours = [p for p in new_repo
            if p.startswith(default_out) and "expected_category" in Path(p).read_text(errors="replace")]
    new_repo = [p for p in new_repo if not p.startswith(default_out)] + ours
    assert new_repo == [], f"files written into the repository: {new_repo[:20]}"
    new_tmp = sorted(n for n in set(os.listdir("/tmp")) - before_tmp
                     if n.startswith(("npukb", "cc", "tmp")) and not n.startswith("tmp_path"))
    time.sleep(2)        # other users' compilers come and go in a shared /tmp; a leftover stays
    new_tmp = [n for n in new_tmp if os.path.exists(os.path.join("/tmp", n))]
    assert new_tmp == [], f"files written into /tmp despite TMPDIR: {new_tmp}"
