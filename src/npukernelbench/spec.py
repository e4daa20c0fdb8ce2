"""TaskSpec: the declarative description of one benchmark task, and its validating loader.

A case folder in our format (``benchmark_cases/level1/math/add_custom/``) holds:

- ``case.toml``: this spec (see ``docs/case-format.md``);
- ``api_desc.md``: the API description shown to the model;
- ``reference.py``: ``reference(*inputs, **attrs)``, the torch semantics, importable without side
  effects; optional hooks ``make_inputs``, ``draw_case`` and ``check`` (see the docs);
- no template files: what the model starts from (``op_host/<kernel>.cpp`` with the OpDef,
  ``op_kernel/<kernel>.cpp`` with the kernel signature) is generated from this spec
  (:mod:`npukernelbench.layouts.case_toml.templates`);
- ``solution/...``: the expert solution, same relative paths as the generated project; files shared
  by several solutions (a common kernel base) are added through ``solution_files``, a table mapping a
  project path (``op_kernel/elementwise.h``) to a file path relative to the case folder.

Every problem in a spec raises :class:`SpecError` naming the file, the field and the problem.
"""

from __future__ import annotations

import itertools
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npukernelbench.dtypes import DTYPES
from npukernelbench.layouts.case_toml.templates import render_templates

SPEC_FILE = "case.toml"
LAYOUT = "case-toml"               # the name of this format in the layout registry (npukernelbench.layouts)
ATTR_TYPES = ("float", "int", "bool", "str", "list_int", "list_float", "list_bool")
DISTRIBUTION_KINDS = ("uniform", "normal", "int", "bool", "choice", "special")
PARAM_KINDS = ("tensor", "list", "scalar", "scalar_list")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

DEFAULT_TOLERANCE: dict[str, tuple[float, float]] = {
    # dtype: (rtol, atol), the per-dtype defaults of torch.testing.assert_close. Integer and bool
    # outputs compare exactly.
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-8),
    "complex64": (1.3e-6, 1e-5),
}


class SpecError(ValueError):
    """A case spec is invalid. The message names the file, the field and the problem."""

    def __init__(self, path: Path | str, field_name: str, problem: str):
        self.path = Path(path)
        self.field = field_name
        self.problem = problem
        super().__init__(f"{path}: field '{field_name}': {problem}")


@dataclass(frozen=True)
class Distribution:
    """How input values are drawn. ``special`` mixes uniform values with NaN/Inf/-Inf/0."""

    kind: str = "uniform"
    low: float = -1.0
    high: float = 1.0
    mean: float = 0.0
    std: float = 1.0
    values: tuple[Any, ...] = ()
    special_fraction: float = 0.0   # share of elements replaced by nan/inf/-inf (special kind)


@dataclass(frozen=True)
class ParamDecl:
    """An input or output parameter of the operator, in kernel argument order."""

    name: str
    dtype: str                       # a concrete dtype name or a type variable from [types]
    kind: str = "tensor"             # tensor | list (DYNAMIC tensor list) | scalar | scalar_list
    # scalar: a 1-element tensor input of shape [1]; scalar_list: a 1-D tensor input of shape [n], n the
    # length of the task's tensor lists (how the real Foreach operators take them; docs/tensor-lists.md)
    optional: bool = False           # OPTIONAL input: may be absent (nullptr) in a case
    distribution: Distribution = field(default_factory=Distribution)
    inplace: str | None = None       # outputs only: the input whose buffer holds this output
    partial_read: bool = False       # inputs only: a correct kernel may read only part of it (gather
    #                                  tables, sliced inputs, ValueDepend parameters): speed_audit floors
    value_depend: bool = False       # inputs only: the host tiling reads its values (OpDef ValueDepend(REQUIRED))


@dataclass(frozen=True)
class AttrDecl:
    name: str
    type: str                        # one of ATTR_TYPES
    default: Any = None
    required: bool = False


