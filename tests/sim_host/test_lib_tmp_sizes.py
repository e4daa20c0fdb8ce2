"""Host helpers of the library math, activation and softmax APIs: the Get<Api>MaxMinTmpSize /
Get<Api>TmpBufferFactorSize contracts of their doc pages (min <= max, the factors reproduce the sizes,
the documented signatures and overloads), the SoftMax-family tiling functions (fields filled, both the
optiling:: and AscendC::tiling:: forms, IsBasicBlockInSoftMax), and, end to end through a real op build,
that every kernel API accepts a sharedTmpBuffer of exactly the reported minimum and rejects one 32 bytes
smaller."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import HOST_FLAGS, Compiler, find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR
from npukernelbench.toolchains.base import Launch, TensorArg

ELEMENTWISE = ["Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Axpy", "Ceil", "Clamp", "Cos", "Cosh", "Digamma",
               "Erf",
               "Erfc", "Floor", "Fmod", "Frac", "Lgamma", "Log", "Log2", "Log10", "Sign", "Sin", "Sinh", "Tan", "Tanh",
               "Trunc", "Xor", "GeGLU"]

HOST_PROGRAM = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
using namespace AscendC;
#define ROW(NAME, TS, REUSE, N)                                                              \
  { uint32_t mx = 0, mn = 0, live = 0, extra = 0; ge::Shape s({(int64_t)N});                 \
    Get##NAME##MaxMinTmpSize(s, TS, REUSE, mx, mn); Get##NAME##TmpBufferFactorSize(TS, live, extra); \
    std::printf("%s %d %d %d %u %u %u %u\n", #NAME, TS, REUSE ? 1 : 0, N, mx, mn, live, extra); }
int main() {
  const int sizes[] = {1, 8, 100, 1000, 40000};
  for (int n : sizes) for (int ts : {2, 4}) for (bool r : {false, true}) {
    NAMES
  }
  platform_ascendc::PlatformAscendC plat(nullptr);
  for (int n : sizes) for (int ts : {2, 4}) {
    uint32_t mx = 0, mn = 0, live = 0, extra = 0, mx2 = 0, mn2 = 0;
    ge::Shape s({(int64_t)n});
    GetRoundMaxMinTmpSize(plat, s, ts, false, mx, mn); GetRoundTmpBufferFactorSize(plat, ts, live, extra);
    std::printf("Round %d 0 %d %u %u %u %u\n", ts, n, mx, mn, live, extra);
    bool ok = GetExpMaxMinTmpSize(s, ts, false, mx, mn); GetExpTmpBufferFactorSize(ts, live, extra);
    std::printf("Exp %d 0 %d %u %u %u %u %d\n", ts, n, mx, mn, live, extra, ok ? 1 : 0);
    GetSigmoidMaxMinTmpSize(s, ts, false, mx, mn); std::printf("Sigmoid %d 0 %d %u %u 0 0\n", ts, n, mx, mn);
    GetSiluTmpSize(s, ts, false, mx, mn); std::printf("Silu %d 0 %d %u %u 0 0\n", ts, n, mx, mn);
    GetSwishTmpSize(s, ts, false, mx, mn); std::printf("Swish %d 0 %d %u %u 0 0\n", ts, n, mx, mn);
    GetReGluMaxMinTmpSize(s, ts, false, mx, mn); std::printf("ReGlu %d 0 %d %u %u 0 0\n", ts, n, mx, mn);
    GetSwiGLUMaxMinTmpSize(s, ts, mx, mn, false); GetSwiGLUTmpBufferFactorSize(ts, live, extra);
    std::printf("SwiGLU %d 0 %d %u %u %u %u\n", ts, n, mx, mn, live, extra);
    GetGeluMaxMinTmpSize(s, ts, mx, mn);
    std::printf("Gelu %d 0 %d %u %u %u %u\n", ts, n, mx, mn, GetGeluMaxTmpSize(s, ts), GetGeluMinTmpSize(s, ts));
    GetSinMaxMinTmpSize(SinConfig{SinAlgo::RADIAN_REDUCTION}, s, ts, false, mx2, mn2);
    GetSinMaxMinTmpSize(s, ts, false, mx, mn);
    std::printf("SinConfig %d 0 %d %u %u %u %u\n", ts, n, mx, mn, mx2, mn2);
    GetCosMaxMinTmpSize(CosConfig{}, s, ts, false, mx2, mn2); GetCosMaxMinTmpSize(s, ts, false, mx, mn);
    std::printf("CosConfig %d 0 %d %u %u %u %u\n", ts, n, mx, mn, mx2, mn2);
    GetPowerMaxMinTmpSize(s, s, false, ts, false, mx, mn);
    GetPowerTmpBufferFactorSize(true, true, false, ts, live, extra);
    std::printf("PowerTT %d 0 %d %u %u %u %u\n", ts, n, mx, mn, live, extra);
    GetPowerMaxMinTmpSize(s, ge::Shape({1}), false, ts, false, mx, mn);
    GetPowerTmpBufferFactorSize(true, false, false, ts, live, extra);
    std::printf("PowerTS %d 0 %d %u %u %u %u\n", ts, n, mx, mn, live, extra);
    GetPowerMaxMinTmpSize(s, s, true, 4, false, mx, mn); GetPowerTmpBufferFactorSize(true, true, true, 4, live, extra);
    std::printf("PowerInt %d 0 %d %u %u %u %u\n", 4, n, mx, mn, live, extra);
  }
  uint32_t mx = 0, mn = 0;
  std::printf("ExpBadType %d\n", GetExpMaxMinTmpSize(ge::Shape({8}), 8, false, mx, mn) ? 1 : 0);
  GetCumSumMaxMinTmpSize(ge::Shape({4, 64}), 4, true, false, mx, mn); std::printf("CumSumLast %u %u\n", mx, mn);
  GetCumSumMaxMinTmpSize(ge::Shape({4, 64}), 2, false, false, mx, mn); std::printf("CumSumFirst %u %u\n", mx, mn);
  return 0;
}
"""


