"""A cube-path test program compiled once and run per case (tests/sim_cube).

The C++ side gets ``HEAD`` below: the parameter vector ``P`` (input 0, int32; ``P[0]`` selects the case
in the test's ``switch``), every on-chip buffer as one full-size TBuf (``L1``, ``L0A``, ``L0B``, ``L0C``,
``BT``, ``FB``, ``UB``), ``gin<T>(i)`` (GM input i as
a GlobalTensor), ``gout<T>(i, n)`` (GM output i of n elements), ``dump(i, tensor, n)`` (n elements of a
local tensor out as output i, read directly: test plumbing, not the kernel) and ``load(tensor, i, n)``
(GM input i written straight into a local tensor). ``run_case`` runs the body on an AI cube core, or on
an AI vector core when ``P[1]`` is 2.
"""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import numpy as np
from simkit import CXX, INCLUDE, SUPPORT, Ran, compile_program, run_program

from npukernelbench.toolchains.ascendc_sim.compiler import KERNEL_DEFINES

HEAD = r"""
#include <cstring>
#include "lib/matmul_intf.h"

static const int32_t* P = nullptr;
static float pf(int k) { float f; std::memcpy(&f, &P[k], 4); return f; }

struct Bufs {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C2> bt;
  TBuf<TPosition::C2PIPE2GM> fb;
  TBuf<TPosition::VECCALC> ub;
  explicit Bufs(bool vector) {
    (void)vector;
    pipe.InitBuffer(l1, 512 * 1024);
    pipe.InitBuffer(l0a, 64 * 1024);
    pipe.InitBuffer(l0b, 64 * 1024);
    pipe.InitBuffer(l0c, 128 * 1024);
    pipe.InitBuffer(bt, 1024);
    pipe.InitBuffer(fb, 4096);
    pipe.InitBuffer(ub, 192 * 1024);
  }
  template <typename T> LocalTensor<T> L1() { return l1.Get<T>(); }
  template <typename T> LocalTensor<T> L0A() { return l0a.Get<T>(); }
  template <typename T> LocalTensor<T> L0B() { return l0b.Get<T>(); }
  template <typename T> LocalTensor<T> L0C() { return l0c.Get<T>(); }
  template <typename T> LocalTensor<T> BT() { return bt.Get<T>(); }
  template <typename T> LocalTensor<T> FB() { return fb.Get<T>(); }
  template <typename T> LocalTensor<T> UB() { return ub.Get<T>(); }
};

template <typename T> GlobalTensor<T> gin(int i) {
  std::size_t bytes = 0;
  unsigned char* p = npukb_test::gm_input(i, &bytes);
  GlobalTensor<T> g;
  g.SetGlobalBuffer((__gm__ T*)p, bytes / sizeof(T));
  return g;
}
template <typename T> GlobalTensor<T> gout(int i, uint32_t n) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer((__gm__ T*)npukb_test::gm_output(i, n * sizeof(T)), n);
  return g;
}
template <typename T> void dump(int i, const LocalTensor<T>& t, uint32_t n) {
  std::memcpy(npukb_test::gm_output(i, n * sizeof(T)), t.ptr(), n * sizeof(T));
}
template <typename T> void load(const LocalTensor<T>& t, int i, uint32_t n) {
  std::size_t bytes = 0;
  unsigned char* p = npukb_test::gm_input(i, &bytes);
  std::memcpy(t.ptr(), p, bytes < n * sizeof(T) ? bytes : n * sizeof(T));
}
static void body(void*);
void run_test() {
  P = reinterpret_cast<const int32_t*>(npukb_test::gm_input(0));
  npukb_test::run_blocks_on(P[1] == 2 ? npukb::CORE_AIV : npukb::CORE_AIC, 1, body, nullptr);
  npukb_test::print_cycles(npukb_test::last_figures().finish_cycles);
}
"""


def params(*values: int | float) -> np.ndarray:
    """The int32 parameter vector: ints as they are, floats as their IEEE bits."""
    out = []
    for v in values:
        out.append(struct.unpack("<i", struct.pack("<f", v))[0] if isinstance(v, float) else int(v))
    return np.array(out, dtype=np.int32)


class CubeProgram:
    """``body`` (the C++ ``static void body(void*)`` after HEAD) compiled once; each case runs fresh."""

    def __init__(self, body: str, workdir: Path, cache: Path) -> None:
        self.workdir = workdir
        comp = compile_program(HEAD + body, workdir / "build", cache)
        if not comp.ok:
            raise AssertionError("test program failed to compile:\n" + comp.stderr[-6000:])
        assert comp.exe is not None
        self.exe = comp.exe
        self.runs = 0

    def run(self, case: int, *inputs: np.ndarray, vector: bool = False, extra: tuple[int | float, ...] = ()
            ) -> tuple[Ran, Path]:
        self.runs += 1
        d = self.workdir / f"run{self.runs}"
        d.mkdir(parents=True, exist_ok=True)
        (d / "in0.bin").write_bytes(params(case, 2 if vector else 1, *extra).tobytes())
        for i, a in enumerate(inputs, start=1):
            (d / f"in{i}.bin").write_bytes(np.ascontiguousarray(a).tobytes())
        return run_program(self.exe, d), d

    def ok(self, case: int, *inputs: np.ndarray, vector: bool = False, extra: tuple[int | float, ...] = ()) -> Path:
        ran, d = self.run(case, *inputs, vector=vector, extra=extra)
        assert ran.returncode == 0, ran.stderr[-3000:]
        return d

    def violation(self, case: int, *inputs: np.ndarray, vector: bool = False,
                  extra: tuple[int | float, ...] = ()) -> str:
        """Run a case that must stop with a violation; returns the VIOLATION line."""
        ran, _ = self.run(case, *inputs, vector=vector, extra=extra)
        assert ran.returncode == 3, (ran.returncode, ran.stdout[-2000:], ran.stderr[-3000:])
        line = ran.stderr.strip().splitlines()[-1]
        assert line.startswith("VIOLATION: "), line
        return line


