"""The dtype table shared by specs, toolchains and the comparison step.

One row per dtype name as written in case specs. ``storage`` is the numpy dtype that holds the raw
bits (bfloat16 has no numpy dtype, so its bits travel as uint16).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DType:
    name: str          # spec name, also the torch attribute name (torch.float16, ...)
    itemsize: int      # bytes per element
    storage: str       # numpy dtype of the raw bits
    ge_name: str       # ge::DataType enumerator (host side, DataType in OpDef)
    cpp: str           # AscendC kernel-side C++ type (DTYPE_<NAME> macro value)
    kind: str          # "float", "int", "uint", "bool", "complex"

    @property
    def is_float(self) -> bool:
        return self.kind in ("float", "complex")

    @property
    def numpy_storage(self) -> np.dtype:
        return np.dtype(self.storage)


_ROWS = (
    DType("float16", 2, "float16", "DT_FLOAT16", "half", "float"),
    DType("bfloat16", 2, "uint16", "DT_BF16", "bfloat16_t", "float"),
    DType("float32", 4, "float32", "DT_FLOAT", "float", "float"),
    DType("float64", 8, "float64", "DT_DOUBLE", "double", "float"),
    DType("int8", 1, "int8", "DT_INT8", "int8_t", "int"),
    DType("uint8", 1, "uint8", "DT_UINT8", "uint8_t", "uint"),
    DType("int16", 2, "int16", "DT_INT16", "int16_t", "int"),
    DType("uint16", 2, "uint16", "DT_UINT16", "uint16_t", "uint"),
    DType("int32", 4, "int32", "DT_INT32", "int32_t", "int"),
    DType("uint32", 4, "uint32", "DT_UINT32", "uint32_t", "uint"),
    DType("int64", 8, "int64", "DT_INT64", "int64_t", "int"),
    DType("uint64", 8, "uint64", "DT_UINT64", "uint64_t", "uint"),
    DType("bool", 1, "bool", "DT_BOOL", "bool", "bool"),
    DType("complex64", 8, "complex64", "DT_COMPLEX64", "float", "complex"),
)

DTYPES: dict[str, DType] = {row.name: row for row in _ROWS}


def dtype(name: str) -> DType:
    """Look a dtype up by its spec name, with an error that lists the known names."""
    try:
        return DTYPES[name]
    except KeyError:
        known = ", ".join(DTYPES)
        raise KeyError(f"unknown dtype {name!r}; known dtypes: {known}") from None
