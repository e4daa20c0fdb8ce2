"""cann-ops end to end: the operator's own example feeds it, its own verify script judges it.

A cann-ops operator ships ``examples/<name>/``: ``gen_data.py`` (numpy/torch inputs and golden
outputs as ``.bin`` files), ``main.cpp`` (the aclnn program that reads them, calls the operator and
writes its outputs), ``verify_result.py`` (the operator's tolerance) and ``run.sh`` (how they chain).
Here, in a scratch folder, every step confined (:func:`npukernelbench.sandbox.run_confined`):

1. ``gen_data.py`` runs (with the arguments ``run.sh`` gives it);
2. ``main.cpp`` is compiled unchanged against the benchmark's ACL stand-in
   (``third_party_acl/``) and an ``aclnn_<op>.h`` generated from the OpDef the host code registers
   (inputs, attributes, outputs in OpDef order, CANN's generated aclnn API), then run in *record* mode:
   each operator call writes its tensors (raw bytes, shapes, dtypes) and attributes;
3. each recorded call runs on the simulator (``Toolchain.run``; tiling, kernel);
4. ``main.cpp`` runs again in *replay* mode: the operator calls hand back the simulator's outputs,
   so the program writes them where ``verify_result.py`` looks;
5. every ``verify_result.py`` command of ``run.sh`` runs; all must print ``test pass``.

An example that calls a hand-written aclnn API (``op_host/aclnn_*.cpp``: CANN's operator-API
library, not simulated) or another operator, or whose ``gen_data.py`` needs a package this machine
lacks, gives no inputs; the reason is reported.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ACL_DIR = Path(__file__).resolve().parent / "third_party_acl"
SHIM_INCLUDE = ACL_DIR / "include"
SHIM_SOURCE = ACL_DIR / "aclnn_shim.cpp"

# aclDataType enumerators (the values CANN's acl headers give them) -> the harness's dtype names
ACL_DTYPES = {0: "float32", 1: "float16", 2: "int8", 3: "int32", 4: "uint8", 6: "int16", 7: "uint16", 8: "uint32",
              9: "int64", 10: "uint64", 11: "float64", 12: "bool", 16: "complex64", 27: "bfloat16"}
# OpDef attribute type -> (aclnn parameter type, shim kind, how the value reaches the Arg)
ATTR_PARAMS = {"int": ("int64_t", "ATTR_INT", "i"), "float": ("double", "ATTR_FLOAT", "f"),
               "bool": ("bool", "ATTR_BOOL", "i"), "str": ("char*", "ATTR_STR", "s"),
               "list_int": ("const aclIntArray*", "ATTR_LIST_INT", "handle"),
               "list_float": ("const aclFloatArray*", "ATTR_LIST_FLOAT", "handle"),
               "list_bool": ("const aclBoolArray*", "ATTR_LIST_BOOL", "handle")}
PYTHON_LIMIT_S = 300.0


def snake(op: str) -> str:
    """CANN's file name of an op type: ``MseLossGradV1`` -> ``mse_loss_grad_v1``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", op).lower()


@dataclass
class Tensor:
    name: str
    role: str
    dtype: str
    shape: tuple[int, ...]
    file: str


@dataclass
class Call:
    """One recorded operator call of the example."""

    index: int
    op: str
    inputs: dict[str, Tensor | list[Tensor] | None] = field(default_factory=dict)
    outputs: dict[str, Tensor | list[Tensor]] = field(default_factory=dict)
    attrs: dict[str, tuple[str, Any]] = field(default_factory=dict)


