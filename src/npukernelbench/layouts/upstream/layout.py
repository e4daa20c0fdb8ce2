"""The ``upstream`` layout: detection, loading into a TaskSpec, its checker and its prompt part.

The operator's inputs, outputs and attributes are not read from the templates: a candidate's own
compiled OpDef and the task's ``validation/pybind.cpp`` bind them when it runs (``op_call``). Every
row of ``validation/test_cases.csv`` is one static case (``StaticCase.row``); the dynamic cases are
rows drawn from them (``row_variants``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from npukernelbench.layouts.host_bound import HostBoundLayout

if TYPE_CHECKING:
    from npukernelbench.spec import StaticCase, TaskSpec

NAME = "upstream"
# The SoC of the project-mode prompt and checks (docs/simulator.md, "SoC profiles"). The expert answers
# of the public dev half were written for the 910B3's 40 vector cores (one of them refuses 48 in its
# tiling function); upstream's own prompt names the Ascend910_9392, which the kernel-only and full modes
# use (modes.UPSTREAM_SOC).
PROJECT_SOC = "Ascend910B3"


class UpstreamLayout(HostBoundLayout):
    name = NAME
    checker_target = "npukernelbench.layouts.upstream.checker:UpstreamChecker"
    described_as = "upstream NPUKernelBench"
    default_soc = PROJECT_SOC

    def detect(self, folder: Path) -> bool:
        folder = Path(folder)
        return (folder / "api_desc.md").is_file() and (folder / "validation").is_dir()

    def load(self, folder: Path, root: Path) -> TaskSpec:
        return load_task(folder, root)

    def describe_case(self, spec: TaskSpec, case: StaticCase) -> str:
        from npukernelbench.layouts.upstream.rows import Row

        row = case.row if isinstance(case.row, Row) else Row(case.row or {})
        return f"case {case.index}: {row.label()}"

    def mode_row(self, spec: TaskSpec, case: StaticCase) -> Mapping[str, object] | None:
        if case.row is None or "case_id" not in case.row:
            return None
        return case.row

    def question_templates(self, spec: TaskSpec) -> Mapping[str, str]:
        return spec.templates                # question/: its host sets the block dim already


def load_task(folder: Path, root: Path | None = None) -> TaskSpec:
    """One task folder of the upstream layout (raises SpecError)."""
    from npukernelbench.cases import LEVEL_DIR, case_root
    from npukernelbench.layouts.upstream.rows import RowsError, read_rows
    from npukernelbench.spec import (
        DEFAULT_TOLERANCE,
        DynamicSpec,
        ReferenceSpec,
        SpecError,
        StaticCase,
        TaskSpec,
        Tolerance,
        read_tree,
    )

    folder = Path(folder).resolve()
    root = Path(root).resolve() if root else case_root(folder)
    validation = folder / "validation"
    for needed in ("module.py", "prepare_inputs.py", "test_cases.csv"):
        if not (validation / needed).is_file():
            raise SpecError(validation / needed, "<file>", "missing (the NPUKernelBench layout needs validation/"
                                                          "module.py, prepare_inputs.py and test_cases.csv)")
    kernels = sorted((folder / "question" / "op_kernel").glob("*.cpp"))
    if len(kernels) != 1:
        raise SpecError(folder / "question" / "op_kernel", "<folder>",
                        f"expected exactly one kernel template .cpp, found {len(kernels)}")
    kernel = kernels[0].stem
    if not any((folder / "question" / "op_host").glob("*.cpp")):
        raise SpecError(folder / "question" / "op_host", "<folder>", "no host template (op_host/*.cpp)")
    if not (validation / "pybind.cpp").is_file():
        raise SpecError(validation / "pybind.cpp", "<file>", "missing (it binds the operator as kernel_gen_ops)")
    op = folder.name                     # task folders are named after the OpDef type
    level_dir = next((p for p in folder.parents if LEVEL_DIR.match(p.name)), None)
    match = LEVEL_DIR.match(level_dir.name) if level_dir else None
    level = int(match.group(1)) if match else 1
    category = folder.parent.name if level_dir and folder.parent != level_dir else "uncategorized"
    csv_path = validation / "test_cases.csv"
    try:
        rows = read_rows(csv_path)
    except RowsError as exc:
        raise SpecError(csv_path, "<rows>", str(exc)) from None
    if "case_id" not in rows[0]:
        raise SpecError(csv_path, "case_id", "missing column (the first column names each case)")
    cases = tuple(StaticCase(index=i, shapes={}, types={}, attrs={}, seed=i, row=row) for i, row in enumerate(rows))
    solution = read_tree(folder / "answer" / "0") or None
    try:
        case_id = folder.relative_to(root).as_posix()
    except ValueError:
        case_id = folder.name
    return TaskSpec(
        case_id=case_id, root=root, folder=folder, layout=NAME, op=op, kernel=kernel, level=level,
        category=category, description=(folder / "api_desc.md").read_text(encoding="utf-8"),
        inputs=(), outputs=(), attrs=(), types={}, type_combos=(),
        cases=cases, dynamic=DynamicSpec(enabled=True),       # rows drawn from these (row_variants)
        tolerance={name: Tolerance(r, a) for name, (r, a) in DEFAULT_TOLERANCE.items()},
        reference=ReferenceSpec("torch-model", validation), templates=read_tree(folder / "question"),
        solution=solution,
    )
