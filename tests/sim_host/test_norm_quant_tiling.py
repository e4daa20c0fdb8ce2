"""Host helpers of the normalization and quantization library APIs, from their Tiling pages: every
Get*MaxMinTmpSize / Get*TmpBufferFactorSize reports a minimum no larger than its maximum; the tiling
functions fill the documented structures (the shape fields the kernel reads, a split of the rows that
fits the work buffer) and return false where the page says so; and an operator whose host tiling nests
the optiling tiling classes (TILING_DATA_FIELD_DEF_STRUCT) hands the kernel byte-identical structures,
with which the kernel API accepts a work buffer of the reported minimum and refuses a smaller one."""

from __future__ import annotations

import struct
import subprocess

import numpy as np
import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import HOST_FLAGS, Compiler, find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR
from npukernelbench.toolchains.base import Launch, TensorArg

# The structures both programs below fill for the same inputs: the standalone one with the plain
# AscendC::tiling structs, the operator with the optiling classes.
FILL_E2E = r"""
  ge::Shape e2eSrc({2, 8, 16});
  ge::Shape e2eLn({2, 8, 16, 16});
  ge::Shape e2eAr({16, 16});
  ge::Shape e2eBn({8, 2, 16});
  ge::Shape e2eBnOrigin({6, 2, 16});
  ge::Shape e2eGn({2, 8, 4, 4});
  uint32_t e2eMax = 0, lnMin = 0, lnrMin = 0, lngMin = 0, lngbMin = 0, rmsMin = 0, bnMin = 0, dnMin = 0, gnMin = 0;
  AscendC::GetLayerNormMaxMinTmpSize(e2eLn, 4, false, e2eMax, lnMin);
  E2E_LN(AscendC::GetLayerNormNDTilingInfo(e2eLn, lnMin, 4, false, ln));
  AscendC::GetLayerNormMaxMinTmpSize(e2eAr, 4, false, true, false, e2eMax, lnrMin);
  AscendC::GetLayerNormNDTilingInfo(e2eAr, lnrMin, 4, false, true, lnr);
  AscendC::GetLayerNormGradMaxMinTmpSize(e2eLn, 4, false, e2eMax, lngMin);
  AscendC::GetLayerNormGradNDTilingInfo(e2eLn, lngMin / 4, 4, false, lng);
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(e2eLn, 4, false, e2eMax, lngbMin);
  AscendC::GetLayerNormGradBetaNDTilingInfo(e2eLn, lngbMin / 4, 4, false, lngb);
  AscendC::GetRmsNormMaxMinTmpSize(e2eSrc, 4, e2eMax, rmsMin);
  AscendC::GetRmsNormTilingInfo(e2eSrc, ge::Shape({2, 8, 13}), rmsMin, 4, rms);
  AscendC::GetBatchNormMaxMinTmpSize(e2eBn, e2eBnOrigin, 4, false, e2eMax, bnMin);
  AscendC::GetBatchNormNDTilingInfo(e2eBn, e2eBnOrigin, bnMin, 4, false, bn);
  AscendC::GetDeepNormMaxMinTmpSize(e2eSrc, 4, false, false, e2eMax, dnMin);
  AscendC::GetDeepNormTilingInfo(e2eSrc, ge::Shape({2, 8, 10}), dnMin, 4, false, false, dn);
  AscendC::GetGroupNormMaxMinTmpSize(e2eGn, 4, false, 4, e2eMax, gnMin);
  AscendC::GetGroupNormNDTilingInfo(e2eGn, gnMin, 4, false, 4, gn);
"""

