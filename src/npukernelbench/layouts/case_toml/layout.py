"""The ``case-toml`` layout: a folder holding ``case.toml`` (docs/case-format.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from npukernelbench.soc_profiles import DEFAULT_SOC
from npukernelbench.spec import LAYOUT, SPEC_FILE

if TYPE_CHECKING:
    from npukernelbench.checker import BaselineCache, Checker, EvalOptions
    from npukernelbench.spec import StaticCase, TaskSpec
    from npukernelbench.toolchains.base import Toolchain


# What marks an expert solution as using the cube unit (its tasks launch on the AIC cores in the upstream
# modes unless case.toml's `cores` says otherwise): the AIC core count, cube instructions, the Matmul API,
# an AIC-only or mixed kernel type.
_CUBE = re.compile(r"\b(GetCoreNumAic|Mmad|ASCEND_IS_AIC|KERNEL_TYPE_AIC_ONLY|KERNEL_TYPE_MIX_\w+|REGIST_MATMUL_OBJ|"
                   r"MatmulImpl|MatmulType)\b|lib/matmul_intf\.h")


def launch_cores(spec: TaskSpec) -> str:
    """The cores the upstream modes' question host launches a case on: case.toml's ``cores``, else
    ``aic`` when the expert solution uses the cube unit, else ``aiv``."""
    if spec.cores is not None:
        return spec.cores
    solution = spec.solution or {}
    return "aic" if any(_CUBE.search(text) for text in solution.values()) else "aiv"


def _shape_text(shape: object) -> str:
    return json.dumps([list(s) for s in shape] if shape and isinstance(shape[0], (list, tuple)) else list(shape))


class CaseTomlLayout:
    name = LAYOUT
    default_soc = DEFAULT_SOC       # our cases are written for the simulator's 910B3

    def detect(self, folder: Path) -> bool:
        return (Path(folder) / SPEC_FILE).is_file()

    def load(self, folder: Path, root: Path) -> TaskSpec:
        from npukernelbench.spec import load_spec

        return load_spec(folder, root)

    def checker(self, spec: TaskSpec, toolchain: Toolchain, files: Mapping[str, str],
                options: EvalOptions | None = None, baseline: BaselineCache | None = None) -> Checker:
        from npukernelbench.layouts.case_toml.checker import CaseTomlChecker

        return CaseTomlChecker(spec, toolchain, files, options, baseline)

    def unsupported(self, toolchain: Toolchain) -> str | None:
        return None

    def describe_case(self, spec: TaskSpec, case: StaticCase) -> str:
        parts = []
        for decl in spec.inputs:
            if decl.name not in case.shapes:
                parts.append(f"{decl.name}: absent")
                continue
            shape = case.shapes[decl.name]
            dtype = case.dtype_of(decl)
            if decl.kind == "tensor":
                parts.append(f"{decl.name}: {dtype} {list(shape)}")
            else:
                parts.append(f"{decl.name}: {decl.kind} of {len(shape)} x {dtype} {[list(s) for s in shape]}")
        outputs = ", ".join(f"{d.name}: {case.dtype_of(d)}" for d in spec.outputs)
        text = f"case {case.index}: inputs {', '.join(parts)}; outputs {outputs}"
        if case.attrs:
            attrs = ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(case.attrs.items()))
            text += f"; attrs {attrs}"
        return text

    def mode_row(self, spec: TaskSpec, case: StaticCase) -> Mapping[str, object] | None:
        """``case_id`` (the case's index), the shape (one ``shape`` when every present input shares it,
        else ``<input>_shape`` each; an absent optional input is ``absent``), the dtype (one ``dtype`` when
        every parameter shares it, else ``<param>_dtype`` each), then every attribute of the case."""
        row: dict[str, object] = {"case_id": case.index}
        present = [d for d in spec.inputs if d.name in case.shapes]
        shapes = {d.name: _shape_text(case.shapes[d.name]) for d in present}
        if present and len(set(shapes.values())) == 1 and len(present) == len(spec.inputs):
            row["shape"] = next(iter(shapes.values()))
        else:
            for d in spec.inputs:
                row[f"{d.name}_shape"] = shapes.get(d.name, "absent")
        params = [*present, *spec.outputs]
        dtypes = {d.name: case.dtype_of(d) for d in params}
        if len(set(dtypes.values())) == 1:
            row["dtype"] = next(iter(dtypes.values()))
        else:
            row.update({f"{name}_dtype": dtype for name, dtype in dtypes.items()})
        for attr in spec.attrs:
            if attr.name in case.attrs:
                row[attr.name] = json.dumps(case.attrs[attr.name])
        return row

    def question_templates(self, spec: TaskSpec) -> Mapping[str, str]:
        from npukernelbench.layouts.case_toml.templates import question_templates

        return question_templates(spec.op, spec.kernel, spec.inputs, spec.outputs, spec.attrs, spec.type_combos,
                                  launch_cores(spec))