def parse_calls(text: str) -> list[Call]:
    """The shim's ``calls.txt``."""
    calls: list[Call] = []
    current: Call | None = None
    pending: tuple[str, str, int] | None = None
    for raw in text.splitlines():
        parts = raw.split(" ")
        kind = parts[0]
        if kind == "call":
            current = Call(int(parts[1]), parts[2])
            calls.append(current)
        elif current is None or kind == "end":
            current = None if kind == "end" else current
        elif kind in ("tensor", "item"):
            role, name, dt, _fmt, rank = parts[1], parts[2], int(parts[3]), parts[4], int(parts[5])
            shape = tuple(int(d) for d in parts[6:6 + rank])
            tensor = Tensor(name, role, ACL_DTYPES.get(dt, f"acl{dt}"), shape, parts[6 + rank])
            target = current.inputs if role == "input" else current.outputs
            if kind == "tensor":
                target[name] = tensor
            else:
                listed = target.setdefault(name, [])
                assert isinstance(listed, list)
                listed.append(tensor)
        elif kind == "list":
            target = current.inputs if parts[1] == "input" else current.outputs
            target[parts[2]] = []
            pending = (parts[1], parts[2], int(parts[3]))
        elif kind == "absent":
            current.inputs[parts[2]] = None
        elif len(parts) >= 3 and parts[1] == "attr":
            name, rest = parts[2], parts[3:]
            value: Any
            if kind == "str":
                length = int(rest[0])
                value = raw.split(" ", 4)[4][:length] if length else ""
            elif kind == "int":
                value = int(rest[0])
            elif kind == "float":
                value = float(rest[0])
            elif kind == "bool":
                value = rest[0] == "1"
            elif kind == "list_int":
                value = [int(v) for v in rest[1:]]
            elif kind == "list_float":
                value = [float(v) for v in rest[1:]]
            else:
                value = [v == "1" for v in rest[1:]]
            current.attrs[name] = (kind, value)
    del pending
    return calls


def aclnn_header(sig: Any) -> tuple[str, str]:
    """The generated aclnn API of OpDef ``sig`` (header, implementation calling the shim)."""
    params: list[str] = []
    args: list[str] = []
    for p in sig.inputs:
        ctype = "const aclTensorList*" if p.param_type == "DYNAMIC" else "const aclTensor*"
        var = _var(p.name) + ("Optional" if p.param_type == "OPTIONAL" else "")
        params.append(f"{ctype} {var}")
        kind = "TENSOR_LIST" if p.param_type == "DYNAMIC" else "TENSOR"
        args.append(f'{{"input", "{p.name}", npukb_acl::{kind}, {var}, 0, 0, nullptr}}')
    for a in sig.attrs:
        ctype, kind, slot = ATTR_PARAMS.get(a.type, ("int64_t", "ATTR_INT", "i"))
        var = _var(a.name) + ("Optional" if not a.required else "")
        params.append(f"{ctype} {var}")
        value = {"i": f"static_cast<int64_t>({var}), 0, nullptr", "f": f"0, {var}, nullptr",
                 "s": f"0, 0, {var}", "handle": "0, 0, nullptr"}[slot]
        handle = var if slot == "handle" else "nullptr"
        args.append(f'{{"attr", "{a.name}", npukb_acl::{kind}, {handle}, {value}}}')
    for p in sig.outputs:
        ctype = "const aclTensorList*" if p.param_type == "DYNAMIC" else "const aclTensor*"
        var = _var(p.name) + ("Out" if any(_var(i.name) == _var(p.name) for i in sig.inputs) else "")
        params.append(f"{ctype} {var}")
        kind = "TENSOR_LIST" if p.param_type == "DYNAMIC" else "TENSOR"
        args.append(f'{{"output", "{p.name}", npukb_acl::{kind}, {var}, 0, 0, nullptr}}')
    op = sig.op
    ws = ", ".join([*params, "uint64_t* workspaceSize", "aclOpExecutor** executor"])
    header = (f"// generated by benchmarks/third_party.py: the aclnn API of {op} (inputs, attributes, outputs)\n"
              "#pragma once\n#include \"aclnn/aclnn_base.h\"\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
              f"aclnnStatus aclnn{op}GetWorkspaceSize({ws});\n"
              f"aclnnStatus aclnn{op}(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, "
              "aclrtStream stream);\n#ifdef __cplusplus\n}\n#endif\n")
    body = ",\n      ".join(args) if args else ""
    impl = (f'#include "npukb_generated_aclnn.h"\n#include "npukb_aclnn_shim.h"\n'
            f"extern \"C\" aclnnStatus aclnn{op}GetWorkspaceSize({ws}) {{\n"
            f"  const npukb_acl::Arg args[] = {{\n      {body}}};\n"
            f"  return npukb_acl::get_workspace(\"{op}\", args, sizeof(args) / sizeof(args[0]), workspaceSize, "
            "executor);\n}\n"
            f"extern \"C\" aclnnStatus aclnn{op}(void*, uint64_t, aclOpExecutor* executor, aclrtStream) {{\n"
            "  return npukb_acl::execute(executor);\n}\n")
    if not args:
        impl = impl.replace("const npukb_acl::Arg args[] = {\n      };", "const npukb_acl::Arg* args = nullptr;")
        impl = impl.replace("sizeof(args) / sizeof(args[0])", "0")
    return header, impl


