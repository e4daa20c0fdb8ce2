"""The header the build force-includes into the kernel TU (``-include npukb_build.h``).

It carries what the real AscendC build generates for a kernel: ``DTYPE_<NAME>`` / ``ORIG_DTYPE_<NAME>``
/ ``FORMAT_<NAME>`` macros for every parameter (an output named like an input is ``<NAME>_REF``), the
kernel-side struct of the registered tiling class (same byte layout as the host's ``SaveToBuffer``; see
``register/tilingdata_base.h``), and the trampoline through which the launcher calls the kernel entry
with its GM arguments (the tiling argument left out when the entry's parameters end at ``workspace``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from npukernelbench.dtypes import DTYPES, dtype
from npukernelbench.toolchains.ascendc_sim import template_kernel
from npukernelbench.toolchains.ascendc_sim.kernel_passes import KernelPlan
from npukernelbench.toolchains.base import KernelProject, OpAttr, OpParam, OpSignature

# ge::DataType values as preprocessor numbers, so that `#if ORIG_DTYPE_X == DT_FLOAT16` works.
GE_VALUES = {
    "DT_FLOAT": 0, "DT_FLOAT16": 1, "DT_INT8": 2, "DT_INT32": 3, "DT_UINT8": 4, "DT_INT16": 6, "DT_UINT16": 7,
    "DT_UINT32": 8, "DT_INT64": 9, "DT_UINT64": 10, "DT_DOUBLE": 11, "DT_BOOL": 12, "DT_STRING": 13,
    "DT_DUAL_SUB_INT8": 14, "DT_DUAL_SUB_UINT8": 15, "DT_COMPLEX64": 16, "DT_COMPLEX128": 17, "DT_QINT8": 18,
    "DT_QINT16": 19, "DT_QINT32": 20, "DT_QUINT8": 21, "DT_QUINT16": 22, "DT_RESOURCE": 23, "DT_STRING_REF": 24,
    "DT_DUAL": 25, "DT_VARIANT": 26, "DT_BF16": 27, "DT_UNDEFINED": 28, "DT_INT4": 29, "DT_UINT1": 30, "DT_INT2": 31,
    "DT_UINT2": 32, "DT_COMPLEX32": 33,
}

# ge::Format values as preprocessor numbers (the FORMAT_<NAME> macros name them, as DTYPE_<NAME> names types).
FORMAT_VALUES = {
    "FORMAT_NCHW": 0, "FORMAT_NHWC": 1, "FORMAT_ND": 2, "FORMAT_NC1HWC0": 3, "FORMAT_FRACTAL_Z": 4,
    "FORMAT_NC1HWC0_C04": 12, "FORMAT_HWCN": 16, "FORMAT_NDHWC": 27, "FORMAT_FRACTAL_NZ": 29, "FORMAT_NCDHW": 30,
    "FORMAT_DHWCN": 31, "FORMAT_NDC1HWC0": 32, "FORMAT_FRACTAL_Z_3D": 33, "FORMAT_CN": 34, "FORMAT_NC": 35,
    "FORMAT_NCL": 47,
}
_FORMAT_NAMES = {v: k for k, v in FORMAT_VALUES.items()}

_PLAIN_TYPES = {
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "float", "double",
    "bool", "char", "int", "unsigned", "unsigned int", "long", "unsigned long", "long long", "unsigned long long",
    "short", "unsigned short", "size_t", "signed char", "unsigned char",
}


@dataclass(frozen=True)
class Field:
    name: str
    kind: str            # scalar | array | struct
    offset: int
    elem_size: int
    count: int
    type: str


@dataclass(frozen=True)
class TilingClass:
    name: str
    size: int
    align: int
    builtin: bool
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Description:
    """What ``<exe> describe`` printed: registered tiling classes and OpDefs."""

    registered: dict[str, str]             # op type (or op_key) -> class name
    classes: dict[str, TilingClass]
    opdefs: tuple[str, ...]
    signatures: tuple[OpSignature, ...] = ()


class DescribeError(ValueError):
    pass


_GE_TO_NAME = {row.ge_name: row.name for row in DTYPES.values()}


def _attr_default(kind: str, values: list[str]) -> object:
    if kind == "str":
        return bytes.fromhex(values[0]).decode("utf-8", "replace") if values and values[0] != "-" else ""
    if kind == "bool":
        return values[0] == "1"
    if kind == "int":
        return int(values[0])
    if kind == "float":
        return float(values[0])
    if kind == "list_int":
        return [int(v) for v in values]
    if kind == "list_float":
        return [float(v) for v in values]
    if kind == "list_bool":
        return [v == "1" for v in values]
    return None


def parse_description(text: str) -> Description:
    registered: dict[str, str] = {}
    classes: dict[str, TilingClass] = {}
    opdefs: list[str] = []
    signatures: list[OpSignature] = []
    params: list[OpParam] = []
    attrs: list[OpAttr] = []
    header: list[str] | None = None
    fields: list[Field] = []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        tag = parts[0]
        try:
            if tag == "register":
                registered[parts[1]] = parts[2]
            elif tag == "opdef":
                opdefs.append(parts[1])
                params, attrs = [], []
            elif tag == "param" and opdefs:
                params.append(OpParam(name=parts[2], role=parts[1], param_type=parts[3],
                                      dtypes=tuple(_GE_TO_NAME.get(g, "") for g in parts[5:]),
                                      any_column=parts[4] == "any"))
            elif tag == "format" and opdefs:
                for i, p in enumerate(params):
                    if p.role == parts[1] and p.name == parts[2]:
                        params[i] = replace(p, formats=tuple(int(f) for f in parts[4:]))
            elif tag == "depend" and opdefs:
                for i, p in enumerate(params):
                    if p.role == parts[1] and p.name == parts[2]:
                        params[i] = replace(p, value_depend=parts[3])
            elif tag == "attr" and opdefs:
                has_default = parts[4] == "default"
                attrs.append(OpAttr(name=parts[1], type=parts[2], required=parts[3] == "REQUIRED",
                                    has_default=has_default,
                                    default=_attr_default(parts[2], parts[5:]) if has_default else None))
            elif tag == "endop" and opdefs:
                signatures.append(OpSignature(op=opdefs[-1], inputs=tuple(p for p in params if p.role == "input"),
                                              outputs=tuple(p for p in params if p.role == "output"),
                                              attrs=tuple(attrs)))
            elif tag == "class":
                header, fields = parts, []
            elif tag == "field" and header is not None:
                fields.append(Field(name=parts[1], kind=parts[2], offset=int(parts[3]), elem_size=int(parts[4]),
                                    count=int(parts[5]), type=" ".join(parts[6:])))
            elif tag == "end" and header is not None:
                name = _short(header[1])
                classes[name] = TilingClass(name=name, size=int(header[2]), align=int(header[3]),
                                            builtin=header[4] == "1", fields=tuple(fields))
                header = None
            else:
                raise DescribeError(f"line {number}: unexpected {line!r}")
        except (IndexError, ValueError) as exc:
            raise DescribeError(f"line {number}: cannot parse {line!r}: {exc}") from None
    return Description(registered=registered, classes=classes, opdefs=tuple(opdefs), signatures=tuple(signatures))


def _short(type_name: str) -> str:
    """``optiling::Foo`` -> ``Foo`` (kernel-side structs live at global scope)."""
    return type_name.replace(" ", "").split("::")[-1]


def _field_decl(f: Field) -> str:
    if f.kind == "struct":
        return f"    {_short(f.type)} {f.name};"
    plain = f.type.replace("std::", "") in _PLAIN_TYPES
    if f.kind == "array":
        if plain:
            return f"    {f.type} {f.name}[{f.count}];"
        return f"    alignas({min(f.elem_size, 8) or 1}) uint8_t {f.name}[{f.elem_size * f.count}];"
    if plain:
        return f"    {f.type} {f.name};"
    return f"    alignas({min(f.elem_size, 8) or 1}) uint8_t {f.name}[{f.elem_size}];"


def tiling_structs(desc: Description, op: str) -> tuple[str, str | None]:
    """C++ definitions of the op's registered tiling classes (and their nested classes), and the class
    name GET_TILING_DATA declares (None when the op registers none under its own name). As in CANN's
    build, every class registered for the op is visible to the kernel, also those registered for one of
    its tiling keys (``REGISTER_TILING_DATA_CLASS(Op_100, ...)``) that kernels read with
    ``GET_TILING_DATA_WITH_STRUCT``."""
    names = [cls for key, cls in desc.registered.items() if key == op or key.startswith(op + "_")]
    if not names:
        return "", None
    top = _short(desc.registered[op]) if op in desc.registered else None
    ordered: list[TilingClass] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen or name not in desc.classes:
            return
        seen.add(name)
        cls = desc.classes[name]
        for f in cls.fields:
            if f.kind == "struct":
                visit(_short(f.type))
        ordered.append(cls)

    for name in ([top] if top else []) + [_short(n) for n in names]:
        visit(name)
    lines: list[str] = []
    if any(c.builtin for c in ordered):
        lines.append('#include "kernel_tiling/kernel_tiling.h"')
    for cls in ordered:
        if cls.builtin:
            continue
        lines.append(f"struct {cls.name} {{")
        lines.extend(_field_decl(f) for f in cls.fields)
        lines.append("};")
        if cls.fields:
            lines.append(f"static_assert(sizeof({cls.name}) == {cls.size}, \"ascendc-sim: tiling layout of "
                         f"{cls.name} differs between host and kernel\");")
        for f in cls.fields:
            lines.append(f"static_assert(offsetof({cls.name}, {f.name}) == {f.offset}, \"ascendc-sim: tiling "
                         f"layout of {cls.name}::{f.name} differs between host and kernel\");")
    return "\n".join(lines), top


def param_formats(project: KernelProject, desc: Description) -> dict[tuple[str, str], int]:
    """The ge::Format of every parameter, by (role, name), in the DataType column the build's dtypes
    select (the OpDef's Format / FormatList; parameters without one are ND)."""
    sig = next((s for s in desc.signatures if s.op == project.op), None)
    if sig is None:
        return {}
    decls = {**{("input", p.name): p for p in sig.inputs}, **{("output", p.name): p for p in sig.outputs}}
    wanted = {(slot.role, slot.name): slot.dtype for slot in project.params}
    column = 0
    for j in range(sig.columns):
        if all(not p.dtypes or p.any_column or p.dtypes[min(j, len(p.dtypes) - 1)] in ("", wanted.get(key))
               for key, p in decls.items() if key in wanted):
            column = j
            break
    return {key: p.formats[min(column, len(p.formats) - 1)] for key, p in decls.items() if p.formats}


# Device code's C library memory functions (no C library on the AI core): declared before anything else.
DEVICE_LIBC = "npukb_sim/kernel/device_libc.h"

# Core type constants of the compile passes (AscendC::AIC / AscendC::AIV in npukb_sim/kernel/cube_types.h).
CORE_VALUES = {"AIC": 1, "AIV": 2}
ENTRIES = {"AIV": "npukb_entry", "AIC": "npukb_entry_aic"}
# The trampoline hands the launcher's arguments over (registers, on the device): neither its loads of them
# nor its one basic block are the kernel's own code (raw-access and scalar-code costing).
ENTRY_ATTRIBUTES = ("#if defined(__GNUC__) && !defined(__clang__)",
                    "#define NPUKB_ENTRY_ATTRIBUTES __attribute__((no_sanitize_address, no_sanitize_coverage))",
                    "#else", "#define NPUKB_ENTRY_ATTRIBUTES __attribute__((no_sanitize_address))", "#endif")


def entry_arity(project: KernelProject) -> int:
    """How many arguments the kernel entry takes: its parameters, the workspace and the tiling; or one
    fewer when its definition ends at ``workspace`` (a kernel without tiling data, which upstream
    NPUKernelBench's kernel-only answers write: their tiling values are local to the kernel)."""
    full = len(project.params) + 2
    text = project.files.get(f"op_kernel/{project.kernel}.cpp", "")
    entry = re.search(r"\b" + re.escape(project.kernel) + r"\s*\(([^()]*)\)\s*\{", text)
    if entry is None:
        return full
    params = [p for p in entry.group(1).split(",") if p.strip()]
    return full - 1 if len(params) == full - 1 and re.search(r"\bworkspace\s*$", params[-1]) else full


def template_entry(project: KernelProject) -> template_kernel.TemplateEntry | None:
    """The project's kernel entry when it is a template kernel of Tiling模板编程 (else None); raises
    template_kernel.TemplateEntryError for a template the build cannot instantiate."""
    return template_kernel.entry(project.files.get(f"op_kernel/{project.kernel}.cpp", ""), project.kernel)


def kernel_epilogue(project: KernelProject) -> str:
    """What the build appends to the kernel source: a template kernel's generated launcher, else nothing."""
    template = template_entry(project)
    return "" if template is None else template_kernel.launcher(template, entry_arity(project))


def prelude(project: KernelProject, desc: Description, core: str = "AIV", plan: KernelPlan | None = None,
            primary: bool = True) -> str:
    """The force-included kernel header for the ``core`` compile pass of ``project``; the primary pass
    also defines the kernel type the launcher reads (``npukb_kernel_type``)."""
    out = [f"// Generated by ascendc-sim for {project.op} ({project.kernel}), {core} pass. Do not edit.",
           "#pragma once", f'#include "{DEVICE_LIBC}"  // first: device code has no C library',
           "#include <cstddef>", "#include <cstdint>", "",
           f"#define {'__DAV_C220_CUBE__' if core == 'AIC' else '__DAV_C220_VEC__'} 1",
           f"constexpr std::int32_t g_coreType = {CORE_VALUES[core]};  // AscendC::{core}", ""]
    for name, value in GE_VALUES.items():
        out.append(f"#define {name} {value}")
    out.append("")
    for name, value in FORMAT_VALUES.items():
        out.append(f"#define {name} {value}")
    formats = param_formats(project, desc)
    inputs = {slot.name for slot in project.params if slot.role == "input"}
    for slot in project.params:
        dt = dtype(slot.dtype)
        # an output named like an input (a ref parameter) is <name>_ref in the generated code, as its
        # kernel argument is: DTYPE_Y_REF beside the input's DTYPE_Y
        upper = slot.name.upper() + ("_REF" if slot.role == "output" and slot.name in inputs else "")
        out.append(f"#define DTYPE_{upper} {dt.cpp}")
        out.append(f"#define ORIG_DTYPE_{upper} {dt.ge_name}")
        if f"FORMAT_{upper}" not in FORMAT_VALUES:
            fmt = formats.get((slot.role, slot.name), FORMAT_VALUES["FORMAT_ND"])
            out.append(f"#define FORMAT_{upper} {_FORMAT_NAMES.get(fmt, fmt)}")
    out.append("")
    structs, top = tiling_structs(desc, project.op)
    if structs:
        out.append(structs)
    if top is not None:
        out.append("#undef NPUKB_TILING_TYPE  // the precompiled kernel header may have defined the default")
        out.append(f"#define NPUKB_TILING_TYPE {top}")
    n_args = entry_arity(project)
    arg_types = ", ".join(["uint8_t*"] * n_args)
    call = ", ".join(f"a[{i}]" for i in range(n_args))
    if template_entry(project) is not None:      # the generated launcher picks the instantiation
        out += ["", *ENTRY_ATTRIBUTES, f'extern "C" void {template_kernel.ENTRY}(uint8_t** a);',
                f'extern "C" NPUKB_ENTRY_ATTRIBUTES void {ENTRIES[core]}(uint8_t** a) '
                f'{{ {template_kernel.ENTRY}(a); }}']
    else:
        out += ["", *ENTRY_ATTRIBUTES, f'extern "C" void {project.kernel}({arg_types});',
                f'extern "C" NPUKB_ENTRY_ATTRIBUTES void {ENTRIES[core]}(uint8_t** a) {{ {project.kernel}({call}); }}']
    if primary:
        kind = plan.default_type if plan is not None else 0
        cases = "".join(f" case {key}ull: return {t};" for key, t in (plan.keyed if plan is not None else ()))
        body = f"switch (key) {{{cases} default: break; }} " if cases else "(void)key; "
        out.append(f'extern "C" int npukb_kernel_type(std::uint64_t key) {{ {body}return {kind}; }}')
    out.append("")
    return "\n".join(out)
