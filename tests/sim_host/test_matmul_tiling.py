"""The host-side Matmul tiling (MatmulApiTiling, MultiCoreMatmulTiling, BatchMatmulTiling and the tiling
buffer queries) against the documented contract: every tiling GetTiling returns satisfies the TCubeTiling
constraints (base blocks within L0A / L0B / L0C and the bias table, fractal alignment, depth = step x
double buffer, A + B + bias panels within L1, single-core shapes within the problem, cores within the
chip); each setter's effect shows in the tiling; a setter returns -1 for a value the Atlas A2/A3 Matmul
cannot take and GetTiling -1 when no tiling fits. One host program prints one line per scenario."""

from __future__ import annotations

import subprocess

import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import HOST_FLAGS, Compiler, find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR, RUNTIME_DIR

PROGRAM = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
using namespace matmul_tiling;

static void row(const char* name, long long ret, const TCubeTiling& t, const MatmulApiTilingBase& m) {
  std::printf("%s %lld %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", name,
              ret, t.usedCoreNum, t.M, t.N, t.Ka, t.Kb, t.singleCoreM, t.singleCoreN, t.singleCoreK, t.baseM,
              t.baseN, t.baseK, t.depthA1, t.depthB1, t.stepM, t.stepN, t.stepKa, t.stepKb, t.isBias,
              t.iterateOrder, t.dbL0A, t.dbL0B, t.dbL0C, t.BatchNum, t.shareL1Size, t.shareL0CSize, m.GetBaseM(),
              m.GetBaseN(), m.GetBaseK());
}
static void setup(MatmulApiTilingBase& m, DataType a, DataType c, bool ta, bool tb, int M, int N, int K) {
  m.SetAType(TPosition::GM, CubeFormat::ND, a, ta);
  m.SetBType(TPosition::GM, CubeFormat::ND, a, tb);
  m.SetCType(TPosition::GM, CubeFormat::ND, c);
  m.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  m.SetShape(M, N, K);
  m.SetOrgShape(M, N, K);
}
#define CASE(NAME, BODY) { BODY; }
int main() {
  const DataType types[] = {DataType::DT_FLOAT16, DataType::DT_BF16, DataType::DT_FLOAT, DataType::DT_INT8};
  const int shapes[][3] = {{1, 1, 1}, {16, 16, 16}, {40, 50, 33}, {128, 256, 64}, {1024, 1024, 1024},
                           {4096, 512, 8192}, {7, 3000, 130}, {2048, 96, 40}};
  int idx = 0;
  for (DataType dt : types) for (auto& s : shapes) for (int tr = 0; tr < 4; ++tr) for (int bias = 0; bias < 2; ++bias) {
    MatmulApiTiling m;
    setup(m, dt, dt == DataType::DT_INT8 ? DataType::DT_INT32 : DataType::DT_FLOAT, tr & 1, tr & 2, s[0], s[1], s[2]);
    m.SetBias(bias);
    TCubeTiling t{};
    long long r = m.GetTiling(t);
    char name[64];
    std::snprintf(name, sizeof name, "grid:%d:%d:%d:%d", static_cast<int>(dt), tr, bias, idx++);
    row(name, r, t, m);
  }
  // the two GetTiling forms agree
  { MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 300, 200, 100);
    optiling::TCubeTiling o; TCubeTiling t{}; long long r1 = m.GetTiling(o), r2 = m.GetTiling(t);
    std::printf("forms %lld %lld %d %d %d %d %d %d %d %d\n", r1, r2, o.get_baseM() == t.baseM, o.get_baseN() == t.baseN,
                o.get_baseK() == t.baseK, o.get_depthA1() == t.depthA1, o.get_stepKa() == t.stepKa,
                o.get_singleCoreK() == t.singleCoreK, o.get_dbL0C() == t.dbL0C,
                o.get_iterateOrder() == t.iterateOrder); }
  // setters: return values for values the Atlas A2/A3 Matmul cannot take
  { MatmulApiTiling m; MultiCoreMatmulTiling mc; BatchMatmulTiling bm;
    std::printf("ret SetAType_int16 %d\n", m.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT16));
    std::printf("ret SetAType_half %d\n", m.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16));
    std::printf("ret SetAType_CO1 %d\n", m.SetAType(TPosition::CO1, CubeFormat::ND, DataType::DT_FLOAT16));
    std::printf("ret SetBType_int8 %d\n", m.SetBType(TPosition::TSCM, CubeFormat::NZ, DataType::DT_INT8, true));
    std::printf("ret SetBType_uint8 %d\n", m.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_UINT8));
    std::printf("ret SetCType_uint8 %d\n", m.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_UINT8));
    std::printf("ret SetCType_ndalign %d\n", m.SetCType(TPosition::VECIN, CubeFormat::ND_ALIGN, DataType::DT_FLOAT));
    std::printf("ret SetBiasType_bf16 %d\n", m.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_BF16));
    std::printf("ret SetBiasType_int32 %d\n", m.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32));
    std::printf("ret SetScaleAType %d\n", m.SetScaleAType(TPosition::GM, CubeFormat::ND));
    std::printf("ret SetScaleBType %d\n", m.SetScaleBType(TPosition::GM, CubeFormat::ND));
    std::printf("ret SetShape_zero %d\n", m.SetShape(0, 16, 16));
    std::printf("ret SetShape_ok %d\n", m.SetShape(16, 16, 16));
    std::printf("ret SetOrgShape_neg %d\n", m.SetOrgShape(16, -3, 16));
    std::printf("ret SetOrgShape4 %d\n", m.SetOrgShape(16, 16, 16, 32));
    std::printf("ret SetFixSplit_zero %d\n", m.SetFixSplit(0, -1, -1));
    std::printf("ret SetFixSplit_ok %d\n", m.SetFixSplit(-1, -1, -1));
    std::printf("ret SetBufferSpace_big %d\n", m.SetBufferSpace(1 << 20));
    std::printf("ret SetBufferSpace_ok %d\n", m.SetBufferSpace(256 * 1024, 64 * 1024));
    std::printf("ret SetTraverse_noset %d\n", m.SetTraverse(MatrixTraverse::NOSET));
    std::printf("ret SetTraverse_n %d\n", m.SetTraverse(MatrixTraverse::FIRSTN));
    std::printf("ret SetMadType_mx %d\n", m.SetMadType(MatrixMadType::MXMODE));
    std::printf("ret SetMadType_hf32 %d\n", m.SetMadType(MatrixMadType::HF32));
    std::printf("ret SetSplitRange_inverted %d\n", m.SetSplitRange(32, -1, -1, 64));
    std::printf("ret SetSplitRange_ok %d\n", m.SetSplitRange(64, 64, 64, 16, 16, 16));
    std::printf("ret SetDoubleBuffer %d\n", m.SetDoubleBuffer(true, true, true, true));
    std::printf("ret SetDequantType %d\n", m.SetDequantType(DequantType::TENSOR));
    std::printf("ret SetBias %d\n", m.SetBias(true));
    std::printf("ret EnableBias %d\n", m.EnableBias(false));
    std::printf("ret SetSparse %d\n", m.SetSparse(true));
    std::printf("ret SetDim_zero %d\n", mc.SetDim(0));
    std::printf("ret SetDim_ok %d\n", mc.SetDim(8));
    std::printf("ret SetSingleShape_zero %d\n", mc.SetSingleShape(0));
    std::printf("ret SetSingleRange_inverted %d\n", mc.SetSingleRange(16, -1, -1, 32));
    std::printf("ret SetAlignSplit_bad %d\n", mc.SetAlignSplit(-2, 0, 0));
    std::printf("ret SetALayout_zero %d\n", bm.SetALayout(0, 1, 1, 1, 1));
    std::printf("ret SetBatchNum_zero %d\n", bm.SetBatchNum(0));
    std::printf("ret SetBatchInfoForNormal_bad %d\n", bm.SetBatchInfoForNormal(3, 2, 16, 16, 16));
    std::printf("ret EnableL1BankConflictOptimise %d\n", m.EnableL1BankConflictOptimise() ? 1 : 0); }
  // effects of the setters
  CASE(traverse, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 256, 256, 128);
       m.SetTraverse(MatrixTraverse::FIRSTN); TCubeTiling t{}; row("traverse", m.GetTiling(t), t, m))
  CASE(configparams, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 256, 256, 128);
       m.SetMatmulConfigParams(MatmulConfigParams(1, false, ScheduleType::INNER_PRODUCT, MatrixTraverse::FIRSTN));
       TCubeTiling t{}; row("configparams", m.GetTiling(t), t, m))
  CASE(fix, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 256, 256, 256);
       m.SetFixSplit(64, 128, 64); TCubeTiling t{}; row("fix", m.GetTiling(t), t, m))
  CASE(fix_too_big, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 512, 512, 64);
       m.SetFixSplit(256, 256, -1); TCubeTiling t{}; row("fix_too_big", m.GetTiling(t), t, m))
  CASE(fix_past_shape, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 12, 64, 64);
       m.SetFixSplit(32, -1, -1); TCubeTiling t{}; row("fix_past_shape", m.GetTiling(t), t, m))
  CASE(fix_bad_k, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 64, 64, 64);
       m.SetFixSplit(-1, -1, 24); TCubeTiling t{}; row("fix_bad_k", m.GetTiling(t), t, m))
  CASE(no_shape, MatmulApiTiling m; m.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
       TCubeTiling t{}; row("no_shape", m.GetTiling(t), t, m))
  CASE(range, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 512, 512, 512);
       m.SetSplitRange(64, 32, 32, 32, 16, 16); TCubeTiling t{}; row("range", m.GetTiling(t), t, m))
  CASE(nodb, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 512, 512, 512);
       m.SetDoubleBuffer(false, false, false, false); TCubeTiling t{}; row("nodb", m.GetTiling(t), t, m))
  CASE(small_l1, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 512, 512, 4096);
       m.SetBufferSpace(64 * 1024); TCubeTiling t{}; row("small_l1", m.GetTiling(t), t, m))
  CASE(tiny_l1, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 512, 512, 4096);
       m.SetBufferSpace(1024); TCubeTiling t{}; row("tiny_l1", m.GetTiling(t), t, m))
  CASE(org, MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 64, 64, 64);
       m.SetOrgShape(1000, 2000, 3000, 3000); TCubeTiling t{}; row("org", m.GetTiling(t), t, m))
  CASE(platinfo, PlatformInfo pi; pi.l0CSize = 32 * 1024; MatmulApiTiling m(pi);
       setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 512, 512, 512);
       TCubeTiling t{}; row("platinfo", m.GetTiling(t), t, m))
  CASE(platform, platform_ascendc::PlatformAscendC plat(nullptr); MatmulApiTiling m(plat);
       setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 512, 512, 512);
       TCubeTiling t{}; row("platform", m.GetTiling(t), t, m))
  CASE(platinfo_multi, PlatformInfo pi; pi.l0CSize = 32 * 1024; pi.l1Size = 128 * 1024; pi.l0ASize = 16 * 1024;
       MultiCoreMatmulTiling m(pi); setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 512, 512, 512);
       m.SetDim(4); TCubeTiling t{}; row("platinfo_multi", m.GetTiling(t), t, m))
  CASE(platform_batch, platform_ascendc::PlatformAscendC plat(nullptr); BatchMatmulTiling m(plat);
       setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 1, 1, 1);
       m.SetBatchInfoForNormal(2, 2, 64, 64, 64); m.SetDim(2); TCubeTiling t{};
       row("platform_batch", m.GetTiling(t), t, m))
  CASE(base_platinfo, PlatformInfo pi; pi.l0CSize = 16 * 1024; MatmulApiTilingBase* m = new MatmulApiTiling(pi);
       setup(*m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 256, 256, 256);
       TCubeTiling t{}; row("base_platinfo", m->GetTiling(t), t, *m); delete m)
  // multi-core
  for (int dim : {1, 4, 8, 20}) {
    MultiCoreMatmulTiling m;
    setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 1000, 2000, 512);
    m.SetDim(dim);
    TCubeTiling t{};
    long long r = m.GetTiling(t);
    int d = 0, md = 0, nd = 0, sm = 0, sn = 0, sk = 0;
    m.GetCoreNum(d, md, nd);
    m.GetSingleShape(sm, sn, sk);
    char name[32];
    std::snprintf(name, sizeof name, "multi:%d", dim);
    row(name, r, t, m);
    std::printf("multicore:%d %d %d %d %d %d %d\n", dim, d, md, nd, sm, sn, sk);
  }
  { MultiCoreMatmulTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 512, 512, 256);
    m.SetDim(8); m.SetSingleShape(128, 256, -1); TCubeTiling t{}; row("single", m.GetTiling(t), t, m); }
  { MultiCoreMatmulTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 1000, 1000, 256);
    m.SetDim(4); m.SetAlignSplit(128, 64, 0); TCubeTiling t{}; row("align", m.GetTiling(t), t, m); }
  { MultiCoreMatmulTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 1000, 1000, 256);
    m.SetDim(2); m.SetSingleRange(256, 256, -1, -1, -1, -1); TCubeTiling t{}; row("srange", m.GetTiling(t), t, m); }
  { MultiCoreMatmulTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 64, 64, 4096);
    m.SetDim(8); m.EnableMultiCoreSplitK(true); TCubeTiling t{}; long long r = m.GetTiling(t);
    int d = 0, md = 0, nd = 0; m.GetCoreNum(d, md, nd); row("splitk", r, t, m);
    std::printf("splitk_cores %d %d %d\n", d, md, nd); }
  { MultiCoreMatmulTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 64, 64, 4096);
    m.SetDim(8); m.SetSplitK(true); TCubeTiling t{}; row("setsplitk", m.GetTiling(t), t, m); }
  // batch
  { BatchMatmulTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 1, 1, 1);
    std::printf("ret SetBatchInfoForNormal %d\n", m.SetBatchInfoForNormal(2, 8, 128, 64, 96));
    m.SetDim(4); TCubeTiling t{}; long long r = m.GetTiling(t); row("batch", r, t, m);
    int d = 0, md = 0, nd = 0, bcm = 0, bcn = 0; m.GetCoreNum(d, md, nd, bcm, bcn);
    std::printf("batchcores %d %d %d %d %d %d %d %d\n", d, md, nd, bcm, bcn,
                t.ALayoutInfoB, t.BLayoutInfoB, t.CLayoutInfoB); }
  { BatchMatmulTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 64, 64, 64);
    m.SetALayout(2, 64, 4, 2, 64); m.SetBLayout(2, 64, 4, 1, 64); m.SetCLayout(2, 64, 4, 2, 64); m.SetBatchNum(8);
    TCubeTiling t{}; long long r = m.GetTiling(t);
    std::printf("layout %lld %d %d %d %d %d %d %d %d %d\n", r, t.ALayoutInfoB, t.ALayoutInfoS, t.ALayoutInfoN,
                t.ALayoutInfoG, t.ALayoutInfoD, t.BLayoutInfoG, t.CLayoutInfoS1, t.CLayoutInfoS2, t.BatchNum); }
  // the layout setters are members of every tiling class (the pages' examples call them on MultiCoreMatmulTiling)
  { MultiCoreMatmulTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 32, 256, 64);
    int ra = m.SetALayout(2, 32, 1, 1, 64), rb = m.SetBLayout(2, 64, 1, 1, 256), rc = m.SetCLayout(2, 32, 1, 1, 256);
    int rn = m.SetBatchNum(2), rz = m.SetALayout(2, 0, 1, 1, 64);
    TCubeTiling t{}; long long r = m.GetTiling(t);
    std::printf("multicore_layout %d %d %d %d %d %lld %d %d %d %d %d\n", ra, rb, rc, rn, rz, r, t.ALayoutInfoB,
                t.ALayoutInfoS, t.BLayoutInfoS, t.CLayoutInfoS2, t.BatchNum); }
  // buffer queries
  { MatmulApiTiling m; setup(m, DataType::DT_FLOAT16, DataType::DT_FLOAT, false, false, 256, 256, 256);
    optiling::TCubeTiling o; TCubeTiling t{}; m.GetTiling(o); m.GetTiling(t);
    SysTilingTempBufSize a, b, c, d, e, f;
    int r1 = MatmulGetTmpBufSize(o, a), r2 = MatmulGetTmpBufSizeV2(t, b), r3 = MultiCoreMatmulGetTmpBufSize(o, c);
    int r4 = MultiCoreMatmulGetTmpBufSizeV2(t, d), r5 = BatchMatmulGetTmpBufSize(o, e);
    int r6 = BatchMatmulGetTmpBufSizeV2(t, f);
    std::printf("bufsize %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", r1, r2, r3, r4, r5, r6, a.l1Size, a.l0cSize,
                b.l1Size, b.l0cSize, f.l1Size, f.l0cSize, t.shareL1Size, t.shareL0CSize);
    TCubeTiling empty{}; SysTilingTempBufSize g;
    std::printf("bufsize_empty %d\n", MatmulGetTmpBufSizeV2(empty, g));
    row("bufsize_tiling", 0, t, m); }
  return 0;
}
"""

FIELDS = ["ret", "usedCoreNum", "M", "N", "Ka", "Kb", "singleCoreM", "singleCoreN", "singleCoreK", "baseM", "baseN",
          "baseK", "depthA1", "depthB1", "stepM", "stepN", "stepKa", "stepKb", "isBias", "iterateOrder", "dbL0A",
          "dbL0B", "dbL0C", "BatchNum", "shareL1Size", "shareL0CSize", "getBaseM", "getBaseN", "getBaseK"]
SIZES = {0: 4, 1: 2, 27: 2, 2: 1}          # ge::DataType value -> bytes (float, half, bf16, int8)
C0 = {0: 8, 1: 16, 27: 16, 2: 32}


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> dict:
    found = find_compiler()
    if isinstance(found, str):
        pytest.skip(found)
    compiler: Compiler = found
    d = tmp_path_factory.mktemp("mm_tiling")
    src = d / "prog.cpp"
    src.write_text(PROGRAM, encoding="utf-8")
    sources = [str(src), str(RUNTIME_DIR / "matmul_tiling.cpp"), str(RUNTIME_DIR / "host_api.cpp"),
               str(RUNTIME_DIR / "soc.cpp")]
    built = subprocess.run([compiler.path, *HOST_FLAGS, "-I", str(INCLUDE_DIR), *sources, "-o", str(d / "prog")],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-4000:]
    ran = subprocess.run([str(d / "prog")], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    rows: dict = {}
    for line in ran.stdout.splitlines():
        parts = line.split()
        if parts[0] == "ret":
            rows[("ret", parts[1])] = int(parts[2])
        elif len(parts) == len(FIELDS) + 1:
            rows[parts[0]] = dict(zip(FIELDS, map(int, parts[1:]), strict=True))
        else:
            rows[parts[0]] = [int(v) for v in parts[1:]]
    return rows


def check_contract(t: dict, dt_bytes: int, c0: int, trans_a: bool, trans_b: bool, shape=None, cores=20) -> None:
    """The TCubeTiling constraints of the TCubeTiling page (table 2)."""
    bm, bn, bk = t["baseM"], t["baseN"], t["baseK"]
    assert bm > 0 and bn > 0 and bk > 0
    assert bm % 16 == 0 and bn % 16 == 0
    assert bk % (c0 if (not trans_a and trans_b) else max(16, c0)) == 0
    assert bm * bk * dt_bytes * t["dbL0A"] <= 64 * 1024
    assert bn * bk * dt_bytes * t["dbL0B"] <= 64 * 1024
    assert bm * bn * 4 * t["dbL0C"] <= 128 * 1024
    assert t["dbL0A"] in (1, 2) and t["dbL0B"] in (1, 2) and t["dbL0C"] in (1, 2)
    for side, step_mn, step_k in (("depthA1", "stepM", "stepKa"), ("depthB1", "stepN", "stepKb")):
        assert t[side] % (t[step_mn] * t[step_k]) == 0 and t[side] // (t[step_mn] * t[step_k]) in (1, 2)
    bias = bn * 4 if t["isBias"] else 0
    assert bias <= 1024
    assert bm * bk * t["depthA1"] * dt_bytes + bn * bk * t["depthB1"] * dt_bytes + bias <= 512 * 1024
    assert 1 <= t["usedCoreNum"] <= cores
    assert (t["getBaseM"], t["getBaseN"], t["getBaseK"]) == (bm, bn, bk)
    if shape is not None:
        m, n, k = shape
        assert t["singleCoreM"] <= m and t["singleCoreN"] <= n and t["singleCoreK"] <= k
        assert bm <= -(-t["singleCoreM"] // 16) * 16 and bn <= -(-t["singleCoreN"] // 16) * 16




@pytest.mark.api("Matmul Tiling类/GetTiling", "Matmul Tiling类/GetBaseM", "Matmul Tiling类/GetBaseN",
                 "Matmul Tiling类/GetBaseK", "Matmul Tiling类/SetAType", "Matmul Tiling类/SetBType",
                 "Matmul Tiling类/SetCType", "Matmul Tiling类/SetBiasType", "Matmul Tiling类/SetShape",
                 "Matmul Tiling类/SetBias", "Matmul Tiling类/TCubeTiling结构体",
                 "Matmul Tiling类/Matmul Tiling类构造函数")
def test_every_tiling_satisfies_the_documented_constraints(out):
    shapes = [(1, 1, 1), (16, 16, 16), (40, 50, 33), (128, 256, 64), (1024, 1024, 1024), (4096, 512, 8192),
              (7, 3000, 130), (2048, 96, 40)]
    grid = {k: v for k, v in out.items() if isinstance(k, str) and k.startswith("grid:")}
    assert len(grid) == 4 * len(shapes) * 4 * 2
    for name, t in grid.items():
        _, dt, tr, bias, idx = name.split(":")
        dt, tr, bias = int(dt), int(tr), int(bias)
        shape = shapes[(int(idx) // 8) % len(shapes)]
        assert t["ret"] == 0, name
        check_contract(t, SIZES[dt], C0[dt], bool(tr & 1), bool(tr & 2), shape, cores=1)
        assert t["isBias"] == bias
        assert (t["M"], t["N"], t["Ka"], t["Kb"]) == (shape[0], shape[1], shape[2], shape[2])


@pytest.mark.api("Matmul Tiling类/GetTiling")
def test_both_tiling_forms_agree(out):
    assert out["forms"] == [0, 0, 1, 1, 1, 1, 1, 1, 1, 1]


RET = {
    "SetAType_int16": -1, "SetAType_half": 0, "SetAType_CO1": -1, "SetBType_int8": 0, "SetBType_uint8": -1,
    "SetCType_uint8": -1, "SetCType_ndalign": 0, "SetBiasType_bf16": -1, "SetBiasType_int32": 0,
    "SetScaleAType": -1, "SetScaleBType": -1, "SetShape_zero": -1, "SetShape_ok": 0, "SetOrgShape_neg": -1,
    "SetOrgShape4": 0, "SetFixSplit_zero": -1, "SetFixSplit_ok": 0, "SetBufferSpace_big": -1, "SetBufferSpace_ok": 0,
    "SetTraverse_noset": -1, "SetTraverse_n": 0, "SetMadType_mx": -1, "SetMadType_hf32": 0,
    "SetSplitRange_inverted": -1, "SetSplitRange_ok": 0, "SetDoubleBuffer": 0, "SetDequantType": 0, "SetBias": 0,
    "EnableBias": 0, "SetSparse": 0, "SetDim_zero": -1, "SetDim_ok": 0, "SetSingleShape_zero": -1,
    "SetSingleRange_inverted": -1, "SetAlignSplit_bad": -1, "SetALayout_zero": -1, "SetBatchNum_zero": -1,
    "SetBatchInfoForNormal_bad": -1, "EnableL1BankConflictOptimise": 0, "SetBatchInfoForNormal": 0,
}


@pytest.mark.api("Matmul Tiling类/SetAType", "Matmul Tiling类/SetBType", "Matmul Tiling类/SetCType",
                 "Matmul Tiling类/SetBiasType", "Matmul Tiling类/SetScaleAType", "Matmul Tiling类/SetScaleBType",
                 "Matmul Tiling类/SetShape", "Matmul Tiling类/SetOrgShape", "Matmul Tiling类/SetFixSplit",
                 "Matmul Tiling类/SetBufferSpace", "Matmul Tiling类/SetTraverse", "Matmul Tiling类/SetMadType",
                 "Matmul Tiling类/SetSplitRange", "Matmul Tiling类/SetDoubleBuffer", "Matmul Tiling类/SetDequantType",
                 "Matmul Tiling类/SetBias", "Matmul Tiling类/EnableBias", "Matmul Tiling类/SetSparse",
                 "Matmul Tiling类/SetDim", "Matmul Tiling类/SetSingleShape", "Matmul Tiling类/SetSingleRange",
                 "Matmul Tiling类/SetAlignSplit", "Matmul Tiling类/SetALayout", "Matmul Tiling类/SetBatchNum",
                 "Matmul Tiling类/SetBatchInfoForNormal", "Matmul Tiling类/EnableL1BankConflictOptimise")
def test_setter_return_values(out):
    got = {name: out[("ret", name)] for name in RET}
    assert got == RET


@pytest.mark.api("Matmul Tiling类/SetTraverse", "Matmul Tiling类/SetMatmulConfigParams")
def test_traverse_sets_the_iterate_order(out):
    for name in ("traverse", "configparams"):
        assert out[name]["ret"] == 0 and out[name]["iterateOrder"] == 1


@pytest.mark.api("Matmul Tiling类/SetFixSplit", "Matmul Tiling类/GetTiling")
def test_fix_split_and_impossible_settings(out):
    t = out["fix"]
    assert t["ret"] == 0 and (t["baseM"], t["baseN"], t["baseK"]) == (64, 128, 64)
    check_contract(t, 2, 16, False, False)
    assert out["fix_too_big"]["ret"] == -1       # 256 x 256 floats > L0C
    assert out["fix_past_shape"]["ret"] == -1    # baseM > singleM rounded to 16
    assert out["fix_bad_k"]["ret"] == -1         # baseK not a fractal multiple
    assert out["no_shape"]["ret"] == -1


@pytest.mark.api("Matmul Tiling类/SetSplitRange", "Matmul Tiling类/SetDoubleBuffer", "Matmul Tiling类/SetBufferSpace",
                 "Matmul Tiling类/SetOrgShape")
def test_ranges_buffers_and_org_shape(out):
    t = out["range"]
    assert t["baseM"] <= 64 and t["baseN"] <= 32 and 16 <= t["baseK"] <= 32
    t = out["nodb"]
    assert (t["dbL0A"], t["dbL0B"], t["dbL0C"]) == (1, 1, 1) and t["depthA1"] == t["stepKa"]
    check_contract(t, 2, 16, False, False)
    small = out["small_l1"]
    assert small["ret"] == 0
    a_bytes = small["baseM"] * small["baseK"] * small["depthA1"] * 2
    b_bytes = small["baseN"] * small["baseK"] * small["depthB1"] * 2
    assert a_bytes + b_bytes <= 64 * 1024
    assert out["tiny_l1"]["ret"] == -1
    t = out["org"]
    assert (t["M"], t["N"], t["Ka"], t["Kb"], t["singleCoreM"]) == (1000, 2000, 3000, 3000, 64)


@pytest.mark.api("Matmul Tiling类/Matmul Tiling类构造函数")
def test_platform_constructors(out):
    t = out["platinfo"]
    assert t["ret"] == 0 and t["baseM"] * t["baseN"] * 4 <= 32 * 1024
    assert out["platform"]["ret"] == 0
    check_contract(out["platform"], 2, 16, False, False)
    t = out["platinfo_multi"]        # the PlatformInfo sizes bound L0C, L0A and L1
    assert t["ret"] == 0 and 1 <= t["usedCoreNum"] <= 4
    check_contract(t, 2, 16, False, False, (512, 512, 512), cores=4)
    assert t["baseM"] * t["baseN"] * 4 * t["dbL0C"] <= 32 * 1024
    assert t["baseM"] * t["baseK"] * 2 * t["dbL0A"] <= 16 * 1024
    assert (t["baseM"] * t["depthA1"] + t["baseN"] * t["depthB1"]) * t["baseK"] * 2 <= 128 * 1024
    t = out["platform_batch"]
    assert t["ret"] == 0 and (t["singleCoreM"], t["singleCoreN"], t["singleCoreK"]) == (64, 64, 64)
    t = out["base_platinfo"]
    assert t["ret"] == 0 and t["baseM"] * t["baseN"] * 4 * t["dbL0C"] <= 16 * 1024


@pytest.mark.api("Matmul Tiling类/SetDim", "Matmul Tiling类/GetCoreNum", "Matmul Tiling类/GetSingleShape")
@pytest.mark.parametrize("dim", [1, 4, 8, 20])
def test_multi_core_split(out, dim):
    t = out[f"multi:{dim}"]
    d, md, nd, sm, sn, sk = out[f"multicore:{dim}"]
    assert t["ret"] == 0
    check_contract(t, 2, 16, False, False, (1000, 2000, 512), cores=dim)
    assert d == md * nd == t["usedCoreNum"] <= dim
    assert (sm, sn, sk) == (t["singleCoreM"], t["singleCoreN"], t["singleCoreK"])
    assert md * sm >= 1000 and nd * sn >= 2000 and sk == 512


@pytest.mark.api("Matmul Tiling类/SetSingleShape", "Matmul Tiling类/SetAlignSplit", "Matmul Tiling类/SetSingleRange")
def test_single_shape_controls(out):
    assert (out["single"]["singleCoreM"], out["single"]["singleCoreN"]) == (128, 256)
    assert out["single"]["usedCoreNum"] == 8
    a = out["align"]
    assert a["singleCoreM"] in (1000,) or a["singleCoreM"] % 128 == 0
    assert a["singleCoreN"] in (1000,) or a["singleCoreN"] % 64 == 0
    assert a["singleCoreM"] < 1000 or a["singleCoreN"] < 1000
    s = out["srange"]
    assert s["singleCoreM"] <= 256 and s["singleCoreN"] <= 256


@pytest.mark.api("Matmul Tiling类/EnableMultiCoreSplitK", "Matmul Tiling类/SetSplitK")
def test_split_k_over_cores(out):
    t = out["splitk"]
    assert t["ret"] == 0 and t["singleCoreK"] < 4096
    d, md, nd = out["splitk_cores"]
    assert d == t["usedCoreNum"] and d * t["singleCoreK"] >= 4096 * md * nd
    assert out["setsplitk"]["singleCoreK"] == t["singleCoreK"]


@pytest.mark.api("Matmul Tiling类/SetBatchInfoForNormal", "Matmul Tiling类/SetBatchNum", "Matmul Tiling类/SetALayout",
                 "Matmul Tiling类/SetBLayout", "Matmul Tiling类/SetCLayout", "Matmul Tiling类/GetCoreNum")
def test_batch_tiling(out):
    t = out["batch"]
    assert t["ret"] == 0 and t["BatchNum"] == 8
    assert (t["singleCoreM"], t["singleCoreN"], t["singleCoreK"]) == (128, 64, 96)
    d, md, nd, bcm, bcn, a_b, b_b, c_b = out["batchcores"]
    assert (md, nd, bcm, bcn, d) == (1, 1, 4, 1, 4) and (a_b, b_b, c_b) == (2, 8, 8)
    assert out["layout"] == [0, 2, 64, 4, 2, 64, 1, 64, 64, 8]
    # on MultiCoreMatmulTiling too; a zero dimension is refused (-1) and leaves the layout as it was
    assert out["multicore_layout"] == [0, 0, 0, 0, -1, 0, 2, 32, 64, 256, 2]


@pytest.mark.api("获取Matmul计算所需空间/MatmulGetTmpBufSize",
                 "获取Matmul计算所需空间/MatmulGetTmpBufSizeV2",
                 "获取Matmul计算所需空间/MultiCoreMatmulGetTmpBufSize",
                 "获取Matmul计算所需空间/MultiCoreMatmulGetTmpBufSizeV2",
                 "获取Matmul计算所需空间/BatchMatmulGetTmpBufSize",
                 "获取Matmul计算所需空间/BatchMatmulGetTmpBufSizeV2")
def test_tmp_buf_sizes(out):
    r = out["bufsize"]
    assert r[:6] == [0] * 6
    l1, l0c = r[12], r[13]
    assert r[6:12] == [l1, l0c] * 3 and 0 < l1 <= 512 * 1024 and 0 < l0c <= 128 * 1024
    t = out["bufsize_tiling"]          # the sizes hold what the tiling puts in L1 (A and B panels) and L0C
    assert l1 >= (t["baseM"] * t["depthA1"] + t["baseN"] * t["depthB1"]) * t["baseK"] * 2
    assert l0c >= t["baseM"] * t["baseN"] * 4
    assert out["bufsize_empty"] == [-1]
