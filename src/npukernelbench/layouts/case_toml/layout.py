"""The ``case-toml`` layout: a folder holding ``case.toml`` (docs/case-format.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from npukernelbench.soc_profiles import DEFAULT_SOC
from npukernelbench.spec import LAYOUT, SPEC_FILE

if TYPE_CHECKING:
    from npukernelbench.checker import BaselineCache, Checker, EvalOptions
    from npukernelbench.spec import StaticCase, TaskSpec
    from npukernelbench.toolchains.base import Toolchain


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
