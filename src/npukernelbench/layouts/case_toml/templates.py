"""The templates of a ``case.toml`` task, generated from its declarations (no files on disk).

What the model starts from is a mechanical skeleton of the spec: ``op_host/<kernel>.cpp`` holds an empty
tiling function and the OpDef (every input and output with its parameter type, one DataType and Format
entry per type combo, ValueDepend where the host reads an input's values, every attribute with its type and
default), ``op_kernel/<kernel>.cpp`` the kernel
entry with one ``GM_ADDR`` per parameter, then ``workspace`` and ``tiling``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from npukernelbench.dtypes import dtype as lookup_dtype

if TYPE_CHECKING:
    from npukernelbench.spec import AttrDecl, ParamDecl

# attribute type -> the OpDef setter (OpAttrDef's AttrType(...).Setter(value))
ATTR_SETTERS = {"float": "Float", "int": "Int", "bool": "Bool", "str": "String", "list_int": "ListInt",
                "list_float": "ListFloat", "list_bool": "ListBool"}


def param_type(decl: ParamDecl) -> str:
    """The OpDef ParamType of a parameter: a tensor list is DYNAMIC, an optional input OPTIONAL."""
    if decl.kind == "list":
        return "DYNAMIC"
    return "OPTIONAL" if decl.optional else "REQUIRED"


def ge_dtypes(decl: ParamDecl, combos: Sequence[Mapping[str, str]]) -> list[str]:
    """The ``ge::DataType`` enumerators of a parameter, one per type combo (a single entry without any)."""
    return [lookup_dtype(combo.get(decl.dtype, decl.dtype)).ge_name for combo in (combos or [{}])]


def attr_value(value: Any) -> str:
    """An attribute default as a C++ argument of its OpDef setter."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError(f"attribute default {value!r} has no C++ literal in an OpDef")
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "{" + ", ".join(attr_value(v) for v in value) + "}"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as an attribute default")


def attr_line(attr: AttrDecl) -> str:
    """``this->Attr("name").AttrType(REQUIRED|OPTIONAL).Setter(default);``"""
    kind = "REQUIRED" if attr.required else "OPTIONAL"
    value = "" if attr.default is None else attr_value(attr.default)
    return f'this->Attr("{attr.name}").AttrType({kind}).{ATTR_SETTERS[attr.type]}({value});'


TODO_TILING = "    // TODO: compute the tiling and set the block dim.\n"
PLATFORM_INCLUDE = '#include "tiling/platform/platform_ascendc.h"\n'
CORE_GETTERS = {"aiv": "GetCoreNumAiv", "aic": "GetCoreNumAic"}   # launch cores -> the platform getter


def block_dim_line(cores: str) -> str:
    """The question host's tiling body: the block dim is every AIV (``aiv``) or AIC (``aic``) core."""
    return (f"    context->SetBlockDim(platform_ascendc::PlatformAscendCManager::GetInstance()->"
            f"{CORE_GETTERS[cores]}());\n")


def host_template(op: str, inputs: Sequence[ParamDecl], outputs: Sequence[ParamDecl],
                  attrs: Sequence[AttrDecl], combos: Sequence[Mapping[str, str]]) -> str:
    """The op_host template: an empty TilingFunc and the OpDef of every parameter, dtype combo and attribute."""
    return _host(op, inputs, outputs, attrs, combos, "", TODO_TILING)


def question_host_template(op: str, inputs: Sequence[ParamDecl], outputs: Sequence[ParamDecl],
                           attrs: Sequence[AttrDecl], combos: Sequence[Mapping[str, str]], cores: str) -> str:
    """The op_host question template of the upstream generation modes: the same OpDef, and a TilingFunc
    that sets the block dim to all ``cores`` (``aiv`` or ``aic``) of the target and nothing else (a
    kernel-only answer keeps its tiling values in the kernel)."""
    return _host(op, inputs, outputs, attrs, combos, PLATFORM_INCLUDE, block_dim_line(cores))


def _host(op: str, inputs: Sequence[ParamDecl], outputs: Sequence[ParamDecl], attrs: Sequence[AttrDecl],
          combos: Sequence[Mapping[str, str]], includes: str, tiling_body: str) -> str:
    lines = []
    for section, decls in (("Input", inputs), ("Output", outputs)):
        for d in decls:
            names = ge_dtypes(d, combos)
            lines += [f'this->{section}("{d.name}")',
                      f"    .ParamType({param_type(d)})",
                      "    .DataType({" + ", ".join(f"ge::{n}" for n in names) + "})",
                      "    .Format({" + ", ".join(["ge::FORMAT_ND"] * len(names)) + "})"
                      + ("\n            .ValueDepend(REQUIRED);" if d.value_depend else ";")]
    lines += [attr_line(a) for a in attrs]
    body = "".join(f"        {line}\n" for line in lines)
    return f"""#include "register/op_def_registry.h"
{includes}
namespace optiling {{
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{{
{tiling_body}    return ge::GRAPH_SUCCESS;
}}
}}  // namespace optiling

namespace ops {{
class {op} : public OpDef {{
public:
    explicit {op}(const char* name) : OpDef(name)
    {{
{body}        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }}
}};
OP_ADD({op});
}}  // namespace ops
"""


def kernel_template(kernel: str, inputs: Sequence[ParamDecl], outputs: Sequence[ParamDecl]) -> str:
    """The op_kernel template: the kernel entry with one GM_ADDR per parameter, workspace and tiling."""
    params = "".join(f"GM_ADDR {d.name}, " for d in [*inputs, *outputs])
    return f"""#include "kernel_operator.h"

extern "C" __global__ __aicore__ void {kernel}({params}GM_ADDR workspace, GM_ADDR tiling)
{{
    // TODO: implement the kernel.
}}
"""


def render_templates(op: str, kernel: str, inputs: Sequence[ParamDecl], outputs: Sequence[ParamDecl],
                     attrs: Sequence[AttrDecl], combos: Sequence[Mapping[str, str]]) -> dict[str, str]:
    """Both templates keyed by their project path (``op_host/<kernel>.cpp``, ``op_kernel/<kernel>.cpp``)."""
    return {f"op_host/{kernel}.cpp": host_template(op, inputs, outputs, attrs, combos),
            f"op_kernel/{kernel}.cpp": kernel_template(kernel, inputs, outputs)}


def question_templates(op: str, kernel: str, inputs: Sequence[ParamDecl], outputs: Sequence[ParamDecl],
                       attrs: Sequence[AttrDecl], combos: Sequence[Mapping[str, str]], cores: str) -> dict[str, str]:
    """The question templates of the upstream generation modes, keyed by project path: the host whose
    tiling function sets the block dim to all ``cores`` and the kernel template."""
    return {f"op_host/{kernel}.cpp": question_host_template(op, inputs, outputs, attrs, combos, cores),
            f"op_kernel/{kernel}.cpp": kernel_template(kernel, inputs, outputs)}
