"""Host helpers of the sort, reduction, index, filter and transform library APIs, from their pages: every
Get*MaxMinTmpSize / Get*TmpSize reports a minimum no larger than its maximum (equal where the page says
so, 0 where it says no buffer is needed); the helpers that return bool refuse what the kernel API does
not take; the deprecated names give the same figures as the current ones; TopKTilingFunc, PadTilingFunc,
UnPadTilingFunc and GetTransposeTilingInfo fill the structures the kernel APIs read. An operator whose
tiling nests the four optiling tiling classes hands the kernel byte-identical structures, and TopK runs
with them."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import HOST_FLAGS, Compiler, find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR
from npukernelbench.toolchains.base import Launch, TensorArg

# The structures both programs below fill for the same inputs (the host program: plain structs; the
# operator: the optiling classes).
FILL_E2E = r"""
  AscendC::TopKTilingFunc(plat, 32, 2, 4, 4, false, AscendC::TopKMode::TOPK_NORMAL, true, topk);
  AscendC::PadTilingFunc(ge::Shape({16, 15}), ge::Shape({16, 15}), 1024, 2, pad);
  AscendC::UnPadTilingFunc(ge::Shape({16, 16}), 1024, 2, unpad);
  AscendC::GetTransposeTilingInfo(ge::Shape({1, 2, 32, 16}), 2048, 2, 1, ct);
