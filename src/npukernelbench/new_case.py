"""Write a case folder (our ``case.toml`` layout) from a definition given inline in Python.

``NewCase`` holds what a case needs: the operator name, the torch reference, the input and output
names (or full ``[[inputs]]``/``[[outputs]]`` tables), the static shapes and the dtypes; any further
``case.toml`` key (``dynamic``, ``tolerance``, ``attrs``, ...) goes in ``spec``. :func:`write_case`
writes ``case.toml``, ``reference.py`` and ``api_desc.md``, plus ``solution/`` when one is given, and
returns the folder (the templates are generated from ``case.toml`` when the case is loaded). The
plugin's ``npukb_case`` marker takes a ``NewCase`` in place of a path (the folder is written to a
temporary directory), so a test file can define its own case.
"""

from __future__ import annotations

import inspect
import json
import math
import re
import textwrap
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npukernelbench.dtypes import dtype as lookup_dtype
from npukernelbench.spec import IDENT

TYPE_VAR = "T"
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class NewCase:
    """A case defined inline. ``inputs``/``outputs`` are names (dtype: the type variable ``T``, which
    ranges over ``dtypes``) or ``[[inputs]]``/``[[outputs]]`` tables; ``cases`` are shapes (one shape for
    every tensor input; one case per shape and dtype) or ``[[cases]]`` tables. ``reference`` is the
    source of ``reference.py`` or a function, whose source is written after ``import torch`` (named
    otherwise than ``reference``, it is aliased). ``solution`` maps project paths to the expert files."""

    op: str
    reference: Callable[..., Any] | str
    inputs: Sequence[str | Mapping[str, Any]]
    outputs: Sequence[str | Mapping[str, Any]]
    cases: Sequence[Sequence[int] | Mapping[str, Any]]
    dtypes: Sequence[str] = ("float32",)
    kernel: str = ""
    level: int = 1
    category: str = "custom"
    description: str = ""
    spec: Mapping[str, Any] = field(default_factory=dict)
    solution: Mapping[str, str] | None = None

    @property
    def kernel_name(self) -> str:
        """``kernel``, else the op name in snake case (``MyAdd`` -> ``my_add``)."""
        return self.kernel or re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", self.op).lower()


def write_case(folder: Path | str, case: NewCase) -> Path:
    """Write ``case`` as a case folder at ``folder`` (created; existing files are overwritten). A bad
    definition raises ``ValueError`` (``KeyError`` for an unknown dtype) before anything is written."""
    folder = Path(folder)
    data = case_data(case)
    text = to_toml(data)
    parsed = tomllib.loads(text)                     # what the loader will read
    files = {
        "case.toml": text,
        "reference.py": reference_source(case.reference),
        "api_desc.md": case.description or _description(parsed),
    }
    for rel, source in (case.solution or {}).items():
        files[f"solution/{rel}"] = source
    for rel, content in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return folder


def case_data(case: NewCase) -> dict[str, Any]:
    """The ``case.toml`` content of ``case`` as a dict (keys in the order they are written)."""
    for key, value in (("op", case.op), ("kernel", case.kernel_name)):
        if not IDENT.match(value):
            raise ValueError(f"{key} {value!r} is not a C identifier")
    inputs = [_param(p) for p in case.inputs]
    outputs = [_param(p) for p in case.outputs]
    uses_var = any(p["dtype"] == TYPE_VAR for p in inputs + outputs)
    if uses_var and not case.dtypes:
        raise ValueError(f"{case.op}: parameters of dtype {TYPE_VAR!r} need at least one entry in dtypes")
    for name in case.dtypes:
        lookup_dtype(name)
    cases: list[dict[str, Any]] = []
    for entry in case.cases:
        if isinstance(entry, Mapping):
            cases.append(dict(entry))
            continue
        for name in (case.dtypes if uses_var else [None]):
            cases.append({"shape": [int(d) for d in entry], **({"types": {TYPE_VAR: name}} if name else {})})
    data: dict[str, Any] = {"op": case.op, "kernel": case.kernel_name, "level": case.level,
                            "category": case.category}
    if uses_var:
        data["types"] = {TYPE_VAR: list(case.dtypes)}
    data.update(inputs=inputs, outputs=outputs, cases=cases)
    for key, value in case.spec.items():
        if key in data:
            raise ValueError(f"{case.op}: spec key {key!r} is set by NewCase's own fields")
        data[key] = value
    return data


def _param(p: str | Mapping[str, Any]) -> dict[str, Any]:
    return {"name": p, "dtype": TYPE_VAR} if isinstance(p, str) else dict(p)


def reference_source(reference: Callable[..., Any] | str) -> str:
    """The text of ``reference.py``: the string as given, or a function's source after ``import torch``."""
    if isinstance(reference, str):
        return reference if reference.endswith("\n") else reference + "\n"
    name = getattr(reference, "__name__", "")
    if not callable(reference) or name == "<lambda>":
        raise ValueError("reference must be a module source (str) or a function defined with def")
    source = textwrap.dedent(inspect.getsource(reference))
    alias = "" if name == "reference" else f"\n\nreference = {name}\n"
    return f'"""Semantics of the case (written by npukernelbench.new_case)."""\n\nimport torch  # noqa: F401\n\n\n' \
           f"{source.rstrip()}\n{alias}"


def _description(data: Mapping[str, Any]) -> str:
    def names(key: str) -> str:
        return ", ".join(f"`{p['name']}`" for p in data[key])

    return (f"# {data['op']}\n\nInputs {names('inputs')}; outputs {names('outputs')}. "
            f"The kernel entry is `{data['kernel']}`; the semantics are those of `reference.py`.\n")


def to_toml(data: Mapping[str, Any]) -> str:
    """``data`` as TOML: plain keys first, then tables (``[key]``), then arrays of tables (``[[key]]``)."""
    plain, tables, arrays = [], [], []
    for key, value in data.items():
        if isinstance(value, Mapping):
            tables.append(f"\n[{_key(key)}]\n" + "".join(f"{_key(k)} = {_value(v)}\n" for k, v in value.items()))
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
            arrays += [f"\n[[{_key(key)}]]\n" + "".join(f"{_key(k)} = {_value(v)}\n" for k, v in row.items())
                       for row in value]
        else:
            plain.append(f"{_key(key)} = {_value(value)}\n")
    return "# written by npukernelbench.new_case\n" + "".join(plain) + "".join(tables) + "".join(arrays)


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as TOML")
