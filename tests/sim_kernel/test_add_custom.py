"""The add_custom expert solution compiles unchanged with the simulator headers and runs correctly."""

from __future__ import annotations

import numpy as np
import pytest
from simkit import ROOT

KERNEL = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom" / "solution" / "op_kernel" / "add_custom.cpp"

BODY = """
#include <cstdio>
struct AddTiling { uint32_t bigCoreNum, blocksPerCore, tileLength, totalLength; };
#include "%s"
static uint8_t *gx, *gy, *gz, *gt;
static void blk(void*) { add_custom(gx, gy, gz, nullptr, gt); }
void run_test() {
  std::size_t nb = 0;
  gx = npukb_test::gm_input(0, &nb);
  gy = npukb_test::gm_input(1);
  gt = npukb_test::gm_input(2);
  gz = npukb_test::gm_output(0, nb);
  double cyc = npukb_test::run_blocks(BLOCKS, blk, nullptr);
  npukb_test::print_cycles(cyc);
}
"""


def tiling(total: int, itemsize: int, bf16: bool) -> tuple[np.ndarray, int]:
    """Python mirror of the solution's host TilingFunc (40 vector cores, UB 196608)."""
    elems_per_block = 32 // itemsize
    total_blocks = (total + elems_per_block - 1) // elems_per_block
    use_cores = max(1, min((total_blocks + 127) // 128, 40))
    per_elem = 3 * 2 * itemsize + (12 if bf16 else 0)
    tile = (196608 - 1024) // per_elem // 256 * 256
    tile = min(tile, 16384)
    t = np.array([total_blocks % use_cores, total_blocks // use_cores, tile, total], dtype=np.uint32)
    return t, use_cores


def to_bf16_bits(a: np.ndarray) -> np.ndarray:
    import torch

    return torch.from_numpy(a.astype(np.float32)).to(torch.bfloat16).view(torch.int16).numpy()


@pytest.mark.parametrize("dtype", ["half", "float", "bfloat16_t"])
@pytest.mark.parametrize("total", [8, 70001])
def test_add_custom_runs(prog, dtype: str, total: int) -> None:
    import torch

    rng = np.random.default_rng(total)
    a = rng.standard_normal(total).astype(np.float32)
    b = rng.standard_normal(total).astype(np.float32)
    if dtype == "half":
        xa, xb, item = a.astype(np.float16), b.astype(np.float16), 2
        want = (xa.astype(np.float32) + xb.astype(np.float32)).astype(np.float16)
    elif dtype == "float":
        xa, xb, item = a, b, 4
        want = a + b
    else:
        xa, xb, item = to_bf16_bits(a), to_bf16_bits(b), 2
        ta = torch.from_numpy(xa).view(torch.bfloat16).float()
        tb = torch.from_numpy(xb).view(torch.bfloat16).float()
        want = (ta + tb).to(torch.bfloat16).view(torch.int16).numpy()
    t, cores = tiling(total, item, dtype == "bfloat16_t")
    prog.inputs(xa, xb, t)
    ran = prog.run(BODY % KERNEL, defines=(f"DTYPE_X={dtype}", "NPUKB_TILING_TYPE=AddTiling", f"BLOCKS={cores}"))
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, want.dtype)
    np.testing.assert_array_equal(got, want)
    assert float(ran.stdout.split()[1]) > 0  # the cost model produced an estimate