@pytest.fixture(scope="module")
def compiler() -> Compiler:
    found = find_compiler()
    if isinstance(found, str):
        pytest.skip(found)
    return found


def host_run(compiler: Compiler, tmp_path, source: str) -> list[list[str]]:
    src = tmp_path / "prog.cpp"
    src.write_text(source, encoding="utf-8")
    built = subprocess.run([compiler.path, *HOST_FLAGS, "-I", str(INCLUDE_DIR), str(src), "-o", str(tmp_path / "prog")],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-4000:]
    ran = subprocess.run([str(tmp_path / "prog")], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return [line.split() for line in ran.stdout.splitlines()]


@pytest.fixture(scope="module")
def sizes(compiler, tmp_path_factory) -> dict:
    names = "\n    ".join(f"ROW({n}, ts, r, n);" for n in ELEMENTWISE)
    rows = host_run(compiler, tmp_path_factory.mktemp("sizes"), HOST_PROGRAM.replace("NAMES", names))
    table: dict = {}
    for row in rows:
        if row[0] in ("ExpBadType", "CumSumLast", "CumSumFirst"):
            table[row[0]] = [int(v) for v in row[1:]]
        else:
            table[(row[0], int(row[1]), int(row[2]), int(row[3]))] = [int(v) for v in row[4:]]
    return table


def aligned(n: int, ts: int) -> int:
    return (n * ts + 31) // 32 * 32


# The pages whose contracts the next test checks (GetLogMaxMinTmpSize's page covers Log, Log2 and Log10).
@pytest.mark.api("GetAcosMaxMinTmpSize", "GetAcosTmpBufferFactorSize", "GetAcoshMaxMinTmpSize",
                 "GetAcoshTmpBufferFactorSize", "GetAsinMaxMinTmpSize", "GetAsinTmpBufferFactorSize",
                 "GetAsinhMaxMinTmpSize", "GetAsinhTmpBufferFactorSize", "GetAtanMaxMinTmpSize",
                 "GetAtanTmpBufferFactorSize", "GetAtanhMaxMinTmpSize", "GetAtanhTmpBufferFactorSize",
                 "GetAxpyMaxMinTmpSize", "GetAxpyTmpBufferFactorSize", "GetCeilMaxMinTmpSize",
                 "GetCeilTmpBufferFactorSize", "GetClampMaxMinTmpSize", "GetClampTmpBufferFactorSize",
                 "GetCosMaxMinTmpSize", "GetCosTmpBufferFactorSize", "GetCoshMaxMinTmpSize",
                 "GetCoshTmpBufferFactorSize", "GetDigammaMaxMinTmpSize", "GetDigammaTmpBufferFactorSize",
                 "GetErfMaxMinTmpSize", "GetErfTmpBufferFactorSize", "GetErfcMaxMinTmpSize",
                 "GetErfcTmpBufferFactorSize", "GetFloorMaxMinTmpSize", "GetFloorTmpBufferFactorSize",
                 "GetFmodMaxMinTmpSize", "GetFmodTmpBufferFactorSize", "GetFracMaxMinTmpSize",
                 "GetFracTmpBufferFactorSize", "GetLgammaMaxMinTmpSize", "GetLgammaTmpBufferFactorSize",
                 "GetLogMaxMinTmpSize", "GetLogTmpBufferFactorSize", "GetSignMaxMinTmpSize",
                 "GetSignTmpBufferFactorSize", "GetSinMaxMinTmpSize", "GetSinTmpBufferFactorSize",
                 "GetSinhMaxMinTmpSize", "GetSinhTmpBufferFactorSize", "GetTanMaxMinTmpSize",
                 "GetTanTmpBufferFactorSize", "GetTanhMaxMinTmpSize", "GetTanhTmpBufferFactorSize",
                 "GetTruncMaxMinTmpSize", "GetTruncTmpBufferFactorSize", "GetXorMaxMinTmpSize",
                 "GetXorTmpBufferFactorSize", "GetGeGLUMaxMinTmpSize", "GetGeGLUTmpBufferFactorSize",
                 "GetRoundMaxMinTmpSize", "GetRoundTmpBufferFactorSize", "GetExpMaxMinTmpSize",
                 "GetExpTmpBufferFactorSize", "GetSwiGLUMaxMinTmpSize", "GetSwiGLUTmpBufferFactorSize",
                 "GetPowerMaxMinTmpSize", "GetPowerTmpBufferFactorSize")
def test_max_min_and_factor_sizes_agree(sizes) -> None:
    checked = 0
    for key, vals in sizes.items():
        skip = ("Sigmoid", "Silu", "Swish", "ReGlu", "Gelu", "SinConfig", "CosConfig")
        if not isinstance(key, tuple) or key[0] in skip:
            continue
        name, ts, reuse, n = key
        mx, mn, live, extra = vals[:4]
        assert mn <= mx, key
        if reuse or (name == "PowerTS" and n == 1):
            continue      # the factor helper has no isReuseSource; a 1-element base reads as a tensor
        # the documented factor relation: the tmp space is live x the bytes computed at once + extra,
        # and the minimum covers at least one 256-byte repeat (or all the data when smaller)
        assert mx == live * aligned(n, ts if name != "PowerInt" else 4) + extra, key
        assert mn == live * min(256, aligned(n, ts if name != "PowerInt" else 4)) + extra, key
        # the inverse of the page's example: the elements computable at once with the maximum
        if live:
            assert (mx - extra) // live // (ts if name != "PowerInt" else 4) >= n, key
        checked += 1
    assert checked > 150
    # every API of the family needs some space (Log, Log2 and Log10 of a float source need none)
    for name in ELEMENTWISE:
        need = sizes[(name, 4, 0, 1000)][1]
        assert (need == 0) == (name in ("Log", "Log2", "Log10")), name
        assert sizes[(name, 2, 0, 1000)][1] > 0, name


@pytest.mark.api("GetSinMaxMinTmpSize", "GetCosMaxMinTmpSize", "GetExpMaxMinTmpSize", "GetDigammaMaxMinTmpSize",
                 "GetLgammaMaxMinTmpSize", "GetPowerMaxMinTmpSize", "GetCumSumMaxMinTmpSize", "GetGeluMaxMinTmpSize",
                 "GetSigmoidMaxMinTmpSize", "GetSiluTmpSize", "GetSwishTmpSize", "GetReGluMaxMinTmpSize")
def test_documented_variants_of_the_helpers(sizes) -> None:
    # isReuseSource lets Sin, Cos, Digamma and Lgamma use a float source as work space: one node less;
    # it changes nothing for a half source or for APIs whose docs reserve it
    for name in ("Sin", "Cos", "Digamma", "Lgamma"):
        assert sizes[(name, 4, 1, 1000)][0] < sizes[(name, 4, 0, 1000)][0], name
        assert sizes[(name, 2, 1, 1000)] == sizes[(name, 2, 0, 1000)], name
    assert sizes[("Acos", 4, 1, 1000)] == sizes[("Acos", 4, 0, 1000)]
    # the config overloads of Sin / Cos report the same sizes (the algorithm is reserved on A2 / A3)
    for key, vals in sizes.items():
        if isinstance(key, tuple) and key[0] in ("SinConfig", "CosConfig"):
            assert vals[:2] == vals[2:4], key
    # Gelu's three helpers agree; Exp refuses a type size it does not support
    for key, vals in sizes.items():
        if isinstance(key, tuple) and key[0] == "Gelu":
            assert vals[0] == vals[2] and vals[1] == vals[3] and vals[1] <= vals[0], key
        if isinstance(key, tuple) and key[0] == "Exp":
            assert vals[4] == 1
    assert sizes["ExpBadType"] == [0]
    # Power: a scalar operand needs less than two tensors
    assert sizes[("PowerTS", 4, 0, 1000)][0] < sizes[("PowerTT", 4, 0, 1000)][0]
    for name in ("Sigmoid", "Silu", "Swish", "ReGlu"):
        mx, mn = sizes[(name, 4, 0, 1000)][:2]
        assert 0 < mn <= mx, name
    # CumSum: the last axis transposes 16-row blocks of fp32 (two planes), the first axis accumulates a row
    assert sizes["CumSumLast"] == [2 * 16 * 256, 2 * 16 * 256]
    assert sizes["CumSumFirst"] == [2 * 256, 2 * 256]


SOFTMAX_HOST = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
using namespace AscendC;
static void show(const char* what, const AscendC::tiling::SoftMaxTiling& t) {
  const uint32_t* p = reinterpret_cast<const uint32_t*>(&t);
  std::printf("%s", what);
  for (int i = 0; i < 16; ++i) std::printf(" %u", p[i]);
  std::printf("\n");
}
int main() {
  ge::Shape s({2, 5, 64});                               // 10 rows of 64
  uint32_t mx = 0, mn = 0;
  std::printf("flash %u %u %u %u\n", GetSoftMaxFlashMinTmpSize(s, 4, false, false),
              GetSoftMaxFlashMaxTmpSize(s, 4, false, false),
              GetSoftMaxFlashMinTmpSize(s, 2, true, false), GetSoftMaxFlashMaxTmpSize(s, 2, true, false));
  std::printf("grad %u %u %u %u\n", GetSoftMaxGradMinTmpSize(s, 4, false, false),
              GetSoftMaxGradMaxTmpSize(s, 4, false, false),
              GetSoftMaxGradMinTmpSize(s, 2, true, false), GetSoftMaxGradMaxTmpSize(s, 2, true, false));
  std::printf("log %u %u\n", GetLogSoftMaxMinTmpSize(s, 4, false), GetLogSoftMaxMaxTmpSize(s, 4, false));
  GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({8, 512}), 2, 4, mx, mn, true); std::printf("v3 %u %u\n", mn, mx);
  AscendC::tiling::SoftMaxTiling a{}, b{};
  SoftMaxFlashTilingFunc(s, 4, 3 * GetSoftMaxFlashMinTmpSize(s, 4, true, false), a, true); show("flashTiling", a);
  SoftMaxGradTilingFunc(s, 4, 4 * GetSoftMaxGradMinTmpSize(s, 4, false, false), b, false); show("gradTiling", b);
  SoftMaxFlashV3TilingFunc(ge::Shape({8, 512}), 2, 4, 2 * mn, a, true); show("v3Tiling", a);
  AscendC::tiling::LogSoftMaxTiling l{};
  LogSoftMaxTilingFunc(s, 4, 5 * GetLogSoftMaxMinTmpSize(s, 4, false), l);
  const uint32_t* p = reinterpret_cast<const uint32_t*>(&l);
  std::printf("logTiling"); for (int i = 0; i < 16; ++i) std::printf(" %u", p[i]); std::printf("\n");
  SoftMaxFlashV2TilingFunc(s, 4, 4, 4 * GetSoftMaxFlashV2MinTmpSize(s, 4, 4, true), a, true, false, true);
  show("brcTiling", a);
  // IsBasicBlockInSoftMax: [16, 128] float in passes of 8 rows is a basic block; 5 rows per pass or
  // a 48-element row is not
  ge::Shape basic({16, 128});
  SoftMaxTilingFunc(basic, 4, 8 * GetSoftMaxMinTmpSize(basic, 4, false), a);
  std::printf("basic %d", IsBasicBlockInSoftMax(a, 4));
  SoftMaxTilingFunc(basic, 4, 5 * GetSoftMaxMinTmpSize(basic, 4, false), a);
  std::printf(" %d", IsBasicBlockInSoftMax(a, 4));
  SoftMaxTilingFunc(ge::Shape({16, 48}), 4, 8 * GetSoftMaxMinTmpSize(ge::Shape({16, 48}), 4, false), a);
  std::printf(" %d", IsBasicBlockInSoftMax(a, 4));
  SoftMaxTilingFunc(ge::Shape({16, 64}), 2, 8 * GetSoftMaxMinTmpSize(ge::Shape({16, 64}), 2, false), a);
  std::printf(" %d\n", IsBasicBlockInSoftMax(a));    // half (the default 2): 64 < 256 / 2
  return 0;
}
"""


@pytest.mark.api("SoftmaxFlash Tiling接口", "SoftmaxGrad Tiling接口", "SoftmaxFlashV3 Tiling接口",
                 "SoftmaxFlashV2 Tiling接口",
                 "LogSoftMax Tiling", "IsBasicBlockInSoftMax", "SoftMax/SimpleSoftMax Tiling")
def test_softmax_family_host_tiling(compiler, tmp_path) -> None:
    out = {row[0]: [int(v) for v in row[1:]] for row in host_run(compiler, tmp_path, SOFTMAX_HOST)}
    row_f = (64 + 8) * 4                                   # a float row + a reduction block
    assert out["flash"] == [row_f, 10 * row_f, (128 + 8 + 16) * 4, 10 * (128 + 8 + 16) * 4]
    assert out["grad"] == [(64 + 64 + 8) * 4, 10 * (64 + 64 + 8) * 4, (3 * 64 + 8) * 4, 10 * (3 * 64 + 8) * 4]
    assert out["log"] == [row_f, 10 * row_f]
    assert out["v3"] == [(1024 + 16 + 24) * 4, 8 * (1024 + 16 + 24) * 4]
    # [10, 64] rows with room for 3 rows per pass: 3 passes and 1 tail row; float statistics of 8 per block
    assert out["flashTiling"] == [10, 64, 640, 10, 8, 80, 3, 64, 192, 3, 8, 24, 3, 1, 64, 8]
    assert out["gradTiling"][6:8] == [4, 64] and out["gradTiling"][12:14] == [2, 2]
    assert out["v3Tiling"][:2] == [8, 512] and out["v3Tiling"][6] == 2 and out["v3Tiling"][12:14] == [4, 0]
    assert out["logTiling"] == [10, 64, 640, 10, 8, 80, 5, 64, 320, 5, 8, 40, 2, 0, 0, 0]
    assert out["brcTiling"][3:6] == [10, 1, 10]           # isFlashOutputBrc: [m, 1] statistics
    assert out["basic"] == [1, 0, 0, 0]


# ---- the kernel accepts exactly the reported minimum ----------------------------------------------
# (name, host call filling mins[i], kernel call using the tmp tensor t of mins[i] bytes). Log2 of a float
# source needs no space (minimum 0): nothing to shrink.
KERNEL_CHECKS = [
    *((n, f"Get{n}MaxMinTmpSize(v, 4, false, mx, mn)", f"{n}(z, x, t, N)")
      for n in ("Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos", "Cosh", "Digamma", "Erf", "Erfc",
                "Floor",
                "Frac", "Lgamma", "Sign", "Sin", "Sinh", "Tan", "Tanh", "Trunc")),
    ("Axpy", "GetAxpyMaxMinTmpSize(v, 4, false, mx, mn)", "Axpy<float, float>(z, x, 2.0f, t, N)"),
    ("ClampMax", "GetClampMaxMinTmpSize(v, 4, false, mx, mn)", "ClampMax(z, x, t, 1.0f, N)"),
    ("ClampMin", "GetClampMaxMinTmpSize(v, 4, false, mx, mn)", "ClampMin(z, x, t, 1.0f, N)"),
    ("Fmod", "GetFmodMaxMinTmpSize(v, 4, false, mx, mn)", "Fmod(z, x, y, t, N)"),
    ("Xor", "GetXorMaxMinTmpSize(v, 2, false, mx, mn)", "Xor(zi, xi, yi, t, N)"),
    ("Round", "GetRoundMaxMinTmpSize(plat, v, 4, false, mx, mn)", "Round(z, x, t, N)"),
    ("Exp", "GetExpMaxMinTmpSize(v, 4, false, mx, mn)", "Exp<float, 10>(z, x, t, N)"),
    ("Power", "GetPowerMaxMinTmpSize(v, v, false, 4, false, mx, mn)", "Power(z, x, y, t, N)"),
    ("Power", "GetPowerMaxMinTmpSize(v, ge::Shape({1}), false, 4, false, mx, mn)", "Power(z, x, 2.0f, t, N)"),
    ("CumSum", "GetCumSumMaxMinTmpSize(ge::Shape({4, 16}), 4, true, false, mx, mn)",
     "CumSum(z, z2, x, t, CumSumInfo{4, 16})"),
    ("Sigmoid", "GetSigmoidMaxMinTmpSize(v, 4, false, mx, mn)", "Sigmoid(z, x, t, N)"),
    ("Gelu", "GetGeluMaxMinTmpSize(v, 4, mx, mn)", "Gelu(z, x, t, N)"),
    ("FasterGelu", "GetGeluMaxMinTmpSize(v, 4, mx, mn)", "FasterGelu(z, x, t, N)"),
    ("FasterGeluV2", "GetGeluMaxMinTmpSize(v, 4, mx, mn)", "FasterGeluV2(z, x, t, N)"),
    ("GeGLU", "GetGeGLUMaxMinTmpSize(v, 4, false, mx, mn)", "GeGLU(z, x, y, t, N)"),
    ("ReGlu", "GetReGluMaxMinTmpSize(v, 4, false, mx, mn)", "ReGlu(z, x, y, t, N)"),
    ("SwiGLU", "GetSwiGLUMaxMinTmpSize(v, 4, mx, mn, false)", "SwiGLU(z, x, y, 1.0f, t, N)"),
    ("SoftMax", "mn = GetSoftMaxMinTmpSize(rows, 4, false)", "SoftMax<float>(z, s, m, x, t, sm, shape)"),
    ("SimpleSoftMax", "mn = GetSoftMaxMinTmpSize(rows, 4, false)", "SimpleSoftMax<float>(z, s, m, x, t, sm, shape)"),
    ("SoftmaxFlash", "mn = GetSoftMaxFlashMinTmpSize(rows, 4, true, false)",
     "SoftmaxFlash<float>(z, s, m, x, e, s, m, t, sm, true, shape)"),
    ("SoftmaxFlashV2", "mn = GetSoftMaxFlashV2MinTmpSize(rows, 4, 4, true)",
     "SoftmaxFlashV2<float, true>(z, s, m, x, e, s, m, t, sm, shape)"),
    ("SoftmaxGrad", "mn = GetSoftMaxGradMinTmpSize(rows, 4, false, false)",
     "SoftmaxGrad<float>(z, y, x, t, sm, false, shape)"),
    ("SoftmaxGradFront", "mn = GetSoftMaxGradMinTmpSize(rows, 4, true, false)",
     "SoftmaxGradFront<float>(s, y, x, t, sm, shape)"),
    ("LogSoftMax", "mn = GetLogSoftMaxMinTmpSize(rows, 4, false)", "LogSoftMax<float>(z, s, m, x, t, lsm, shape)"),
    ("SoftmaxFlashV3", "GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({8, 512}), 2, 4, mx, mn, true)",
     "SoftmaxFlashV3<half, float, true>(xh, s, s, m, xh, e.ReinterpretCast<half>(), s, s, m, t, sm, "
     "SoftMaxParams{8, 512, 8, 512, 2, 8, 0.9375f})"),
]

TMP_TILING = f"""
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
namespace optiling {{
BEGIN_TILING_DATA_DEF(LibTmpTiling)
  TILING_DATA_FIELD_DEF_ARR(uint32_t, {len(KERNEL_CHECKS)}, mins);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, same);
  TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, flash);
  TILING_DATA_FIELD_DEF_STRUCT(LogSoftMaxTiling, logsm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LibTmp, LibTmpTiling)
}}  // namespace optiling
"""

TMP_HOST = """
#include "lib_tmp_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  using namespace AscendC;
  LibTmpTiling td;
  ge::Shape v({100}), rows({8, 64});
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  uint32_t mins[COUNT] = {};
  uint32_t mx = 0, mn = 0;
