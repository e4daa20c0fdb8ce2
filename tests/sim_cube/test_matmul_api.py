"""The Matmul high-level API (kernel side) against numpy, each case from its page: Init / REGIST_MATMUL_OBJ,
SetTensorA/B (GM, UB, L1, transposed, NZ, scalar), SetBias / DisableBias / ClearBias, SetOrgShape /
SetSingleShape / SetTail, Iterate (internal and user CO1, enPartialSum) with GetTensorC to GM / UB /
workspace and GetOffsetC, IterateAll (enAtomic add / max / min, async with WaitIterateAll), End between two
objects, the batch forms (IterateBatch, IterateNBatch, GetBatchTensorC,
GetBatchC), quantisation (SetQuantScalar / SetQuantVector), SetHF32, the callbacks (MatmulCallBackFunc,
SetUserDefInfo, SetSelfDefineData), the policies, the sparse mode, the constant tiling and the config
getters; the documented misuse as violations. One program, one run per case (a cube-only kernel)."""

from __future__ import annotations

import numpy as np
import pytest
from cube_program import CubeProgram, densify, output, pack_index, syntax_errors, to_nz_b

BODY = r"""
using namespace matmul;
using AH = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using AHT = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using CF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
// P[2..4] M N K, P[5..7] baseM baseN baseK, P[8] isBias, P[9] iterateOrder
static TCubeTiling make_tiling() {
  TCubeTiling t{};
  t.M = P[2]; t.N = P[3]; t.Ka = t.Kb = P[4];
  t.singleCoreM = P[2]; t.singleCoreN = P[3]; t.singleCoreK = P[4];
  t.baseM = P[5]; t.baseN = P[6]; t.baseK = P[7];
  t.depthA1 = t.depthB1 = 1; t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
  t.isBias = P[8]; t.iterateOrder = P[9];
  t.dbL0A = t.dbL0B = t.dbL0C = 1;
  return t;
}
static uint32_t M() { return P[2]; }
static uint32_t N() { return P[3]; }
static uint32_t K() { return P[4]; }

// callbacks: A / B blocks into L1 with ND2NZ from GM (row/col block indices, sizes); C out with Fixpipe
static uint32_t g_lda = 0, g_ldb = 0, g_ldc = 0, g_bk = 0, g_bn = 0, g_bm = 0;
static uint64_t g_seen_tiling = 0, g_seen_data = 0;
static void CopyA(const LocalTensor<int8_t>& l1, const __gm__ void* gm, int row, int col, int useM, int useK,
                  const uint64_t tilingPtr, const uint64_t dataPtr) {
  GlobalTensor<half> a;
  a.SetGlobalBuffer((__gm__ half*)gm);
  LocalTensor<half> dst = l1.ReinterpretCast<half>();
  DataCopy(dst, a[row * g_bm * g_lda + col * g_bk], Nd2NzParams(1, useM, useK, 0, g_lda, (useM + 15) / 16 * 16, 1, 0));
  g_seen_tiling = tilingPtr;
  g_seen_data = dataPtr;
}
static void CopyB(const LocalTensor<int8_t>& l1, const __gm__ void* gm, int row, int col, int useK, int useN,
                  const uint64_t tilingPtr, const uint64_t dataPtr) {
  GlobalTensor<half> b;
  b.SetGlobalBuffer((__gm__ half*)gm);
  LocalTensor<half> dst = l1.ReinterpretCast<half>();
  DataCopy(dst, b[row * g_bk * g_ldb + col * g_bn], Nd2NzParams(1, useK, useN, 0, g_ldb, (useK + 15) / 16 * 16, 1, 0));
  (void)tilingPtr;
  (void)dataPtr;
}
static void CopyOut(const __gm__ void* gm, const LocalTensor<int8_t>& co1, const void* params, const uint64_t tilingPtr,
                    const uint64_t dataPtr) {
  const DataCopyOutParams* p = (const DataCopyOutParams*)params;
  GlobalTensor<float> c;
  c.SetGlobalBuffer((__gm__ float*)gm);
  FixpipeParamsV220 fp(p->cBurstNum, p->burstLen, p->srcStride, p->dstStride, false);
  Fixpipe<float, float, CFG_ROW_MAJOR>(c, co1.ReinterpretCast<float>(), fp);
  (void)tilingPtr;
  (void)dataPtr;
}

static constexpr MatmulConfig kNBatchCfg = GetNormalConfig(false, true);
static constexpr MatmulConfig kMdlCfg = GetMDLConfig();
static constexpr MatmulConfig kBasic = GetBasicConfig(32, 32, 32);
static constexpr MatmulShapeParams kShape = {64, 64, 64, 32, 32, 32};
static constexpr MatmulConfig kMM = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(kShape);
static constexpr MatmulApiStaticTiling kStatic = GetMatmulApiTiling<AH, AH, CF, BF>(kMM);
static_assert(kMM.doMultiDataLoad && kMM.basicM == 32 && kMM.singleCoreK == 64, "GetMMConfig");
static_assert(kStatic.baseM == 32 && kStatic.singleCoreN == 64 && kStatic.depthA1 >= 1, "GetMatmulApiTiling");
static_assert(GetNormalConfig().doNorm && !GetNormalConfig().doMultiDataLoad, "GetNormalConfig");
static_assert(GetSpecialMDLConfig().doSpecialMDL && !GetSpecialMDLConfig().doMultiDataLoad, "GetSpecialMDLConfig");
static_assert(GetIBShareNormConfig().doIBShareNorm && !GetIBShareNormConfig().doNorm, "GetIBShareNormConfig");
static_assert(kBasic.doBasicBlock && kBasic.basicN == 32, "GetBasicConfig");
static_assert(GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true, IterateOrder::ORDER_N)
                  .iterateOrder == IterateOrder::ORDER_N, "GetNormalConfig iterateOrder");

static void body(void*) {
  Bufs b(false);
  TCubeTiling t = make_tiling();
  switch (P[0]) {
    case 1: {  // IterateAll to GM; P[10]: bias on; P[11] transposes A, P[12] B (ISTRANS types)
      Matmul<AHT, AHT, CF, BF> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1), P[11] != 0);
      mm.SetTensorB(gin<half>(2), P[12] != 0);
      if (P[10]) mm.SetBias(gin<float>(3));
      mm.IterateAll(gout<float>(0, M() * N()));
      mm.End();
      break;
    }
    case 2: {  // Iterate + GetTensorC, blocks written one after another (enSequentialWrite)
      Matmul<AH, AH, CF, BF> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      GlobalTensor<float> c = gout<float>(0, M() * N());
      GlobalTensor<int32_t> offs = gout<int32_t>(1, 5 * 64);
      int i = 0;
      while (mm.Iterate()) {
        MatrixOffset o = mm.GetOffsetC();
        offs.SetValue(i * 5, o.offset); offs.SetValue(i * 5 + 1, o.row); offs.SetValue(i * 5 + 2, o.col);
        offs.SetValue(i * 5 + 3, o.height); offs.SetValue(i * 5 + 4, o.width);
        mm.GetTensorC(c[i * P[5] * P[6]], 0, true);
        ++i;
      }
      break;
    }
    case 3: {  // GetTensorC into UB (VECIN C), async + WaitGetTensorC, then AsyncGetTensorC
      using CU = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
      Matmul<AH, AH, CU, BF> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      LocalTensor<float> ub = b.UB<float>();
      int i = 0;
      while (mm.Iterate()) {
        if (i % 2 == 0) { mm.template GetTensorC<false>(ub[i * P[5] * P[6]]); mm.WaitGetTensorC(); }
        else mm.AsyncGetTensorC(ub[i * P[5] * P[6]]);
        ++i;
      }
      dump(0, ub, M() * N());
      break;
    }
    case 4: {  // GetTensorC() into the workspace (SetWorkspace)
      Matmul<AH, AH, CF, BF> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      GlobalTensor<float> ws = gout<float>(1, P[5] * P[6]);
      if (!P[10]) mm.SetWorkspace(ws);
      GlobalTensor<float> c = gout<float>(0, M() * N());
      int i = 0;
      while (mm.Iterate()) {
        GlobalTensor<float> blk = mm.GetTensorC();
        for (int k = 0; k < P[5] * P[6]; ++k) c.SetValue(i * P[5] * P[6] + k, blk.GetValue(k));
        ++i;
      }
      break;
    }
    case 5: {  // user CO1: Iterate(enPartialSum, l0c) twice over two K halves
      using CC = MatmulType<TPosition::CO1, CubeFormat::NZ, float>;
      Matmul<AH, AH, CC, BF> mm;
      mm.Init(&t);
      LocalTensor<float> c = b.L0C<float>();
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      mm.Iterate(false, c);
      mm.SetTensorA(gin<half>(3));
      mm.SetTensorB(gin<half>(4));
      mm.Iterate(true, c);
      dump(0, c, (M() + 15) / 16 * 16 * ((N() + 15) / 16 * 16));
      break;
    }
    case 6: {  // SetTensorA(scalar)
      using AS = MatmulType<TPosition::GM, CubeFormat::SCALAR, half>;
      Matmul<AS, AH, CF, BF> mm;
      mm.Init(&t);
      mm.SetTensorA((half)pf(10));
      mm.SetTensorB(gin<half>(2));
      mm.IterateAll(gout<float>(0, M() * N()));
      break;
    }
    case 7: {  // int8 -> half with SetQuantScalar (P[10] bits) or SetQuantVector (GM P[11] = 1, L1 P[11] = 2)
      using A8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
      using CH = MatmulType<TPosition::GM, CubeFormat::ND, half>;
      using BI = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
      Matmul<A8, A8, CH, BI> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<int8_t>(1));
      mm.SetTensorB(gin<int8_t>(2));
      if (P[11] == 0) mm.SetQuantScalar((uint64_t)(uint32_t)P[10]);
      else if (P[11] == 1) mm.SetQuantVector(gin<uint64_t>(3));
      else if (P[11] == 2) { LocalTensor<uint64_t> q = b.L1<uint64_t>(); load(q, 3, 512); mm.SetQuantVector(q); }
      mm.IterateAll(gout<half>(0, M() * N()));
      break;
    }
    case 8: {  // IterateBatch (NORMAL): batchA P[10], batchB P[11], bias per batch when P[8]
      using AN = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
      using CN = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
      Matmul<AN, AN, CN, BF> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      if (P[8]) mm.SetBias(gin<float>(3));
      const uint32_t ba = P[10], bb = P[11], batch = ba > bb ? ba : bb;
      if (P[12] == 0) {
        mm.IterateBatch(gout<float>(0, batch * M() * N()), ba, bb, false);
      } else if (P[12] == 1) {  // asynchronous, then WaitIterateBatch
        mm.template IterateBatch<false>(gout<float>(0, batch * M() * N()), ba, bb, false);
        mm.WaitIterateBatch();
      } else {                  // cube-only form with SetBatchNum
        mm.SetBatchNum(P[10], P[11]);
        mm.IterateBatch(gout<float>(0, batch * M() * N()), false, 0, false);
      }
      break;
    }
    case 9: {  // IterateBatch into UB
      using AN = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
      using CU = MatmulType<TPosition::VECIN, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
      Matmul<AN, AN, CU, BF> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      LocalTensor<float> ub = b.UB<float>();
      const uint32_t ba = P[10], bb = P[11];
      mm.IterateBatch(ub, ba, bb, false);
      dump(0, ub, (P[10] > P[11] ? P[10] : P[11]) * M() * N());
      break;
    }
    case 10: {  // IterateNBatch (isNBatch) + GetBatchTensorC / GetBatchC
      using AN = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
      using CN = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
      Matmul<AN, AN, CN, BF, kNBatchCfg> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      const uint32_t group = (P[10] > P[11] ? P[10] : P[11]) * M() * N();
      GlobalTensor<float> ws = gout<float>(1, group * P[12]);
      mm.SetWorkspace(ws);
      mm.IterateNBatch(P[12], P[10], P[11], false);
      GlobalTensor<float> c = gout<float>(0, group * P[12]);
      for (int l = 0; l < P[12]; ++l) {
        GlobalTensor<float> g = (l % 2 == 0) ? mm.GetBatchTensorC(P[10], P[11]) : mm.GetBatchC(P[10], P[11]);
        for (uint32_t k = 0; k < group; ++k) c.SetValue(l * group + k, g.GetValue(k));
      }
      break;
    }
    case 11: {  // SetHF32 on float inputs: P[10] enable, P[11] transMode
      using A32 = MatmulType<TPosition::GM, CubeFormat::ND, float>;
      Matmul<A32, A32, CF, BF> mm;
      mm.Init(&t);
      mm.SetHF32(P[10] != 0, P[11]);
      mm.SetTensorA(gin<float>(1));
      mm.SetTensorB(gin<float>(2));
      mm.IterateAll(gout<float>(0, M() * N()));
      break;
    }
    case 12: {  // callbacks: CopyA1 / CopyB1 (ND2NZ into the L1 block) and DataCopyOut (Fixpipe)
      g_lda = K(); g_ldb = N(); g_ldc = N(); g_bm = P[5]; g_bn = P[6]; g_bk = P[7];
      using CB = MatmulCallBackFunc<CopyOut, CopyA, CopyB>;
      Matmul<AH, AH, CF, BF, CFG_NORM, CB> mm;
      mm.Init(&t);
      mm.SetUserDefInfo(0x1234);
      mm.SetSelfDefineData(0x5678);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      mm.IterateAll(gout<float>(0, M() * N()));
      GlobalTensor<int64_t> seen = gout<int64_t>(1, 2);
      seen.SetValue(0, (int64_t)g_seen_tiling);
      seen.SetValue(1, (int64_t)g_seen_data);
      break;
    }
    case 13: {  // policies: P[10] 1 upper, -1 lower
      GlobalTensor<float> c = gout<float>(0, M() * N());
      InitGlobalMemory(c, M() * N(), -7.0f);
      using NoCb = MatmulCallBackFunc<nullptr, nullptr, nullptr>;
      if (P[10] > 0) {
        Matmul<AH, AH, CF, BF, CFG_NORM, NoCb, AscendC::TrianUpperMatmulPolicy> mm;
        mm.Init(&t); mm.SetTensorA(gin<half>(1)); mm.SetTensorB(gin<half>(2)); mm.IterateAll(c);
      } else {
        Matmul<AH, AH, CF, BF, CFG_NORM, NoCb, AscendC::TrianLowerMatmulPolicy> mm;
        mm.Init(&t); mm.SetTensorA(gin<half>(1)); mm.SetTensorB(gin<half>(2));
        int blocks = 0;
        while (mm.Iterate()) { mm.GetTensorC(c); ++blocks; }
        GlobalTensor<int32_t> nb = gout<int32_t>(1, 1);
        nb.SetValue(0, blocks);
      }
      break;
    }
    case 14: {  // NZ A in GM, B in L1 (TSCM, NZ), C NZ in GM
      using ANZ = MatmulType<TPosition::GM, CubeFormat::NZ, half>;
      using BL1 = MatmulType<TPosition::TSCM, CubeFormat::NZ, half>;
      using CNZ = MatmulType<TPosition::GM, CubeFormat::NZ, float>;
      Matmul<ANZ, BL1, CNZ, BF> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1));
      LocalTensor<half> bl1 = b.L1<half>();
      load(bl1, 2, 65536);
      mm.SetTensorB(bl1);
      mm.IterateAll(gout<float>(0, (M() + 15) / 16 * 16 * N()));
      break;
    }
    case 15: {  // SetOrgShape + SetSingleShape + SetTail: a sub-block of bigger matrices (P[10..12] orgM N K)
      // P[13] first row, P[14] first column, P[15..16] tailM/N (SetTail when either > 0), P[17..19] SetSingleShape
      // (0: the tiling's), P[20] orgKc (> 0: the 5-argument SetOrgShape, P[22] orgKb), P[21] tailK
      Matmul<AH, AH, CF, BF> mm;
      mm.Init(&t);
      const int okb = P[22] > 0 ? P[22] : P[12], ldc = P[20] > 0 ? P[20] : P[11];
      if (P[20] > 0) mm.SetOrgShape(P[10], P[11], P[12], okb, P[20]);
      else mm.SetOrgShape(P[10], P[11], P[12]);
      GlobalTensor<half> a = gin<half>(1), bb = gin<half>(2);
      mm.SetTensorA(a[P[13] * P[12]]);         // rows from P[13]
      mm.SetTensorB(bb[P[14]]);                // columns from P[14]
      if (P[17] > 0) mm.SetSingleShape(P[17], P[18], P[19]);
      if (P[15] > 0 || P[16] > 0 || P[21] > 0) mm.SetTail(P[15], P[16], P[21]);
      GlobalTensor<float> c = gout<float>(0, P[10] * ldc);
      InitGlobalMemory(c, P[10] * ldc, 0.0f);
      mm.IterateAll(c[P[13] * ldc + P[14]]);
      break;
    }
    case 16: {  // SetSubBlockIdx / GetSubBlockIdx, REGIST_MATMUL_OBJ
      Matmul<AH, AH, CF, BF> mm;
      REGIST_MATMUL_OBJ(&b.pipe, nullptr, mm, &t);
      GlobalTensor<int32_t> o = gout<int32_t>(1, 2);
      o.SetValue(0, mm.GetSubBlockIdx());
      mm.SetSubBlockIdx(1);
      o.SetValue(1, mm.GetSubBlockIdx());
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      mm.IterateAll(gout<float>(0, M() * N()));
      break;
    }
    case 17: {  // DisableBias / ClearBias after SetBias
      Matmul<AH, AH, CF, BF> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      mm.SetBias(gin<float>(3));
      if (P[10] == 1) mm.DisableBias();
      if (P[10] == 2) mm.ClearBias();
      mm.IterateAll(gout<float>(0, M() * N()));
      break;
    }
    case 18: {  // sparse (MDL, cube only): dense B (K/2 x N) in2, index in3
      using A8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
      using C32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
      Matmul<A8, A8, C32, C32, kMdlCfg> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<int8_t>(1));
      mm.SetTensorB(gin<int8_t>(2));
      mm.SetSparseIndex(gin<uint8_t>(3));
      mm.IterateAll(gout<int32_t>(0, M() * N()));
      break;
    }
    case 19: {  // constant tiling (GetMatmulApiTiling) with a null runtime tiling
      Matmul<AH, AH, CF, BF, kStatic> mm;
      mm.Init(nullptr);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      mm.IterateAll(gout<float>(0, 64 * 64));
      break;
    }
    case 20: {  // BasicBlock template: basicM/N/K must match the tiling
      Matmul<AH, AH, CF, BF, kBasic> mm;
      mm.Init(&t);
      break;
    }
    case 21: {  // IterateAll over a C pre-filled from in3 with enAtomic P[10]; P[11]: async + WaitIterateAll
      Matmul<AH, AH, CF, BF> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<half>(1));
      mm.SetTensorB(gin<half>(2));
      GlobalTensor<float> c = gout<float>(0, M() * N()), d = gin<float>(3);
      for (uint32_t i = 0; i < M() * N(); ++i) c.SetValue(i, d.GetValue(i));
      if (P[11]) {
        mm.template IterateAll<false>(c, P[10], false, true);
        mm.WaitIterateAll();
      } else {
        mm.IterateAll(c, P[10]);
      }
      mm.End();
      break;
    }
    case 22: {  // int8 -> int32 C pre-filled from in3, enAtomic P[10]
      using A8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
      using C32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
      Matmul<A8, A8, C32, C32> mm;
      mm.Init(&t);
      mm.SetTensorA(gin<int8_t>(1));
      mm.SetTensorB(gin<int8_t>(2));
      GlobalTensor<int32_t> c = gout<int32_t>(0, M() * N()), d = gin<int32_t>(3);
      for (uint32_t i = 0; i < M() * N(); ++i) c.SetValue(i, d.GetValue(i));
      mm.IterateAll(c, P[10]);
      break;
    }
    case 23: {  // two Matmul objects one after the other, each closed with End (A1 B1 -> out0, A2 B2 -> out1)
      Matmul<AH, AH, CF, BF> mm1;
      Matmul<AH, AHT, CF, BF> mm2;
      mm1.Init(&t);
      mm1.SetTensorA(gin<half>(1));
      mm1.SetTensorB(gin<half>(2));
      mm1.IterateAll(gout<float>(0, M() * N()));
      mm1.End();
      mm2.Init(&t);
      mm2.SetTensorA(gin<half>(3));
      mm2.SetTensorB(gin<half>(4), true);
      mm2.IterateAll(gout<float>(1, M() * N()));
      mm2.End();
      break;
    }
    // ---- misuse ----
    case 30: { Matmul<AH, AH, CF, BF> mm; mm.Init(&t); mm.SetBias(gin<float>(3)); break; }
    case 31: { Matmul<AH, AH, CF, BF> mm; mm.Init(&t); mm.SetTensorA(gin<half>(1), true); break; }
    case 32: { Matmul<AH, AH, CF, BF> mm; mm.Init(&t); break; }
    case 33: {
      Matmul<AH, AH, CF, BF> mm; mm.Init(&t); mm.SetTensorA(gin<half>(1)); mm.SetTensorB(gin<half>(2));
      mm.GetTensorC(gout<float>(0, 16));
      break;
    }
    case 34: {
      using A8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
      using CH = MatmulType<TPosition::GM, CubeFormat::ND, half>;
      using BI = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
      Matmul<A8, A8, CH, BI> mm; mm.Init(&t); mm.SetTensorA(gin<int8_t>(1)); mm.SetTensorB(gin<int8_t>(2));
      mm.IterateAll(gout<half>(0, M() * N()));
      break;
    }
    case 35: {
      using AB = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
      Matmul<AB, AB, CF, BF> mm; mm.Init(&t); mm.SetTensorA(gin<half>(1)); mm.SetTensorB(gin<half>(2));
      mm.IterateBatch(gout<float>(0, 4 * M() * N()), 2, 2, false);
      break;
    }
    case 36: {
      using CU = MatmulType<TPosition::VECIN, CubeFormat::ND, half>;
      Matmul<AH, AH, CU, BF> mm; mm.Init(&t); mm.SetTensorA(gin<half>(1)); mm.SetTensorB(gin<half>(2));
      LocalTensor<half> ub = b.UB<half>();
      mm.IterateAll(ub);
      dump(0, ub, M() * 16);
      break;
    }
    case 37: {  // End forgets the operands
      Matmul<AH, AH, CF, BF> mm; mm.Init(&t); mm.SetTensorA(gin<half>(1)); mm.SetTensorB(gin<half>(2));
      mm.End();
      mm.Iterate();
      break;
    }
  }
}
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> CubeProgram:
    return CubeProgram(BODY, tmp_path_factory.mktemp("matmul_api"), sim_cache)


RNG = np.random.default_rng(21)


def halfs(*shape):
    return RNG.uniform(-1, 1, shape).astype(np.float16)


def t_args(m, n, k, bm, bn, bk, bias=0, order=0):
    return (m, n, k, bm, bn, bk, bias, order)


def f32(a):
    return a.astype(np.float32)


@pytest.mark.api("Matmul Kernel侧接口/Init", "Matmul Kernel侧接口/SetTensorA", "Matmul Kernel侧接口/SetTensorB",
                 "Matmul Kernel侧接口/SetBias", "Matmul Kernel侧接口/IterateAll", "Matmul Kernel侧接口/End")
def test_iterate_all_with_bias_and_transposes(prog):
    m, n, k = 40, 48, 72
    a, b = halfs(m, k), halfs(k, n)
    bias = RNG.uniform(-1, 1, n).astype(np.float32)
    want = f32(a) @ f32(b) + bias
    got = output(prog.ok(1, a, b, bias, extra=(*t_args(m, n, k, 32, 32, 32, 1), 1, 0, 0)), 0, np.float32).reshape(m, n)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    got = output(prog.ok(1, a.T.copy(), b.T.copy(), bias, extra=(*t_args(m, n, k, 32, 32, 32, 1), 1, 1, 1)), 0,
                 np.float32).reshape(m, n)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/Iterate", "Matmul Kernel侧接口/GetTensorC", "Matmul Kernel侧接口/GetOffsetC")
@pytest.mark.parametrize("order", [0, 1])
def test_iterate_order_and_offsets(prog, order):
    m, n, k, bm, bn = 48, 64, 32, 16, 32
    a, b = halfs(m, k), halfs(k, n)
    full = f32(a) @ f32(b)
    d = prog.ok(2, a, b, extra=t_args(m, n, k, bm, bn, 16, 0, order))
    got = output(d, 0, np.float32)
    offs = output(d, 1, np.int32).reshape(-1, 5)
    mb, nb = m // bm, n // bn
    for i in range(mb * nb):
        r, c = (i % mb, i // mb) if order == 0 else (i // nb, i % nb)    # ORDER_M: M moves first
        np.testing.assert_array_equal(offs[i], [r * bm * n + c * bn, r, c, bm, bn])
        blk = got[i * bm * bn: (i + 1) * bm * bn].reshape(bm, bn)
        np.testing.assert_allclose(blk, full[r * bm:(r + 1) * bm, c * bn:(c + 1) * bn], rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/GetTensorC", "Matmul Kernel侧接口/WaitGetTensorC",
                 "Matmul Kernel侧接口/AsyncGetTensorC")
def test_get_tensor_c_into_ub_sync_and_async(prog):
    m, n, k, bm, bn = 32, 32, 16, 16, 16
    a, b = halfs(m, k), halfs(k, n)
    full = f32(a) @ f32(b)
    got = output(prog.ok(3, a, b, extra=t_args(m, n, k, bm, bn, 16)), 0, np.float32)
    for i in range(4):
        r, c = i % 2, i // 2
        want = full[r * 16:(r + 1) * 16, c * 16:(c + 1) * 16]
        np.testing.assert_allclose(got[i * 256:(i + 1) * 256].reshape(16, 16), want, rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/IterateAll")
def test_iterate_all_into_ub_pads_rows_to_32_bytes(prog):
    a, b = halfs(16, 16), halfs(16, 8)
    got = output(prog.ok(36, a, b, extra=t_args(16, 8, 16, 16, 16, 16)), 0, np.float16).reshape(16, 16)
    np.testing.assert_allclose(got[:, :8].astype(np.float32), f32(a) @ f32(b), rtol=2e-3, atol=2e-3)


@pytest.mark.api("Matmul Kernel侧接口/GetTensorC", "Matmul Kernel侧接口/SetWorkspace")
def test_get_tensor_c_from_the_workspace(prog):
    m, n, k, bm, bn = 32, 32, 16, 16, 32
    a, b = halfs(m, k), halfs(k, n)
    full = f32(a) @ f32(b)
    got = output(prog.ok(4, a, b, extra=(*t_args(m, n, k, bm, bn, 16), 0)), 0, np.float32)
    np.testing.assert_allclose(got[:512].reshape(16, 32), full[:16], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[512:].reshape(16, 32), full[16:], rtol=1e-5, atol=1e-5)
    assert "SetWorkspace" in prog.violation(4, a, b, extra=(*t_args(m, n, k, bm, bn, 16), 1))


@pytest.mark.api("Matmul Kernel侧接口/Iterate")
def test_user_co1_with_partial_sum(prog):
    m, n, k = 16, 32, 32
    a1, b1, a2, b2 = halfs(m, k), halfs(k, n), halfs(m, k), halfs(k, n)
    got = output(prog.ok(5, a1, b1, a2, b2, extra=t_args(m, n, k, 16, 32, 32)), 0, np.float32)
    want = f32(a1) @ f32(b1) + f32(a2) @ f32(b2)
    nz = got.reshape(n // 16, 16, 16).transpose(1, 0, 2).reshape(16, n)
    np.testing.assert_allclose(nz, want, rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/SetTensorA")
def test_scalar_a(prog):
    m, n, k = 16, 32, 24
    b = halfs(k, n)
    got = output(prog.ok(6, np.zeros(1, np.float16), b, extra=(*t_args(m, n, k, 16, 32, 16), 0.5)), 0, np.float32)
    np.testing.assert_allclose(got.reshape(m, n), np.tile(0.5 * f32(b).sum(0), (m, 1)), rtol=1e-5, atol=1e-5)


def hw_scale(s):
    return (np.asarray(s, np.float32).view(np.uint32) & 0xFFFFE000).view(np.float32)


@pytest.mark.api("Matmul Kernel侧接口/SetQuantScalar", "Matmul Kernel侧接口/SetQuantVector")
def test_int8_dequant_scalar_and_vector(prog):
    m, n, k = 16, 32, 64
    a = RNG.integers(-128, 128, (m, k), dtype=np.int8)
    b = RNG.integers(-128, 128, (k, n), dtype=np.int8)
    acc = a.astype(np.int32) @ b.astype(np.int32)
    s = np.float32(0.0021)
    d = prog.ok(7, a, b, extra=(*t_args(m, n, k, 16, 32, 32), int(np.array([s]).view(np.uint32)[0]), 0))
    np.testing.assert_array_equal(output(d, 0, np.float16).reshape(m, n),
                                  (acc.astype(np.float32) * hw_scale(s)).astype(np.float16))
    scales = RNG.uniform(1e-4, 5e-3, 64).astype(np.float32)
    words = scales.view(np.uint32).astype(np.uint64)
    for where in (1, 2):
        d = prog.ok(7, a, b, words, extra=(*t_args(m, n, k, 16, 32, 32), 0, where))
        np.testing.assert_array_equal(output(d, 0, np.float16).reshape(m, n),
                                      (acc.astype(np.float32) * hw_scale(scales[:n])).astype(np.float16))


def batched(a, b, batch_a, batch_b):
    batch = max(batch_a, batch_b)
    return np.stack([f32(a[i // (batch // batch_a)]) @ f32(b[i // (batch // batch_b)]) for i in range(batch)])


@pytest.mark.api("Matmul Kernel侧接口/IterateBatch", "Matmul Kernel侧接口/WaitIterateBatch",
                 "Matmul Kernel侧接口/SetBatchNum")
@pytest.mark.parametrize("form", [0, 1, 2])
def test_iterate_batch_normal_layout_broadcasts(prog, form):
    m, n, k, ba, bb = 16, 32, 16, 2, 4
    a, b = halfs(ba, m, k), halfs(bb, k, n)
    bias = RNG.uniform(-1, 1, (bb, n)).astype(np.float32)
    want = batched(a, b, ba, bb) + bias[:, None, :]
    got = output(prog.ok(8, a, b, bias, extra=(*t_args(m, n, k, 16, 32, 16, 1), ba, bb, form)), 0, np.float32)
    np.testing.assert_allclose(got.reshape(bb, m, n), want, rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/IterateBatch")
def test_iterate_batch_into_ub(prog):
    m, n, k, ba, bb = 16, 16, 32, 3, 1
    a, b = halfs(ba, m, k), halfs(bb, k, n)
    got = output(prog.ok(9, a, b, extra=(*t_args(m, n, k, 16, 16, 32), ba, bb)), 0, np.float32)
    np.testing.assert_allclose(got.reshape(ba, m, n), batched(a, b, ba, bb), rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/IterateNBatch", "Matmul Kernel侧接口/GetBatchTensorC",
                 "Matmul Kernel侧接口/GetBatchC")
def test_iterate_n_batch_queues_groups(prog):
    m, n, k, ba, bb, loops = 16, 16, 16, 2, 2, 3
    a, b = halfs(loops * ba, m, k), halfs(loops * bb, k, n)
    got = output(prog.ok(10, a, b, extra=(*t_args(m, n, k, 16, 16, 16), ba, bb, loops)), 0, np.float32)
    want = np.concatenate([batched(a[i * ba:(i + 1) * ba], b[i * bb:(i + 1) * bb], ba, bb) for i in range(loops)])
    np.testing.assert_allclose(got.reshape(loops * 2, m, n), want, rtol=1e-5, atol=1e-5)


def hf32(x):
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    low, base = u & 0xFFF, u & ~np.uint64(0xFFF)
    up = (low > 0x800) | ((low == 0x800) & ((base & 0x1000) != 0))
    return (base + up.astype(np.uint64) * np.uint64(0x1000)).astype(np.uint32).view(np.float32)


@pytest.mark.api("Matmul Kernel侧接口/SetHF32")
def test_set_hf32(prog):
    m, n, k = 16, 16, 16
    a = RNG.uniform(-2, 2, (m, k)).astype(np.float32)
    b = RNG.uniform(-2, 2, (k, n)).astype(np.float32)
    plain = output(prog.ok(11, a, b, extra=(*t_args(m, n, k, 16, 16, 8), 0, 0)), 0, np.float32).reshape(m, n)
    hf = output(prog.ok(11, a, b, extra=(*t_args(m, n, k, 16, 16, 8), 1, 0)), 0, np.float32).reshape(m, n)
    np.testing.assert_allclose(plain, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(hf, hf32(a).astype(np.float64) @ hf32(b), rtol=1e-5, atol=1e-5)
    assert not np.allclose(plain, hf, rtol=1e-6, atol=1e-6)


@pytest.mark.api("Matmul Kernel侧接口/MatmulCallBackFunc", "Matmul Kernel侧接口/SetUserDefInfo",
                 "Matmul Kernel侧接口/SetSelfDefineData")
def test_callbacks_move_the_blocks(prog):
    m, n, k = 32, 32, 64
    a, b = halfs(m, k), halfs(k, n)
    d = prog.ok(12, a, b, extra=t_args(m, n, k, 16, 16, 32))
    np.testing.assert_allclose(output(d, 0, np.float32).reshape(m, n), f32(a) @ f32(b), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(output(d, 1, np.int64), [0x1234, 0x5678])


@pytest.mark.api("Matmul Kernel侧接口/MatmulPolicy", "Matmul Kernel侧接口/Iterate")
@pytest.mark.parametrize("side", [1, -1])
def test_triangular_policies(prog, side):
    m = n = 64
    k, bm = 32, 16
    a, b = halfs(m, k), halfs(k, n)
    full = f32(a) @ f32(b)
    d = prog.ok(13, a, b, extra=(*t_args(m, n, k, bm, bm, 16), side))
    got = output(d, 0, np.float32).reshape(m, n)
    for r in range(4):
        for c in range(4):
            blk = got[r * 16:(r + 1) * 16, c * 16:(c + 1) * 16]
            kept = r <= c if side > 0 else r >= c
            if kept:
                np.testing.assert_allclose(blk, full[r * 16:(r + 1) * 16, c * 16:(c + 1) * 16], rtol=1e-5, atol=1e-5)
            else:
                assert np.all(blk == -7.0)
    if side < 0:
        assert output(d, 1, np.int32)[0] == 10


def nz(x, c0=16):
    rows, cols = x.shape
    r16 = -(-rows // 16) * 16
    out = np.zeros((cols // c0, r16, c0), x.dtype)
    for j in range(cols // c0):
        out[j, :rows] = x[:, j * c0:(j + 1) * c0]
    return out.reshape(-1)


@pytest.mark.api("Matmul Kernel侧接口/SetTensorA", "Matmul Kernel侧接口/SetTensorB")
def test_nz_inputs_l1_b_and_nz_output(prog):
    m, n, k = 20, 32, 48
    a, b = halfs(m, k), halfs(k, n)
    got = output(prog.ok(14, nz(a), nz(b), extra=t_args(m, n, k, 32, 32, 16)), 0, np.float32)
    want = f32(a) @ f32(b)
    np.testing.assert_allclose(got.reshape(n // 16, 32, 16)[:, :m].transpose(1, 0, 2).reshape(m, n), want,
                               rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/SetOrgShape", "Matmul Kernel侧接口/SetSingleShape", "Matmul Kernel侧接口/SetTail")
def test_sub_block_of_bigger_matrices(prog):
    om, on, ok_ = 64, 48, 40
    a, b = halfs(om, ok_), halfs(ok_, on)
    r0, c0, tm, tn = 16, 16, 20, 24
    base = (*t_args(32, 32, ok_, 16, 16, 16), om, on, ok_, r0, c0)

    def run(tail=(0, 0), single=(0, 0, 0), okc=0, tail_k=0, okb=0):
        d = prog.ok(15, a, b, extra=(*base, *tail, *single, okc, tail_k, okb))
        return output(d, 0, np.float32).reshape(om, okc or on)

    def want(rows, cols, k, ldc=on):
        w = np.zeros((om, ldc), np.float32)
        w[r0:r0 + rows, c0:c0 + cols] = f32(a[r0:r0 + rows, :k]) @ f32(b[:k, c0:c0 + cols])
        return w

    # SetTail on top of the tiling's single shape (32 x 32 x 40): only the 20 x 24 tail is computed
    np.testing.assert_allclose(run(tail=(tm, tn)), want(tm, tn, ok_), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(run(tail=(tm, tn), single=(32, 32, ok_)), want(tm, tn, ok_), rtol=1e-5, atol=1e-5)
    # SetSingleShape alone: M, N and K all smaller than the tiling's (K: the first 24 of 40)
    np.testing.assert_allclose(run(single=(24, 20, 24)), want(24, 20, 24), rtol=1e-5, atol=1e-5)
    # SetTail's tailK; the 5-argument SetOrgShape: C rows of orgKc = 56 elements, B with orgKb = 40 rows
    got = run(tail=(-1, -1), tail_k=16, okc=56, okb=ok_)
    np.testing.assert_allclose(got, want(32, 32, 16, ldc=56), rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/IterateAll", "Matmul Kernel侧接口/WaitIterateAll")
@pytest.mark.parametrize("atomic", [0, 1, 2, 3])
def test_iterate_all_atomic_modes_sync_and_async(prog, atomic):
    m, n, k = 32, 48, 32
    a, b = halfs(m, k), halfs(k, n)
    prod = f32(a) @ f32(b)
    old = RNG.uniform(-2, 2, (m, n)).astype(np.float32)
    want = [prod, old + prod, np.maximum(old, prod), np.minimum(old, prod)][atomic]
    for wait in (0, 1):
        d = prog.ok(21, a, b, old, extra=(*t_args(m, n, k, 16, 16, 16), atomic, wait))
        np.testing.assert_allclose(output(d, 0, np.float32).reshape(m, n), want, rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/IterateAll")
@pytest.mark.parametrize("atomic", [1, 2, 3])
def test_iterate_all_atomic_int32(prog, atomic):
    m, n, k = 16, 32, 64
    a = RNG.integers(-128, 128, (m, k), dtype=np.int8)
    b = RNG.integers(-128, 128, (k, n), dtype=np.int8)
    prod = a.astype(np.int64) @ b.astype(np.int64)
    old = RNG.integers(-(1 << 30), 1 << 30, (m, n)).astype(np.int32)    # past float's 24-bit mantissa
    want = [None, old + prod, np.maximum(old, prod), np.minimum(old, prod)][atomic].astype(np.int32)
    d = prog.ok(22, a, b, old, extra=(*t_args(m, n, k, 16, 32, 64), atomic))
    np.testing.assert_array_equal(output(d, 0, np.int32).reshape(m, n), want)


@pytest.mark.api("Matmul Kernel侧接口/End", "Matmul Kernel侧接口/Init", "Matmul Kernel侧接口/SetTensorB")
def test_two_objects_each_closed_with_end(prog):
    m, n, k = 32, 32, 48
    a1, b1, a2, b2 = halfs(m, k), halfs(k, n), halfs(m, k), halfs(k, n)
    d = prog.ok(23, a1, b1, a2, b2.T.copy(), extra=t_args(m, n, k, 16, 16, 16))
    np.testing.assert_allclose(output(d, 0, np.float32).reshape(m, n), f32(a1) @ f32(b1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(output(d, 1, np.float32).reshape(m, n), f32(a2) @ f32(b2), rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/REGIST_MATMUL_OBJ", "Matmul Kernel侧接口/SetSubBlockIdx",
                 "Matmul Kernel侧接口/GetSubBlockIdx")
def test_regist_and_sub_block(prog):
    m, n, k = 16, 16, 16
    a, b = halfs(m, k), halfs(k, n)
    d = prog.ok(16, a, b, extra=t_args(m, n, k, 16, 16, 16))
    np.testing.assert_allclose(output(d, 0, np.float32).reshape(m, n), f32(a) @ f32(b), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(output(d, 1, np.int32), [0, 1])


@pytest.mark.api("Matmul Kernel侧接口/DisableBias", "Matmul Kernel侧接口/ClearBias", "Matmul Kernel侧接口/SetBias")
@pytest.mark.parametrize("how", [0, 1, 2])
def test_bias_switches(prog, how):
    m, n, k = 16, 16, 16
    a, b = halfs(m, k), halfs(k, n)
    bias = RNG.uniform(-1, 1, n).astype(np.float32)
    got = output(prog.ok(17, a, b, bias, extra=(*t_args(m, n, k, 16, 16, 16, 1), how)), 0, np.float32).reshape(m, n)
    np.testing.assert_allclose(got, f32(a) @ f32(b) + (bias if how == 0 else 0), rtol=1e-5, atol=1e-5)


@pytest.mark.api("Matmul Kernel侧接口/SetSparseIndex")
def test_sparse_matmul(prog):
    m, n, k = 16, 32, 64
    bfull = np.zeros((k, n), np.int8)
    for j in range(n):
        for g in range(k // 4):
            cnt = RNG.integers(0, 3)
            pos = RNG.choice(4, cnt, replace=False)
            bfull[4 * g + pos, j] = RNG.integers(1, 90, cnt) * RNG.choice([-1, 1], cnt)
    a = RNG.integers(-128, 128, (m, k), dtype=np.int8)
    dense, idx = densify(bfull)
    d = prog.ok(18, a, dense, pack_index(to_nz_b(idx, 32)), extra=t_args(m, n, k, 16, 32, 64))
    np.testing.assert_array_equal(output(d, 0, np.int32).reshape(m, n), a.astype(np.int32) @ bfull.astype(np.int32))


@pytest.mark.api("Matmul Kernel侧接口/GetMatmulApiTiling", "Matmul Kernel侧接口/GetMMConfig")
def test_constant_tiling_needs_no_runtime_tiling(prog):
    a, b = halfs(64, 64), halfs(64, 64)
    got = output(prog.ok(19, a, b, extra=t_args(0, 0, 0, 0, 0, 0)), 0, np.float32).reshape(64, 64)
    np.testing.assert_allclose(got, f32(a) @ f32(b), rtol=1e-5, atol=1e-4)


@pytest.mark.api("Matmul Kernel侧接口/GetBasicConfig", "Matmul Kernel侧接口/MatmulConfig")
def test_basic_block_must_match_the_tiling(prog):
    prog.ok(20, extra=t_args(64, 64, 64, 32, 32, 32))
    assert "BasicBlock" in prog.violation(20, extra=t_args(64, 64, 64, 32, 64, 32))


@pytest.mark.api("Matmul Kernel侧接口/SetBias", "Matmul Kernel侧接口/SetTensorA", "Matmul Kernel侧接口/GetTensorC",
                 "Matmul Kernel侧接口/IterateBatch", "Matmul Kernel侧接口/IterateAll", "Matmul Kernel侧接口/End")
def test_misuse(prog):
    a, b = halfs(16, 16), halfs(16, 16)
    base = t_args(16, 16, 16, 16, 16, 16)
    assert "isBias = 0" in prog.violation(30, a, b, np.zeros(16, np.float32), extra=base)
    assert "ISTRANS" in prog.violation(31, a, b, extra=base)
    assert "L0C overflow" in prog.violation(32, extra=t_args(256, 256, 16, 256, 256, 16))
    assert "call Iterate() first" in prog.violation(33, a, b, extra=base)
    i8 = RNG.integers(-9, 9, (16, 32), dtype=np.int8)
    assert "SetQuantScalar" in prog.violation(34, i8, i8, extra=t_args(16, 16, 32, 16, 16, 32))
    assert "NORMAL only" in prog.violation(35, a, b, extra=base)
    assert "SetTensorA and SetTensorB" in prog.violation(37, a, b, extra=base)
    assert "enAtomic is 0 (off)" in prog.violation(21, a, b, np.zeros(256, np.float32), extra=(*base, 4, 0))


UNSUPPORTED_CFG = {
    "enVecND2NZ": "GetNormalConfig(false, false, true)",
    "enableL1CacheUB": "GetMDLConfig(false, false, 0, false, false, false, false, true, true, true)",
}


@pytest.mark.api("Matmul Kernel侧接口/GetNormalConfig", "Matmul Kernel侧接口/GetMDLConfig",
                 "Matmul Kernel侧接口/GetSpecialMDLConfig", "Matmul Kernel侧接口/GetIBShareNormConfig",
                 "Matmul Kernel侧接口/MatmulConfig")
@pytest.mark.parametrize("field", sorted(UNSUPPORTED_CFG))
def test_configs_atlas_a2_rejects(tmp_path, field):
    stmt = ("static constexpr MatmulConfig cfg = " + UNSUPPORTED_CFG[field] + "; using T = matmul::MatmulType<"
            "TPosition::GM, CubeFormat::ND, half>; using C = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>; "
            "matmul::Matmul<T, T, C, C, cfg> mm; (void)mm;")
    err = syntax_errors(stmt, tmp_path / "bad")
    assert field in err
    assert syntax_errors(stmt.replace(UNSUPPORTED_CFG[field], "GetSpecialMDLConfig()"), tmp_path / "ok") == ""


@pytest.mark.api("Matmul Kernel侧接口/SetBias")
def test_bias_type_is_checked_where_a_bias_is_set(tmp_path):
    decl = ("using T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>; "
            "matmul::Matmul<T, T, T> mm; GlobalTensor<bfloat16_t> g; ")
    assert syntax_errors(decl + "(void)mm; (void)g;", tmp_path / "ok") == ""
    assert "the bias is half or float" in syntax_errors(decl + "mm.SetBias(g);", tmp_path / "bad")
    f32c = ("using T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>; "
            "using C = matmul::MatmulType<TPosition::GM, CubeFormat::ND, int8_t>; "
            "matmul::Matmul<T, T, C> mm; (void)mm;")
    assert "unsupported C type" in syntax_errors(f32c, tmp_path / "f32_int8")
