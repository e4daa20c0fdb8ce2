"""Named tiling values: the raw tiling bytes a run's TilingFunc wrote, decoded with the layout of
the op's registered tiling class (``BEGIN_TILING_DATA_DEF`` ...).

The build keeps what ``<exe> describe`` printed (``LAYOUT_FILE`` next to the executable; see
``kernel_prelude.parse_description``); a run decodes ``tiling_hex`` with it into
``{field: value}``: integers and floats for scalars, lists for arrays, dicts for nested classes.
Classes registered per tiling key (``<op>_<key>``) take precedence over the op's default class.
Ops without a registered class (raw structs) have no named fields: ``decode`` returns None.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from npukernelbench.toolchains.ascendc_sim.kernel_prelude import (
    DescribeError,
    Description,
    TilingClass,
    parse_description,
)

LAYOUT_FILE = "tiling_layout.txt"

_FLOATS = {("float", 4): "<f", ("double", 8): "<d"}
_INTS = {1: "b", 2: "h", 4: "i", 8: "q"}
_UNSIGNED_WORDS = ("unsigned", "uint", "size_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t")


def _scalar_format(type_name: str, size: int) -> str | None:
    name = type_name.replace("std::", "").strip()
    if (name, size) in _FLOATS:
        return _FLOATS[(name, size)]
    if name == "bool" and size == 1:
        return "<?"
    if size not in _INTS:
        return None
    code = _INTS[size]
    unsigned = any(word in name for word in _UNSIGNED_WORDS) or name == "char16_t"
    return "<" + (code.upper() if unsigned else code)


def _value(type_name: str, size: int, raw: bytes) -> Any:
    fmt = _scalar_format(type_name, size)
    if fmt is None:
        return raw.hex()                   # a type we cannot name (an opaque struct): its bytes
    return struct.unpack(fmt, raw)[0]


def _class(desc: Description, cls: TilingClass, data: bytes, base: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in cls.fields:
        start = base + f.offset
        if f.kind == "struct":
            nested = desc.classes.get(f.type.replace(" ", "").split("::")[-1])
            out[f.name] = _class(desc, nested, data, start) if nested is not None else \
                data[start:start + nested_size(desc, f.type)].hex()
        elif f.kind == "array":
            out[f.name] = [_value(f.type, f.elem_size, data[start + i * f.elem_size:start + (i + 1) * f.elem_size])
                           for i in range(f.count)]
        else:
            out[f.name] = _value(f.type, f.elem_size, data[start:start + f.elem_size])
    return out


def nested_size(desc: Description, type_name: str) -> int:
    cls = desc.classes.get(type_name.replace(" ", "").split("::")[-1])
    return cls.size if cls is not None else 0


def decode(desc: Description, op: str, tiling_key: int, data: bytes) -> dict[str, Any] | None:
    """The fields of ``op``'s tiling class read from ``data``; None when the op registers no class or
    the bytes are shorter than the class."""
    name = desc.registered.get(f"{op}_{tiling_key}") or desc.registered.get(op)
    if name is None:
        return None
    cls = desc.classes.get(name.replace(" ", "").split("::")[-1])
    if cls is None or len(data) < cls.size:
        return None
    return _class(desc, cls, data, 0)


def decode_run(build_dir: Path, op: str, details: dict[str, Any]) -> dict[str, Any] | None:
    """Named tiling values of one run's ``details`` (tiling_hex, tiling_key) for the build in
    ``build_dir``; None when the build kept no layout or the op has no registered class."""
    try:
        text = (Path(build_dir) / LAYOUT_FILE).read_text(encoding="utf-8")
        desc = parse_description(text)
        data = bytes.fromhex(str(details.get("tiling_hex", "")))
        key = int(details.get("tiling_key", 0))
    except (OSError, ValueError, DescribeError):
        return None
    return decode(desc, op, key, data)