HOST_CALLS
  td.set_mins(mins);
  // the optiling:: forms of the tiling functions fill what the AscendC::tiling:: forms fill
  ge::Shape s({2, 5, 64});
  AscendC::tiling::SoftMaxTiling a{};
  SoftMaxFlashTilingFunc(s, 4, 3 * GetSoftMaxFlashMinTmpSize(s, 4, true, false), td.flash, true);
  SoftMaxFlashTilingFunc(s, 4, 3 * GetSoftMaxFlashMinTmpSize(s, 4, true, false), a, true);
  AscendC::tiling::LogSoftMaxTiling l{};
  LogSoftMaxTilingFunc(s, 4, 5 * GetLogSoftMaxMinTmpSize(s, 4, false), td.logsm);
  LogSoftMaxTilingFunc(s, 4, 5 * GetLogSoftMaxMinTmpSize(s, 4, false), l);
  optiling::SoftMaxTiling g;
  AscendC::tiling::SoftMaxTiling gp{};
  SoftMaxGradTilingFunc(s, 2, 4 * GetSoftMaxGradMinTmpSize(s, 2, true, false), g, true);
  SoftMaxGradTilingFunc(s, 2, 4 * GetSoftMaxGradMinTmpSize(s, 2, true, false), gp, true);
  ge::Shape basic({16, 128});
  optiling::SoftMaxTiling b;
  SoftMaxTilingFunc(basic, 4, 8 * GetSoftMaxMinTmpSize(basic, 4, false), b);
  const uint32_t same[4] = {td.flash.get_splitM() == a.splitM && td.flash.get_tailM() == a.tailM &&
                            td.flash.get_srcSize() == a.srcSize,
                            td.logsm.get_splitM() == l.splitM && td.logsm.get_rangeM() == l.rangeM,
                            g.get_splitM() == gp.splitM && g.get_tailSplitSize() == gp.tailSplitSize,
                            IsBasicBlockInSoftMax(b, 4) ? 1u : 0u};
  td.set_same(same);
  context->SetBlockDim(1);
  td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(td.GetDataSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class LibTmp : public OpDef {
 public:
  explicit LibTmp(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(LibTmp);
}  // namespace ops
"""

TMP_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
#define N 100
extern "C" __global__ __aicore__ void lib_tmp(GM_ADDR x_, GM_ADDR y_, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(td, tiling);
  const int32_t shrink = reinterpret_cast<__gm__ int32_t*>(x_)[0];   // the check whose buffer is 32 bytes short
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz, bz2, bs, bm, be, bh, bt;
  pipe.InitBuffer(bx, 4096); pipe.InitBuffer(by, 4096); pipe.InitBuffer(bz, 4096); pipe.InitBuffer(bz2, 4096);
  pipe.InitBuffer(bs, 1024); pipe.InitBuffer(bm, 1024); pipe.InitBuffer(be, 1024); pipe.InitBuffer(bh, 8192);
  pipe.InitBuffer(bt, 32768);
  LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>(), z = bz.Get<float>(), z2 = bz2.Get<float>();
  LocalTensor<float> s = bs.Get<float>(), m = bm.Get<float>(), e = be.Get<float>();
  LocalTensor<int16_t> xi = bx.Get<int16_t>(), yi = by.Get<int16_t>(), zi = bz.Get<int16_t>();
  LocalTensor<half> xh = bh.Get<half>();
  Duplicate(x, 0.5f, 1024); Duplicate(y, 0.25f, 1024); Duplicate(s, 1.0f, 256); Duplicate(m, 0.0f, 256);
  Duplicate(xh, (half)0.5, 4096);
  SoftMaxTiling sm{};
  LogSoftMaxTiling lsm{};
  SoftMaxShapeInfo shape{8, 64, 8, 64};
KERNEL_CALLS
  reinterpret_cast<__gm__ int32_t*>(y_)[0] = 1;
  for (int i = 0; i < 4; ++i) reinterpret_cast<__gm__ int32_t*>(y_)[1 + i] = td.same[i];
  reinterpret_cast<__gm__ int32_t*>(y_)[5] = td.flash.splitM;     // the nested tiling structs reach the kernel
  reinterpret_cast<__gm__ int32_t*>(y_)[6] = td.logsm.splitM;
}
"""


@pytest.fixture(scope="module")
def tmp_build(sim, make_project):
    host_calls = "\n".join(f"  {{ {h}; mins[{i}] = mn; }}" for i, (_, h, _) in enumerate(KERNEL_CHECKS))
    kernel_calls = "\n".join(
        f"  {{ LocalTensor<uint8_t> t = bt.Get<uint8_t>(td.mins[{i}] - (shrink == {i} ? 32 : 0)); {k}; }}"
        for i, (_, _, k) in enumerate(KERNEL_CHECKS))
    proj = make_project("LibTmp", "lib_tmp",
                        TMP_HOST.replace("HOST_CALLS", host_calls).replace("COUNT", str(len(KERNEL_CHECKS))),
                        TMP_KERNEL.replace("KERNEL_CALLS", kernel_calls),
                        [("x", "input", "REQUIRED", "int32"), ("y", "output", "REQUIRED", "int32")],
                        {"op_host/lib_tmp_tiling.h": TMP_TILING})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    return build


def launch(sim, build, shrink: int):
    return sim.run(build, Launch(inputs=(TensorArg("x", "int32", np.array([shrink] * 8, np.int32)),),
                                 outputs=(TensorArg("y", "int32", shape=(8,)),), attrs={}))


@pytest.mark.api("Acos", "Sin", "Power", "CumSum", "Sigmoid", "Gelu", "SoftMax", "SoftmaxFlashV2", "SoftmaxFlashV3",
                 "LogSoftMax", "SoftmaxGrad", "GetAcosMaxMinTmpSize", "SoftmaxFlashV3 Tiling接口",
                 "SoftMax/SimpleSoftMax Tiling", "GetGeluMaxMinTmpSize")
def test_every_kernel_api_accepts_the_reported_minimum(sim, tmp_build) -> None:
    result = launch(sim, tmp_build, -1)
    assert result.ok, result.message
    assert list(result.outputs["y"][:7]) == [1, 1, 1, 1, 1, 3, 5]


@pytest.mark.parametrize("index", range(len(KERNEL_CHECKS)), ids=[f"{i}-{c[0]}" for i, c in enumerate(KERNEL_CHECKS)])
def test_every_kernel_api_rejects_less_than_the_minimum(sim, tmp_build, index) -> None:
    result = launch(sim, tmp_build, index)
    assert not result.ok
    name = KERNEL_CHECKS[index][0]
    assert name in result.message and "fewer than" in result.message, result.message
