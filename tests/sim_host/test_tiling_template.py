"""Tiling模板编程: the template-parameter definitions (ASCENDC_TPL_*_DECL / _SEL, ASCENDC_TPL_ARGS_DECL /
ASCENDC_TPL_ARGS_SEL / ASCENDC_TPL_SEL), GET_TPL_TILING_KEY and ASCENDC_TPL_SEL_PARAM, checked from their
doc pages with a host program (an op's tiling-key header and a tiling function) compiled with the real
compiler against the simulator's headers and run: the key packs each parameter's value in its bit width
(first parameter lowest), UINT range / list / mix declarations expand as documented, values outside the
declarations or outside every selected combination are refused, and the kernel side of the header
compiles to nothing but its constants."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR

KEY_HEADER = r"""
#pragma once
#include "ascendc/host_api/tiling/template_argument.h"
ASCENDC_TPL_ARGS_DECL(AddCustomTemplate,
    ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT16, C_DT_FLOAT, ASCENDC_TPL_INPUT(0)),
    ASCENDC_TPL_FORMAT_DECL(F_X, C_FORMAT_ND, C_FORMAT_NCHW),
    ASCENDC_TPL_UINT_DECL(TILE_NUM, ASCENDC_TPL_8_BW, ASCENDC_TPL_UI_MIX, 2, 0, 2, 3, 5, 10, 12),
    ASCENDC_TPL_BOOL_DECL(IS_SPLIT, 0, 1),
    ASCENDC_TPL_KERNEL_TYPE_DECL(KT, ASCENDC_TPL_AIV_ONLY, ASCENDC_TPL_MIX_AIC_1_2));
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
        ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT16),
        ASCENDC_TPL_FORMAT_SEL(F_X, C_FORMAT_ND),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_RANGE, 1, 0, 2),
        ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 0, 1),
        ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(KT, ASCENDC_TPL_AIV_ONLY),
        ASCENDC_TPL_DETERMINISTIC_SEL(true),
        ASCENDC_TPL_TILING_STRUCT_SEL(TilingDataSmall)),
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_MIX, 1, 3, 5, 12),
        ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 1)));
"""

PROGRAM = r"""
#include <cstdio>
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"
#include "tiling_key_add_custom.h"

static unsigned long long KeyOf(uint32_t dt, uint32_t fmt, uint32_t tile, uint32_t split, uint32_t kt) {
  return GET_TPL_TILING_KEY(dt, fmt, tile, split, kt);
}