"""

HOST_PROGRAM = r"""
#include <cstdio>
#include <cstring>
#include "tiling/tiling_api.h"
#define P(name, value) std::printf("%s %.9g\n", name, static_cast<double>(value))
template <typename S> void dump(const char* name, const S& s) {
  std::printf("%s", name);
  const unsigned char* p = reinterpret_cast<const unsigned char*>(&s);
  for (size_t i = 0; i < sizeof(S); ++i) std::printf(" %u", p[i]);
  std::printf("\n");
}
int main() {
  using namespace AscendC;
  platform_ascendc::PlatformAscendC plat(nullptr);
  uint32_t mx = 0, mn = 0;
  // ---- TopK
  for (int small = 0; small < 2; ++small)
    for (int init = 0; init < 2; ++init)
      for (int largest = 0; largest < 2; ++largest) {
        const TopKMode mode = small ? TopKMode::TOPK_NSMALL : TopKMode::TOPK_NORMAL;
        const bool ok = GetTopKMaxMinTmpSize(plat, small ? 32 : 256, 4, false, init, mode, largest, 2, mx, mn);
        std::printf("topk.sizes %d %d %d %d %u %u\n", small, init, largest, ok, mn, mx);
      }
  P("topk.bad_inner", GetTopKMaxMinTmpSize(plat, 40, 2, false, false, TopKMode::TOPK_NORMAL, true, 4, mx, mn));
  P("topk.bad_small", GetTopKMaxMinTmpSize(plat, 64, 2, false, false, TopKMode::TOPK_NSMALL, true, 4, mx, mn));
  P("topk.bad_big", GetTopKMaxMinTmpSize(plat, 4128, 1, false, false, TopKMode::TOPK_NORMAL, true, 4, mx, mn));
  P("topk.bad_type", GetTopKMaxMinTmpSize(plat, 64, 1, false, false, TopKMode::TOPK_NORMAL, true, 8, mx, mn));
  uint32_t mx2 = 0, mn2 = 0;
  const bool c1 = GetTopKMaxMinTmpSize(plat, 64, 3, false, true, TopKMode::TOPK_NORMAL, false, 4, mx, mn);
  const bool c2 = GetTopKMaxMinTmpSize(64, 3, 5, false, true, TopKMode::TOPK_NORMAL, false, ge::DT_FLOAT,
                                       defaultTopKConfig, mx2, mn2);
  std::printf("topk.config %d %d %d\n", c1, c2, mx == mx2 && mn == mn2);
  TopKConfig radix;
  radix.algo = TopKAlgo::RADIX_SELECT;
  P("topk.radix", GetTopKMaxMinTmpSize(64, 3, 5, false, true, TopKMode::TOPK_NORMAL, false, ge::DT_FLOAT, radix,
                                       mx2, mn2));
  tiling::TopkTiling tk;
  const bool tok = TopKTilingFunc(plat, 96, 3, 10, 2, false, TopKMode::TOPK_NORMAL, true, tk);
  std::printf("topk.tiling %d %d %d %d %u %d %d %d\n", tok, tk.tmpLocalSize, tk.allDataSize, tk.innerDataSize,
              tk.sortRepeat, tk.mrgSortRepeat, tk.kAlignFourBytes, tk.kAlignTwoBytes);
  P("topk.tiling_bad_k", TopKTilingFunc(plat, 96, 3, 97, 2, false, TopKMode::TOPK_NORMAL, true, tk));
  // ---- Sort / Concat
  P("sort.tmp", GetSortTmpSize(plat, 100, 4));
  P("sort.tmp_half", GetSortTmpSize(plat, 100, 2));
  P("concat.tmp", GetConcatTmpSize(plat, 128, 2));
  SortConfig sc;
  sc.type = SortType::MERGE_SORT;
  sc.hasDstIndex = true;
  GetSortMaxMinTmpSize(ge::Shape({1024}), ge::DT_FLOAT, ge::DT_UINT32, false, sc, mx, mn);
  std::printf("sortcfg.merge %u %u\n", mn, mx);
  GetSortMaxMinTmpSize(ge::Shape({1000}), ge::DT_FLOAT, ge::DT_UINT32, false, sc, mx, mn);
  std::printf("sortcfg.merge_unaligned %u %u\n", mn, mx);
  sc.type = SortType::RADIX_SORT;
  GetSortMaxMinTmpSize(ge::Shape({1000}), ge::DT_FLOAT16, ge::DT_UINT32, false, sc, mx, mn);
  std::printf("sortcfg.radix %u %u\n", mn, mx);
  sc.hasSrcIndex = true;
  sc.hasDstIndex = false;
  GetSortMaxMinTmpSize(ge::Shape({1024}), ge::DT_FLOAT, ge::DT_UINT32, false, sc, mx, mn);
  std::printf("sortcfg.unsupported %u %u\n", mn, mx);
  // ---- reductions
  GetSumMaxMinTmpSize(100, 2, false, mx, mn);
  std::printf("sum %u %u\n", mn, mx);
  uint32_t live = 0, extra = 0;
  GetMeanTmpBufferFactorSize(2, live, extra);
  std::printf("mean.factor.half %u %u\n", live, extra);
  GetMeanTmpBufferFactorSize(4, live, extra);
  std::printf("mean.factor.float %u %u\n", live, extra);
  GetMeanMaxMinTmpSize(100, 2, 4, false, mx, mn);
  std::printf("mean.half_float %u %u\n", mn, mx);
  GetReduceXorSumMaxMinTmpSize(ge::Shape({8, 32}), 2, false, mx, mn);
  std::printf("xor %u %u\n", mn, mx);
  GetReduceXorSumMaxMinTmpSize(ge::Shape({8, 32}), 2, true, mx, mn);
  std::printf("xor.reuse %u %u\n", mn, mx);
  void (*reduce[7])(const ge::Shape&, const ge::DataType, ReducePattern, bool, bool, uint32_t&, uint32_t&) = {
      GetReduceSumMaxMinTmpSize, GetReduceMeanMaxMinTmpSize, GetReduceMaxMaxMinTmpSize, GetReduceMinMaxMinTmpSize,
      GetReduceAnyMaxMinTmpSize, GetReduceAllMaxMinTmpSize, GetReduceProdMaxMinTmpSize};
  for (int i = 0; i < 7; ++i) {
    uint32_t v[10];
    reduce[i](ge::Shape({16, 37}), ge::DT_FLOAT, ReducePattern::AR, true, false, v[1], v[0]);
    reduce[i](ge::Shape({16, 37}), ge::DT_FLOAT, ReducePattern::RA, true, false, v[3], v[2]);
    reduce[i](ge::Shape({16, 37}), ge::DT_FLOAT, ReducePattern::AR, true, true, v[5], v[4]);
    reduce[i](ge::Shape({16, 37}), ge::DT_FLOAT, ReducePattern::AR, false, false, v[7], v[6]);
    reduce[i](ge::Shape({2, 16, 37}), ge::DT_FLOAT, ReducePattern::AR, true, false, v[9], v[8]);
    std::printf("reduce");
    for (uint32_t x : v) std::printf(" %u", x);
    std::printf("\n");
  }
  // ---- Arange
  mx = mn = 7;
  GetArangeMaxMinTmpSize(mx, mn);
  std::printf("arange %u %u\n", mn, mx);
  mx = mn = 7;
  GetArithProgressionMaxMinTmpSize(mx, mn);
  std::printf("arith %u %u\n", mn, mx);
  // ---- Select / DropOut
  for (int reuse = 0; reuse < 2; ++reuse) {
    GetSelectMaxMinTmpSize(ge::Shape({64, 128}), ge::Shape({1}), 2, ge::Shape({64, 160}), 1, reuse, mx, mn);
    std::printf("select %d %u %u %u %u\n", reuse, mn, mx,
                GetSelectMinTmpSize(ge::Shape({1}), ge::Shape({64, 128}), 2, ge::Shape({64, 160}), 1, reuse),
                GetSelectWithBytesMaskMaxTmpSize(ge::Shape({64, 128}), ge::Shape({1}), 2, ge::Shape({64, 160}), 1,
                                                 reuse));
  }
  GetSelectWithBytesMaskMaxMinTmpSize(ge::Shape({64, 128}), ge::Shape({1}), 2, ge::Shape({64, 128}), 1, false, mx, mn);
  std::printf("select.same_mask %u %u %u\n", mn, mx,
              GetSelectWithBytesMaskMinTmpSize(ge::Shape({64, 128}), ge::Shape({1}), 2, ge::Shape({64, 128}), 1,
                                               false));
  GetDropOutMaxMinTmpSize(ge::Shape({16, 64}), 2, false, mx, mn);
  std::printf("dropout %u %u %u %u\n", mn, mx, GetDropOutMinTmpSize(ge::Shape({16, 64}), 2, false),
              GetDropOutMaxTmpSize(ge::Shape({16, 64}), 2, false));
  // ---- Broadcast
  GetBroadCastMaxMinTmpSize(plat, ge::Shape({1024, 1}), ge::Shape({1024, 16}), 2, false, mx, mn);
  std::printf("bc.col %u %u\n", mn, mx);
  GetBroadCastMaxMinTmpSize(plat, ge::Shape({1024, 1}), ge::Shape({1024, 20}), 2, false, mx, mn);
  std::printf("bc.col_unaligned %u %u\n", mn, mx);
  GetBroadCastMaxMinTmpSize(plat, ge::Shape({1, 64}), ge::Shape({16, 64}), 4, false, mx, mn);
  std::printf("bc.row %u %u\n", mn, mx);
  // ---- Pad / UnPad
  GetPadMaxMinTmpSize(ge::Shape({320, 63}), 2, mx, mn);
  std::printf("pad %u %u\n", mn, mx);
  GetPadMaxMinTmpSize(ge::Shape({320, 64}), 2, mx, mn);
  std::printf("pad.aligned %u %u\n", mn, mx);
  tiling::PadTiling pt;
  PadTilingFunc(ge::Shape({320, 63}), ge::Shape({320, 63}), 4096, 2, pt);
  std::printf("pad.tiling %u %u %u %u %u %u %u %u\n", pt.srcHeight, pt.srcWidth, pt.srcOriWidth, pt.dstWidth,
              pt.tmpBufferSize, pt.rowsPerLoop, pt.loopCount, pt.tailRows);
  GetUnPadMaxMinTmpSize(plat, ge::Shape({320, 64}), 2, mx, mn);
  std::printf("unpad %u %u\n", mn, mx);
  tiling::UnPadTiling ut;
  UnPadTilingFunc(ge::Shape({320, 64}), 10000, 2, ut);
  std::printf("unpad.tiling %u %u %u %u %u %u\n", ut.srcHeight, ut.srcWidth, ut.tmpBufferSize, ut.rowsPerLoop,
              ut.loopCount, ut.tailRows);
  // ---- Transpose
  for (uint32_t type = 1; type <= 7; ++type) {
    const ge::Shape s = type == 7 ? ge::Shape({32, 48}) : ge::Shape({1, 2, 64, 32});
    GetTransposeMaxMinTmpSize(s, 2, type, mx, mn);
    GetConfusionTransposeMaxMinTmpSize(s, 2, type, mx2, mn2);
    std::printf("transpose %u %u %u %d\n", type, mn, mx, mx2 == mx && mn2 == mn);
  }
  GetTransposeMaxMinTmpSize(ge::Shape({1, 2, 64, 32}), 2, 13, mx, mn);
  std::printf("transpose.950 %u %u\n", mn, mx);
  tiling::ConfusionTransposeTiling ct, ct2, ct3;
  GetTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 4096, 2, 1, ct);
  GetConfusionTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 4096, 2, 1, ct2);
  GetConfusionTransposeOnlyTilingInfo(ge::Shape({32, 48}), 4096, 2, ct3);
  std::printf("transpose.tiling %u %u %u %u %u %u %u %u %d %u %u\n", ct.transposeType, ct.shapeDimNum, ct.srcDim0,
              ct.srcDim1, ct.srcDim2, ct.srcDim3, ct.typeSize, ct.tmpBufferSize,
              std::memcmp(&ct, &ct2, sizeof(ct)) == 0, ct3.transposeType, ct3.shapeDimNum);
  // ---- TransData
  TransDataConfig cfg = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
  bool ok = GetTransDataMaxMinTmpSize(plat, ge::Shape({1, 16, 2, 4, 4}), ge::Shape({1, 2, 1, 4, 4, 16}),
                                      ge::DT_FLOAT16, cfg, mx, mn);
  std::printf("transdata %d %u %u\n", ok, mn, mx);
  cfg = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
  ok = GetTransDataMaxMinTmpSize(plat, ge::Shape({2, 1, 4, 4, 2, 16, 16}), ge::Shape({17, 16, 2, 4, 4}),
                                 ge::DT_INT16, cfg, mx, mn);
  std::printf("transdata.fz %d %u %u\n", ok, mn, mx);
  cfg = {DataFormat::NCDHW, DataFormat::NC1HWC0};
  std::printf("transdata.bad_format %d\n", GetTransDataMaxMinTmpSize(plat, ge::Shape({1, 16, 2, 4, 4}),
              ge::Shape({1, 2, 1, 4, 4, 16}), ge::DT_FLOAT16, cfg, mx, mn));
  cfg = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
  std::printf("transdata.bad_shape %d %d\n", GetTransDataMaxMinTmpSize(plat, ge::Shape({1, 16, 2, 4, 4}),
              ge::Shape({1, 2, 2, 4, 4, 16}), ge::DT_FLOAT16, cfg, mx, mn),
              GetTransDataMaxMinTmpSize(plat, ge::Shape({1, 16, 2, 4, 4}), ge::Shape({1, 2, 1, 4, 4, 16}),
                                        ge::DT_INT8, cfg, mx, mn));
  // ---- the structures the operator below hands its kernel
  tiling::TopkTiling topk;
  tiling::PadTiling pad;
  tiling::UnPadTiling unpad;
