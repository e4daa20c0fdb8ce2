"""System variables and utilities, scalar computation, special registers, cache control and atomic
configuration (工具接口, 标量计算, 特殊寄存器访问, 缓存控制, 原子操作), each checked against its doc page.
Kernels written for these tests."""

from __future__ import annotations

import numpy as np
import pytest
from simkit import syntax_check

RUN = "\nvoid run_test() { npukb_test::run_blocks(1, body, nullptr); }\n"


def run_values(prog, body: str, n: int, ctype: str = "int64_t", dtype=np.int64):
    src = ("static void body(void*) {\n"
           f"  GlobalTensor<{ctype}> o;\n"
           f"  o.SetGlobalBuffer((__gm__ {ctype}*)npukb_test::gm_output(0, {n} * sizeof({ctype})), {n});\n"
           + body + "\n}" + RUN)
    ran = prog.run(src)
    assert ran.returncode == 0, ran.stderr
    return prog.output(0, dtype)


@pytest.mark.api("GetBitCount", "CountLeadingZero", "CountBitsCntSameAsSignBit", "GetSFFValue")
def test_scalar_bit_functions(prog) -> None:
    got = run_values(prog, """
  o.SetValue(0, GetBitCount<1>(0xF0F0ULL));
  o.SetValue(1, GetBitCount<0>(0xF0F0ULL));
  o.SetValue(2, CountLeadingZero(0x0100000000000020ULL));      // the documented example: 7
  o.SetValue(3, CountLeadingZero(0));
  o.SetValue(4, CountBitsCntSameAsSignBit(0x0100000000000020LL)); // the documented example: 6
  o.SetValue(5, CountBitsCntSameAsSignBit(-1));
  o.SetValue(6, CountBitsCntSameAsSignBit(0));
  o.SetValue(7, CountBitsCntSameAsSignBit(-8));
  o.SetValue(8, GetSFFValue<1>(0x1000000000000100ULL));       // the documented example: 8
  o.SetValue(9, GetSFFValue<0>(0xFFULL));
  o.SetValue(10, GetSFFValue<1>(0));
  o.SetValue(11, GetSFFValue<0>(~0ULL));
  o.SetValue(12, ScalarGetCountOfValue<1>(7));
  o.SetValue(13, ScalarCountLeadingZero(1));
  o.SetValue(14, ScalarGetSFFValue<1>(4));
""", 15)
    assert got.tolist() == [8, 56, 7, 64, 6, -1, -1, 60, 8, 8, -1, -1, 3, 63, 2]


@pytest.mark.api("Cast（float转half/int32_t）", "Cast（float转bfloat16_t）", "Cast（多类型转float）")
def test_scalar_casts(prog) -> None:
    got = run_values(prog, """
  o.SetValue(0, Cast<float, int32_t, RoundMode::CAST_ROUND>(2.5f));
  o.SetValue(1, Cast<float, int32_t, RoundMode::CAST_RINT>(2.5f));
  o.SetValue(2, Cast<float, int32_t, RoundMode::CAST_FLOOR>(-2.5f));
  o.SetValue(3, Cast<float, int32_t, RoundMode::CAST_CEIL>(-2.5f));
  o.SetValue(4, Cast<float, int32_t, RoundMode::CAST_ROUND>(-2.5f));
  half h = Cast<float, half, RoundMode::CAST_ODD>(1.0f + 1.0f / 4096);   // between 1 and 1 + 2^-10: odd
  uint16_t bits; __builtin_memcpy(&bits, &h, 2);
  o.SetValue(5, bits);
  half e = Cast<float, half, RoundMode::CAST_ODD>(1.5f);                 // exact
  __builtin_memcpy(&bits, &e, 2);
  o.SetValue(6, bits);
  bfloat16_t b = Cast(1.00390625f);                                     // 1 + 2^-8: a tie, to even -> 1.0
  o.SetValue(7, b.bits());
  o.SetValue(8, (int64_t)(Cast(bfloat16_t(3.0f)) * 2));
  o.SetValue(9, ToBfloat16(2.0f).bits());
  o.SetValue(10, (int64_t)ToFloat(bfloat16_t(5.0f)));
""", 11)
    assert got.tolist() == [3, 2, -3, -2, -3, 0x3C01, 0x3E00, 0x3F80, 6, 0x4000, 5]


@pytest.mark.api("GetBlockIdx", "GetBlockNum", "GetTaskRatio", "GetDataBlockSizeInBytes", "GetArchVersion",
                 "GetSubBlockIdx(ISASI)", "GetSubBlockNum(ISASI)", "GetSystemCycle(ISASI)",
                 "GetProgramCounter(ISASI)")
