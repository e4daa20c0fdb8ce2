"""The files between the Python side and a simulator executable's ``run`` mode.

``request.txt`` (one item per line, space separated)::

    npukb-request 1
    op AddCustom
    poison_seed 0
    soc <SoC_version> <Short_SoC_version> <SocVersion value> <AI cube cores> <AI vector cores>
    param <input|output> <name> <REQUIRED|OPTIONAL|DYNAMIC> <dtype> <ge dtype> <itemsize> <count|absent> <alias|->
    tensor <rank> <dim>... <data file|->        (one line per tensor of the param above)
    attr <name> <float|int|bool|str|list_int|list_float|list_bool> <value>...   (str: hex of UTF-8)
    end

Inputs travel as raw little-endian ``.bin`` files (``in_<param>_<i>.bin``; an output the binding
initialised before the launch: ``init_<param>_<i>.bin``, else its buffer is poisoned); the executable
writes ``result.json`` and one ``out_<param>_<i>.bin`` per output tensor and ``after_<param>_<i>.bin``
per tensor of an input the kernel changed (its final contents: the inputs-unchanged check, and the
results of an operator that works in place); an input that still holds its file's exact bytes is not
listed, and the harness reads an input missing from ``inputs_after`` as unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from npukernelbench.dtypes import dtype
from npukernelbench.soc_profiles import soc_profile
from npukernelbench.toolchains.ascendc_sim.platform import check_profile
from npukernelbench.toolchains.base import Launch, TensorArg

REQUEST = "request.txt"
RESULT = "result.json"


class LaunchError(ValueError):
    """The launch does not fit the build (caller's mistake, not the candidate's)."""


def tensor_shapes(arg: TensorArg) -> list[tuple[int, ...]] | None:
    """Tensor shapes of ``arg``: one per tensor, None when absent."""
    if arg.data is not None:
        if isinstance(arg.data, list | tuple):
            return [tuple(np.asarray(a).shape) for a in arg.data]
        return [tuple(np.asarray(arg.data).shape)]
    if arg.shape is None:
        return None
    if arg.shape and isinstance(arg.shape[0], list | tuple):
        return [tuple(s) for s in arg.shape]            # type: ignore[arg-type]
    return [tuple(arg.shape)]                           # type: ignore[arg-type]


def _is_list(arg: TensorArg) -> bool:
    if isinstance(arg.data, list | tuple):
        return True
    return bool(arg.data is None and arg.shape and isinstance(arg.shape[0], list | tuple))


def _attr_line(name: str, kind: str, value: Any) -> str:
    if kind == "str":
        return f"attr {name} str {str(value).encode().hex()}"
    if kind in ("list_int", "list_float", "list_bool"):
        items = [str(int(v)) if kind != "list_float" else repr(float(v)) for v in value]
        return " ".join(["attr", name, kind, *items])
    if kind == "bool":
        return f"attr {name} bool {int(bool(value))}"
    if kind == "int":
        return f"attr {name} int {int(value)}"
    if kind == "float":
        return f"attr {name} float {float(value)!r}"
    raise LaunchError(f"attribute {name!r}: unknown attribute type {kind!r}")


def write_request(folder: Path, op: str, launch: Launch) -> None:
    lines = ["npukb-request 1", f"op {op}", f"poison_seed {int(launch.poison_seed)}",
             check_profile(soc_profile(launch.soc)).request_line()]
    for role, args in (("input", launch.inputs), ("output", launch.outputs)):
        for p_index, arg in enumerate(args):
            dt = dtype(arg.dtype)
            shapes = tensor_shapes(arg)
            is_list = _is_list(arg)
            if shapes is None:
                if role == "output":
                    raise LaunchError(f"output {arg.name!r} has neither data nor shape")
                lines.append(f"param {role} {arg.name} OPTIONAL {dt.name} {dt.ge_name} {dt.itemsize} "
                             f"absent -")
                continue
            ptype = "DYNAMIC" if is_list else "REQUIRED"
            alias = arg.alias or "-"
            lines.append(f"param {role} {arg.name} {ptype} {dt.name} {dt.ge_name} {dt.itemsize} {len(shapes)} {alias}")
            arrays: Sequence[Any] = (arg.data if is_list else [arg.data]) if arg.data is not None else []
            for t_index, shape in enumerate(shapes):
                file = "-"
                if arrays and arg.alias is None:     # an input, or an output the binding initialised
                    data = np.ascontiguousarray(np.asarray(arrays[t_index]), dtype=dt.numpy_storage)
                    if role == "output" and data.size != int(np.prod(shape, dtype=np.int64)):
                        raise LaunchError(f"output {arg.name!r}: initial data of {data.size} elements for shape "
                                          f"{list(shape)}")
                    file = f"{'in' if role == 'input' else 'init'}_{p_index}_{t_index}.bin"
                    data.tofile(folder / file)
                lines.append(" ".join(["tensor", str(len(shape)), *map(str, shape), file]))
    for name, (kind, value) in launch.attrs.items():
        if value is None:
            continue
        lines.append(_attr_line(name, kind, value))
    lines.append("end")
    (folder / REQUEST).write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_result(folder: Path) -> dict[str, Any] | None:
    try:
        return json.loads((folder / RESULT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def read_tensors(folder: Path, entries: Sequence[Mapping[str, Any]], args: Sequence[TensorArg]
                 ) -> dict[str, np.ndarray | list[np.ndarray]]:
    """Arrays named in result.json ``outputs`` / ``inputs_after``, shaped like ``args``."""
    by_name = {a.name: a for a in args}
    tensors: dict[str, np.ndarray | list[np.ndarray]] = {}
    for entry in entries:
        arg = by_name.get(entry["name"])
        if arg is None:
            continue
        storage = dtype(arg.dtype).numpy_storage
        shapes = tensor_shapes(arg) or []
        arrays = [np.fromfile(folder / name, dtype=storage).reshape(shape)
                  for name, shape in zip(entry["files"], shapes, strict=False)]
        tensors[arg.name] = arrays if _is_list(arg) else (arrays[0] if arrays else np.empty(0, storage))
    return tensors
