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


def test_an_option_is_one_field_read_by_every_front_end():
    """Each option is a RunOptions field: the argparse front end parses it and from_namespace reads it
    back into that field (a field whose value never reached RunOptions would fail here)."""
    import argparse
    import dataclasses
    from pathlib import Path

    from npukernelbench.options import RunOptions, add_argparse_options
    from npukernelbench.sharding import Shard

    parser = argparse.ArgumentParser()
    add_argparse_options(parser)
    given = {"model": "mutants", "samples": "3", "toolchain": "x:Y", "shapes": "static", "shape-examples": "4",
             "shape-seed": "5", "data-seed": "6", "cases": "extra", "out": "runs/a", "shard": "2/3",
             "temperature": "0.5", "top-p": "0.9", "max-tokens": "64", "seed": "9", "lora": "adapter",
             "model-dtype": "bfloat16", "cpu-threads": "1", "gpu-memory-utilization": "0.5", "max-model-len": "128",
             "tensor-parallel-size": "2", "kv-cache-gib": "1.5", "turns": "3", "mode": "full",
             "input-budget": "4096", "case-score": "off", "soc": "Ascend910_9392", "run-timeout": "90"}
    switches = {"resume", "html", "project-level"}
    argv = [a for k, v in given.items() for a in (f"--npukb-{k}", v)] + [f"--npukb-{k}" for k in switches]
    options = RunOptions.from_namespace(parser.parse_args(argv))
    option_fields = {f.name for f in dataclasses.fields(RunOptions) if "npukb" in f.metadata}
    assert option_fields == {o.dest[len("npukb_"):] for o in OPTIONS} == {k.replace("-", "_") for k in
                                                                          (*given, *switches)}
    assert (options.samples, options.cases, options.out, options.shard) == (3, ("extra",), Path("runs/a"),
                                                                             Shard.parse("2/3"))
    assert options.resume and options.html and options.project_level and options.turns == 3
    assert options.input_budget == 4096 and options.eval_options().input_budget == 4096
    assert options.case_score is False and options.eval_options().case_score is False
    assert options.run_timeout == 90.0 and options.eval_options().run_timeout_s == 90.0
    assert options.soc == options.eval_options().soc == options.prompt_options().soc == "Ascend910_9392"
    assert options.engine_options().kv_cache_gib == 1.5 and options.generator_options().engine.tensor_parallel_size == 2
    assert options.generator_options().cpu_threads == 1
    assert RunOptions.from_namespace(parser.parse_args([])) == RunOptions()
