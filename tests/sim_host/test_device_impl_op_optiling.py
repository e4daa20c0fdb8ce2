"""Tiling下沉: DEVICE_IMPL_OP_OPTILING(optype).Tiling(func) registers a tiling function for an op type,
checked from its doc page with a host program compiled with the real compiler against the simulator's
headers and run: the registration is found by op type, calls the registered function, a later Tiling
call replaces an earlier one, and the registration class copies and moves as its prototypes say."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR

PROGRAM = r"""
#include <cstdio>
#include <type_traits>
#include "register/op_def_registry.h"

static int g_calls = 0;
static ge::graphStatus AddTiling(gert::TilingContext*) { g_calls += 1; return ge::GRAPH_SUCCESS; }
static ge::graphStatus MulTiling(gert::TilingContext*) { g_calls += 10; return ge::GRAPH_FAILED; }
static ge::graphStatus MulTiling2(gert::TilingContext*) { g_calls += 100; return ge::GRAPH_SUCCESS; }

DEVICE_IMPL_OP_OPTILING(AddCustom).Tiling(AddTiling);
DEVICE_IMPL_OP_OPTILING(MulCustom).Tiling(MulTiling);

static_assert(!std::is_copy_assignable<optiling::DeviceOpImplRegister>::value, "copy assignment is deleted");
static_assert(!std::is_move_assignable<optiling::DeviceOpImplRegister>::value, "move assignment is deleted");
static_assert(std::is_nothrow_move_constructible<optiling::DeviceOpImplRegister>::value, "noexcept move");

int main() {
  const optiling::SinkTilingFunc* add = npukb::sink_tiling_func("AddCustom");
  const optiling::SinkTilingFunc* mul = npukb::sink_tiling_func("MulCustom");
  std::printf("found %d %d %d\n", add != nullptr, mul != nullptr, npukb::sink_tiling_func("SubCustom") != nullptr);
  const unsigned a = (*add)(nullptr);
  const unsigned m = (*mul)(nullptr);
  std::printf("status %u %u calls %d\n", a, m, g_calls);
  optiling::DeviceOpImplRegister reg("MulCustom");
  optiling::DeviceOpImplRegister copied(reg);
  optiling::DeviceOpImplRegister moved(std::move(copied));
  moved.Tiling(MulTiling2);
  g_calls = 0;
  const unsigned r = (*npukb::sink_tiling_func("MulCustom"))(nullptr);
  std::printf("replaced %u calls %d\n", r, g_calls);
  return 0;
}
"""


@pytest.mark.api("DEVICE_IMPL_OP_OPTILING")
def test_device_impl_op_optiling_registers_the_tiling_function_of_an_op_type(tmp_path: Path) -> None:
    compiler = find_compiler()
    if isinstance(compiler, str):
        pytest.fail(f"no C++ compiler: {compiler}", pytrace=False)
    (tmp_path / "main.cpp").write_text(PROGRAM, encoding="utf-8")
    build = subprocess.run([compiler.path, "-std=c++17", "-w", "-I", str(INCLUDE_DIR), "main.cpp", "-o", "prog"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run([str(tmp_path / "prog")], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         env={"PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["found 1 1 0", f"status 0 {0xFFFFFFFF} calls 11", "replaced 0 calls 100"]