int main() {
  std::printf("decl %zu sel %zu\n", g_tilingDeclareParams.size(), g_tilingSelectParams.size());
  const ParamStruct& tile = g_tilingDeclareParams[2];
  std::printf("tile %s %u %u %s\n", tile.name, tile.paramType, tile.bitWidth, tile.macroType);
  std::printf("k1 %llu\n", KeyOf(C_DT_FLOAT16, C_FORMAT_ND, 2, 1, ASCENDC_TPL_AIV_ONLY));
  std::printf("k2 %llu\n", KeyOf(C_DT_FLOAT, C_FORMAT_NCHW, 12, 1, ASCENDC_TPL_MIX_AIC_1_2));
  std::printf("k3 %llu\n", KeyOf(C_DT_FLOAT, C_FORMAT_ND, 4, 1, ASCENDC_TPL_AIV_ONLY));
  std::printf("bad_decl %llu\n", KeyOf(C_DT_FLOAT16, C_FORMAT_ND, 7, 0, ASCENDC_TPL_AIV_ONLY));
  std::printf("bad_sel %llu\n", KeyOf(C_DT_FLOAT, C_FORMAT_ND, 12, 0, ASCENDC_TPL_AIV_ONLY));
  std::printf("bad_count %llu\n", static_cast<unsigned long long>(GET_TPL_TILING_KEY(1u, 2u)));
  return 0;
}
"""

KERNEL = r"""
#include "kernel_operator.h"
#include "tiling_key_add_custom.h"
static_assert(C_DT_FLOAT16 == 1 && C_FORMAT_ND == 2 && ASCENDC_TPL_MIX_AIC_1_2 == 5, "constants");
template <int D_T_X, int TILE_NUM>
__aicore__ inline int Pick() { return D_T_X == C_DT_FLOAT ? TILE_NUM : -TILE_NUM; }
int main() { return Pick<C_DT_FLOAT, 3>() == 3 ? 0 : 1; }
"""


def _build(tmp_path: Path, source: str, extra: tuple[str, ...] = (), key_header: str = KEY_HEADER) -> None:
    compiler = find_compiler()
    if isinstance(compiler, str):
        pytest.fail(f"no C++ compiler: {compiler}", pytrace=False)
    (tmp_path / "tiling_key_add_custom.h").write_text(key_header, encoding="utf-8")
    (tmp_path / "main.cpp").write_text(source, encoding="utf-8")
    build = subprocess.run([compiler.path, "-std=c++17", "-w", *extra, "-I", str(INCLUDE_DIR), "-I", ".", "main.cpp",
                            "-o", "prog"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-3000:]


def _build_and_run(tmp_path: Path, source: str, key_header: str = KEY_HEADER) -> subprocess.CompletedProcess:
    _build(tmp_path, source, key_header=key_header)
    return subprocess.run([str(tmp_path / "prog")], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin"})


def _key(dt: int, fmt: int, tile: int, split: int, kt: int) -> int:
    return dt | fmt << 8 | tile << 16 | split << 24 | kt << 25


@pytest.mark.api("模板参数定义", "GET_TPL_TILING_KEY")
def test_the_tiling_key_packs_the_template_parameters_in_their_bit_widths(tmp_path: Path) -> None:
    run = _build_and_run(tmp_path, PROGRAM)
    assert run.returncode == 0, run.stderr
    out = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert out["decl"] == "5 sel 2"
    assert out["tile"] == "TILE_NUM 2 8 DECL"
    assert int(out["k1"]) == _key(1, 2, 2, 1, 0)                 # DT_FLOAT16, FORMAT_ND, AIV_ONLY
    assert int(out["k2"]) == _key(0, 0, 12, 1, 5)                # DT_FLOAT, FORMAT_NCHW, MIX_AIC_1_2
    assert int(out["k3"]) == _key(0, 2, 4, 1, 0)                 # 4: in the MIX ranges of both DECL and SEL
    never = str(2**64 - 1)
    assert out["bad_decl"] == never and "TILE_NUM = 7 is not a declared value" in run.stderr
    assert out["bad_sel"] == never and "no ASCENDC_TPL_ARGS_SEL combination allows these values" in run.stderr
    assert out["bad_count"] == never and "2 values for 5 declared template parameters" in run.stderr


MALFORMED_DECL = "ASCENDC_TPL_UI_MIX, 2, 0, 2, 3, 5, 10, 12)"


@pytest.mark.api("模板参数定义", "GET_TPL_TILING_KEY")
@pytest.mark.parametrize("entry, message", [
    ("7, 1, 2)", "TILE_NUM: unknown UINT mode 7"),
    ("ASCENDC_TPL_UI_RANGE)", "TILE_NUM: the range mode needs a range count"),
    ("ASCENDC_TPL_UI_RANGE, 2, 0, 2)", "TILE_NUM: 2 ranges announced, fewer given"),
    ("ASCENDC_TPL_UI_MIX, 1, 5, 3, 12)", "TILE_NUM: a range ends before it starts"),
    ("ASCENDC_TPL_UI_RANGE, 1, 0, 2, 12)", "TILE_NUM: values after the announced ranges (use ASCENDC_TPL_UI_MIX)"),
])
def test_a_malformed_uint_declaration_refuses_every_key_with_its_reason(tmp_path: Path, entry: str,
                                                                         message: str) -> None:
    assert MALFORMED_DECL in KEY_HEADER
    run = _build_and_run(tmp_path, PROGRAM, key_header=KEY_HEADER.replace(MALFORMED_DECL, entry))
    assert run.returncode == 0, run.stderr
    out = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert out["k1"] == str(2**64 - 1) and f"[ERROR] GET_TPL_TILING_KEY: {message}" in run.stderr, run.stderr


TILING = r"""
#include <cstdio>
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"
#include "tiling_key_add_custom.h"

struct FakeContext {
  unsigned long long key = 0;
  void SetTilingKey(unsigned long long k) { key = k; }
};

int main() {
  FakeContext ctx;
  FakeContext* context = &ctx;
  uint32_t dt = C_DT_FLOAT16, fmt = C_FORMAT_ND, tile = 1, split = 0, kt = ASCENDC_TPL_AIV_ONLY;
  ASCENDC_TPL_SEL_PARAM(context, dt, fmt, tile, split, kt);
  std::printf("%llu %d\n", ctx.key, ctx.key == GET_TPL_TILING_KEY(dt, fmt, tile, split, kt) ? 1 : 0);
  return 0;
}
"""


@pytest.mark.api("ASCENDC_TPL_SEL_PARAM")
def test_ascendc_tpl_sel_param_sets_the_encoded_key_on_the_context(tmp_path: Path) -> None:
    run = _build_and_run(tmp_path, TILING)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(_key(1, 2, 1, 0, 0)), "1"]


@pytest.mark.api("模板参数定义")
def test_the_kernel_side_of_the_key_header_keeps_only_the_constants(tmp_path: Path) -> None:
    """In a kernel TU the definitions expand to nothing (no allocation in device code); the data type,
    format and kernel-type constants stay usable as template arguments."""
    _build(tmp_path, KERNEL, ("-D__CCE_AICORE__=220", "-fsyntax-only"))