def test_system_variables(prog) -> None:
    got = run_values(prog, """
  o.SetValue(0, GetBlockIdx());
  o.SetValue(1, GetBlockNum());
  o.SetValue(2, GetTaskRatio());
  o.SetValue(3, GetDataBlockSizeInBytes());
  uint32_t v = 0; GetArchVersion(v);
  o.SetValue(4, v);
  o.SetValue(5, GetSubBlockIdx());
  o.SetValue(6, GetSubBlockNum());
  int64_t c0 = GetSystemCycle();
  TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 1024);
  Duplicate(b.Get<float>(), 1.0f, 256);
  PipeBarrier<PIPE_ALL>();
  o.SetValue(7, GetSystemCycle() > c0 ? 1 : 0);                       // the estimate's clock moves
  o.SetValue(8, GetProgramCounter() != 0 ? 1 : 0);
""", 9)
    assert got.tolist() == [0, 1, 1, 32, 0x2201, 0, 1, 1, 1]


@pytest.mark.api("InitSocState")
def test_init_soc_state_resets_atomic_and_mask(prog) -> None:
    got = run_values(prog, """
  SetAtomicAdd<float>();
  SetMaskCount();
  InitSocState();
  uint16_t type = 9, op = 9;
  GetStoreAtomicConfig(type, op);
  o.SetValue(0, type);
  TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 1024);
  LocalTensor<float> t = b.Get<float>();
  Duplicate(t, 0.0f, 128);
  Duplicate(t, 2.0f, 64, 1, 1, 8);                                  // mask form: 64 lanes in normal mode
  o.SetValue(1, (int64_t)t.GetValue(63));
""", 2)
    assert got.tolist() == [0, 2]


ASYNC = """
static void on_aiv(int64_t* out) { *out = 7; }
static void on_aic(int64_t* out) { *out = 9; }
static void body(void*) {
  GlobalTensor<int64_t> o;
  o.SetGlobalBuffer((__gm__ int64_t*)npukb_test::gm_output(0, 2 * 8), 2);
  int64_t a = 0, c = 0;
  Async<EngineType::AIV, on_aiv>(&a);
  Async<EngineType::AIC, on_aic>(&c);                  // not a cube core: not run
  o.SetValue(0, a);
  o.SetValue(1, c);
}
""" + RUN


@pytest.mark.api("Async")
def test_async_runs_on_its_engine_only(prog) -> None:
    ran = prog.run(ASYNC)
    assert ran.returncode == 0, ran.stderr
    assert prog.output(0, np.int64).tolist() == [7, 0]


@pytest.mark.api("SetCtrlSpr(ISASI)", "GetCtrlSpr(ISASI)", "SetSaturationFlag(ISASI)", "GetSaturationFlag(ISASI)")
def test_ctrl_register_48(prog) -> None:
    got = run_values(prog, """
  o.SetValue(0, GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0);   // CTRL[48] = 0: saturation by default
  SetCtrlSpr<48, 48>(1);
  o.SetValue(1, GetCtrlSpr<48, 48>());
  o.SetValue(2, GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0);
  SetSaturationFlag<SaturationMode::FLOAT>(true);
  o.SetValue(3, GetCtrlSpr<48, 48>());
  o.SetValue(4, GetCtrlSpr<40, 55>());
""", 5)
    assert got.tolist() == [1, 1, 0, 0, 0]


# what the 910B does not offer does not compile (documented as unsupported on Atlas A2 / A3)
UNSUPPORTED = {
    "ctrl_bit_other_than_48": "void F() { AscendC::SetCtrlSpr<53, 53>(1); }",
    "saturation_cast_mode": "void F() { AscendC::SetSaturationFlag<AscendC::SaturationMode::CAST>(true); }",
    "ceil_division": "int F() { return AscendC::CeilDivision(7, 2); }",
    "nop": "void F() { AscendC::Nop<4>(); }",
    "numeric_limits": "float F() { return AscendC::NumericLimits<float>::Max(); }",
    "ub_size": "unsigned F() { return AscendC::GetUBSizeInBytes(); }",
    "scalar_atomic_add": "int F(__gm__ int* p) { return AscendC::AtomicAdd(p, 1); }",
    "dcci_atomic_dst": "void F(const AscendC::GlobalTensor<float>& g) { AscendC::DataCacheCleanAndInvalid<float, "
                       "AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_ATOMIC>(g); }",
    "pipe_barrier_scalar": "void F() { AscendC::PipeBarrier<PIPE_S>(); }",
    "soft_sync_all_with_cube": "void F(const AscendC::GlobalTensor<int32_t>& g, const AscendC::LocalTensor<int32_t>& u)"
                               " { AscendC::SyncAll<false>(g, u); }",
}


@pytest.mark.api("SetCtrlSpr(ISASI)", "SetSaturationFlag(ISASI)", "PipeBarrier(ISASI)", "SyncAll",
                 "DataCacheCleanAndInvalid")
@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_what_the_910b_lacks_does_not_compile(tmp_path, name: str) -> None:
    result = syntax_check('#include "kernel_operator.h"\n' + UNSUPPORTED[name] + "\n", tmp_path)
    assert not result.ok, name


