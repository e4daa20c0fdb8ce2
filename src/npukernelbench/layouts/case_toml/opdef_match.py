"""Does an OpDef, as a project's host code registers it, declare what ``case.toml`` says?

:func:`opdef_mismatches` compares one registered signature (``Toolchain.describe``: the OpDef after
compiling and running the host code) with the spec: the op name, every input and output (names, order,
parameter types, ValueDepend), the dtype combinations (the set of DataType columns, in any order; a DataTypeList
parameter fits every column), the formats (ND: ``case.toml`` declares no other) and the attributes
(names, order, types, required or optional, an optional one's default). It returns one line per
difference; an empty list means they agree. Used on every expert solution by the case tests.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from npukernelbench.layouts.case_toml.templates import param_type
from npukernelbench.spec import AttrDecl, ParamDecl, TaskSpec
from npukernelbench.toolchains.base import OpAttr, OpParam, OpSignature

FORMAT_ND = 2                     # ge::FORMAT_ND


def spec_columns(spec: TaskSpec) -> set[tuple[str, ...]]:
    """The dtype combinations the spec declares: one tuple (inputs, then outputs) per type combo."""
    decls = (*spec.inputs, *spec.outputs)
    return {tuple(combo.get(d.dtype, d.dtype) for d in decls) for combo in (spec.type_combos or ({},))}


def opdef_columns(sig: OpSignature) -> set[tuple[str, ...]]:
    """The dtype combinations an OpDef declares: its DataType columns, a DataTypeList parameter taking
    each of its dtypes in every column."""
    params = (*sig.inputs, *sig.outputs)
    per_column = [p for p in params if not p.any_column]
    width = max((len(p.dtypes) for p in per_column), default=1)
    columns: set[tuple[str, ...]] = set()
    for i in range(width):
        choices = [(p.dtypes[i] if i < len(p.dtypes) else "?",) if not p.any_column else p.dtypes for p in params]
        columns.update(itertools.product(*choices))
    return columns


def _params(role: str, decls: Sequence[ParamDecl], params: Sequence[OpParam]) -> list[str]:
    problems = []
    want, got = [d.name for d in decls], [p.name for p in params]
    if want != got:
        return [f"{role}s: case.toml declares {want}, the OpDef {got}"]
    for d, p in zip(decls, params, strict=True):
        if param_type(d) != p.param_type:
            problems.append(f"{role} '{d.name}': ParamType {p.param_type}, case.toml says {param_type(d)}")
        if role == "input" and d.value_depend != bool(p.value_depend):
            problems.append(f"input '{d.name}': ValueDepend({p.value_depend}), case.toml declares no value_depend"
                            if p.value_depend else
                            f"input '{d.name}': no ValueDepend, case.toml declares value_depend = true")
        if any(f != FORMAT_ND for f in p.formats):
            problems.append(f"{role} '{d.name}': formats {list(p.formats)} (ge::Format values), case.toml "
                            f"declares ND ({FORMAT_ND}) only")
    return problems


def _same_value(kind: str, a: Any, b: Any) -> bool:
    """Attribute defaults as the OpDef holds them: floats are float32 there."""
    if kind in ("float", "list_float"):
        xs, ys = (list(v) if isinstance(v, (list, tuple)) else [v] for v in (a, b))
        return len(xs) == len(ys) and all(
            (math.isnan(x) and math.isnan(y)) or np.float32(x) == np.float32(y) for x, y in zip(xs, ys, strict=True))
    return (list(a) if isinstance(a, (list, tuple)) else a) == (list(b) if isinstance(b, (list, tuple)) else b)


def _attrs(decls: Sequence[AttrDecl], attrs: Sequence[OpAttr]) -> list[str]:
    want, got = [a.name for a in decls], [a.name for a in attrs]
    if want != got:
        return [f"attrs: case.toml declares {want}, the OpDef {got}"]
    problems = []
    for d, a in zip(decls, attrs, strict=True):
        required = d.required
        if d.type != a.type:
            problems.append(f"attr '{d.name}': type {a.type}, case.toml says {d.type}")
        elif required != a.required:
            kind = "REQUIRED" if a.required else "OPTIONAL"
            problems.append(f"attr '{d.name}': AttrType({kind}), case.toml says "
                            + ("required" if required else f"optional (default {d.default!r})"))
        elif not required and d.default is not None and not (a.has_default and
                                                              _same_value(d.type, d.default, a.default)):
            problems.append(f"attr '{d.name}': default {a.default!r}, case.toml says {d.default!r}")
    return problems


def opdef_mismatches(spec: TaskSpec, signatures: Sequence[OpSignature]) -> list[str]:
    """Every difference between the spec and the OpDef named ``spec.op`` among ``signatures``."""
    sig = next((s for s in signatures if s.op == spec.op), None)
    if sig is None:
        return [f"no OpDef named {spec.op!r} is registered (found: {', '.join(s.op for s in signatures) or 'none'})"]
    problems = _params("input", spec.inputs, sig.inputs) + _params("output", spec.outputs, sig.outputs)
    if not problems:
        want, got = spec_columns(spec), opdef_columns(sig)
        if want != got:
            names = [d.name for d in (*spec.inputs, *spec.outputs)]
            missing, extra = sorted(want - got), sorted(got - want)
            problems.append(f"dtype combinations of ({', '.join(names)}): "
                            + "; ".join(part for part in (f"missing from the OpDef {missing}" if missing else "",
                                                          f"not in case.toml {extra}" if extra else "") if part))
    return problems + _attrs(spec.attrs, sig.attrs)