@dataclass(frozen=True)
class StaticCase:
    """One static shape case. ``shapes`` maps input name to a shape (a list of shapes for lists);
    an optional input missing from ``shapes`` is absent. ``types`` binds every type variable. A case
    of the upstream layout is one row of its ``test_cases.csv`` instead (``row``: the parameters
    its ``get_inputs`` reads; ``shapes``, ``types`` and ``attrs`` are then empty)."""

    index: int
    shapes: Mapping[str, Any]
    types: Mapping[str, str]
    attrs: Mapping[str, Any]
    seed: int = 0
    row: Mapping[str, Any] | None = None

    def dtype_of(self, decl: ParamDecl) -> str:
        return self.types.get(decl.dtype, decl.dtype)


@dataclass(frozen=True)
class DynamicSpec:
    """Hypothesis strategy parameters for dynamic shapes. ``hook`` names a ``draw_case(draw, spec)``
    function in reference.py that replaces the declarative strategy."""

    ranks: tuple[int, int] = (1, 4)
    dim: tuple[int, int] = (1, 4096)
    min_elements: int = 1
    max_elements: int = 1 << 20
    same_shape: bool = True          # all tensor inputs share one drawn shape
    unaligned: bool = True           # allow last dims whose byte size is not 32-byte aligned
    multiple_of: int = 1             # last dim is a multiple of this (e.g. 2 for complex pairs)
    list_len: tuple[int, int] = (1, 50)
    type_combos: tuple[Mapping[str, str], ...] = ()   # empty: every combo of the spec
    attrs: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # attr -> choices
    hook: str | None = None
    enabled: bool = True


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float
    mismatch: float = 0.0            # integer outputs: share of elements that may differ (each by <= atol)


@dataclass(frozen=True)
class ReferenceSpec:
    """Where the torch semantics live. ``kind`` is ``function`` (our reference.py) or ``torch-model``
    (the upstream layout: validation/module.py ``Model`` + prepare_inputs.py)."""

    kind: str
    path: Path


@dataclass(frozen=True)
class ModeRow:
    """The one row an upstream generation mode asks for (``kernel-only``, ``full``): made by
    :func:`npukernelbench.modes.expand`, absent from a task as loaded (``project`` mode)."""
    mode: str                        # the generation mode
    case_id: str                     # the row's case_id, as the CSV writes it
    task: str                        # the id of the task the row comes from
    case_ids: tuple[str, ...]        # every case_id of that task (to name an unknown one)
    row: Mapping[str, Any]           # the row as the prompt shows it (case_id first)


@dataclass(frozen=True)
class TaskSpec:
    case_id: str                     # folder path relative to its root, e.g. level1/math/add_custom
    root: Path
    folder: Path
    layout: str                      # the registered name of its layout (npukernelbench.layouts)
    op: str                          # OpDef type name, e.g. AddCustom
    kernel: str                      # kernel entry / file stem, e.g. add_custom
    level: int
    category: str
    description: str                 # API description text shown to the model
    inputs: tuple[ParamDecl, ...]
    outputs: tuple[ParamDecl, ...]
    attrs: tuple[AttrDecl, ...]
    types: Mapping[str, tuple[str, ...]]
    type_combos: tuple[Mapping[str, str], ...]
    cases: tuple[StaticCase, ...]
    dynamic: DynamicSpec
    tolerance: Mapping[str, Tolerance]
    reference: ReferenceSpec
    templates: Mapping[str, str]     # relative path -> text (what the model starts from)
    solution: Mapping[str, str] | None   # relative path -> text; None when the task ships none
    nan_policy: str = "match"        # match: NaN where the reference has NaN; forbid: no NaN at all
    seeds: int = 3
    extra: Mapping[str, Any] = field(default_factory=dict)    # case.toml `extra`: the case's own free-form data
    cores: str | None = None         # case.toml `cores`: the upstream modes' launch cores (aiv, aic; None: decided
                                     # by the layout, see layouts/case_toml/layout.py)
    mode_row: ModeRow | None = None  # the row of an upstream generation mode (None: project mode)

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def markers(self) -> tuple[str, ...]:
        return (f"level{self.level}", marker_name(self.category))

    def tolerance_for(self, dtype_name: str) -> Tolerance | None:
        """None means exact comparison (integer and bool outputs)."""
        return self.tolerance.get(dtype_name)

    def required_files(self) -> tuple[str, ...]:
        """Files a project must contain: the kernel entry, named after the kernel. Host sources have
        free names (``op_host/<op>.cpp``, ``<op>_tiling.cpp``, ``<op>_def.cpp``, ...); at least one is
        needed (``extract.check_project``)."""
        return (f"op_kernel/{self.kernel}.cpp",)


