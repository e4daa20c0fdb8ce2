"""Build-and-compare helpers of the library API tests (test_lib_math.py, test_lib_activation.py): one
kernel program runs a list of elementwise calls, each on its own input segments, and writes each
destination segment out; the tests compare every segment with a numpy reference written from the API's
doc page. Our own test code, compiled with the real g++ against the simulator headers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

SEG = 128          # elements allocated per operand segment
TAIL = 100         # the calCount of the count forms: not a whole number of 256-byte repeats or 32-byte blocks
SENTINEL = -7.0    # what the destination holds before the call (elements past calCount must keep it)
UNSIGNED_SENTINEL = 7.0

CTYPES = {"float": np.float32, "half": np.float16, "int32_t": np.int32, "int16_t": np.int16, "uint16_t": np.uint16}


@dataclass(frozen=True)
class Case:
    """One call: `call` uses z (dst), x and y (sources), t (a sharedTmpBuffer), N (the calCount macro) and
    may name T (the element type); `count` is how many leading elements it computes (the rest keeps the
    sentinel); `ref(x, y)` gives the expected values in float64; `x` / `y` the input segments."""

    name: str
    call: str
    ref: Callable[[np.ndarray, np.ndarray], np.ndarray]
    x: np.ndarray
    y: np.ndarray | None = None
    count: int = TAIL


def sentinel(ctype: str) -> float:
    return UNSIGNED_SENTINEL if ctype.startswith("u") else SENTINEL


def program(ctype: str, cases: list[Case], tmp_bytes: int = 16384) -> str:
    """The kernel program: segment i of input 0 / 1 into x / y, the call, z into output segment i."""
    n = len(cases)
    fill = sentinel(ctype)
    calls = "\n".join(
        f"  DataCopy(x, a[{i * SEG}], {SEG}); DataCopy(y, b[{i * SEG}], {SEG}); Duplicate(z, (T)({fill}), {SEG});\n"
        f"  {{ {c.call}; }}\n"
        f"  DataCopy(o[{i * SEG}], z, {SEG});" for i, c in enumerate(cases))
    return f"""
using T = {ctype};
#define N {TAIL}
static void body(void*) {{
  GlobalTensor<T> a, b, o;
  a.SetGlobalBuffer((__gm__ T*)npukb_test::gm_input(0), {n * SEG});
  b.SetGlobalBuffer((__gm__ T*)npukb_test::gm_input(1), {n * SEG});
  o.SetGlobalBuffer((__gm__ T*)npukb_test::gm_output(0, {n * SEG} * sizeof(T)), {n * SEG});
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz, bt;
  pipe.InitBuffer(bx, {SEG} * sizeof(T)); pipe.InitBuffer(by, {SEG} * sizeof(T));
  pipe.InitBuffer(bz, {SEG} * sizeof(T)); pipe.InitBuffer(bt, {tmp_bytes});
  LocalTensor<T> x = bx.Get<T>(), y = by.Get<T>(), z = bz.Get<T>();
  LocalTensor<uint8_t> t = bt.Get<uint8_t>();
{calls}
}}
void run_test() {{ npukb_test::run_blocks(1, body, nullptr); }}
"""


def inputs(ctype: str, cases: list[Case]) -> tuple[np.ndarray, np.ndarray]:
    dt = CTYPES[ctype]
    a = np.zeros(len(cases) * SEG, dt)
    b = np.ones(len(cases) * SEG, dt)
    for i, c in enumerate(cases):
        a[i * SEG:(i + 1) * SEG] = np.resize(c.x, SEG).astype(dt)
        if c.y is not None:
            b[i * SEG:(i + 1) * SEG] = np.resize(c.y, SEG).astype(dt)
    return a, b


def check(prog, ctype: str, cases: list[Case], rtol: float, atol: float, tmp_bytes: int = 16384) -> None:
    """Run the cases and compare: the computed elements with the reference (rounded to the element type,
    NaN and infinities where the reference has them), the elements past `count` with the sentinel."""
    dt = CTYPES[ctype]
    a, b = inputs(ctype, cases)
    prog.inputs(a, b)
    ran = prog.run(program(ctype, cases, tmp_bytes))
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, dt)
    for i, c in enumerate(cases):
        seg = got[i * SEG:(i + 1) * SEG]
        xs = a[i * SEG:(i + 1) * SEG].astype(np.float64)
        ys = b[i * SEG:(i + 1) * SEG].astype(np.float64)
        with np.errstate(all="ignore"):
            want = np.asarray(c.ref(xs[:c.count], ys[:c.count]), np.float64)
        if np.issubdtype(dt, np.integer):
            np.testing.assert_array_equal(seg[:c.count], want.astype(dt), err_msg=c.name)
        else:
            np.testing.assert_allclose(seg[:c.count].astype(np.float64), want.astype(dt).astype(np.float64),
                                       rtol=rtol, atol=atol, equal_nan=True, err_msg=c.name)
        np.testing.assert_array_equal(seg[c.count:], np.full(SEG - c.count, sentinel(ctype), dt),
                                      err_msg=c.name + " (tail)")