def syntax_errors(statement: str, workdir: Path) -> str:
    """Compile ``statement`` inside a body of HEAD with -fsyntax-only; the compiler's stderr ('' when it
    compiles)."""
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / "snippet.cpp"
    src.write_text("#include \"kernel_operator.h\"\n#include \"test_support.h\"\nusing namespace AscendC;\n" + HEAD +
                   "static void body(void*) { Bufs b(false); " + statement + " }\n")
    cmd = [CXX, "-std=c++17", "-fsyntax-only", *KERNEL_DEFINES, f"-I{INCLUDE}", f"-I{SUPPORT}", str(src)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return proc.stderr if proc.returncode != 0 else ""


def output(d: Path, i: int, dtype) -> np.ndarray:
    return np.frombuffer((d / f"out{i}.bin").read_bytes(), dtype=dtype)


# ---- layouts of the cube path (numpy references written from the fractal-format pages) --------------

def nd_to_nz(a: np.ndarray, c0: int, rows_to: int | None = None) -> np.ndarray:
    """ND (rows x cols) -> NZ: column blocks of c0, each all rows (padded to rows_to) x c0, flattened."""
    rows, cols = a.shape
    rows_to = rows_to or rows
    k1 = -(-cols // c0)
    out = np.zeros((k1, rows_to, c0), dtype=a.dtype)
    for kb in range(k1):
        blk = a[:, kb * c0: (kb + 1) * c0]
        out[kb, :rows, : blk.shape[1]] = blk
    return out.reshape(-1)


def to_zz(a: np.ndarray, r0: int, c0: int) -> np.ndarray:
    """Matrix -> zZ: fractals r0 x c0, row-major over fractals and inside (the L0A layout)."""
    rows, cols = a.shape
    m1, k1 = -(-rows // r0), -(-cols // c0)
    pad = np.zeros((m1 * r0, k1 * c0), dtype=a.dtype)
    pad[:rows, :cols] = a
    return pad.reshape(m1, r0, k1, c0).transpose(0, 2, 1, 3).reshape(-1)


def to_nz_b(b: np.ndarray, k0: int) -> np.ndarray:
    """K x N -> the L0B layout: fractals (k0 of K) x (16 of N), row-major over fractals, each stored as
    16 rows of N x k0 of K."""
    k, n = b.shape
    k1, n1 = -(-k // k0), -(-n // 16)
    pad = np.zeros((k1 * k0, n1 * 16), dtype=b.dtype)
    pad[:k, :n] = b
    return pad.reshape(k1, k0, n1, 16).transpose(0, 2, 3, 1).reshape(-1)


def from_nz_c(c: np.ndarray, m: int, n: int) -> np.ndarray:
    """The L0C layout (n1 column blocks of m1*16 rows x 16) -> m x n."""
    m1, n1 = -(-m // 16), -(-n // 16)
    return c[: n1 * m1 * 256].reshape(n1, m1 * 16, 16).transpose(1, 0, 2).reshape(m1 * 16, n1 * 16)[:m, :n]


def densify(b: np.ndarray):
    """4:2 densification of B (K x N, at most 2 non-zeros per 4 rows of a column) and the index per the
    documented table: index0 = position of the first non-zero among elements 0..2, index1 = position of
    the second among elements 1..3, minus 1."""
    k, n = b.shape
    dense = np.zeros((k // 2, n), np.int8)
    idx = np.zeros((k // 2, n), np.uint8)
    for j in range(n):
        for g in range(k // 4):
            grp = b[4 * g: 4 * g + 4, j]
            nz = [i for i in range(4) if grp[i] != 0]
            if len(nz) == 2:
                p0, p1 = nz
            elif len(nz) == 1:
                p0, p1 = (nz[0], nz[0]) if nz[0] < 3 else (0, 3)
            else:
                p0, p1 = 0, 1
            dense[2 * g, j] = grp[p0] if p0 in nz else 0
            dense[2 * g + 1, j] = grp[p1] if (p1 in nz and p1 != p0) else 0
            idx[2 * g, j] = p0
            idx[2 * g + 1, j] = max(p1 - 1, 0) if p1 != p0 else 0
    return dense, idx


def pack_index(idx_nz: np.ndarray) -> np.ndarray:
    v = idx_nz.astype(np.uint8).reshape(-1, 4)
    return (v[:, 0] | (v[:, 1] << 2) | (v[:, 2] << 4) | (v[:, 3] << 6)).astype(np.uint8)
