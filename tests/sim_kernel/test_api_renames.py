"""The API names before the renames of the interface-change appendix (接口变更说明): a kernel written
against CANN 8.5 / 9.0 headers still calls FusedMulAddRelu, CastDeq, RepeatReduceSum, and those names
behave as the new ones do (MulAddRelu, CastDequant, ReduceRepeat<ReduceType::SUM>), bit for bit, with
RepeatReduceSum's argument order (repeatTime before mask) and its dstBlkStride that has no effect. The
cube setters' older forms (SetMMLayoutTransform, SetHF32Mode(bool), SetHF32TransMode(bool)) are checked
in tests/sim_cube/test_cube_mmad.py beside the new ones."""

from __future__ import annotations

import numpy as np
import pytest
from simkit import syntax_check
from tree_sum import tree_sum

RENAMES = """
static void body(void*) {
  GlobalTensor<float> gx, gy, gz, o; GlobalTensor<int32_t> gq; GlobalTensor<half> gh, oh;
  gx.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(0), 256);
  gy.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(1), 256);
  gz.SetGlobalBuffer((__gm__ float*)npukb_test::gm_input(2), 256);
  gq.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_input(3), 256);
  gh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_input(4), 256);
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 4 * 256 * 4 + 4 * 8 * 4), 4 * 256 + 4 * 8);
  oh.SetGlobalBuffer((__gm__ half*)npukb_test::gm_output(1, 2 * 256 * 2 + 2 * 16 * 2), 2 * 256 + 2 * 16);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz, bd, bq, bh, bo, bs;
  pipe.InitBuffer(bx, 1024); pipe.InitBuffer(by, 1024); pipe.InitBuffer(bz, 1024); pipe.InitBuffer(bd, 1024);
  pipe.InitBuffer(bq, 1024); pipe.InitBuffer(bh, 512); pipe.InitBuffer(bo, 512); pipe.InitBuffer(bs, 64);
  LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>(), z = bz.Get<float>(), d = bd.Get<float>();
  LocalTensor<float> s = bs.Get<float>();
  LocalTensor<int32_t> q = bq.Get<int32_t>();
  LocalTensor<half> xh = bh.Get<half>(), dh = bo.Get<half>(), sh = bs.Get<half>();
  DataCopy(x, gx, 256); DataCopy(y, gy, 256); DataCopy(z, gz, 256); DataCopy(q, gq, 256); DataCopy(xh, gh, 256);
  // FusedMulAddRelu (count form, then 4 repeats of a 48-element mask) against MulAddRelu
  for (int k = 0; k < 4; ++k) {
    DataCopy(d, z, 256);
    BinaryRepeatParams rp;
    if (k == 0) FusedMulAddRelu(d, x, y, 256);
    if (k == 1) MulAddRelu(d, x, y, 256);
    if (k == 2) FusedMulAddRelu<float>(d, x, y, (uint64_t)48, 4, rp);
    if (k == 3) MulAddRelu<float>(d, x, y, (uint64_t)48, 4, rp);
    DataCopy(o[k * 256], d, 256);
  }
  // RepeatReduceSum (repeat before mask; dstBlkStride 7 has no effect) against ReduceRepeat<SUM>
  Duplicate(s, 0.0f, 16); RepeatReduceSum<float>(s, x, 4, 64, 7, 1, 1, 8); DataCopy(o[1024], s, 8);
  Duplicate(s, 0.0f, 16); ReduceRepeat<ReduceType::SUM, float, float>(s, x, 64, 4, 1, 1, 8); DataCopy(o[1032], s, 8);
  Duplicate(s, 0.0f, 16); RepeatReduceSum<float>(s, x, 2, 40, 0, 2, 2, 16); DataCopy(o[1040], s, 8);
  Duplicate(s, 0.0f, 16); ReduceRepeat<ReduceType::SUM, float, float>(s, x, 40, 2, 2, 2, 16); DataCopy(o[1048], s, 8);
  // CastDeq int32_t -> half with the DEQSCALE register against CastDequant
  SetDeqScale((half)0.25f);
  CastDeq(dh, q, 256); DataCopy(oh, dh, 256);
  CastDequant(dh, q, 256); DataCopy(oh[256], dh, 256);
  // half RepeatReduceSum, 2 repeats of 128
  Duplicate(sh, (half)0, 16); RepeatReduceSum<half>(sh, xh, 2, 128, 1, 1, 1, 8); DataCopy(oh[512], sh, 16);
  Duplicate(sh, (half)0, 16); ReduceRepeat<ReduceType::SUM, half, half>(sh, xh, 128, 2, 1, 1, 8);
  DataCopy(oh[528], sh, 16);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


@pytest.mark.api("MulAddRelu", "CastDequant", "归约计算/ReduceRepeat")
def test_older_names_behave_as_the_new_ones(prog) -> None:
    rng = np.random.default_rng(97)
    x = rng.standard_normal(256).astype(np.float32)
    y = rng.standard_normal(256).astype(np.float32)
    z = rng.standard_normal(256).astype(np.float32)
    q = rng.integers(-40000, 40000, 256).astype(np.int32)
    xh = rng.standard_normal(256).astype(np.float16)
    prog.inputs(x, y, z, q, xh)
    ran = prog.run(RENAMES)
    assert ran.returncode == 0, ran.stderr
    o = prog.output(0, np.float32)
    fused = o[:1024].reshape(4, 256)
    want = np.maximum(x.astype(np.float64) * z + y, 0)
    np.testing.assert_allclose(fused[0], want, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(fused[0], fused[1])
    masked = np.where((np.arange(256) % 64) < 48, want, z)
    np.testing.assert_allclose(fused[2], masked, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(fused[2], fused[3])
    red = o[1024:].reshape(4, 8)
    np.testing.assert_array_equal(red[0][:4], [tree_sum(r, np.float32) for r in x.reshape(4, 64)])
    np.testing.assert_array_equal(red[0], red[1])
    np.testing.assert_array_equal(red[2], red[3])
    assert red[2][0] != 0 and red[2][2] != 0                       # 2 repeats, dstRepStride 2
    assert red[2][[1, 3, 4, 5, 6, 7]].tolist() == [0.0] * 6
    oh = prog.output(1, np.float16)
    np.testing.assert_array_equal(oh[:256], (q.astype(np.float64) * 0.25).astype(np.float16))
    np.testing.assert_array_equal(oh[:256].view(np.uint16), oh[256:512].view(np.uint16))
    np.testing.assert_array_equal(oh[512:514], [tree_sum(r, np.float16) for r in xh.reshape(2, 128)])
    np.testing.assert_array_equal(oh[512:528].view(np.uint16), oh[528:544].view(np.uint16))


@pytest.mark.api("归约计算/ReduceRepeat")
def test_older_name_keeps_the_dtype_table(tmp_path) -> None:
    comp = syntax_check('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                        'void f() { LocalTensor<int32_t> a; RepeatReduceSum<int32_t>(a, a, 1, 64, 1, 1, 1, 8); }\n',
                        tmp_path)
    assert not comp.ok and "RepeatReduceSum: unsupported data type (half, float)" in comp.stderr