def marker_name(category: str) -> str:
    """Category -> pytest marker: lower case, non-identifier characters to underscores."""
    return re.sub(r"[^a-z0-9_]", "_", category.lower())


def read_tree(folder: Path) -> dict[str, str]:
    """All text files under ``folder`` keyed by their path relative to it (posix separators)."""
    if not folder.is_dir():
        return {}
    files: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            files[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8")
    return files


class _Reader:
    """Typed field access on a TOML table with SpecError messages."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, name: str, problem: str) -> SpecError:
        return SpecError(self.path, name, problem)

    def get(self, table: Mapping[str, Any], key: str, prefix: str, kind: type | tuple[type, ...],
            default: Any = ..., required: bool = False) -> Any:
        name = f"{prefix}{key}"
        if key not in table:
            if required or default is ...:
                raise self.fail(name, "missing (required)")
            return default
        value = table[key]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise self.fail(name, f"expected {_kind_name(kind)}, got a boolean")
        if not isinstance(value, kind):
            raise self.fail(name, f"expected {_kind_name(kind)}, got {type(value).__name__} {value!r}")
        return value

    def pair(self, table: Mapping[str, Any], key: str, prefix: str, default: tuple[int, int]) -> tuple[int, int]:
        value = self.get(table, key, prefix, list, default=list(default))
        if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self.fail(f"{prefix}{key}", f"expected [min, max] integers, got {value!r}")
        lo, hi = value
        if lo > hi:
            raise self.fail(f"{prefix}{key}", f"min {lo} is greater than max {hi}")
        return lo, hi

    def check_keys(self, table: Mapping[str, Any], allowed: set[str], prefix: str) -> None:
        unknown = sorted(set(table) - allowed)
        if unknown:
            raise self.fail(f"{prefix}{unknown[0]}", f"unknown field; allowed: {', '.join(sorted(allowed))}")


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "an integer", float: "a number", str: "a string", bool: "a boolean", list: "a list",
             dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _distribution(r: _Reader, table: Any, prefix: str) -> Distribution:
    if table is None:
        return Distribution()
    if not isinstance(table, dict):
        raise r.fail(prefix.rstrip("."), "expected a table like { kind = \"uniform\", low = -1, high = 1 }")
    r.check_keys(table, {"kind", "low", "high", "mean", "std", "values", "special_fraction"}, prefix)
    kind = r.get(table, "kind", prefix, str, default="uniform")
    if kind not in DISTRIBUTION_KINDS:
        raise r.fail(f"{prefix}kind", f"unknown distribution {kind!r}; use one of {', '.join(DISTRIBUTION_KINDS)}")
    num = (int, float)
    low = float(r.get(table, "low", prefix, num, default=-1.0))
    high = float(r.get(table, "high", prefix, num, default=1.0))
    if low > high:
        raise r.fail(f"{prefix}low", f"low {low} is greater than high {high}")
    values = tuple(r.get(table, "values", prefix, list, default=[]))
    if kind == "choice" and not values:
        raise r.fail(f"{prefix}values", "a choice distribution needs a non-empty list of values")
    frac = float(r.get(table, "special_fraction", prefix, num, default=0.1 if kind == "special" else 0.0))
    if not 0.0 <= frac <= 1.0:
        raise r.fail(f"{prefix}special_fraction", f"must be within [0, 1], got {frac}")
    std = float(r.get(table, "std", prefix, num, default=1.0))
    if std < 0:
        raise r.fail(f"{prefix}std", f"must be >= 0, got {std}")
    return Distribution(kind=kind, low=low, high=high, mean=float(r.get(table, "mean", prefix, num, default=0.0)),
                        std=std, values=values, special_fraction=frac)


def _params(r: _Reader, data: Mapping[str, Any], key: str, types: Mapping[str, tuple[str, ...]],
            outputs: bool, input_names: set[str] | None = None) -> tuple[ParamDecl, ...]:
    items = r.get(data, key, "", list, required=not outputs or key == "outputs")
    if not items:
        raise r.fail(key, "needs at least one entry")
    decls: list[ParamDecl] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        prefix = f"{key}[{i}]."
        if not isinstance(item, dict):
            raise r.fail(f"{key}[{i}]", "expected a table ([[inputs]] / [[outputs]])")
        allowed = {"name", "dtype", "kind", "optional", "distribution"} | ({"inplace"} if outputs else
                                                                         {"partial_read", "value_depend"})
        r.check_keys(item, allowed, prefix)
        name = r.get(item, "name", prefix, str, required=True)
        if not IDENT.match(name):
            raise r.fail(f"{prefix}name", f"{name!r} is not a C identifier")
        if name in seen or (input_names and name in input_names):
            raise r.fail(f"{prefix}name", f"duplicate parameter name {name!r}")
        seen.add(name)
        dt = r.get(item, "dtype", prefix, str, required=True)
        if dt not in DTYPES and dt not in types:
            raise r.fail(f"{prefix}dtype", f"{dt!r} is neither a dtype ({', '.join(DTYPES)}) nor a type "
                                           f"variable declared in [types] ({', '.join(types) or 'none'})")
        kind = r.get(item, "kind", prefix, str, default="tensor")
        if kind not in PARAM_KINDS:
            raise r.fail(f"{prefix}kind", f"unknown kind {kind!r}; use one of {', '.join(PARAM_KINDS)}")
        inplace = r.get(item, "inplace", prefix, str, default=None) if outputs else None
        if inplace is not None and input_names is not None and inplace not in input_names:
            raise r.fail(f"{prefix}inplace", f"no input named {inplace!r}")
        decls.append(ParamDecl(name=name, dtype=dt, kind=kind,
                               optional=r.get(item, "optional", prefix, bool, default=False),
                               distribution=_distribution(r, item.get("distribution"), f"{prefix}distribution."),
                               inplace=inplace,
                               partial_read=False if outputs else r.get(item, "partial_read", prefix, bool,
                                                                        default=False),
                               value_depend=False if outputs else r.get(item, "value_depend", prefix, bool,
                                                                        default=False)))
    return tuple(decls)


def _attr_value_ok(type_name: str, value: Any) -> bool:
    def is_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def is_num(v: Any) -> bool:
        return is_int(v) or isinstance(v, float)

    checks = {
        "float": is_num, "int": is_int, "bool": lambda v: isinstance(v, bool), "str": lambda v: isinstance(v, str),
        "list_int": lambda v: isinstance(v, list) and all(is_int(x) for x in v),
        "list_float": lambda v: isinstance(v, list) and all(is_num(x) for x in v),
        "list_bool": lambda v: isinstance(v, list) and all(isinstance(x, bool) for x in v),
    }
    return checks[type_name](value)


def _attrs(r: _Reader, data: Mapping[str, Any]) -> tuple[AttrDecl, ...]:
    decls = []
    for i, item in enumerate(r.get(data, "attrs", "", list, default=[])):
        prefix = f"attrs[{i}]."
        if not isinstance(item, dict):
            raise r.fail(f"attrs[{i}]", "expected a table ([[attrs]])")
        r.check_keys(item, {"name", "type", "default", "required"}, prefix)
        name = r.get(item, "name", prefix, str, required=True)
        type_name = r.get(item, "type", prefix, str, required=True)
        if type_name not in ATTR_TYPES:
            raise r.fail(f"{prefix}type", f"unknown attribute type {type_name!r}; use one of {', '.join(ATTR_TYPES)}")
        required = r.get(item, "required", prefix, bool, default="default" not in item)
        default = item.get("default")
        if default is not None and not _attr_value_ok(type_name, default):
            raise r.fail(f"{prefix}default", f"{default!r} is not a valid {type_name}")
        decls.append(AttrDecl(name=name, type=type_name, default=default, required=required))
    return tuple(decls)


def _types(r: _Reader, data: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    table = r.get(data, "types", "", dict, default={})
    types: dict[str, tuple[str, ...]] = {}
    for var, names in table.items():
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise r.fail(f"types.{var}", "expected a non-empty list of dtype names")
        for n in names:
            if n not in DTYPES:
                raise r.fail(f"types.{var}", f"unknown dtype {n!r}; known: {', '.join(DTYPES)}")
        if var in DTYPES:
            raise r.fail(f"types.{var}", "a type variable cannot be named like a dtype")
        types[var] = tuple(names)
    return types


def _combos(r: _Reader, data: Mapping[str, Any], types: Mapping[str, tuple[str, ...]]) -> tuple[dict[str, str], ...]:
    explicit = r.get(data, "type_combos", "", list, default=None)
    if explicit is None:
        names = list(types)
        return tuple(dict(zip(names, combo, strict=True)) for combo in itertools.product(*(types[n] for n in names)))
    combos = []
    for i, combo in enumerate(explicit):
        _check_binding(r, f"type_combos[{i}]", combo, types)
        combos.append(dict(combo))
    return tuple(combos)


def _check_binding(r: _Reader, name: str, binding: Any, types: Mapping[str, tuple[str, ...]]) -> None:
    if not isinstance(binding, dict):
        raise r.fail(name, "expected a table binding every type variable, e.g. { T = \"float16\" }")
    missing = sorted(set(types) - set(binding))
    if missing:
        raise r.fail(name, f"type variable {missing[0]!r} is not bound")
    for var, dt in binding.items():
        if var not in types:
            raise r.fail(f"{name}.{var}", f"no type variable {var!r} in [types]")
        if dt not in types[var]:
            raise r.fail(f"{name}.{var}", f"{dt!r} is not one of {', '.join(types[var])}")


def _shape_ok(shape: Any) -> bool:
    return isinstance(shape, list) and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)


def _default_list_shapes(r: _Reader, prefix: str, inputs: tuple[ParamDecl, ...], shapes: dict[str, Any]) -> None:
    """Tensor-list defaults of one static case: a required list input without shapes takes those of the
    first list input given (paired lists), a scalar input gets [1], a scalar list gets [n] with n the
    list length; a given scalar list must match the list length."""
    lists = [d for d in inputs if d.kind == "list" and d.name in shapes]
    first = shapes[lists[0].name] if lists else None
    for decl in inputs:
        if decl.name in shapes or decl.optional:
            continue
        if decl.kind == "list" and first is not None:
            shapes[decl.name] = first
        elif decl.kind == "scalar":
            shapes[decl.name] = [1]
        elif decl.kind == "scalar_list" and isinstance(first, list):
            shapes[decl.name] = [len(first)]
    for decl in inputs:
        shape = shapes.get(decl.name)
        if decl.kind == "list" and isinstance(shape, list) and isinstance(first, list) and len(shape) != len(first):
            raise r.fail(f"{prefix}shapes.{decl.name}", f"tensor lists of one case have the same length: "
                                                        f"{len(shape)} tensors here, {len(first)} in '{lists[0].name}'")
        if decl.kind == "scalar_list" and isinstance(first, list) and shape != [len(first)]:
            raise r.fail(f"{prefix}shapes.{decl.name}", f"a scalar list holds one value per tensor of the list: "
                                                        f"shape [{len(first)}] expected, got {shape!r}")


def _cases(r: _Reader, data: Mapping[str, Any], inputs: tuple[ParamDecl, ...], attrs: tuple[AttrDecl, ...],
           types: Mapping[str, tuple[str, ...]]) -> tuple[StaticCase, ...]:
    items = r.get(data, "cases", "", list, required=True)
    if not items:
        raise r.fail("cases", "needs at least one static case")
    attr_decls = {a.name: a for a in attrs}
    cases = []
    for i, item in enumerate(items):
        prefix = f"cases[{i}]."
        if not isinstance(item, dict):
            raise r.fail(f"cases[{i}]", "expected a table ([[cases]])")
        r.check_keys(item, {"shapes", "shape", "types", "attrs", "seed"}, prefix)
        shapes = dict(r.get(item, "shapes", prefix, dict, default={}))
        if "shape" in item:  # shorthand: every tensor input gets this shape
            common = item["shape"]
            if not _shape_ok(common):
                raise r.fail(f"{prefix}shape", f"expected a list of non-negative integers, got {common!r}")
            for decl in inputs:
                if decl.kind == "tensor" and not decl.optional:
                    shapes.setdefault(decl.name, common)
        _default_list_shapes(r, prefix, inputs, shapes)
        for decl in inputs:
            if decl.name not in shapes:
                if not decl.optional:
                    raise r.fail(f"{prefix}shapes.{decl.name}", "missing shape for a required input")
                continue
            shape = shapes[decl.name]
            if decl.kind in ("tensor", "scalar", "scalar_list") and not _shape_ok(shape):
                raise r.fail(f"{prefix}shapes.{decl.name}",
                             f"expected a shape (list of non-negative integers), got {shape!r}")
            if decl.kind == "scalar" and shape != [1]:
                raise r.fail(f"{prefix}shapes.{decl.name}", f"a scalar input has shape [1], got {shape!r}")
            if decl.kind == "list" and not (isinstance(shape, list) and all(_shape_ok(s) for s in shape)):
                raise r.fail(f"{prefix}shapes.{decl.name}", f"a list input needs a list of shapes, got {shape!r}")
        unknown = sorted(set(shapes) - {d.name for d in inputs})
        if unknown:
            raise r.fail(f"{prefix}shapes.{unknown[0]}", "no input of that name")
        binding = r.get(item, "types", prefix, dict, default={} if not types else ...)
        if len(types) == 0 and binding:
            raise r.fail(f"{prefix}types", "the spec declares no type variables")
        _check_binding(r, f"{prefix}types", binding, types)
        given = r.get(item, "attrs", prefix, dict, default={})
        values: dict[str, Any] = {}
        for name, value in given.items():
            if name not in attr_decls:
                raise r.fail(f"{prefix}attrs.{name}", "no attribute of that name in [[attrs]]")
            if not _attr_value_ok(attr_decls[name].type, value):
                raise r.fail(f"{prefix}attrs.{name}", f"{value!r} is not a valid {attr_decls[name].type}")
            values[name] = value
        for decl in attrs:
            if decl.name not in values:
                if decl.required and decl.default is None:
                    raise r.fail(f"{prefix}attrs.{decl.name}", "required attribute without a default is not set")
                values[decl.name] = decl.default
        seed = r.get(item, "seed", prefix, int, default=i)
        cases.append(StaticCase(index=i, shapes=shapes, types=dict(binding), attrs=values, seed=seed))
    return tuple(cases)


def _dynamic(r: _Reader, data: Mapping[str, Any], types: Mapping[str, tuple[str, ...]],
             attrs: tuple[AttrDecl, ...]) -> DynamicSpec:
    table = r.get(data, "dynamic", "", dict, default={})
    p = "dynamic."
    r.check_keys(table, {"ranks", "dim", "min_elements", "max_elements", "same_shape", "unaligned", "multiple_of",
                         "list_len", "type_combos", "attrs", "hook", "enabled"}, p)
    ranks = r.pair(table, "ranks", p, (1, 4))
    if ranks[0] < 0:
        raise r.fail(f"{p}ranks", "ranks must be >= 0")
    dim = r.pair(table, "dim", p, (1, 4096))
    if dim[0] < 0:
        raise r.fail(f"{p}dim", "dims must be >= 0")
    max_el = r.get(table, "max_elements", p, int, default=1 << 20)
    min_el = r.get(table, "min_elements", p, int, default=1)
    if max_el < min_el or max_el <= 0:
        raise r.fail(f"{p}max_elements", f"must be positive and >= min_elements ({min_el})")
    combos = []
    for i, combo in enumerate(r.get(table, "type_combos", p, list, default=[])):
        _check_binding(r, f"{p}type_combos[{i}]", combo, types)
        combos.append(dict(combo))
    attr_names = {a.name for a in attrs}
    attr_choices: dict[str, tuple[Any, ...]] = {}
    for name, choices in r.get(table, "attrs", p, dict, default={}).items():
        if name not in attr_names:
            raise r.fail(f"{p}attrs.{name}", "no attribute of that name in [[attrs]]")
        if not isinstance(choices, list) or not choices:
            raise r.fail(f"{p}attrs.{name}", "expected a non-empty list of choices")
        attr_choices[name] = tuple(choices)
    multiple = r.get(table, "multiple_of", p, int, default=1)
    if multiple < 1:
        raise r.fail(f"{p}multiple_of", "must be >= 1")
    return DynamicSpec(ranks=ranks, dim=dim, min_elements=min_el, max_elements=max_el,
                       same_shape=r.get(table, "same_shape", p, bool, default=True),
                       unaligned=r.get(table, "unaligned", p, bool, default=True), multiple_of=multiple,
                       list_len=r.pair(table, "list_len", p, (1, 50)), type_combos=tuple(combos),
                       attrs=attr_choices, hook=r.get(table, "hook", p, str, default=None),
                       enabled=r.get(table, "enabled", p, bool, default=True))


INTEGER_TOLERANCE_DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64")


def _integer_tolerance(r: _Reader, entry: Any, prefix: str) -> Tolerance:
    """``int8 = { atol = 1, mismatch = 0.001 }``: every element within ``atol`` of the reference and at most
    ``mismatch`` of them (at least one when > 0) different at all. Integer outputs are exact by default."""
    if not isinstance(entry, dict):
        raise r.fail(prefix.rstrip("."), "expected a table { atol = ..., mismatch = ... }")
    r.check_keys(entry, {"atol", "mismatch"}, prefix)
    atol = r.get(entry, "atol", prefix, int, default=0)
    mismatch = float(r.get(entry, "mismatch", prefix, (int, float), default=0.0))
    if isinstance(atol, bool) or atol < 0:
        raise r.fail(f"{prefix}atol", f"must be an integer >= 0, got {atol}")
    if not 0.0 <= mismatch <= 1.0:
        raise r.fail(f"{prefix}mismatch", f"must be a share between 0 and 1, got {mismatch}")
    return Tolerance(0.0, float(atol), mismatch)


def _tolerance(r: _Reader, data: Mapping[str, Any]) -> dict[str, Tolerance]:
    table = r.get(data, "tolerance", "", dict, default={})
    result = {name: Tolerance(rtol, atol) for name, (rtol, atol) in DEFAULT_TOLERANCE.items()}
    for name, entry in table.items():
        prefix = f"tolerance.{name}."
        if name in INTEGER_TOLERANCE_DTYPES:
            result[name] = _integer_tolerance(r, entry, prefix)
            continue
        if name not in DEFAULT_TOLERANCE:
            raise r.fail(f"tolerance.{name}", f"tolerances apply to float dtypes ({', '.join(DEFAULT_TOLERANCE)}) "
                                              f"and integer ones ({', '.join(INTEGER_TOLERANCE_DTYPES)})")
        if not isinstance(entry, dict):
            raise r.fail(f"tolerance.{name}", "expected a table { rtol = ..., atol = ... }")
        r.check_keys(entry, {"rtol", "atol"}, prefix)
        base = result[name]
        rtol = float(r.get(entry, "rtol", prefix, (int, float), default=base.rtol))
        atol = float(r.get(entry, "atol", prefix, (int, float), default=base.atol))
        for key, value in (("rtol", rtol), ("atol", atol)):
            if not (value >= 0 and math.isfinite(value)):
                raise r.fail(f"{prefix}{key}", f"must be a finite number >= 0, got {value}")
        result[name] = Tolerance(rtol, atol)
    return result


def load_spec(folder: Path, root: Path | None = None) -> TaskSpec:
    """Load and validate a case folder in our format. ``root`` is the case root (for the case id)."""
    folder = Path(folder).resolve()
    root = Path(root).resolve() if root is not None else folder.parent
    path = folder / SPEC_FILE
    r = _Reader(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpecError(path, "<file>", "no case.toml in this folder") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SpecError(path, "<file>", f"not valid TOML: {exc}") from None
    r.check_keys(data, {"op", "kernel", "level", "category", "description", "reference", "types", "type_combos",
                        "inputs", "outputs", "attrs", "cases", "dynamic", "tolerance", "nan_policy", "seeds",
                        "extra", "solution_files", "cores"}, "")
    op = r.get(data, "op", "", str, required=True)
    kernel = r.get(data, "kernel", "", str, required=True)
    for key, value in (("op", op), ("kernel", kernel)):
        if not IDENT.match(value):
            raise r.fail(key, f"{value!r} is not a C identifier")
    level = r.get(data, "level", "", int, required=True)
    if level not in (1, 2, 3):
        raise r.fail("level", f"must be 1, 2 or 3, got {level}")
    category = r.get(data, "category", "", str, required=True)
    types = _types(r, data)
    inputs = _params(r, data, "inputs", types, outputs=False)
    outputs = _params(r, data, "outputs", types, outputs=True, input_names={d.name for d in inputs})
    used = {d.dtype for d in inputs + outputs}
    for var in types:
        if var not in used:
            raise r.fail(f"types.{var}", "type variable is not used by any input or output")
    attrs = _attrs(r, data)
    desc_name = r.get(data, "description", "", str, default="api_desc.md")
    desc_path = folder / desc_name
    if not desc_path.is_file():
        raise r.fail("description", f"file {desc_name} not found in {folder}")
    ref_name = r.get(data, "reference", "", str, default="reference.py")
    ref_path = folder / ref_name
    if not ref_path.is_file():
        raise r.fail("reference", f"file {ref_name} not found in {folder}")
    nan_policy = r.get(data, "nan_policy", "", str, default="match")
    if nan_policy not in ("match", "forbid"):
        raise r.fail("nan_policy", f"use 'match' or 'forbid', got {nan_policy!r}")
    seeds = r.get(data, "seeds", "", int, default=3)
    cores = r.get(data, "cores", "", str, default=None)
    if cores is not None and cores not in ("aiv", "aic"):
        raise r.fail("cores", f"use 'aiv' (all vector cores) or 'aic' (all cube cores), got {cores!r}")
    if seeds < 1:
        raise r.fail("seeds", "must be >= 1")
    if (folder / "template").exists():
        raise r.fail("<folder>", "template/ is not read any more: the templates are generated from case.toml "
                                 "(delete the folder; see docs/case-format.md)")
    solution = read_tree(folder / "solution") or None
    shared = r.get(data, "solution_files", "", dict, default={})
    if shared and solution is None:
        raise r.fail("solution_files", "the case has no solution/ folder to add shared files to")
    for rel, source in shared.items():
        if not isinstance(source, str):
            raise r.fail(f"solution_files.{rel}", "expected a path (string) relative to the case folder")
        if not re.match(r"^op_(host|kernel)/[A-Za-z0-9_.]+$", rel):
            raise r.fail(f"solution_files.{rel}", "project paths look like op_kernel/<file> or op_host/<file>")
        source_path = (folder / source).resolve()
        if not source_path.is_file():
            raise r.fail(f"solution_files.{rel}", f"shared file {source} not found (resolved to {source_path})")
        assert solution is not None
        solution = {**solution, rel: source_path.read_text(encoding="utf-8")}
    try:
        case_id = folder.relative_to(root).as_posix()
    except ValueError:
        case_id = folder.name
    if case_id == ".":
        case_id = folder.name
    combos = _combos(r, data, types)
    return TaskSpec(
        case_id=case_id, root=root, folder=folder, layout=LAYOUT, op=op, kernel=kernel, level=level,
        category=category, description=desc_path.read_text(encoding="utf-8"), inputs=inputs, outputs=outputs,
        attrs=attrs, types=types, type_combos=combos, cases=_cases(r, data, inputs, attrs, types),
        dynamic=_dynamic(r, data, types, attrs), tolerance=_tolerance(r, data),
        reference=ReferenceSpec("function", ref_path),
        templates=render_templates(op, kernel, inputs, outputs, attrs, combos), solution=solution,
        nan_policy=nan_policy, seeds=seeds, extra=r.get(data, "extra", "", dict, default={}), cores=cores,
    )