""" + FILL_E2E + r"""
  dump("e2e", topk); dump("e2e", pad); dump("e2e", unpad); dump("e2e", ct);
  return 0;
}
"""


@pytest.fixture(scope="module")
def compiler() -> Compiler:
    found = find_compiler()
    if isinstance(found, str):
        pytest.fail(found, pytrace=False)
    return found


@pytest.fixture(scope="module")
def host(compiler, tmp_path_factory) -> dict[str, list]:
    d = tmp_path_factory.mktemp("sort_host")
    (d / "h.cpp").write_text(HOST_PROGRAM, encoding="utf-8")
    built = subprocess.run([compiler.path, *HOST_FLAGS, "-I", str(INCLUDE_DIR), str(d / "h.cpp"), "-o", str(d / "h")],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-4000:]
    ran = subprocess.run([str(d / "h")], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    out: dict[str, list] = {}
    for line in ran.stdout.splitlines():
        name, *values = line.split()
        if name == "e2e":
            out.setdefault(name, []).extend(int(v) for v in values)
        else:
            out.setdefault(name, []).append([float(v) for v in values])
    return out


def one(h, name):
    return h[name][0][0]


@pytest.mark.api("TopK Tiling")
def test_topk_tmp_sizes_and_tiling(host) -> None:
    for small, _init, _largest, ok, mn, mx in host["topk.sizes"]:
        assert ok == 1 and 0 < mn <= mx
        if small:
            assert mn == mx                              # the small mode takes every row at once
        else:
            assert mx > mn                               # one row at least, all 4 rows at most
    sizes = {tuple(r[:3]): r[4] for r in host["topk.sizes"]}
    assert sizes[(0, 0, 1)] > sizes[(0, 1, 1)]           # generating the indices needs room
    assert sizes[(0, 1, 0)] > sizes[(0, 1, 1)]           # so does the negated copy for the k smallest
    for name in ("topk.bad_inner", "topk.bad_small", "topk.bad_big", "topk.bad_type", "topk.radix",
                 "topk.tiling_bad_k"):
        assert one(host, name) == 0, name
    assert host["topk.config"][0] == [1, 1, 1]           # the TopKConfig form answers as the first
    ok, tmp, all_size, inner, sort_repeat, merges, k4, k2 = host["topk.tiling"][0]
    assert (ok, all_size, inner, sort_repeat, merges, k4, k2) == (1, 288, 96, 3, 1, 16, 16)
    assert tmp > 0


@pytest.mark.api("GetSortTmpSize", "GetConcatTmpSize", "GetSortMaxMinTmpSize")
def test_sort_tmp_sizes(host) -> None:
    # a full sort of 100 elements (4 repeats of 32) ping-pongs 128 pairs of 8 bytes, whatever the type
    assert one(host, "sort.tmp") == one(host, "sort.tmp_half") == 128 * 8
    assert one(host, "concat.tmp") == 0                  # the A2 / A3 Concat copies the scores
    mn, mx = host["sortcfg.merge"][0]
    assert 0 < mn == mx
    assert host["sortcfg.merge_unaligned"][0] == [0, 0]
    mn, mx = host["sortcfg.radix"][0]
    assert 0 < mn == mx                                  # 1000 values: MERGE_SORT needs multiples of 32, RADIX not
    assert host["sortcfg.unsupported"][0] == [0, 0]      # source indices without destination indices


@pytest.mark.api("GetSumMaxMinTmpSize", "GetMeanTmpBufferFactorSize", "GetReduceXorSumMaxMinTmpSize",
                 "GetReduceSumMaxMinTmpSize", "GetReduceMeanMaxMinTmpSize", "GetReduceMaxMaxMinTmpSize",
                 "GetReduceMinMaxMinTmpSize", "GetReduceAnyMaxMinTmpSize", "GetReduceAllMaxMinTmpSize",
                 "GetReduceProdMaxMinTmpSize")
def test_reduction_tmp_sizes(host) -> None:
    mn, mx = host["sum"][0]
    assert 0 < mn == mx == 224                           # 100 halves, 32-byte aligned
    assert host["mean.factor.half"][0] == [4, 0] and host["mean.factor.float"][0] == [1, 0]
    mn, mx = host["mean.half_float"][0]
    live, extra = host["mean.factor.half"][0]
    assert mn == mx and mn >= live * 2 * 100 + extra     # the factor form covers the fp32 accumulation
    xmn, xmx = host["xor"][0]
    rmn, rmx = host["xor.reuse"][0]
    assert 0 < rmn == rmx < xmn == xmx                   # reusing the sources saves the xor row
    for v in host["reduce"]:
        ar_min, ar_max, ra_min, ra_max, reuse_min, reuse_max, nopad_min, nopad_max, rank3_min, rank3_max = v
        assert 0 < ar_min == ar_max and 0 < ra_min == ra_max and reuse_min == reuse_max < ar_min
        assert nopad_min == nopad_max == 0 and rank3_min == rank3_max == 0


@pytest.mark.api("GetArangeMaxMinTmpSize", "GetSelectMaxMinTmpSize", "GetDropOutMaxMinTmpSize",
                 "GetBroadCastMaxMinTmpSize")
def test_index_filter_broadcast_tmp_sizes(host) -> None:
    assert host["arange"][0] == [0, 0] and host["arith"][0] == [0, 0]
    (r0, mn0, mx0, scalar_first0, old_max0), (r1, mn1, mx1, scalar_first1, old_max1) = host["select"]
    assert 0 < mn0 <= mx0 and 0 < mn1 <= mx1
    assert mn1 < mn0                                     # gathering the mask in place needs no copy
    assert scalar_first0 == mn0 and old_max0 == mx0 and old_max1 == mx1   # either position, the old names
    mn, mx, old_min = host["select.same_mask"][0]
    assert 0 < mn <= mx and old_min == mn
    mn, mx, only_min, only_max = host["dropout"][0]
    assert 0 < mn <= mx == 16 * mn and (only_min, only_max) == (mn, mx)
    mn, mx = host["bc.col"][0]
    assert 0 < mn <= mx and mx == 1024 * 32
    umn, umx = host["bc.col_unaligned"][0]
    assert umn > mn and umx > mx                         # the unaligned width adds the gather step
    assert host["bc.row"][0] == [0, 0]                   # [1, k] -> [m, k] only copies


@pytest.mark.api("Pad Tiling", "UnPad Tiling")
def test_pad_unpad_tmp_sizes_and_tiling(host) -> None:
    mn, mx = host["pad"][0]
    assert 0 < mn <= mx and mn == 16 * 64 * 2 and mx == 320 * 64 * 2
    assert host["pad.aligned"][0] == [0, 0]
    h, w, ow, dw, tmp, rows, loops, tail = host["pad.tiling"][0]
    assert (h, w, ow, dw, tmp) == (320, 63, 63, 64, 4096)
    assert rows == 32 and loops == 10 and tail == 32     # 4096 bytes hold 32 rows of 64 halves
    mn, mx = host["unpad"][0]
    assert 0 < mn <= mx
    h, w, tmp, rows, loops, tail = host["unpad.tiling"][0]
    assert (h, w, tmp, rows, loops, tail) == (320, 64, 10000, 64, 5, 64)


@pytest.mark.api("Transpose Tiling", "GetTransDataMaxMinTmpSize")
def test_transpose_and_transdata_sizes(host) -> None:
    for ty, mn, mx, same in host["transpose"]:
        assert mn == mx and same == 1
        assert (mn == 0) == (ty == 7)
    assert host["transpose"][2][1] == 2 * host["transpose"][0][1]     # scenarios 3-6: two regions
    assert host["transpose.950"][0] == [0, 0]
    t = host["transpose.tiling"][0]
    assert t[:8] == [1, 4, 1, 2, 64, 32, 2, 4096] and t[8] == 1 and t[9:] == [7, 2]
    ok, mn, mx = host["transdata"][0]
    assert ok == 1 and 0 < mn == mx
    ok, mn, mx = host["transdata.fz"][0]
    assert ok == 1 and mn == mx == 32 * 16 * 2 * 16 * 2                # N and H * W padded to 16
    assert host["transdata.bad_format"][0] == [0] and host["transdata.bad_shape"][0] == [0, 0]


# ---- the tiling classes in an operator, through to the kernel -----------------------------------------

TILING_H = r"""
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(SortLibTiling)
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
  TILING_DATA_FIELD_DEF_STRUCT(TopkTiling, topk);
  TILING_DATA_FIELD_DEF_STRUCT(PadTiling, pad);
  TILING_DATA_FIELD_DEF_STRUCT(UnPadTiling, unpad);
  TILING_DATA_FIELD_DEF_STRUCT(ConfusionTransposeTiling, ct);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SortLib, SortLibTiling)
}  // namespace optiling
"""

HOST = r"""
#include "sort_lib_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  SortLibTiling td;
  auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint32_t maxSize = 0, minSize = 0;
  AscendC::GetTopKMaxMinTmpSize(plat, 32, 2, false, false, AscendC::TopKMode::TOPK_NORMAL, true, 4, maxSize, minSize);
  td.set_tmpBytes(minSize);
  auto& topk = td.topk; auto& pad = td.pad; auto& unpad = td.unpad; auto& ct = td.ct;
