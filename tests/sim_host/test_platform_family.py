"""PlatformAscendC and PlatformAscendCManager with every documented method: a host program compiled with the
real compiler against the simulator's headers and run. The platform is the 910B (Atlas A2 training
series); ReserveLocalMemory takes its space off what GetCoreMemSize reports for the UB."""

from __future__ import annotations

import subprocess

import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR, RUNTIME_DIR

PROGRAM = r"""
#include <cstdio>
#include "tiling/platform/platform_ascendc.h"
using namespace platform_ascendc;

int main() {
  fe::PlatFormInfos* infos = nullptr;       // what TilingContext::GetPlatformInfo() hands a TilingFunc
  PlatformAscendC plat(infos);
  uint64_t ub = 0, l1 = 0, bw = 0;
  plat.GetCoreMemSize(CoreMemType::UB, ub);
  plat.GetCoreMemSize(CoreMemType::L1, l1);
  plat.GetCoreMemBw(CoreMemType::HBM, bw);
  std::printf("cores %u %u %u %u\n", plat.GetCoreNum(), plat.GetCoreNumAic(), plat.GetCoreNumAiv(),
              plat.GetCoreNumVector());
  std::printf("mem %llu %llu %d\n", (unsigned long long)ub, (unsigned long long)l1, bw > 0 ? 1 : 0);
  std::printf("soc %d arch %u vreg %u\n", plat.GetSocVersion() == SocVersion::ASCEND910B ? 1 : 0,
              static_cast<unsigned>(plat.GetCurNpuArch()), plat.GetVecRegLen());
  std::printf("ws %u %u %u\n", plat.GetLibApiWorkSpaceSize(), plat.GetResCubeGroupWorkSpaceSize(),
              plat.GetResGroupBarrierWorkSpaceSize());
  std::printf("blocks %u %u %u\n", plat.CalcTschNumBlocks(10, 20, 40), plat.CalcTschNumBlocks(10, 0, 40),
              plat.CalcTschBlockDim(7, 1, 2));
  plat.ReserveLocalMemory(ReservedSize::RESERVED_SIZE_32K);
  plat.ReserveLocalMemory(ReservedSize::RESERVED_SIZE_16K);       // the last call wins
  plat.GetCoreMemSize(CoreMemType::UB, ub);
  std::printf("reserved %llu\n", (unsigned long long)ub);
  PlatformAscendC* one = PlatformAscendCManager::GetInstance();
  PlatformAscendC* two = PlatformAscendCManager::GetInstance("Ascend910B3");
  std::printf("manager %d %u\n", one == two ? 1 : 0, one->GetCoreNumAiv());
  return 0;
}
"""


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> str:
    compiler = find_compiler()
    if isinstance(compiler, str):
        pytest.fail(f"no C++ compiler: {compiler}", pytrace=False)
    folder = tmp_path_factory.mktemp("platform")
    (folder / "main.cpp").write_text(PROGRAM, encoding="utf-8")
    # the core counts and SoC version come from the runtime's SoC profile (runtime/soc.cpp): the default here
    build = subprocess.run([compiler.path, "-std=c++17", "-w", "-I", str(INCLUDE_DIR), "main.cpp",
                            str(RUNTIME_DIR / "soc.cpp"), "-o", "prog"],
                           cwd=folder, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run([str(folder / "prog")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.api("PlatformAscendC/GetCoreNum", "GetCoreNumAic", "GetCoreNumAiv", "GetCoreNumVector", "GetCoreMemSize",
                 "GetCoreMemBw", "GetSocVersion", "GetCurNpuArch", "GetVecRegLen", "GetLibApiWorkSpaceSize",
                 "GetResCubeGroupWorkSpaceSize", "GetResGroupBarrierWorkSpaceSize", "PlatformAscendC",
                 "PlatformAscendCManager")
def test_platform_figures_are_the_910b(output: str) -> None:
    assert "cores 40 20 40 0" in output            # no separate Vector Core outside the inference series
    assert "mem 196608 524288 1" in output
    assert "soc 1 arch 2201 vreg 0" in output       # DAV_2201, not a RegBase architecture
    assert "ws 16777216 0 0" in output
    assert "manager 1 40" in output                  # one instance, whatever SoC name is passed


@pytest.mark.api("CalcTschNumBlocks")
def test_calc_tsch_num_blocks_counts_ai_cores_for_mixed_kernels(output: str) -> None:
    assert "blocks 5 10 4" in output                # 2 AIV per AIC: ceil(10/2); vector-only: 10; old name agrees


@pytest.mark.api("ReserveLocalMemory")
def test_reserve_local_memory_takes_space_off_the_ub(output: str) -> None:
    assert f"reserved {196608 - 16384}" in output
