"""CPU孪生调试 (CPU-twin debugging), checked from its doc pages: a host program written as the pages show
(tikicpulib.h, GmAlloc, SetKernelMode, ICPU_SET_TILING_KEY, ICPU_RUN_KF, GmFree) and a kernel in its own
file, compiled with the real compiler against the simulator's headers and linked with runtime/cpu_twin.cpp,
run as a subprocess: the kernel runs once per block on the CPU, computes the right output, takes the
branch of the tiling key that was set, and its GM accesses are checked against the GmAlloc'd buffers."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import KERNEL_DEFINES, find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import CPU_TWIN_SOURCES, INCLUDE_DIR, RUNTIME_DIR

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BLOCK_LEN = 256;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  GlobalTensor<half> xg, yg, zg;
  const int32_t off = BLOCK_LEN * GetBlockIdx();
  xg.SetGlobalBuffer((__gm__ half*)x + off, BLOCK_LEN);
  yg.SetGlobalBuffer((__gm__ half*)y + off, BLOCK_LEN);
  zg.SetGlobalBuffer((__gm__ half*)z + off, BLOCK_LEN);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> qx, qy;
  TQue<TPosition::VECOUT, 1> qz;
  pipe.InitBuffer(qx, 1, BLOCK_LEN * sizeof(half));
  pipe.InitBuffer(qy, 1, BLOCK_LEN * sizeof(half));
  pipe.InitBuffer(qz, 1, BLOCK_LEN * sizeof(half));
  LocalTensor<half> a = qx.AllocTensor<half>();
  LocalTensor<half> b = qy.AllocTensor<half>();
  DataCopy(a, xg, BLOCK_LEN);
  DataCopy(b, yg, BLOCK_LEN);
  qx.EnQue(a); qy.EnQue(b);
  a = qx.DeQue<half>(); b = qy.DeQue<half>();
  LocalTensor<half> c = qz.AllocTensor<half>();
  if (TILING_KEY_IS(1)) {
    Add(c, a, b, BLOCK_LEN);
  } else if (TILING_KEY_IS(2)) {
    Mul(c, a, b, BLOCK_LEN);
  }
  qz.EnQue(c);
  qx.FreeTensor(a); qy.FreeTensor(b);
  c = qz.DeQue<half>();
  DataCopy(zg, c, BLOCK_LEN);
  qz.FreeTensor(c);
  if (GetBlockIdx() == 0) printf("block num %d\n", GetBlockNum());
}
"""

MAIN = r"""
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);

static void Load(const char* path, uint8_t* dst, size_t bytes) {
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr || std::fread(dst, 1, bytes, f) != bytes) std::exit(6);
  std::fclose(f);
}

int32_t main(int32_t argc, char* argv[]) {
  uint32_t numBlocks = 8;
  size_t bytes = numBlocks * 256 * sizeof(uint16_t);
  size_t outBytes = bytes;
#ifdef OUT_TOO_SMALL
  outBytes = bytes / 2;
#endif
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
  uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
  uint8_t* z = (uint8_t*)AscendC::GmAlloc(outBytes);
  Load("x.bin", x, bytes);
  Load("y.bin", y, bytes);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_SET_TILING_KEY(TILING_KEY);
  ICPU_RUN_KF(add_custom, numBlocks, x, y, z);
  FILE* f = std::fopen("z.bin", "wb");
  std::fwrite(z, 1, bytes, f);
  std::fclose(f);
  AscendC::GmFree((void*)x);
  AscendC::GmFree((void*)y);
  AscendC::GmFree((void*)z);
  std::printf("done\n");
  return 0;
}
"""


def _run(tmp_path: Path, key: int, *defines: str) -> subprocess.CompletedProcess:
    compiler = find_compiler()
    if isinstance(compiler, str):
        pytest.fail(f"no C++ compiler: {compiler}", pytrace=False)
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "add_custom.cpp").write_text(KERNEL, encoding="utf-8")
    (tmp_path / "main.cpp").write_text(MAIN, encoding="utf-8")
    cmd = [compiler.path, "-std=c++17", "-w", "-O1", *KERNEL_DEFINES, "-DASCENDC_CPU_DEBUG", f"-DTILING_KEY={key}",
           *(f"-D{d}" for d in defines), "-I", str(INCLUDE_DIR), "-I", str(RUNTIME_DIR), "main.cpp", "add_custom.cpp",
           *map(str, CPU_TWIN_SOURCES), "-o", "prog"]
    build = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-3000:]
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, 8 * 256).astype(np.float16)
    y = rng.uniform(-2, 2, 8 * 256).astype(np.float16)
    x.tofile(tmp_path / "x.bin")
    y.tofile(tmp_path / "y.bin")
    return subprocess.run([str(tmp_path / "prog")], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin"})


def _inputs(tmp_path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (np.fromfile(tmp_path / "x.bin", dtype=np.float16), np.fromfile(tmp_path / "y.bin", dtype=np.float16),
            np.fromfile(tmp_path / "z.bin", dtype=np.float16))


@pytest.mark.api("GmAlloc", "GmFree", "ICPU_RUN_KF", "ICPU_SET_TILING_KEY", "SetKernelMode")
def test_a_cpu_twin_program_runs_the_kernel_of_the_tiling_key_it_set(tmp_path: Path) -> None:
    add = _run(tmp_path / "add", 1)
    assert add.returncode == 0, add.stderr
    assert add.stdout.splitlines() == ["[block 0] block num 8", "done"]
    assert "ICPU_RUN_KF add_custom: 8 blocks, estimated " in add.stderr
    x, y, z = _inputs(tmp_path / "add")
    np.testing.assert_array_equal(z, x + y)
    mul = _run(tmp_path / "mul", 2)
    assert mul.returncode == 0, mul.stderr
    x, y, z = _inputs(tmp_path / "mul")
    np.testing.assert_array_equal(z, x * y)


@pytest.mark.api("GmAlloc", "ICPU_RUN_KF")
def test_gm_accesses_are_checked_against_the_gmalloc_buffers(tmp_path: Path) -> None:
    """An output buffer half the size the kernel writes: the first block past its end stops the run."""
    ran = _run(tmp_path, 1, "OUT_TOO_SMALL")
    assert ran.returncode == 3, (ran.stdout, ran.stderr)
    assert "VIOLATION: DataCopy: GM out of bounds: write" in ran.stderr and "(block 4," in ran.stderr, ran.stderr