CACHE = """
static void body(void*) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 64 * 4), 64);
  GlobalTensor<uint64_t> g64;
  g64.SetGlobalBuffer((__gm__ uint64_t*)npukb_test::gm_output(1, 64 * 8), 64);
  TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 256);
  g.SetValue(0, 3.0f);
  DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);
  DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(g);
  DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_UB>(b.Get<float>());
  DataCachePreload(g64, (int64_t)64);
  DataCachePreload(g64, (int16_t)0);
  ICachePreLoad(2);
  g.SetValue(1, (float)GetICachePreloadStatus());
  WriteGmByPassDCache(g.GetPhyAddr() + 2, 5.0f);
  g.SetValue(3, ReadGmByPassDCache(g.GetPhyAddr()));
#ifdef BAD_PRELOAD
  ICachePreLoad(8);   // 8 x 2 KB is the whole 16 KB ICache of a vector core
#endif
#ifdef BAD_BYPASS
  WriteGmByPassDCache(g.GetPhyAddr() + 64 * 16, 1.0f);
#endif
}
""" + RUN


@pytest.mark.api("DataCacheCleanAndInvalid", "DataCachePreload", "ICachePreLoad(ISASI)",
                 "GetICachePreloadStatus(ISASI)", "WriteGmByPassDCache(ISASI)", "ReadGmByPassDCache(ISASI)")
def test_cache_control(prog) -> None:
    ran = prog.run(CACHE)
    assert ran.returncode == 0, ran.stderr
    assert prog.output(0, np.float32)[:4].tolist() == [3.0, 0.0, 5.0, 3.0]
    bad = prog.run(CACHE, defines=("BAD_PRELOAD",))
    assert bad.returncode == 3 and "ICachePreLoad: preFetchLen 8" in bad.stderr
    bad = prog.run(CACHE, defines=("BAD_BYPASS",))
    assert bad.returncode == 3 and "WriteGmByPassDCache" in bad.stderr


ATOMIC = """
static void body(void*) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 8 * 8 * 4), 64);
  GlobalTensor<int32_t> gi;
  gi.SetGlobalBuffer((__gm__ int32_t*)g.GetPhyAddr(), 64);
  GlobalTensor<int64_t> cfg;
  cfg.SetGlobalBuffer((__gm__ int64_t*)npukb_test::gm_output(1, 8 * 8), 8);
  TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 1024);
  LocalTensor<float> t = b.Get<float>();
  for (int i = 0; i < 64; ++i) g.SetValue(i, 1.0f);
  Duplicate(t, 2.0f, 64);
  PipeBarrier<PIPE_ALL>();
  SetAtomicAdd<float>();
  DataCopy(g, t, 8);                                   // 1 + 2
  SetAtomicMax<float>();
  Duplicate(t, 5.0f, 64);
  PipeBarrier<PIPE_ALL>();
  DataCopy(g[8], t, 8);                                // max(1, 5)
  SetAtomicMin<float>();
  DataCopy(g[16], t, 8);                               // min(1, 5)
  uint16_t type = 0, op = 0;
  GetStoreAtomicConfig(type, op);
  cfg.SetValue(0, type); cfg.SetValue(1, op);
  DisableDmaAtomic();
  DataCopy(g[24], t, 8);                               // plain store: 5
  SetStoreAtomicConfig<AtomicDtype::ATOMIC_F32, AtomicOp::ATOMIC_SUM>();
  GetStoreAtomicConfig(type, op);
  cfg.SetValue(2, type); cfg.SetValue(3, op);
  DataCopy(g[32], t, 8);                               // 1 + 5
  SetAtomicNone();
  GetStoreAtomicConfig(type, op);
  cfg.SetValue(4, type);
  SetAtomicType<int32_t>();                             // int32 sum: the float bits of 1.0 plus those of 5.0
  LocalTensor<int32_t> ti = t.ReinterpretCast<int32_t>();
  DataCopy(gi[40], ti, 8);
  SetAtomicNone();
}
""" + RUN


@pytest.mark.api("SetAtomicAdd", "SetAtomicMax(ISASI)", "SetAtomicMin(ISASI)", "SetAtomicType", "DisableDmaAtomic",
                 "SetStoreAtomicConfig(ISASI)", "GetStoreAtomicConfig(ISASI)")
def test_atomic_configuration(prog) -> None:
    ran = prog.run(ATOMIC)
    assert ran.returncode == 0, ran.stderr
    g = prog.output(0, np.float32)
    assert g[:8].tolist() == [3.0] * 8 and g[8:16].tolist() == [5.0] * 8 and g[16:24].tolist() == [1.0] * 8
    assert g[24:32].tolist() == [5.0] * 8 and g[32:40].tolist() == [6.0] * 8
    ints = prog.output(0, np.int32)
    bits = int(np.float32(1.0).view(np.int32)) + int(np.float32(5.0).view(np.int32))   # the int32 sum wraps
    want = np.array([bits], np.int64).astype(np.int32)[0]
    assert (ints[40:48] == want).all()
    assert prog.output(1, np.int64)[:5].tolist() == [1, 2, 1, 0, 0]   # float, min (op 2); float, sum; none
