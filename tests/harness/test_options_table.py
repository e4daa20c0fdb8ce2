"""One option table: the pytest options, the CLI flags and the docs tables all come from
``options.OPTIONS``; the short names give way to another plugin that owns them."""

import os
import shutil

import pytest
from harness_paths import DATA, HERE

from npukernelbench.options import OPTIONS, options_markdown

pytest_plugins = ["pytester"]
ROOT = HERE.parents[1]
BEGIN, END = "<!-- options:begin", "<!-- options:end -->"


@pytest.mark.parametrize("doc", ["README.md", "docs/plugin.md"])
def test_the_docs_carry_the_generated_table(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    start = text.index("\n", text.index(BEGIN)) + 1
    assert text[start:text.index(END)] == options_markdown(), f"{doc}: regenerate with python -m npukernelbench.options"


def test_every_option_has_an_npukb_name_and_one_dest():
    assert all(o.flag.startswith("--npukb-") and o.dest == "npukb_" + o.flag[8:].replace("-", "_") for o in OPTIONS)
    assert len({o.dest for o in OPTIONS}) == len(OPTIONS)


OTHER = '''
def pytest_addoption(parser):
    parser.addoption("--model", dest="other_model", default="theirs")
    parser.addoption("--seed", dest="other_seed", default="7")
'''


def test_short_names_owned_by_another_plugin_give_way(pytester, monkeypatch):
    shutil.copytree(DATA / "gxx_cases", pytester.path / "cases")
    pytester.makepyfile(other_plugin=OTHER)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT / "src"), str(HERE), str(pytester.path)]))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    res = pytester.runpytest_subprocess("-p", "other_plugin", "-p", "npukernelbench.plugin", "cases", "--model=x",
                                        "--npukb-model=reference", "--npukb-seed=3", "--samples=1", "--shapes=static",
                                        "--toolchain=gxx_toolchain:GxxToolchain", "--npukb-out=out")
    res.assert_outcomes(passed=2)
    assert '"model": "reference"' in (pytester.path / "out" / "run.json").read_text()
    assert '"seed": 3' in (pytester.path / "out" / "run.json").read_text()
