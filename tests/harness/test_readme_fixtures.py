"""The README's fixtures example runs as written: the fenced block after the marker comment is saved
verbatim as a test file and run by pytest in a child process from another folder; the same file with
a wrong kernel (Sub for Add) fails with the mismatch. Needs g++ (the simulator builds for real)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from harness_paths import HERE

README = HERE.parents[1] / "README.md"
MARKER = "<!-- npukb-fixtures-example"


def readme_example() -> str:
    text = README.read_text(encoding="utf-8")
    assert MARKER in text, "the README lost its fixtures example marker"
    block = re.search(r"```python\n(.*?)```", text[text.index(MARKER):], re.S)
    assert block is not None
    return block.group(1)


def test_readme_fixtures_example_runs_verbatim_and_a_wrong_kernel_fails(tmp_path) -> None:
    source = readme_example()
    assert "Add(zLocal, xLocal, yLocal, count)" in source
    tests = tmp_path / "project" / "tests"
    tests.mkdir(parents=True)
    (tests / "test_my_add.py").write_text(source, encoding="utf-8")
    (tests / "test_my_add_wrong.py").write_text(
        source.replace("Add(zLocal, xLocal, yLocal, count)", "Sub(zLocal, xLocal, yLocal, count)"), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ)
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_ADDOPTS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0", "--npukb-shape-examples=2",
         str(tests), "-rA"],
        cwd=elsewhere, env=env, capture_output=True, text=True, timeout=900)
    out = proc.stdout + proc.stderr
    assert "1 failed, 1 passed" in out, out
    assert re.search(r"^PASSED \S*/test_my_add\.py::test_my_add$", out, re.M), out
    assert re.search(r"^FAILED \S*/test_my_add_wrong\.py::test_my_add - Failed: wrong", out, re.M), out
    # nearly every element is off (an element of the random data may fall within the tolerance by chance)
    assert re.search(r"\nwrong: output 'z': 20[0-4]\d of 2048 elements outside", out), out
