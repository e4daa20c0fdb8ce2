"""Every expert solution's OpDef declares what its ``case.toml`` says (inputs and outputs: names, order,
parameter types, formats; the dtype combinations; attributes: names, order, types, required or
optional, defaults), read from the simulator's ``describe`` of the solution's host code (compiled
alone, cached per host sources: the solution's build reuses the objects). The generated templates
pass the same comparison, and a deliberately mismatched case fails it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from npukernelbench.layouts.case_toml.opdef_match import opdef_columns, opdef_mismatches, spec_columns
from npukernelbench.spec import load_spec
from npukernelbench.toolchains.base import KernelProject, OpAttr, OpParam, OpSignature

CASES = Path(__file__).resolve().parents[2] / "benchmark_cases"
WITH_SOLUTION = sorted(p.parent.relative_to(CASES).as_posix() for p in CASES.rglob("case.toml")
                       if (p.parent / "solution").is_dir())


def describe(sim, spec, files) -> list[OpSignature]:
    described = sim.describe(KernelProject(op=spec.op, kernel=spec.kernel, files=dict(files), params=()))
    assert described.ok, described.diagnostics
    return list(described.signatures)


def test_every_case_with_a_solution_is_checked() -> None:
    assert len(WITH_SOLUTION) >= 150


@pytest.mark.slow
@pytest.mark.parametrize("case", WITH_SOLUTION)
def test_solution_opdef_matches_case_toml(sim, case: str) -> None:
    spec = load_spec(CASES / case, CASES)
    assert spec.solution is not None
    problems = opdef_mismatches(spec, describe(sim, spec, spec.solution))
    assert not problems, f"{case}: the expert solution's OpDef differs from case.toml:\n" + "\n".join(problems)


@pytest.mark.parametrize("case", ["level1/math/add_custom", "level2/foreach/foreach_add_scalar",
                                  "level2/tensormove/strided_slice_assign_v2", "level3/sort/top_k_v3"])
def test_generated_templates_match_case_toml(sim, case: str) -> None:
    spec = load_spec(CASES / case, CASES)
    host = {k: v for k, v in spec.templates.items() if k.startswith("op_host/")}
    assert opdef_mismatches(spec, describe(sim, spec, host)) == []


MISMATCHES = [
    # (in the generated host source, replace the first / every occurrence of, by, what the comparison says)
    ('this->Input("x")', 1, 'this->Input("x1")', "inputs: case.toml declares ['x', 'y'], the OpDef ['x1', 'y']"),
    ('.DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})', 1, '.DataType({ge::DT_FLOAT, ge::DT_BF16, '
     'ge::DT_FLOAT16})', "not in case.toml [('float16', 'float32', 'float32'), ('float32', 'float16', 'float16')]"),
    ('ge::DT_BF16', -1, 'ge::DT_INT32', "missing from the OpDef [('bfloat16', 'bfloat16', 'bfloat16')]"),
    ('.ParamType(REQUIRED)', 1, '.ParamType(OPTIONAL)', "input 'x': ParamType OPTIONAL, case.toml says REQUIRED"),
    ('.Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})', 1, '.Format({ge::FORMAT_NCHW, ge::FORMAT_ND, '
     'ge::FORMAT_ND})', "input 'x': formats [0, 2, 2]"),
    ("AddCustom", -1, "AddCustomV2", "no OpDef named 'AddCustom' is registered (found: AddCustomV2)"),
    ("this->AICore()", 1, 'this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);\n        this->AICore()',
     "attrs: case.toml declares [], the OpDef ['alpha']"),
    ('.ParamType(REQUIRED)', 1, '.ParamType(REQUIRED).ValueDepend(OPTIONAL)',
     "input 'x': ValueDepend(OPTIONAL), case.toml declares no value_depend"),
]


@pytest.mark.parametrize("old, count, new, problem", MISMATCHES)
def test_a_mismatched_opdef_fails(sim, old: str, count: int, new: str, problem: str) -> None:
    spec = load_spec(CASES / "level1/math/add_custom", CASES)
    host = spec.templates["op_host/add_custom.cpp"]
    assert old in host
    problems = opdef_mismatches(spec, describe(sim, spec, {"op_host/add_custom.cpp": host.replace(old, new, count)}))
    assert any(problem in p for p in problems), problems


def test_mismatched_case_toml_fails_against_its_solution_signature(tmp_path) -> None:
    """The other direction: the OpDef unchanged, case.toml changed (an attribute's default, its
    kind, a dtype combination, an input's order) -- each is reported."""
    spec = load_spec(CASES / "level3/sort/top_k_v3", CASES)
    attrs = (OpAttr("sorted", "bool", False, True, True), OpAttr("largest", "bool", False, True, True))
    sig = OpSignature(op="TopKV3", inputs=(OpParam("x", "input", "REQUIRED", ("float16", "float32")),
                                           OpParam("k", "input", "REQUIRED", ("int32", "int32"))),
                      outputs=(OpParam("values", "output", "REQUIRED", ("float16", "float32")),
                               OpParam("indices", "output", "REQUIRED", ("int32", "int32"))), attrs=attrs)
    assert opdef_mismatches(spec, [sig]) == []
    flipped = dataclasses.replace(spec, attrs=(dataclasses.replace(spec.attrs[0], default=False), spec.attrs[1]))
    assert opdef_mismatches(flipped, [sig]) == ["attr 'sorted': default True, case.toml says False"]
    required = dataclasses.replace(spec, attrs=(dataclasses.replace(spec.attrs[0], default=None, required=True),
                                                spec.attrs[1]))
    assert opdef_mismatches(required, [sig]) == ["attr 'sorted': AttrType(OPTIONAL), case.toml says required"]
    narrower = dataclasses.replace(spec, type_combos=({"T": "float16"},))
    assert "not in case.toml [('float32', 'int32', 'float32', 'int32')]" in opdef_mismatches(narrower, [sig])[0]
    depends = dataclasses.replace(spec, inputs=(spec.inputs[0], dataclasses.replace(spec.inputs[1], value_depend=True)))
    assert opdef_mismatches(depends, [sig]) == ["input 'k': no ValueDepend, case.toml declares value_depend = true"]
    swapped = dataclasses.replace(spec, inputs=spec.inputs[::-1])
    assert opdef_mismatches(swapped, [sig]) == ["inputs: case.toml declares ['k', 'x'], the OpDef ['x', 'k']"]


def test_datatypelist_parameters_fit_every_column() -> None:
    sig = OpSignature(op="Op", inputs=(OpParam("x", "input", "REQUIRED", ("float16", "float32")),
                                       OpParam("i", "input", "REQUIRED", ("int32", "int64"), any_column=True)),
                      outputs=(OpParam("y", "output", "REQUIRED", ("float16", "float32")),), attrs=())
    assert opdef_columns(sig) == {("float16", "int32", "float16"), ("float16", "int64", "float16"),
                                  ("float32", "int32", "float32"), ("float32", "int64", "float32")}
    spec = load_spec(CASES / "level1/math/add_custom", CASES)
    assert spec_columns(spec) == {("float16", "float16", "float16"), ("bfloat16", "bfloat16", "bfloat16"),
                                  ("float32", "float32", "float32")}
