"""The layouts that bind the candidate's operator through its host code (upstream, mkb) share
``layouts.host_bound.HostBoundLayout``: each builds its own checker, and each refuses, naming itself, a
toolchain that cannot describe host code."""

from __future__ import annotations

import pytest
from gxx_toolchain import GxxToolchain
from harness_paths import DATA

from npukernelbench.cases import load_case
from npukernelbench.checker import EvalOptions
from npukernelbench.layouts import layout_named, layout_of
from npukernelbench.layouts.host_bound import HostBoundLayout
from npukernelbench.layouts.mkb.checker import MkbChecker
from npukernelbench.layouts.upstream.checker import UpstreamChecker
from npukernelbench.registry import import_target
from npukernelbench.toolchains import toolchain_class


@pytest.mark.parametrize(("name", "checker_class", "named"), [
    ("mkb", MkbChecker, "the MultiKernelBench layout"),
    ("upstream", UpstreamChecker, "the upstream NPUKernelBench layout"),
])
def test_each_layout_names_its_own_checker_and_itself(tmp_path, name, checker_class, named):
    layout = layout_named(name)
    assert isinstance(layout, HostBoundLayout)
    assert import_target(layout.checker_target) is checker_class
    assert layout.unsupported(toolchain_class("ascendc-sim")()) is None
    assert layout.unsupported(GxxToolchain(tmp_path)) == (
        f"toolchain 'gxx-test' cannot describe host code, which {named} needs to bind the operator (use ascendc-sim)")


def test_checker_is_the_layouts_own():
    spec = load_case(DATA / "mkb" / "reference" / "elementwise" / "relu.py")
    checker = layout_of(spec).checker(spec, toolchain_class("ascendc-sim")(), {}, EvalOptions(shapes="static"))
    assert type(checker) is MkbChecker and checker.spec is spec
