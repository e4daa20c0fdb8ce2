"""The plug-in registry: built-in names, ``module:Class`` strings, and a toolchain plus a generator that
a throwaway package registers through entry points after a real ``pip install``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from npukernelbench.generators import GENERATORS, ModelSpecError, get_generator, resolve
from npukernelbench.registry import Registry, RegistryError, is_target
from npukernelbench.toolchains import TOOLCHAINS, get_toolchain

ADD_CUSTOM = Path(__file__).resolve().parents[2] / "benchmark_cases" / "level1" / "math" / "add_custom"

PACKAGE = {
    "pyproject.toml": """
        [build-system]
        requires = ["setuptools>=68"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "npukb-thirdparty"
        version = "0.0.1"

        [project.entry-points."npukernelbench.toolchains"]
        thirdparty-sim = "npukb_thirdparty.chain:ThirdPartySim"

        [project.entry-points."npukernelbench.generators"]
        echo = "npukb_thirdparty.model:EchoGenerator"
        reference = "npukb_thirdparty.model:EchoGenerator"
        """,
    "npukb_thirdparty/__init__.py": "",
    "npukb_thirdparty/chain.py": """
        import os

        from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain


        class ThirdPartySim(AscendCSimToolchain):
            name = "thirdparty-sim"

            def build(self, project):
                with open(os.environ["THIRDPARTY_LOG"], "a") as log:
                    log.write(f"build {project.op}\\n")
                return super().build(project)
        """,
    "npukb_thirdparty/model.py": """
        from npukernelbench.generators.reference import ReferenceGenerator


        class EchoGenerator(ReferenceGenerator):
            name = "echo"

            def __init__(self, model, options=None):
                super().__init__(model, options)
                self.argument = model

            def generate(self, requests):
                meta = {"model": "echo", "arg": self.argument}
                return [[type(c)(c.task, c.sample, files=c.files, tokens=0, meta=meta) for c in batch]
                        for batch in super().generate(requests)]
        """,
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The throwaway package, installed by pip into a target directory (not into this venv)."""
    root = tmp_path_factory.mktemp("thirdparty")
    src, target = root / "src", root / "site"
    for rel, text in PACKAGE.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(textwrap.dedent(text).lstrip())
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                           "--no-build-isolation", "--target", str(target), str(src)],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 and "setuptools" in proc.stderr and "No module named" in proc.stderr:
        pytest.skip("setuptools is not installed here: cannot build the throwaway package")
    assert proc.returncode == 0, proc.stderr
    assert list(target.glob("npukb_thirdparty-*.dist-info/entry_points.txt"))
    return target


def _env(site: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [env.get("PYTHONPATH")])])
    return env


def test_installed_plugins_are_found(site: Path) -> None:
    script = textwrap.dedent("""
        import json
        from npukernelbench.generators import GENERATORS, get_generator, resolve
        from npukernelbench.toolchains import TOOLCHAINS, get_toolchain
        from npukernelbench.toolchains.base import Toolchain
        from npukernelbench.generators.base import Generator

        chain = get_toolchain("thirdparty-sim")
        gen = get_generator("echo")
        gen_arg = get_generator("echo:some-arg")
        print(json.dumps({
            "toolchains": list(TOOLCHAINS.names()), "generators": list(GENERATORS.names()),
            "chain": [type(chain).__module__, chain.name, isinstance(chain, Toolchain)],
            "gen": [type(gen).__module__, gen.name, isinstance(gen, Generator), gen.argument, gen_arg.argument],
            "resolve": [resolve("echo"), resolve("echo:x"), resolve("reference")],
            "reference": type(get_generator("reference")).__module__,
        }))
        """)
    proc = subprocess.run([sys.executable, "-c", script], env=_env(site), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert found["toolchains"] == ["ascendc-sim", "thirdparty-sim"]
    # the package also declares a generator "reference": an installed package never shadows a built-in
    assert found["generators"] == ["reference", "mutants", "replay", "openai", "hf", "vllm", "echo"]
    assert found["reference"] == "npukernelbench.generators.reference"
    assert found["chain"] == ["npukb_thirdparty.chain", "thirdparty-sim", True]
    assert found["gen"] == ["npukb_thirdparty.model", "echo", True, "", "some-arg"]
    assert found["resolve"] == [["echo", ""], ["echo", "x"], ["reference", "reference"]]


def test_installed_plugins_run_a_benchmark(site: Path, tmp_path: Path) -> None:
    """``npukb evaluate`` with the plug-in toolchain and generator, chosen by name: the package's
    toolchain really builds the case, the package's generator really answers it."""
    log = tmp_path / "builds.log"
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "npukernelbench.cli", "evaluate", str(ADD_CUSTOM), "--model=echo:v1",
                           "--toolchain=thirdparty-sim", "--shapes=static", "--npukb-out", str(out)],
                          env=_env(site, THIRDPARTY_LOG=str(log)), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["toolchain"] == "thirdparty-sim"
    assert summary["model"] == "echo:v1"
    completions = [json.loads(line) for line in (out / "completions.jsonl").read_text().splitlines()]
    assert [(c["meta"]["model"], c["meta"]["arg"]) for c in completions] == [("echo", "v1")]
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["status"] for r in results] == ["passed"]
    assert log.read_text().startswith("build ")


def test_builtins_and_targets_resolve_without_plugins() -> None:
    assert resolve("replay:/tmp/x.jsonl") == ("replay", "/tmp/x.jsonl")
    assert resolve("npukernelbench.generators.reference:ReferenceGenerator") == (
        "npukernelbench.generators.reference:ReferenceGenerator", "")
    assert resolve("npukernelbench.generators.reference:ReferenceGenerator:arg:with:colons") == (
        "npukernelbench.generators.reference:ReferenceGenerator", "arg:with:colons")
    assert get_generator("npukernelbench.generators.reference:ReferenceGenerator").name == "reference"
    assert TOOLCHAINS.target("ascendc-sim") == "npukernelbench.toolchains.ascendc_sim:AscendCSimToolchain"
    assert type(get_toolchain("npukernelbench.toolchains.ascendc_sim:AscendCSimToolchain")).__name__ == \
        "AscendCSimToolchain"
    assert "reference" in GENERATORS and "nonexistent" not in GENERATORS


def test_unknown_names_fail_clearly() -> None:
    with pytest.raises(ModelSpecError, match="unknown model spec 'no_such_module_xyz:Gen'"):
        resolve("no_such_module_xyz:Gen")          # looks like module:Class, but no such module
    with pytest.raises(ModelSpecError, match="cannot load model backend"):
        get_generator("npukernelbench.generators.reference:NoSuchClass")
    with pytest.raises(RegistryError, match="unknown toolchain 'cann'; choose one of: ascendc-sim"):
        get_toolchain("cann")
    with pytest.raises(RegistryError, match="cannot load toolchain 'no_such_module_xyz:Chain'"):
        get_toolchain("no_such_module_xyz:Chain")


def test_target_syntax() -> None:
    assert is_target("a.b:C") and is_target("a:B.C")
    assert not is_target("a.b") and not is_target("./dir:x") and not is_target("a:") and not is_target("a:b-c")
    registry = Registry("thing", "npukernelbench.no-such-group", {"x": "json:dumps"})
    assert registry.names() == ("x",)
    assert registry.load("x") is json.dumps
    with pytest.raises(RegistryError, match="cannot load thing 'json:nope'"):
        registry.load("json:nope")
