"""Input values for one shape case: drawn per ``Distribution``, seeded, in the dtype's storage type.

Arrays are numpy arrays of ``dtypes.DType.numpy_storage`` (bfloat16 travels as uint16 bits, see
:func:`to_bfloat16_bits`). The same (case, seed) always gives the same bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from npukernelbench.dtypes import dtype as lookup_dtype
from npukernelbench.spec import Distribution, ParamDecl

InputValue = np.ndarray | list[np.ndarray] | None


def to_bfloat16_bits(values: np.ndarray) -> np.ndarray:
    """float32 values -> bfloat16 bits (uint16), rounding to nearest even; NaN stays NaN."""
    f = np.ascontiguousarray(values, dtype=np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f)
    if nan.any():
        rounded[nan] = 0x7FC0
    return rounded.reshape(f.shape)


def from_bfloat16_bits(bits: np.ndarray) -> np.ndarray:
    """bfloat16 bits (uint16) -> float32 values (exact)."""
    b = np.ascontiguousarray(bits, dtype=np.uint16)
    return (b.astype(np.uint32) << 16).view(np.float32).reshape(b.shape)


def to_values(array: np.ndarray, dtype_name: str) -> np.ndarray:
    """Storage array -> numeric array for arithmetic (bfloat16 bits become float32)."""
    if dtype_name == "bfloat16":
        return from_bfloat16_bits(array)
    return np.asarray(array)


def from_values(values: np.ndarray, dtype_name: str) -> np.ndarray:
    """Numeric array -> storage array of ``dtype_name`` (rounding floats, wrapping nothing)."""
    if dtype_name == "bfloat16":
        return to_bfloat16_bits(np.asarray(values, dtype=np.float32))
    if dtype_name == "complex64":
        return np.asarray(values, dtype=np.complex64)
    return np.asarray(values).astype(lookup_dtype(dtype_name).numpy_storage)


def case_seed(*parts: Any) -> int:
    """A stable 63-bit seed from any printable parts (shape, seed index, parameter name)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def draw_values(dist: Distribution, shape: tuple[int, ...], dtype_name: str, rng: np.random.Generator) -> np.ndarray:
    """One tensor's values drawn from ``dist`` in the storage type of ``dtype_name``."""
    dt = lookup_dtype(dtype_name)
    shape = tuple(int(d) for d in shape)
    kind = dist.kind
    if dt.kind == "bool" or kind == "bool":
        values: np.ndarray = rng.random(shape) < 0.5
    elif kind == "choice":
        values = rng.choice(np.asarray(dist.values, dtype=np.float64), size=shape)
    elif dt.kind in ("int", "uint") or kind == "int":
        lo, hi = int(np.ceil(dist.low)), int(np.floor(dist.high))
        if dt.kind in ("int", "uint"):
            info = np.iinfo(dt.numpy_storage)
            lo, hi = max(lo, int(info.min)), min(hi, int(info.max))
            if hi < lo:
                lo, hi = hi, lo
        values = rng.integers(lo, hi, size=shape, endpoint=True).astype(np.float64)
    elif kind == "normal":
        values = rng.normal(dist.mean, dist.std, size=shape)
    else:  # uniform and special
        values = rng.uniform(dist.low, dist.high, size=shape)
    if kind == "special" and values.size:
        mask = rng.random(shape) < dist.special_fraction
        specials = rng.choice(np.array([np.nan, np.inf, -np.inf, 0.0]), size=shape)
        values = np.where(mask, specials, values)
    if dt.kind == "complex":
        imag = rng.uniform(dist.low, dist.high, size=shape)
        return (values + 1j * imag).astype(np.complex64)
    if dt.kind in ("int", "uint") and kind != "bool":
        info = np.iinfo(dt.numpy_storage)
        values = np.clip(values, info.min, info.max)
    return from_values(values, dtype_name)


def make_inputs(inputs: tuple[ParamDecl, ...], shapes: Mapping[str, Any], types: Mapping[str, str],
                seed: int) -> dict[str, InputValue]:
    """Every input of one case: arrays for tensors (scalars and scalar lists are 1-D tensors too),
    lists of arrays for tensor lists, None for absent optional inputs. ``seed`` (with the parameter
    name and shape) makes the draw reproducible."""
    result: dict[str, InputValue] = {}
    for decl in inputs:
        if decl.name not in shapes:
            result[decl.name] = None
            continue
        dtype_name = types.get(decl.dtype, decl.dtype)
        rng = np.random.default_rng(case_seed(seed, decl.name, shapes[decl.name]))
        if decl.kind == "list":
            # one generator per tensor: tensor i's values do not depend on the shapes of the others
            result[decl.name] = [draw_values(decl.distribution, tuple(s), dtype_name,
                                             np.random.default_rng(case_seed(seed, decl.name, i, s)))
                                 for i, s in enumerate(shapes[decl.name])]
        else:
            result[decl.name] = draw_values(decl.distribution, tuple(shapes[decl.name]), dtype_name, rng)
    return result