def _var(name: str) -> str:
    var = re.sub(r"\W", "_", name)
    return var if not var[:1].isdigit() else f"p_{var}"


@dataclass
class Example:
    folder: Path
    gen_args: list[str]
    verify: list[list[str]]


def find_example(op_folder: Path) -> Example | str:
    """The operator's example, or why it has none."""
    for folder in sorted((op_folder / "examples").glob("*/")):
        if not (folder / "gen_data.py").is_file() or not (folder / "main.cpp").is_file():
            continue
        script = (folder / "run.sh").read_text(encoding="utf-8", errors="replace") if (folder / "run.sh").is_file() \
            else ""
        gen_args: list[str] = []
        verify: list[list[str]] = []
        for line in script.splitlines():
            m = re.search(r"python3?\s+gen_data\.py([^`;|&]*)", line)
            if m and not line.lstrip().startswith("#"):
                gen_args = [a for a in shlex.split(m.group(1)) if "$" not in a]
            m = re.search(r"python3?\s+verify_result\.py([^`;|&]*)", line)
            if m and not line.lstrip().startswith("#"):
                verify.append(shlex.split(m.group(1)))
        if not verify and (folder / "verify_result.py").is_file():
            verify.append(["output/output.bin", "output/golden.bin"])
        if not verify:
            return f"no inputs derivable: examples/{folder.name} has no verify_result.py"
        return Example(folder, gen_args, verify)
    return "no inputs derivable: no examples/*/ with gen_data.py and main.cpp"


def python_readable() -> tuple[Path, ...]:
    paths = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent.parent}
    paths.update(Path(p) for p in sys.path if p and Path(p).is_dir() and not p.startswith("/tmp"))
    return tuple(sorted(paths))


def read_tensor(folder: Path, tensor: Tensor) -> np.ndarray:
    from npukernelbench.dtypes import dtype

    data = np.fromfile(folder / tensor.file, dtype=dtype(tensor.dtype).numpy_storage)
    return data.reshape(tensor.shape)


def other_aclnn(main_cpp: str, op: str, op_host: set[str]) -> str | None:
    """Why ``main.cpp`` does not call the operator's generated aclnn API, or None."""
    for inc in re.findall(r'#\s*include\s*"([^"]*aclnn[^"]*)"', main_cpp):
        base = inc.rsplit("/", 1)[-1]
        if inc.startswith(("aclnnop/", "aclnn/")) or "op_host/" in inc or f"op_host/{base}" in op_host:
            return (f"no inputs derivable: the example calls the hand-written aclnn API of {inc} (CANN's "
                    "operator-API library, op_host/aclnn_*.cpp, which the simulator does not build)")
    called = set(re.findall(r"\b(aclnn\w+?)GetWorkspaceSize\s*\(", main_cpp))
    if called and f"aclnn{op}" not in called:
        return (f"no inputs derivable: the example calls {', '.join(sorted(called))}, not the operator's "
                f"generated API aclnn{op}")
    return None


def needs_missing_module(script: str) -> str | None:
    """The first module a gen_data.py imports that this Python lacks."""
    import importlib.util

    for m in re.finditer(r"^\s*(?:import|from)\s+([A-Za-z_][\w]*)", script, re.MULTILINE):
        name = m.group(1)
        if name in sys.stdlib_module_names:
            continue
        if importlib.util.find_spec(name) is None:
            return name
    return None


def copy_example(example: Example, work: Path) -> None:
    for item in example.folder.iterdir():
        if item.is_file():
            shutil.copy(item, work / item.name)
    for sub in ("input", "output", "build", "calls"):
        (work / sub).mkdir(exist_ok=True)


def write_outputs(folder: Path, call: Call, outputs: dict[str, Any]) -> None:
    """The simulator's outputs of ``call`` as the shim's replay files."""
    for name, tensor in call.outputs.items():
        got = outputs.get(name)
        if got is None:
            continue
        if isinstance(tensor, list):
            for item, array in zip(tensor, got, strict=False):
                np.ascontiguousarray(array).tofile(folder / item.file.replace(".bin", ".result.bin"))
        else:
            np.ascontiguousarray(got).tofile(folder / tensor.file.replace(".bin", ".result.bin"))