""" + FILL_E2E + r"""
  context->SetBlockDim(1);
  td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(td.GetDataSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class SortLib : public OpDef {
 public:
  explicit SortLib(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("t").ParamType(REQUIRED).DataType({ge::DT_UINT8}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(SortLib);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void sort_lib(GM_ADDR x, GM_ADDR y, GM_ADDR t, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(td, tiling);
  uint8_t* raw = reinterpret_cast<uint8_t*>(t);
  size_t at = 0;
  auto dump = [&](const void* p, size_t n) {
    for (size_t i = 0; i < n; ++i) raw[at + i] = static_cast<const uint8_t*>(p)[i];
    at += n;
  };
  dump(&td.topk, sizeof(td.topk)); dump(&td.pad, sizeof(td.pad)); dump(&td.unpad, sizeof(td.unpad));
  dump(&td.ct, sizeof(td.ct));
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bv, bi, bs, bf, bt;
  pipe.InitBuffer(bx, 256); pipe.InitBuffer(bv, 64); pipe.InitBuffer(bi, 64); pipe.InitBuffer(bs, 128);
  pipe.InitBuffer(bf, 32); pipe.InitBuffer(bt, td.tmpBytes);
  LocalTensor<float> xl = bx.Get<float>(), v = bv.Get<float>();
  LocalTensor<int32_t> idx = bi.Get<int32_t>(), sidx = bs.Get<int32_t>();
  LocalTensor<bool> fin = bf.Get<bool>();
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer((__gm__ float*)x, 64);
  gy.SetGlobalBuffer((__gm__ float*)y, 16);
  DataCopy(xl, gx, 64);
  PipeBarrier<PIPE_ALL>();
  TopKInfo info{2, 32, 32};
  TopK<float>(v, idx, xl, sidx, fin, tmp, 4, td.topk, info, true);
  PipeBarrier<PIPE_ALL>();
  DataCopy(gy, v, 16);
}
"""


@pytest.fixture(scope="module")
def sort_build(sim, make_project):
    proj = make_project("SortLib", "sort_lib", HOST, KERNEL,
                        [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32"),
                         ("t", "output", "REQUIRED", "uint8")],
                        {"op_host/sort_lib_tiling.h": TILING_H})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    return build


@pytest.mark.api("TopK", "TopK Tiling")
def test_tiling_classes_reach_the_kernel_byte_for_byte(sim, sort_build, host) -> None:
    x = np.random.default_rng(2).permutation(64).astype(np.float32)
    outputs = (TensorArg("y", "float32", shape=(16,)), TensorArg("t", "uint8", shape=(512,)))
    result = sim.run(sort_build, Launch(inputs=(TensorArg("x", "float32", x),), outputs=outputs, attrs={}))
    assert result.ok, result.message
    expected = bytes(host["e2e"])
    assert bytes(result.outputs["t"][:len(expected)]) == expected
    y = result.outputs["y"].reshape(2, 8)
    np.testing.assert_array_equal(y[:, :4], -np.sort(-x.reshape(2, 32), axis=1)[:, :4])
