"""Discover case folders and load them as TaskSpecs: our format (``case.toml``) and the public
NPUKernelBench layout (``api_desc.md`` + ``question/`` + ``answer/0/`` + ``validation/``), read unchanged.

Case ids are the folder path relative to the case root, where the root is the parent of the
``level1``/``level2``/``level3`` folder above the case (else the case folder's parent), so
``pytest benchmark_cases`` and ``pytest benchmark_cases/level1/math/add_custom`` name a case alike.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from pathlib import Path

from npukernelbench.dtypes import DTYPES
from npukernelbench.spec import DEFAULT_TOLERANCE as _TOL
from npukernelbench.spec import (
    SPEC_FILE,
    AttrDecl,
    DynamicSpec,
    ParamDecl,
    ReferenceSpec,
    SpecError,
    StaticCase,
    TaskSpec,
    Tolerance,
    load_spec,
    read_tree,
)

LEVEL_DIR = re.compile(r"^level([123])$")
_SKIP_DIRS = {"__pycache__", ".git", "solution", "template", "question", "answer", "validation", "_shared",
              "node_modules", ".hypothesis", ".pytest_cache"}
_GE = {row.ge_name: row.name for row in DTYPES.values()}
_GE.update({"DT_BFLOAT16": "bfloat16", "DT_FLOAT32": "float32"})


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

_CHAIN = re.compile(r"this->(Input|Output|Attr)\(\s*\"(\w+)\"\s*\)(.*?);", re.DOTALL)


def _opdef(path: Path, text: str) -> tuple[list[ParamDecl], list[ParamDecl], list[AttrDecl], list[dict[str, str]]]:
    inputs: list[ParamDecl] = []
    outputs: list[ParamDecl] = []
    attrs: list[AttrDecl] = []
    columns: dict[str, list[str]] = {}
    for kind, name, chain in _CHAIN.findall(text):
        if kind == "Attr":
            m = re.search(r"\.(Float|Int|Bool|String|ListInt|ListFloat|ListBool)\(\s*([^)]*)\)", chain)
            if not m:
                raise SpecError(path, f"Attr(\"{name}\")", "no value type (.Float/.Int/.Bool/.String/.ListInt...)")
            type_name = {"Float": "float", "Int": "int", "Bool": "bool", "String": "str", "ListInt": "list_int",
                         "ListFloat": "list_float", "ListBool": "list_bool"}[m.group(1)]
            raw = m.group(2).strip()
            default = None
            if raw:
                try:
                    default = {"float": float, "int": int}.get(type_name, lambda v: v)(raw.rstrip("fF"))
                except ValueError:
                    default = None
                if type_name == "bool":
                    default = raw == "true"
                if type_name == "str":
                    default = raw.strip('"')
            attrs.append(AttrDecl(name=name, type=type_name, default=default, required="REQUIRED" in chain))
            continue
        dm = re.search(r"\.DataType\(\s*\{([^}]*)\}", chain)
        if not dm:
            raise SpecError(path, f"{kind}(\"{name}\")", "no .DataType({...}) list")
        names = []
        for token in re.findall(r"(?:ge::)?(DT_\w+)", dm.group(1)):
            if token not in _GE:
                raise SpecError(path, f"{kind}(\"{name}\").DataType", f"unknown ge dtype {token}")
            names.append(_GE[token])
        columns[name] = names
        ptype = re.search(r"\.ParamType\(\s*(\w+)\s*\)", chain)
        pkind = ptype.group(1) if ptype else "REQUIRED"
        decl = ParamDecl(name=name, dtype=names[0], kind="list" if pkind == "DYNAMIC" else "tensor",
                         optional=pkind == "OPTIONAL")
        (inputs if kind == "Input" else outputs).append(decl)
    if not inputs or not outputs:
        raise SpecError(path, "OpDef", "no this->Input(...)/this->Output(...) declarations found")
    widths = {len(v) for v in columns.values()}
    if len(widths) != 1:
        raise SpecError(path, "OpDef.DataType", "the DataType lists of the inputs and outputs differ in length")
    width = widths.pop()
    combos = [{n: columns[n][j] for n in columns} for j in range(width)]
    return inputs, outputs, attrs, combos


def read_opdef(path: Path, text: str) -> tuple[list[ParamDecl], list[ParamDecl], list[AttrDecl], list[dict[str, str]]]:
    """The OpDef of a host source: inputs, outputs, attributes and the dtype columns (one binding of
    parameter name -> dtype per column of the ``DataType`` lists). Raises :class:`SpecError`."""
    return _opdef(path, text)


def load_public(folder: Path, root: Path | None = None) -> TaskSpec:
    """One task folder of the public NPUKernelBench layout (see DESIGN.md section 4)."""
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
    host = folder / "question" / "op_host" / f"{kernel}.cpp"
    if not host.is_file():
        raise SpecError(host, "<file>", "missing host template (named after the kernel file)")
    host_text = host.read_text(encoding="utf-8")
    m = re.search(r"class\s+(\w+)\s*:\s*public\s+OpDef", host_text)
    op = m.group(1) if m else folder.name
    inputs, outputs, attrs, combos = _opdef(host, host_text)
    level_dir = next((p for p in folder.parents if LEVEL_DIR.match(p.name)), None)
    level = int(LEVEL_DIR.match(level_dir.name).group(1)) if level_dir else 1
    category = folder.parent.name if level_dir and folder.parent != level_dir else "uncategorized"
    csv_path = validation / "test_cases.csv"
    with csv_path.open(encoding="utf-8", newline="") as fh:
        rows = [dict(r) for r in csv.DictReader(fh, delimiter=";")]
    if not rows:
        raise SpecError(csv_path, "<rows>", "no test cases")
    if "case_id" not in rows[0]:
        raise SpecError(csv_path, "case_id", "missing column (the first column names each case)")
    rows = [{k.strip(): (v or "").strip() for k, v in r.items() if k} for r in rows]
    cases = tuple(StaticCase(index=i, shapes={}, types={}, attrs=_row_attrs(r, attrs), seed=i)
                  for i, r in enumerate(rows))
    solution = read_tree(folder / "answer" / "0") or None
    try:
        case_id = folder.relative_to(root).as_posix()
    except ValueError:
        case_id = folder.name
    return TaskSpec(
        case_id=case_id, root=root, folder=folder, layout="npukernelbench", op=op, kernel=kernel, level=level,
        category=category, description=(folder / "api_desc.md").read_text(encoding="utf-8"),
        inputs=tuple(inputs), outputs=tuple(outputs), attrs=tuple(attrs), types={}, type_combos=(),
        cases=cases, dynamic=DynamicSpec(enabled=False),
        tolerance={name: Tolerance(r, a) for name, (r, a) in _TOL.items()},
        reference=ReferenceSpec("npukernelbench", validation), templates=read_tree(folder / "question"),
        solution=solution, extra={"csv_rows": rows, "dtype_columns": combos},
    )


def _row_attrs(row: dict[str, str], attrs: list[AttrDecl]) -> dict[str, object]:
    values: dict[str, object] = {}
    for a in attrs:
        raw = row.get(a.name)
        if raw is None or raw == "":
            values[a.name] = a.default
            continue
        try:
            if a.type == "float":
                values[a.name] = float(raw)
            elif a.type == "int":
                values[a.name] = int(raw)
            elif a.type == "bool":
                values[a.name] = raw.lower() in ("1", "true", "yes")
            elif a.type.startswith("list_"):
                conv = {"list_int": int, "list_float": float, "list_bool": lambda v: v.lower() == "true"}[a.type]
                values[a.name] = [conv(v) for v in re.findall(r"[-\w.]+", raw)]
            else:
                values[a.name] = raw
        except ValueError:
            values[a.name] = a.default
    return values