HOST_PROGRAM = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
#define P(name, value) std::printf("%s %.9g\n", name, static_cast<double>(value))
template <typename S> void dump(const char* name, const S& s) {
  std::printf("%s", name);
  const unsigned char* p = reinterpret_cast<const unsigned char*>(&s);
  for (size_t i = 0; i < sizeof(S); ++i) std::printf(" %u", p[i]);
  std::printf("\n");
}
#define E2E_LN(call) call
int main() {
  using namespace AscendC;
  uint32_t mx = 0, mn = 0;
  // ---- LayerNorm [B, S, H]: {B, S, storageH, originH}
  ge::Shape ln({2, 16, 64, 60});
  GetLayerNormMaxMinTmpSize(ln, 2, false, mx, mn);
  P("ln.min", mn); P("ln.max", mx);
  for (uint32_t stack : {mn, mx, 3 * mn + 5, mn - 1}) {
    tiling::LayerNormTiling t;
    GetLayerNormNDTilingInfo(ln, stack, 2, false, t);
    std::printf("ln.tiling %u %u %u %u %u %u %u %u %u %.9g\n", t.bLength, t.sLength, t.hLength, t.originalHLength,
                t.bsCurLength, t.loopRound, t.meanVarTailSize, t.tmpBufSize, t.inputXSize, t.lastDimValueBack);
  }
  uint32_t fmx = 0, fmn = 0, rmx = 0, rmn = 0;
  GetLayerNormMaxMinTmpSize(ln, 4, false, fmx, fmn);
  GetLayerNormMaxMinTmpSize(ln, 4, true, rmx, rmn);
  P("ln.float.min", fmn); P("ln.float.reuse.min", rmn);
  // ---- LayerNorm [A, R]
  ge::Shape ar({8, 64});
  GetLayerNormMaxMinTmpSize(ar, 2, false, true, false, mx, mn);
  P("lnr.min", mn); P("lnr.max", mx);
  tiling::LayerNormSeparateTiling s;
  GetLayerNormNDTilingInfo(ar, 3 * mn, 2, false, true, s);
  std::printf("lnr.tiling %u %u %u %u %u %u %.9g\n", s.aLength, s.rLength, s.rHeadLength, s.aCurLength, s.loopRound,
              s.tmpBufSize, s.rValueBack);
  // ---- LayerNormGrad / LayerNormGradBeta
  ge::Shape g({2, 32, 16, 16});
  GetLayerNormGradMaxMinTmpSize(g, 4, false, mx, mn);
  P("lng.min", mn); P("lng.max", mx);
  tiling::LayerNormGradTiling gt;
  GetLayerNormGradNDTilingInfo(g, mn / 4, 4, false, gt);
  std::printf("lng.tiling %u %u %u %u %u %u %u\n", gt.bLength, gt.sLength, gt.hLength, gt.originalHLength,
              gt.nohCalSize, gt.loopNum, gt.stackBufferSize);
  GetLayerNormGradBetaMaxMinTmpSize(g, 2, false, mx, mn);
  P("lngb.min", mn); P("lngb.max", mx);
  tiling::LayerNormGradBetaTiling bt;
  GetLayerNormGradBetaNDTilingInfo(g, mx / 2, 2, false, bt);
  std::printf("lngb.tiling %u %u %u %u %u %u\n", bt.bLength, bt.sLength, bt.hLength, bt.bsCurLength, bt.loopRound,
              bt.bsLength);
  // ---- RmsNorm
  P("rms.ok", GetRmsNormMaxMinTmpSize(ge::Shape({2, 8, 64}), 4, mx, mn));
  P("rms.min", mn); P("rms.max", mx);
  P("rms.h_unaligned", GetRmsNormMaxMinTmpSize(ge::Shape({2, 8, 12}), 4, mx, mn));
  P("rms.basic", GetRmsNormMaxMinTmpSize(ge::Shape({2, 8, 64}), 4, mx, mn, true));
  P("rms.basic_rows", GetRmsNormMaxMinTmpSize(ge::Shape({2, 3, 64}), 4, mx, mn, true));
  P("rms.basic_h", GetRmsNormMaxMinTmpSize(ge::Shape({2, 8, 2048}), 4, mx, mn, true));
  GetRmsNormMaxMinTmpSize(ge::Shape({2, 8, 64}), 4, mx, mn);
  tiling::RmsNormTiling rt;
  P("rms.tiling.ok", GetRmsNormTilingInfo(ge::Shape({2, 8, 64}), ge::Shape({2, 8, 60}), mn, 4, rt));
  std::printf("rms.tiling %u %u %u %u %.9g %u %u\n", rt.bLength, rt.sLength, rt.hLength, rt.originalHLength,
              rt.reciprocalOfHLength, rt.mainBsLength, rt.loopRound);
  P("rms.tiling.small", GetRmsNormTilingInfo(ge::Shape({2, 8, 64}), ge::Shape({2, 8, 60}), mn - 1, 4, rt));
  P("rms.tiling.bs", GetRmsNormTilingInfo(ge::Shape({2, 8, 64}), ge::Shape({2, 4, 64}), mn, 4, rt));
  P("rms.tiling.basic_pad", GetRmsNormTilingInfo(ge::Shape({2, 8, 64}), ge::Shape({2, 8, 60}), mn, 4, rt, true));
  // ---- BatchNorm
  ge::Shape bsrc({16, 16, 16}), borigin({15, 16, 16});
  P("bn.ok", GetBatchNormMaxMinTmpSize(bsrc, borigin, 2, false, mx, mn));
  P("bn.min", mn); P("bn.max", mx);
  tiling::BatchNormTiling bnt;
  P("bn.tiling.ok", GetBatchNormNDTilingInfo(bsrc, borigin, mn, 2, false, bnt));
  std::printf("bn.tiling %u %u %u %u %.9g\n", bnt.originalBLength, bnt.meanVarSize, bnt.shCurLength, bnt.loopRound,
              bnt.firstDimValueBack);
  P("bn.unaligned", GetBatchNormMaxMinTmpSize(ge::Shape({8, 3, 5}), ge::Shape({8, 3, 5}), 4, false, mx, mn));
  P("bn.basic", GetBatchNormMaxMinTmpSize(bsrc, borigin, 2, false, mx, mn, true));
  P("bn.origin_above", GetBatchNormMaxMinTmpSize(bsrc, ge::Shape({17, 16, 16}), 2, false, mx, mn));
  GetBatchNormMaxMinTmpSize(bsrc, borigin, 2, false, mx, mn);
  P("bn.tiling.small", GetBatchNormNDTilingInfo(bsrc, borigin, mn - 1, 2, false, bnt));
  // ---- DeepNorm
  P("dn.ok", GetDeepNormMaxMinTmpSize(ge::Shape({2, 8, 64}), 2, false, true, mx, mn));
  P("dn.min", mn); P("dn.max", mx);
  P("dn.h_limit", GetDeepNormMaxMinTmpSize(ge::Shape({1, 1, 2048}), 4, false, false, mx, mn));
  GetDeepNormMaxMinTmpSize(ge::Shape({2, 8, 64}), 2, false, false, mx, mn);
  tiling::DeepNormTiling dnt;
  const ge::Shape d64({2, 8, 64}), d60({2, 8, 60}), d0({2, 8, 0});
  P("dn.tiling.ok", GetDeepNormTilingInfo(d64, d60, mn, 2, false, false, dnt));
  std::printf("dn.tiling %u %u %u %u %u\n", dnt.bLength, dnt.sLength, dnt.hLength, dnt.originalHLength,
              dnt.bsCurLength);
  P("dn.tiling.basic_pad", GetDeepNormTilingInfo(d64, d60, mn, 2, false, true, dnt));
  P("dn.tiling.origin0", GetDeepNormTilingInfo(d64, d0, mn, 2, false, false, dnt));
  // ---- Normalize, Welford
  GetNormalizeMaxMinTmpSize(ge::Shape({8, 64}), 2, 2, false, true, false, mx, mn);
  P("nz.min", mn); P("nz.max", mx);
  GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 64}), 2, 4, false, false, mx, mn);
  P("wu.min", mn); P("wu.max", mx);
  GetWelfordFinalizeMaxMinTmpSize(ge::Shape({64}), 4, false, mx, mn);
  P("wf.min", mn); P("wf.max", mx);
  // ---- GroupNorm
  ge::Shape gn({2, 16, 8, 8});
  GetGroupNormMaxMinTmpSize(gn, 2, false, 4, mx, mn);
  P("gn.min", mn); P("gn.max", mx);
  tiling::GroupNormTiling gnt;
  GetGroupNormNDTilingInfo(gn, mn, 2, false, 4, gnt);
  std::printf("gn.tiling %u %u %u %u %u %u %u %.9g\n", gnt.n, gnt.c, gnt.hw, gnt.g, gnt.d, gnt.bsCurLength,
              gnt.loopRound, gnt.factor);
  // ---- quantization
  uint32_t live = 0, extra = 0;
  GetAscendQuantMaxMinTmpSize(ge::Shape({1024}), 2, mx, mn);
  GetAscendQuantTmpBufferFactorSize(live, extra);
  P("q.min", mn); P("q.max", mx); P("q.live", live); P("q.extra", extra);
  GetAscendDequantMaxMinTmpSize(ge::Shape({4, 64}), 4, mx, mn);
  GetAscendDequantTmpBufferFactorSize(ge::Shape({4, 64}), live, extra);
  P("dq.min", mn); P("dq.max", mx); P("dq.live", live); P("dq.extra", extra);
  for (ge::DataType out : {ge::DT_FLOAT16, ge::DT_BF16}) {
    const char* tag = out == ge::DT_BF16 ? "aq.bf16" : "aq.half";
    const ge::Shape src({64, 32}), scale({1, 32});
    GetAscendAntiQuantMaxMinTmpSize(src, scale, false, ge::DT_INT8, out, mx, mn);
    GetAscendAntiQuantTmpBufferFactorSize(src, scale, false, ge::DT_INT8, out, live, extra);
    const uint32_t only_min = GetAscendAntiQuantMinTmpSize(src, scale, false, ge::DT_INT8, out);
    const uint32_t only_max = GetAscendAntiQuantMaxTmpSize(src, scale, false, ge::DT_INT8, out);
    std::printf("%s %u %u %u %u %u %u\n", tag, mn, mx, only_min, only_max, live, extra);
  }
  // Quantize / Dequantize / AntiQuantize (Ascend 950 kernel APIs; their host helpers answer)
  GetQuantizeMaxMinTmpSize(ge::Shape({2, 512}), 2, mx, mn);
  GetQuantizeTmpBufferFactorSize(live, extra);
  std::printf("qz %u %u %u %u\n", mn, mx, live, extra);
  GetQuantizeMaxMinTmpSize(ge::Shape({48}), 4, mx, mn);
  std::printf("qz.small %u %u\n", mn, mx);
  GetDequantizeMaxMinTmpSize(ge::Shape({2, 1024}), 4, mx, mn);
  GetDequantizeTmpBufferFactorSize(ge::Shape({2, 1024}), live, extra);
  std::printf("dqz %u %u %u %u\n", mn, mx, live, extra);
  for (ge::DataType out : {ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT}) {
    const ge::Shape src({64, 512}), scale({1, 512});
    GetAntiQuantizeMaxMinTmpSize(src, scale, false, ge::DT_INT8, out, mx, mn);
    GetAntiQuantizeTmpBufferFactorSize(src, scale, ge::DT_INT8, out, live, extra);
    std::printf("aqz %u %u %u %u\n", mn, mx, live, extra);
  }
  // ---- the structures the operator below fills through the optiling classes
  tiling::LayerNormTiling ln_; tiling::LayerNormSeparateTiling lnr; tiling::LayerNormGradTiling lng;
  tiling::LayerNormGradBetaTiling lngb; tiling::RmsNormTiling rms; tiling::BatchNormTiling bn;
  tiling::DeepNormTiling dn; tiling::GroupNormTiling gn_;
  {
    auto& ln = ln_;
    auto& gn = gn_;
""" + FILL_E2E + r"""
    dump("e2e", ln);
  }
  dump("e2e", lnr); dump("e2e", lng); dump("e2e", lngb); dump("e2e", rms); dump("e2e", bn); dump("e2e", dn);
  dump("e2e", gn_);
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
    d = tmp_path_factory.mktemp("norm_host")
    (d / "h.cpp").write_text(HOST_PROGRAM, encoding="utf-8")
    built = subprocess.run([compiler.path, *HOST_FLAGS, "-I", str(INCLUDE_DIR), str(d / "h.cpp"), "-o", str(d / "h")],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-4000:]
    ran = subprocess.run([str(d / "h")], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    out: dict[str, list] = {}
    for line in ran.stdout.splitlines():
        name, *values = line.split()
        if name == "e2e":       # struct bytes, one structure after the other
            out.setdefault(name, []).extend(float(v) for v in values)
        else:
            out.setdefault(name, []).append([float(v) for v in values])
    return out


def one(h, name):
    return h[name][0][0]


@pytest.mark.api("LayerNorm Tiling")
def test_layernorm_tmp_sizes_and_tiling(host) -> None:
    mn, mx = one(host, "ln.min"), one(host, "ln.max")
    assert 0 < mn <= mx and mx == 32 * mn                 # one row at least, all B * S = 32 rows at most
    at_min, at_max, at_3, below = host["ln.tiling"]
    assert at_min[:4] == [2, 16, 64, 60]                  # B, S, storage H, original H
    assert at_min[4:8] == [1, 32, 0, mn / 4]              # one row per pass, 32 passes, tmpBufSize in floats
    assert at_min[8] == 2 * 16 * 64 and at_min[9] == pytest.approx(1 / 60)
    assert at_max[4:6] == [32, 1]
    assert at_3[4:7] == [3, 10, 2]                        # 3 rows per pass: 10 passes and 2 rows left
    assert below[4] == 0                                  # below the minimum: no rows fit (the kernel refuses)
    assert one(host, "ln.float.reuse.min") < one(host, "ln.float.min")   # isReuseSource saves a work row
    rmn, rmx = one(host, "lnr.min"), one(host, "lnr.max")
    assert 0 < rmn <= rmx and rmx == 8 * rmn
    assert host["lnr.tiling"][0][:6] == [8, 64, 64, 3, 2, rmn * 3 / 4]
    assert host["lnr.tiling"][0][6] == pytest.approx(1 / 64)


@pytest.mark.api("LayerNormGrad Tiling", "LayerNormGradBeta Tiling")
def test_layernorm_grad_tmp_sizes_and_tiling(host) -> None:
    mn, mx = one(host, "lng.min"), one(host, "lng.max")
    assert 0 < mn <= mx and mx == 64 * mn
    assert host["lng.tiling"][0] == [2, 32, 16, 16, 1, 64, mn / 4]   # stackBufferSize in elements, as documented
    bmn, bmx = one(host, "lngb.min"), one(host, "lngb.max")
    assert 0 < bmn <= bmx
    assert host["lngb.tiling"][0] == [2, 32, 16, 64, 1, 64]           # the maximum holds all 64 rows in one pass


@pytest.mark.api("RmsNorm Tiling")
def test_rmsnorm_tmp_sizes_tiling_and_refusals(host) -> None:
    assert one(host, "rms.ok") == 1 and 0 < one(host, "rms.min") <= one(host, "rms.max")
    assert one(host, "rms.h_unaligned") == 0                           # H not 32-byte aligned
    assert one(host, "rms.basic") == 1
    assert one(host, "rms.basic_rows") == 0 and one(host, "rms.basic_h") == 0   # B * S % 8, H < 2048
    assert one(host, "rms.tiling.ok") == 1
    b, s, h, oh, rec, per_pass, loops = host["rms.tiling"][0]
    assert [b, s, h, oh, per_pass, loops] == [2, 8, 64, 60, 1, 16] and rec == pytest.approx(1 / 60)
    assert one(host, "rms.tiling.small") == 0                          # below the minimum
    assert one(host, "rms.tiling.bs") == 0                             # B / S of the two shapes differ
    assert one(host, "rms.tiling.basic_pad") == 0                      # a basic block needs the original H = H


@pytest.mark.api("BatchNorm Tiling")
def test_batchnorm_tmp_sizes_tiling_and_refusals(host) -> None:
    assert one(host, "bn.ok") == 1 and 0 < one(host, "bn.min") <= one(host, "bn.max")
    assert one(host, "bn.tiling.ok") == 1
    ob, sh, cols, loops, rec = host["bn.tiling"][0]
    assert [ob, sh, cols, loops] == [15, 256, 16, 16] and rec == pytest.approx(1 / 15)
    assert one(host, "bn.unaligned") == 0 and one(host, "bn.basic") == 0 and one(host, "bn.origin_above") == 0
    assert one(host, "bn.tiling.small") == 0


@pytest.mark.api("DeepNorm Tiling")
def test_deepnorm_tmp_sizes_tiling_and_refusals(host) -> None:
    assert one(host, "dn.ok") == 1 and 0 < one(host, "dn.min") <= one(host, "dn.max")
    assert one(host, "dn.h_limit") == 0                                # H above 2040
    assert one(host, "dn.tiling.ok") == 1 and host["dn.tiling"][0] == [2, 8, 64, 60, 1]
    assert one(host, "dn.tiling.basic_pad") == 0 and one(host, "dn.tiling.origin0") == 0


@pytest.mark.api("Normalize Tiling", "WelfordUpdate Tiling", "WelfordFinalize Tiling", "GroupNorm Tiling")
def test_normalize_welford_groupnorm_tmp_sizes(host) -> None:
    assert 0 < one(host, "nz.min") <= one(host, "nz.max")
    assert 0 < one(host, "wu.min") == one(host, "wu.max")             # one pass always
    assert 0 < one(host, "wf.min") == one(host, "wf.max")
    mn, mx = one(host, "gn.min"), one(host, "gn.max")
    assert 0 < mn <= mx and mx == 8 * mn                               # N * groupNum = 8 groups
    n, c, hw, g, d, per_pass, loops, factor = host["gn.tiling"][0]
    assert [n, c, hw, g, d, per_pass, loops] == [2, 16, 64, 4, 4, 1, 8] and factor == pytest.approx(1 / 256)


@pytest.mark.api("GetAscendQuantMaxMinTmpSize", "GetAscendQuantTmpBufferFactorSize", "GetAscendDequantMaxMinTmpSize",
                 "GetAscendDequantTmpBufferFactorSize", "GetAscendAntiQuantMaxMinTmpSize",
                 "GetAscendAntiQuantTmpBufferFactorSize")
def test_quant_tmp_sizes_and_factors(host) -> None:
    mn, mx, live, extra = (one(host, k) for k in ("q.min", "q.max", "q.live", "q.extra"))
    assert 0 < mn <= mx
    # the factor form gives the same figures: the minimum holds one 256-byte repeat of half elements
    assert (mn - extra) / live / 2 == 128 and (mx - extra) / live / 2 == 1024
    mn, mx, live, extra = (one(host, k) for k in ("dq.min", "dq.max", "dq.live", "dq.extra"))
    assert 0 < mn <= mx and (mn - extra) / live / 4 == 64 and (mx - extra) / live / 4 == 4 * 64
    half, bf16 = host["aq.half"][0], host["aq.bf16"][0]
    for mn, mx, only_min, only_max, live, extra in (half, bf16):
        assert 0 < mn <= mx and (only_min, only_max) == (mn, mx)
        assert (mx - extra) / live == 64 * 32                          # int8 source: typeSize 1
    assert bf16[0] > half[0]                                           # the bf16 path works in fp32


@pytest.mark.api("GetQuantizeMaxMinTmpSize", "GetQuantizeTmpBufferFactorSize", "GetDequantizeMaxMinTmpSize",
                 "GetDequantizeTmpBufferFactorSize", "GetAntiQuantizeMaxMinTmpSize",
                 "GetAntiQuantizeTmpBufferFactorSize")
def test_quantize_dequantize_antiquantize_tmp_sizes_and_factors(host) -> None:
    """The host helpers of the Ascend 950 Quantize family: minimum <= maximum, and the factor form gives the
    same figures (currentShapeSize = (buffer - extraBuf) / maxLiveNodeCount / typeSize)."""
    mn, mx, live, extra = host["qz"][0]
    assert 0 < mn <= mx
    assert (mx - extra) / live / 2 == 2 * 512                           # the whole half source
    assert (mn - extra) / live / 2 == 128                               # one 256-byte repeat: the page's floor
    mn, mx = host["qz.small"][0]
    assert mn == mx == 48 * 4 * live                                    # a source below one repeat: all of it
    mn, mx, live, extra = host["dqz"][0]
    assert 0 < mn <= mx
    assert (mn - extra) / live / 4 == 1024 and (mx - extra) / live / 4 == 2 * 1024   # one row / both rows
    hlive, blive, flive = (row[2] for row in host["aqz"])                # half, bfloat16_t, float outputs
    for mn, mx, live, extra in host["aqz"]:
        assert 0 < mn <= mx and extra == 0
        assert mx / live == 64 * 512 and mn / live == 512               # int8 source (typeSize 1): all rows / one row
    assert blive == flive > hlive                                       # bfloat16_t / float outputs work in fp32


# ---- the optiling classes in an operator, through to the kernel ------------------------------------

TILING_H = r"""
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(NormLibTiling)
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 14, mins);
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, ln);
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormSeparateTiling, lnr);
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradTiling, lng);
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradBetaTiling, lngb);
  TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rms);
  TILING_DATA_FIELD_DEF_STRUCT(BatchNormTiling, bn);
  TILING_DATA_FIELD_DEF_STRUCT(DeepNormTiling, dn);
  TILING_DATA_FIELD_DEF_STRUCT(GroupNormTiling, gn);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NormLib, NormLibTiling)
}  // namespace optiling
"""

HOST = r"""
#include "norm_lib_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  NormLibTiling td;
  const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
  ge::Shape shape({x.GetDim(0), x.GetDim(1), x.GetDim(2), x.GetDim(2)});
  uint32_t maxSize = 0, minSize = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(float), false, maxSize, minSize);
  // a batch of 3 asks the kernel for one block less than the minimum
  td.set_tmpBytes(x.GetDim(0) == 3 ? minSize - 32 : minSize);
  AscendC::GetLayerNormNDTillingInfo(shape, minSize, sizeof(float), false, td.ln);
  auto& ln = td.ln; auto& lnr = td.lnr; auto& lng = td.lng; auto& lngb = td.lngb; auto& rms = td.rms;
  auto& bn = td.bn; auto& dn = td.dn; auto& gn = td.gn;
#define E2E_LN(call)
""" + FILL_E2E + r"""
  // every API's work buffer at exactly the minimum its host helper reports
  uint32_t nzMin = 0, wuMin = 0, wfMin = 0, qMin = 0, dqMin = 0, aqMin = 0;
  AscendC::GetNormalizeMaxMinTmpSize(e2eAr, 4, 4, false, true, false, e2eMax, nzMin);
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 64}), 4, 4, false, false, e2eMax, wuMin);
  AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({64}), 4, false, e2eMax, wfMin);
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({256}), 4, e2eMax, qMin);
  AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({8, 32}), 4, e2eMax, dqMin);
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({32, 32}), ge::Shape({1, 32}), false, ge::DT_INT8, ge::DT_FLOAT16,
                                           e2eMax, aqMin);
  const uint32_t mins[14] = {lnrMin, lngMin, lngbMin, rmsMin, bnMin, dnMin, gnMin, nzMin, wuMin, wfMin, qMin, dqMin,
                             aqMin, lnMin};
  td.set_mins(mins);
  context->SetBlockDim(1);
  td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(td.GetDataSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class NormLib : public OpDef {
 public:
  explicit NormLib(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("t").ParamType(REQUIRED).DataType({ge::DT_UINT8}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(NormLib);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
// Every other API of the two families on the 256 values of x, each with a work buffer of exactly the
// minimum the host reported (td.mins): none may refuse it.
template <typename TD>
__aicore__ inline void RunEveryApi(TD& td, GM_ADDR xg) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bt, bf[12];
  uint32_t most = 0;
  for (int i = 0; i < 14; ++i) most = td.mins[i] > most ? td.mins[i] : most;
  pipe.InitBuffer(bx, 1024);
  pipe.InitBuffer(bt, most);
  for (int i = 0; i < 12; ++i) pipe.InitBuffer(bf[i], 4096);
  LocalTensor<float> x = bx.Get<float>();
  GlobalTensor<float> gx;
  gx.SetGlobalBuffer((__gm__ float*)xg, 256);
  DataCopy(x, gx, 256);
  auto tmp = [&](int i) { return bt.Get<uint8_t>(td.mins[i]); };
  LocalTensor<float> f[12];
  for (int i = 0; i < 12; ++i) { f[i] = bf[i].Get<float>(); Duplicate(f[i], 1.0f, 256); }
  PipeBarrier<PIPE_ALL>();
  LayerNormPara para{16, 16, 16};
  LayerNorm<float, float>(f[0], f[1], f[2], x, f[3], f[4], 1e-5f, tmp(0), para, td.lnr);
  LocalTensor<uint8_t> gradTmp = tmp(1);   // LayerNormGrad takes a non-const sharedTmpBuffer reference
  LayerNormGrad<float>(f[0], f[1], x, x, f[2], f[3], f[4], gradTmp, 1e-5f, td.lng);
  LayerNormGradBeta<float>(f[0], f[1], x, f[2], tmp(2), td.lngb);
  RmsNorm<float>(f[0], x, f[1], tmp(3), 1e-5f, td.rms);
  BatchNorm<float>(f[0], f[1], f[2], x, f[3], f[4], tmp(4), 1e-5f, td.bn);
  DeepNorm<float>(f[0], f[1], f[2], x, f[3], f[4], f[5], tmp(5), 0.5f, 1e-5f, td.dn);
  GroupNorm<float>(f[0], f[1], f[2], x, f[3], f[4], tmp(6), 1e-5f, td.gn);
  NormalizePara np{16, 16, 16};
  Normalize<float, float>(f[0], f[1], f[2], f[3], x, f[4], f[5], tmp(7), 1e-5f, np);
  WelfordUpdate<float, float>(f[0], f[1], f[2], f[3], x, tmp(8), WelfordUpdateParam{1, 64, 64, 1.0f});
  WelfordFinalizePara wf{1, 64, 1, 64, 0, 0, 1.0f / 64, 1.0f / 64, 0.0f};
  WelfordFinalize(f[0], f[1], f[2], f[3], tmp(9), wf);
  AscendQuant<float>(f[0].ReinterpretCast<int8_t>(), x, tmp(10), 0.5f, 0.0f, 256);
  AscendDequant(f[1], x.ReinterpretCast<int32_t>(), f[2], tmp(11), DequantParams{8, 32, 32});
  AntiQuantShapeInfo si{1, 32, 1, 32};
  AscendAntiQuant<int8_t, half, false>(f[3].ReinterpretCast<half>(), x.ReinterpretCast<int8_t>(),
                                       f[4].ReinterpretCast<half>(), f[5].ReinterpretCast<half>(), tmp(12), 32, si);
}

extern "C" __global__ __aicore__ void norm_lib(GM_ADDR x, GM_ADDR y, GM_ADDR t, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(td, tiling);
  uint8_t* raw = reinterpret_cast<uint8_t*>(t);
  size_t at = 0;
  auto dump = [&](const void* p, size_t n) {
    for (size_t i = 0; i < n; ++i) raw[at + i] = static_cast<const uint8_t*>(p)[i];
    at += n;
  };
  dump(&td.ln, sizeof(td.ln)); dump(&td.lnr, sizeof(td.lnr)); dump(&td.lng, sizeof(td.lng));
  dump(&td.lngb, sizeof(td.lngb)); dump(&td.rms, sizeof(td.rms)); dump(&td.bn, sizeof(td.bn));
  dump(&td.dn, sizeof(td.dn)); dump(&td.gn, sizeof(td.gn));
  const uint32_t h = td.ln.hLength, n = td.ln.bLength * td.ln.sLength * h, rows = td.ln.bLength * td.ln.sLength;
  {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bg, bb, bm, bv, bt;
  pipe.InitBuffer(bx, n * 4); pipe.InitBuffer(by, n * 4); pipe.InitBuffer(bg, h * 4); pipe.InitBuffer(bb, h * 4);
  pipe.InitBuffer(bm, rows * 4); pipe.InitBuffer(bv, rows * 4); pipe.InitBuffer(bt, td.tmpBytes);
  LocalTensor<float> xl = bx.Get<float>(), yl = by.Get<float>(), g = bg.Get<float>(), b = bb.Get<float>();
  LocalTensor<float> m = bm.Get<float>(), v = bv.Get<float>();
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer((__gm__ float*)x, n);
  gy.SetGlobalBuffer((__gm__ float*)y, n);
  DataCopy(xl, gx, n);
  Duplicate(g, 2.0f, h);
  Duplicate(b, 0.5f, h);
  PipeBarrier<PIPE_ALL>();
  LayerNorm<float>(yl, m, v, xl, g, b, tmp, 1e-5f, td.ln);
  PipeBarrier<PIPE_ALL>();
  DataCopy(gy, yl, n);
  }
  if (td.ln.bLength == 2) RunEveryApi(td, x);
}
"""


@pytest.fixture(scope="module")
def norm_build(sim, make_project):
    proj = make_project("NormLib", "norm_lib", HOST, KERNEL,
                        [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32"),
                         ("t", "output", "REQUIRED", "uint8")],
                        {"op_host/norm_lib_tiling.h": TILING_H})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    return build


def _run(sim, build, x):
    outputs = (TensorArg("y", "float32", shape=x.shape), TensorArg("t", "uint8", shape=(1024,)))
    return sim.run(build, Launch(inputs=(TensorArg("x", "float32", x),), outputs=outputs, attrs={}))


@pytest.mark.api("LayerNorm", "LayerNorm Tiling")
def test_tiling_classes_reach_the_kernel_byte_for_byte(sim, norm_build, host) -> None:
    # (the kernel also runs every other API of both families with a work buffer of exactly the minimum
    # its host helper reported: the run would stop with a violation if one refused it)
    x = np.random.default_rng(1).standard_normal((2, 8, 16)).astype(np.float32)
    result = _run(sim, norm_build, x)
    assert result.ok, result.message
    expected = bytes(int(v) for v in host["e2e"])
    assert bytes(result.outputs["t"][:len(expected)]) == expected
    mean = x.mean(axis=2, keepdims=True)
    var = x.var(axis=2, keepdims=True)
    np.testing.assert_allclose(result.outputs["y"], 2.0 * (x - mean) / np.sqrt(var + 1e-5) + 0.5, rtol=1e-5, atol=1e-5)
    # the LayerNormTiling fields the kernel read: B, S, H, original H (and 1 / H)
    ln = struct.unpack("<25If", expected[:104])
    assert ln[:4] == (2, 8, 16, 16) and ln[25] == pytest.approx(1 / 16)


def test_kernel_refuses_a_work_buffer_below_the_reported_minimum(sim, norm_build) -> None:
    result = _run(sim, norm_build, np.ones((3, 8, 16), np.float32))
    assert not result.ok
    assert "LayerNorm: sharedTmpBuffer of" in result.message and "GetLayerNormMaxMinTmpSize" in result.message
