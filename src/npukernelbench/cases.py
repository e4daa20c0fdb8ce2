"""Discover case folders and load them as TaskSpecs: our format (``case.toml``) and the public
NPUKernelBench layout (``api_desc.md`` + ``question/`` + ``answer/0/`` + ``validation/``), read unchanged.

Case ids are the folder path relative to the case root, where the root is the parent of the
``level1``/``level2``/``level3`` folder above the case (else the case folder's parent), so
``pytest benchmark_cases`` and ``pytest benchmark_cases/level1/math/add_custom`` name a case alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from npukernelbench.dtypes import DTYPES
from npukernelbench.public.rows import RowsError, read_rows
from npukernelbench.spec import DEFAULT_TOLERANCE as _TOL
from npukernelbench.spec import (
    SPEC_FILE,
    DynamicSpec,
    ReferenceSpec,
    SpecError,
    StaticCase,
    TaskSpec,
    Tolerance,
    load_spec,
    read_tree,
)

LEVEL_DIR = re.compile(r"^level([123])$")
_GE = {row.ge_name: row.name for row in DTYPES.values()}
_GE.update({"DT_BFLOAT16": "bfloat16", "DT_FLOAT32": "float32"})
_SKIP_DIRS = {"__pycache__", ".git", "solution", "template", "question", "answer", "validation", "_shared",
              "node_modules", ".hypothesis", ".pytest_cache"}


def layout_of(folder: Path) -> str | None:
    """``npukb`` for our format, ``npukernelbench`` for the public layout, None otherwise."""
    if (folder / SPEC_FILE).is_file():
        return "npukb"
    if (folder / "api_desc.md").is_file() and (folder / "validation").is_dir():
        return "npukernelbench"
    return None


def case_root(folder: Path) -> Path:
    folder = folder.resolve()
    for parent in folder.parents:
        if LEVEL_DIR.match(parent.name):
            return parent.parent
    return folder.parent


def find_case_dirs(path: Path) -> list[Path]:
    """Case folders at or below ``path``, sorted."""
    path = Path(path).resolve()
    if layout_of(path):
        return [path]
    if not path.is_dir():
        return []
    found: list[Path] = []

    def walk(folder: Path) -> None:
        for child in sorted(folder.iterdir()):
            if not child.is_dir() or child.name in _SKIP_DIRS or child.name.startswith("."):
                continue
            if layout_of(child):
                found.append(child)
            else:
                walk(child)

    walk(path)
    return found


def load_case(folder: Path, root: Path | None = None) -> TaskSpec:
    folder = Path(folder).resolve()
    root = Path(root).resolve() if root else case_root(folder)
    layout = layout_of(folder)
    if layout == "npukb":
        return load_spec(folder, root)
    if layout == "npukernelbench":
        return load_public(folder, root)
    raise SpecError(folder, "<folder>", "not a case folder: expected case.toml, or api_desc.md with validation/")


def discover(paths: Iterable[Path | str]) -> list[TaskSpec]:
    """Every case under ``paths`` (case roots or single case folders, either layout), deduplicated."""
    seen: set[Path] = set()
    specs = []
    for p in paths:
        for folder in find_case_dirs(Path(p)):
            if folder in seen:
                continue
            seen.add(folder)
            specs.append(load_case(folder))
    return specs


# -- the public NPUKernelBench layout ------------------------------------------------------------

def load_public(folder: Path, root: Path | None = None) -> TaskSpec:
    """One task folder of the public NPUKernelBench layout. The operator's inputs, outputs and
    attributes are not read from the templates: a candidate's own compiled OpDef and the task's
    ``validation/pybind.cpp`` bind them when it runs (``npukernelbench.public``)."""
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
    level = int(LEVEL_DIR.match(level_dir.name).group(1)) if level_dir else 1
    category = folder.parent.name if level_dir and folder.parent != level_dir else "uncategorized"
    csv_path = validation / "test_cases.csv"
    try:
        rows = read_rows(csv_path)
    except RowsError as exc:
        raise SpecError(csv_path, "<rows>", str(exc)) from None
    if "case_id" not in rows[0]:
        raise SpecError(csv_path, "case_id", "missing column (the first column names each case)")
    cases = tuple(StaticCase(index=i, shapes={}, types={}, attrs={}, seed=i) for i in range(len(rows)))
    solution = read_tree(folder / "answer" / "0") or None
    try:
        case_id = folder.relative_to(root).as_posix()
    except ValueError:
        case_id = folder.name
    return TaskSpec(
        case_id=case_id, root=root, folder=folder, layout="npukernelbench", op=op, kernel=kernel, level=level,
        category=category, description=(folder / "api_desc.md").read_text(encoding="utf-8"),
        inputs=(), outputs=(), attrs=(), types={}, type_combos=(),
        cases=cases, dynamic=DynamicSpec(enabled=False),
        tolerance={name: Tolerance(r, a) for name, (r, a) in _TOL.items()},
        reference=ReferenceSpec("npukernelbench", validation), templates=read_tree(folder / "question"),
        solution=solution, extra={"csv_rows": rows},
    )
