"""``--npukb-html`` in a real pytest run (pytester subprocess, g++ test toolchain): the terminal
summary points at RUN_DIR/report.html; without matplotlib the option is a usage error."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]
pytest.importorskip("matplotlib", reason="the 'report' extra (matplotlib) is not installed")
ROOT = Path(__file__).resolve().parents[2]
ARGS = ("-p", "npukernelbench.plugin", "cases", "--toolchain=gxx_toolchain:GxxToolchain", "--shapes=static",
        "--npukb-out=out", "--npukb-html")


@pytest.fixture
def tree(pytester, monkeypatch):
    shutil.copytree(ROOT / "tests" / "data" / "gxx_cases", pytester.path / "cases")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests" / "harness")]))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester


def test_summary_points_at_the_html_report(tree):
    res = tree.runpytest_subprocess(*ARGS, "--model=mutants", "--samples=3")
    page = tree.path / "out" / "report.html"
    res.stdout.fnmatch_lines(["*NPUKernelBench*", f"html report: {page}"])
    html = page.read_text()
    assert "NPUKernelBench report: out" in html and html.count('class="cell ') == 2


def test_without_matplotlib_it_is_a_usage_error(tree):
    tree.makeconftest("import sys\nsys.modules['matplotlib'] = None\n")     # as if the extra were missing
    res = tree.runpytest_subprocess(*ARGS)
    assert res.ret == pytest.ExitCode.USAGE_ERROR
    assert res.stderr.lines[0] == ("ERROR: the HTML report needs matplotlib; install it with: "
                                   "pip install 'npukernelbench[report]'")
    assert not (tree.path / "out" / "report.html").exists()
