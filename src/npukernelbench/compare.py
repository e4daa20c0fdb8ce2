"""Outputs vs reference -> Verdict.

Strict on structure (output count, list lengths, shapes, storage dtype), then per element:
``|out - ref| <= atol + rtol * |ref|`` with the task's per-dtype tolerance (``TaskSpec.tolerance_for``)
for floating outputs, exact equality for integer and bool outputs (unless the task declares an integer
tolerance: every element within ``atol``, at most a ``mismatch`` share different). NaN/Inf policy: an infinity in
the reference must be matched exactly (same sign); with ``nan_policy = "match"`` NaN is expected
exactly where the reference has NaN; with ``"forbid"`` any NaN in the output fails.

``ErrorLimits`` (the public layout's tasks without a precision check of their own): an element also
passes when its absolute error is within ``max_abs`` or its relative error ``|out - ref| / (|ref| + 1e-7)``
within ``max_rel``, the fixed limits upstream NPUKernelBench judges such tasks by. The infinity and NaN
rules above still decide at infinite and NaN elements.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from npukernelbench.dtypes import dtype as lookup_dtype
from npukernelbench.inputs import to_values
from npukernelbench.spec import TaskSpec, Tolerance


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str = ""
    output: str | None = None            # name of the first mismatching output
    index: tuple[int, ...] | None = None  # first mismatching element
    max_abs: float = 0.0
    max_rel: float = 0.0
    mismatches: int = 0


@dataclass(frozen=True)
class ErrorLimits:
    """Fixed error limits in the manner of upstream's ``check_precision``: an element fails only when its
    absolute error exceeds ``max_abs`` *and* its relative error exceeds ``max_rel``."""

    max_abs: float
    max_rel: float

    def admit(self, diff: np.ndarray, ref: np.ndarray) -> np.ndarray:
        """Elements whose error ``diff`` against ``ref`` is within the limits (NaN errors are not)."""
        return (diff <= self.max_abs) | (diff <= self.max_rel * (np.abs(ref) + 1e-7))

    def describe(self) -> str:
        return f"abs {self.max_abs:g} or rel {self.max_rel:g}"


def _fmt(v: Any) -> str:
    if isinstance(v, float | np.floating):
        return f"{float(v):.6g}"
    return repr(v.item() if hasattr(v, "item") else v)


def compare_array(name: str, got: np.ndarray, expected: np.ndarray, dtype_name: str,
                  tolerance: Tolerance | None, nan_policy: str = "match", also: np.ndarray | None = None,
                  limits: ErrorLimits | None = None, also_dtype: str | None = None) -> Verdict:
    """One output array (storage type) against its expected values. ``also`` (floating outputs only):
    a second expected array of the same shape, the same computation carried out in the output's own
    dtype; an element within tolerance of either passes (errors and figures are against ``expected``).
    ``also_dtype``: ``also`` is a storage array of that dtype, converted a chunk at a time (a
    half-billion-element half output is never upcast whole); None: ``also`` holds values.
    ``limits`` (floating outputs only): an element within them of either expected array passes too."""
    dt = lookup_dtype(dtype_name)
    if not isinstance(got, np.ndarray):
        return Verdict(False, f"output '{name}': expected an array, got {type(got).__name__}", name)
    if got.dtype != dt.numpy_storage:
        return Verdict(False, f"output '{name}': dtype {got.dtype} but {dtype_name} (storage {dt.storage}) "
                              f"expected", name)
    expected = np.asarray(expected)
    if tuple(got.shape) != tuple(expected.shape):
        return Verdict(False, f"output '{name}': shape {list(got.shape)} but {list(expected.shape)} expected", name)
    if expected.ndim == 0:                                # scalar outputs (a loss): compare as 1 element
        got, expected = got.reshape(1), expected.reshape(1)
    if got.size == 0:
        return Verdict(True)
    if tolerance is None or not dt.is_float:             # exact comparison (or a declared integer tolerance)
        values = to_values(got, dtype_name)
        g = values.astype(np.int64) if dt.kind == "bool" else values
        e = expected.astype(g.dtype) if dt.kind != "bool" else expected.astype(np.int64)
        bad = g != e
        if not bad.any():
            return Verdict(True)
        if tolerance is not None and dt.kind in ("int", "uint"):
            verdict = _integer_within(name, g, e, bad, dtype_name, tolerance)
            if verdict is not None:
                return verdict
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        diff = np.abs(g.astype(np.float64) - e.astype(np.float64))
        return Verdict(False, f"output '{name}': {int(bad.sum())} of {bad.size} elements differ (exact "
                              f"{dtype_name}); first at index {list(idx)}: got {_fmt(g[idx])}, expected "
                              f"{_fmt(e[idx])}; max abs error {_fmt(diff.max())}",
                       name, idx, float(diff.max()), 0.0, int(bad.sum()))
    alt = None if also is None or dt.kind == "complex" else np.asarray(also).reshape(expected.shape).reshape(-1)
    tally = _FloatTally()
    flat_got, flat_expected = got.reshape(-1), expected.reshape(-1)
    for begin in range(0, got.size, _CHUNK):
        part = slice(begin, begin + _CHUNK)
        extra = None if alt is None else alt[part] if also_dtype is None else to_values(alt[part], also_dtype)
        tally.add(begin, to_values(flat_got[part], dtype_name), flat_expected[part], extra, dt.kind == "complex",
                  tolerance, nan_policy, limits)
    if tally.bad == 0:
        return Verdict(True, max_abs=tally.max_abs, max_rel=tally.max_rel)
    idx = tuple(int(i) for i in np.unravel_index(tally.first, got.shape))
    beyond = f" and the limits ({limits.describe()})" if limits is not None else ""
    return Verdict(False, f"output '{name}': {tally.bad} of {got.size} elements outside rtol={tolerance.rtol:g}, "
                          f"atol={tolerance.atol:g} ({dtype_name}){beyond}; {tally.error_figures()}; first mismatch "
                          f"at index {list(idx)}: got {_fmt(tally.first_got)}, expected {_fmt(tally.first_expected)}",
                   name, idx, tally.worst_abs, tally.worst_rel, tally.bad)


# Floating outputs are compared this many elements at a time, so that the float64 temporaries stay
# small next to the output itself (public tasks have outputs of half a billion elements).
_CHUNK = 1 << 22


@dataclass
class _FloatTally:
    """The running result of a chunked floating-point comparison."""

    bad: int = 0
    first: int = -1
    first_got: Any = None
    first_expected: Any = None
    max_abs: float = 0.0                  # over the elements where both sides are finite
    max_rel: float = 0.0
    finite: int = 0                       # elements where both sides are finite
    nonfinite_bad: int = 0                # mismatches where a side is NaN or infinite

    @property
    def worst_abs(self) -> float:
        """The largest absolute error: infinite when a mismatch involves NaN or infinity."""
        return math.inf if self.nonfinite_bad else self.max_abs

    @property
    def worst_rel(self) -> float:
        return math.inf if self.nonfinite_bad else self.max_rel

    def error_figures(self) -> str:
        """The error figures of a failed comparison, honest about NaN and infinite elements."""
        if not self.nonfinite_bad:
            return f"max abs error {self.max_abs:.4g}, max rel error {self.max_rel:.4g}"
        where = (f"max abs error {self.max_abs:.4g} and max rel error {self.max_rel:.4g} over the {self.finite} "
                 "finite elements" if self.finite else "no element where both sides are finite")
        return f"{self.nonfinite_bad} mismatched elements are NaN or infinite (error unbounded); {where}"

    def add(self, begin: int, values: np.ndarray, expected: np.ndarray, also: np.ndarray | None, complex_: bool,
            tolerance: Tolerance, nan_policy: str, limits: ErrorLimits | None = None) -> None:
        wide = np.complex128 if complex_ else np.float64
        g = np.asarray(values, dtype=wide)
        e = np.asarray(expected, dtype=wide)
        g_nan, e_nan = np.isnan(g), np.isnan(e)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(g - e)
            close = diff <= tolerance.atol + tolerance.rtol * np.abs(e)
            if limits is not None:
                close |= limits.admit(diff, e)
            if also is not None:
                a = np.asarray(also, dtype=np.float64)
                # within tolerance of the task-dtype result; where that result is infinite (an overflow
                # float16 itself makes) only the same infinity passes (the tolerance there is infinite)
                off = np.abs(g - a)
                near = off <= tolerance.atol + tolerance.rtol * np.abs(a)
                if limits is not None:
                    near |= limits.admit(off, a)
                close = close | np.where(np.isinf(a), g == a, near)
        e_inf = np.isinf(e)
        close = np.where(e_inf, g == e, close)                  # infinities must match exactly
        if nan_policy == "forbid":
            close = close & ~g_nan
        else:
            close = np.where(e_nan, g_nan, close & ~g_nan)      # NaN exactly where the reference has NaN
        bad = ~close
        finite = ~(g_nan | e_nan | np.isinf(g) | e_inf)
        self.finite += int(finite.sum())
        self.nonfinite_bad += int((bad & ~finite).sum())
        if finite.any():
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):   # relative error of a
                self.max_abs = max(self.max_abs, float(diff[finite].max()))           # value near 0: inf
                rel = diff[finite] / np.maximum(np.abs(e[finite]), np.finfo(np.float64).tiny)
                self.max_rel = max(self.max_rel, float(rel.max()))
        count = int(bad.sum())
        if count and self.first < 0:
            at = int(np.argmax(bad))
            self.first, self.first_got, self.first_expected = begin + at, g[at], e[at]
        self.bad += count


def _integer_within(name: str, g: np.ndarray, e: np.ndarray, bad: np.ndarray, dtype_name: str,
                    tolerance: Tolerance) -> Verdict | None:
    """A passing Verdict when every element is within ``atol`` and few enough differ, else None."""
    allowed = max(1, int(tolerance.mismatch * bad.size)) if tolerance.mismatch > 0 else bad.size
    if int(bad.sum()) > allowed:
        return None
    worst = max(abs(int(a) - int(b)) for a, b in zip(g[bad].tolist(), e[bad].tolist(), strict=True))
    return Verdict(True, max_abs=float(worst)) if worst <= tolerance.atol else None


def compare_outputs(spec: TaskSpec, got: Mapping[str, Any], expected: Mapping[str, Any],
                    dtypes: Mapping[str, str]) -> Verdict:
    """Every output of the task, strictly: all present, no extra ones, each within tolerance."""
    names = [d.name for d in spec.outputs]
    missing = [n for n in names if n not in got]
    if missing:
        return Verdict(False, f"output '{missing[0]}' was not produced (expected outputs: {', '.join(names)})",
                       missing[0])
    extra = sorted(set(got) - set(names))
    if extra:
        return Verdict(False, f"unexpected output '{extra[0]}' (expected outputs: {', '.join(names)})", extra[0])
    worst_abs = worst_rel = 0.0
    for decl in spec.outputs:
        dtype_name = dtypes[decl.name]
        tol = spec.tolerance_for(dtype_name)
        g, e = got[decl.name], expected[decl.name]
        if isinstance(e, list):
            if not isinstance(g, list) or len(g) != len(e):
                n = len(g) if isinstance(g, list) else "not a list"
                return Verdict(False, f"output '{decl.name}': tensor list of {n} but {len(e)} expected", decl.name)
            parts = [(f"{decl.name}[{i}]", gi, ei) for i, (gi, ei) in enumerate(zip(g, e, strict=True))]
        else:
            parts = [(decl.name, g, e)]
        for label, gi, ei in parts:
            verdict = compare_array(label, gi, ei, dtype_name, tol, spec.nan_policy)
            if not verdict.ok:
                return verdict
            worst_abs, worst_rel = max(worst_abs, verdict.max_abs), max(worst_rel, verdict.max_rel)
    return Verdict(True, max_abs=worst_abs, max_rel=worst_rel)


def same_bits(a: Any, b: Any) -> bool:
    """Bit-for-bit equality of two outputs (arrays or lists of arrays); NaN payloads included."""
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and \
            all(same_bits(x, y) for x, y in zip(a, b, strict=True))
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.hasobject:
        return a.tobytes() == b.tobytes()
    bits = a.dtype.itemsize if a.dtype.itemsize in (1, 2, 4, 8) else 1
    flat_a = np.ascontiguousarray(a).reshape(-1).view(f"u{bits}")
    flat_b = np.ascontiguousarray(b).reshape(-1).view(f"u{bits}")
    return all(np.array_equal(flat_a[i:i + _CHUNK], flat_b[i:i + _CHUNK]) for i in range(0, flat_a.size, _CHUNK))
