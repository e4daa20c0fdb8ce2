"""A test program compiled once and run many times with different inputs (tests/sim_kernel).

The library-API tests (normalization, quantization) dispatch on a parameter vector in input 0, so one
compile covers every dtype, shape and constraint case of an API family; each run is a fresh child
process with its own inputs and outputs. The C++ side gets ``HEAD`` below: a UB allocator over TBufs,
``in<T>(ub, i, n)`` (GM input i into a new UB tensor of n elements), ``out(i, tensor, n)`` and the
parameter vector ``P`` (int32; floats travel as their bits, read with ``pf(k)``).
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
from simkit import Ran, compile_program, run_program

HEAD = r"""
#include <cstring>
#include "npukb_sim/norm_tiling_fill.h"

static const int32_t* P = nullptr;
static float pf(int k) { float f; std::memcpy(&f, &P[k], 4); return f; }

struct Ub {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b[24];
  int next = 0;
  template <typename T> LocalTensor<T> get(uint32_t n) {
    pipe.InitBuffer(b[next], n * sizeof(T));
    return b[next++].template Get<T>(n);
  }
  // bytes left unallocated in UB
  uint32_t left() const { return 196608 - pipe.used_bytes(Hardware::UB); }
};
template <typename T> LocalTensor<T> in(Ub& u, int i, uint32_t n) {
  LocalTensor<T> t = u.get<T>(n);
  std::size_t bytes = 0;
  unsigned char* p = npukb_test::gm_input(i, &bytes);
  std::memcpy(t.ptr(), p, bytes < n * sizeof(T) ? bytes : n * sizeof(T));
  return t;
}
template <typename T> void out(int i, const LocalTensor<T>& t, uint32_t n) {
  std::memcpy(npukb_test::gm_output(i, n * sizeof(T)), t.ptr(), n * sizeof(T));
}
static void run_params(void (*body)(void*)) {
  P = reinterpret_cast<const int32_t*>(npukb_test::gm_input(0));
  npukb_test::run_blocks(1, body, nullptr);
}
"""


def params(*values: int | float) -> np.ndarray:
    """The int32 parameter vector: ints as they are, floats as their IEEE bits."""
    out = []
    for v in values:
        if isinstance(v, float):
            out.append(struct.unpack("<i", struct.pack("<f", v))[0])
        else:
            out.append(int(v))
    return np.array(out, dtype=np.int32)


def f32_bits(x: float) -> int:
    return struct.unpack("<i", struct.pack("<f", x))[0]


def to_bf16_bits(a: np.ndarray) -> np.ndarray:
    """float32 values (already representable in bfloat16) -> their bfloat16 bits."""
    return (np.asarray(a, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def from_bf16_bits(b: np.ndarray) -> np.ndarray:
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def bf16_round(a: np.ndarray) -> np.ndarray:
    """Round float32 to the nearest bfloat16 (ties to even), as float32."""
    u = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


class LibProgram:
    """``body`` (C++ after HEAD) compiled once; ``run(*inputs)`` runs it in a fresh directory."""

    def __init__(self, body: str, workdir: Path, cache: Path) -> None:
        self.workdir = workdir
        comp = compile_program(HEAD + body, workdir / "build", cache)
        if not comp.ok:
            raise AssertionError("test program failed to compile:\n" + comp.stderr[-6000:])
        assert comp.exe is not None
        self.exe = comp.exe
        self.runs = 0

    def run(self, *inputs: np.ndarray) -> tuple[Ran, Path]:
        self.runs += 1
        d = self.workdir / f"run{self.runs}"
        d.mkdir(parents=True, exist_ok=True)
        for i, a in enumerate(inputs):
            (d / f"in{i}.bin").write_bytes(np.ascontiguousarray(a).tobytes())
        return run_program(self.exe, d), d

    def ok(self, *inputs: np.ndarray) -> Path:
        ran, d = self.run(*inputs)
        assert ran.returncode == 0, ran.stderr[-3000:]
        return d

    def violation(self, *inputs: np.ndarray) -> str:
        """Run a case that must stop with a violation; returns the VIOLATION line."""
        ran, _ = self.run(*inputs)
        assert ran.returncode == 3, (ran.returncode, ran.stderr[-3000:])
        line = ran.stderr.strip().splitlines()[-1]
        assert line.startswith("VIOLATION: "), line
        return line


def output(d: Path, i: int, dtype) -> np.ndarray:
    return np.frombuffer((d / f"out{i}.bin").read_bytes(), dtype=dtype)
