"""SoC profiles (``--npukb-soc``, ``npukernelbench.soc_profiles``): one table whose names and core counts
reach the platform APIs a tiling function calls, the block scheduler (waves beyond the vector cores, the
cube-core limit), the cost model's per-core accounting and the prompt's hardware text, at run time: one
build serves every profile. Public-layout tasks default to the SoC their upstream prompt names."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import numpy as np
import pytest

from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.layouts import layout_named
from npukernelbench.modes import task_soc
from npukernelbench.options import RunOptions
from npukernelbench.prompt import PromptOptions, build_messages
from npukernelbench.soc_profiles import DEFAULT_SOC, PROFILES, SOC_VERSION_VALUES, UnknownSoc, soc_profile
from npukernelbench.spec import load_spec
from npukernelbench.toolchains.ascendc_sim import platform
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR, RUNTIME_DIR
from npukernelbench.toolchains.base import Launch, TensorArg

ROOT = Path(__file__).resolve().parents[2]
ADD_CUSTOM = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom"
UPSTREAM_TASK = ROOT / "tests" / "data" / "npkb_tree" / "level1" / "Math" / "AddCustom"

HOST = r"""
#include <cstring>
#include <string>
#include "platform/platform_info.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
namespace optiling {
struct Probe {
  uint32_t v[8];
  char names[96];
};
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  const int64_t dim = *ctx->GetAttrs()->GetInt(0);
  const int64_t cube = *ctx->GetAttrs()->GetInt(1);
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
  Probe* p = ctx->GetTilingData<Probe>();
  p->v[0] = plat->GetCoreNumAiv();
  p->v[1] = plat->GetCoreNumAic();
  p->v[2] = plat->GetCoreNum();
  p->v[3] = static_cast<uint32_t>(plat->GetSocVersion());
  fe::PlatFormInfos infos;
  fe::OptionalInfos optional;
  fe::PlatformInfoManager::Instance().GetPlatformInfoWithOutSocVersion(infos, optional);
  p->v[4] = infos.GetCoreNumByType("VectorCore");
  p->v[5] = infos.GetCoreNumByType("CubeCore");
  p->v[6] = optional.GetAICoreNum();
  uint64_t ub = 0;
  plat->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  p->v[7] = static_cast<uint32_t>(ub);
  std::string soc, short_soc;
  infos.GetPlatformRes("version", "SoC_version", soc);
  infos.GetPlatformRes("version", "Short_SoC_version", short_soc);
  std::strncpy(p->names, soc.c_str(), 31);
  std::strncpy(p->names + 32, short_soc.c_str(), 31);
  std::strncpy(p->names + 64, optional.GetSocVersion().c_str(), 31);
  ctx->SetBlockDim(static_cast<uint32_t>(dim));
  if (cube != 0) ctx->SetTilingKey(2);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class SocProbe : public OpDef {
 public:
  explicit SocProbe(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("dim").AttrType(REQUIRED).Int();
    this->Attr("cube").AttrType(REQUIRED).Int();
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(SocProbe);
}  // namespace ops
"""

# Vector (key 0): every block writes its index. Cube only (key 2): every AI core writes 1000 + its index.
KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void soc_probe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KERNEL_TASK_TYPE(2, KERNEL_TYPE_AIC_ONLY);
  GlobalTensor<float> out;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 256);
  if ASCEND_IS_AIC {
    out.SetValue(GetBlockIdx(), 1000.0f + GetBlockIdx());
  } else {
    out.SetValue(GetBlockIdx(), static_cast<float>(GetBlockIdx()));
  }
}
"""

PARAMS = [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")]


@pytest.fixture(scope="module")
def probe_build(sim, make_project):
    build = sim.build(make_project("SocProbe", "soc_probe", HOST, KERNEL, PARAMS))
    assert build.ok, build.diagnostics
    return build


def launch(dim: int, soc: str | None, cube: bool = False) -> Launch:
    return Launch(inputs=(TensorArg("x", "float32", np.zeros(256, np.float32)),),
                  outputs=(TensorArg("y", "float32", shape=(256,)),),
                  attrs={"dim": ("int", dim), "cube": ("int", int(cube))}, soc=soc)


def probe(result) -> tuple[tuple[int, ...], tuple[str, ...]]:
    raw = bytes.fromhex(result.details["tiling_hex"])
    values = struct.unpack("<8I", raw[:32])
    names = tuple(raw[32 + 32 * i:64 + 32 * i].split(b"\0")[0].decode() for i in range(3))
    return values, names


# -- the table ---------------------------------------------------------------------------------------------

def test_the_table_holds_the_documented_profiles() -> None:
    assert DEFAULT_SOC == "Ascend910B3"
    nine_three = soc_profile("Ascend910_9392")
    assert (nine_three.short_name, nine_three.cube_cores, nine_three.vector_cores, nine_three.ub_bytes) == \
        ("Ascend910_93", 24, 48, 196_608)
    assert (soc_profile().cube_cores, soc_profile().vector_cores) == (20, 40)
    assert {"Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910_9392"} <= set(PROFILES)
    for p in PROFILES.values():
        assert p.vector_cores == 2 * p.cube_cores and p.source


def test_every_profile_has_the_memories_the_headers_compile_in() -> None:
    """Memories stay compile-time constants: every profile must have them, and a profile that has
    others is refused (the build would otherwise be shared wrongly between profiles)."""
    for name in PROFILES:
        hw = platform.simulated_hardware(name)
        assert (hw.ub_bytes, hw.l1_bytes, hw.l0a_bytes, hw.l0b_bytes, hw.l0c_bytes) == tuple(
            platform.header_constants()[k] for k in ("ub_bytes", "l1_bytes", "l0a_bytes", "l0b_bytes", "l0c_bytes"))
    from dataclasses import replace
    with pytest.raises(RuntimeError, match="compiled for other memories"):
        platform.check_profile(replace(soc_profile("Ascend910_9392"), ub_bytes=262_144))


def test_the_cpp_default_is_the_default_profile() -> None:
    """A program without a request (the CPU twin) runs the default profile: runtime.h and soc.cpp hold its
    figures, and platform_ascendc.h's SocVersion values are the table's."""
    default = soc_profile()
    constants = platform.header_constants()
    assert (constants["vector_cores"], constants["cube_cores"]) == (default.vector_cores, default.cube_cores)
    soc_cpp = (RUNTIME_DIR / "soc.cpp").read_text()
    assert f'"{default.name}"' in soc_cpp and f'"{default.short_name}"' in soc_cpp
    assert f"s.soc_version = {SOC_VERSION_VALUES[default.soc_version]};" in soc_cpp
    header = (INCLUDE_DIR / "tiling" / "platform" / "platform_ascendc.h").read_text()
    enum = re.search(r"enum class SocVersion \{(.*?)\};", header, re.S).group(1)
    members = [m.strip().split("=")[0].strip() for m in enum.split(",") if m.strip()]
    for member, value in SOC_VERSION_VALUES.items():
        assert members.index(member) == value


def test_an_unknown_profile_is_a_one_line_error() -> None:
    with pytest.raises(UnknownSoc, match=r"unknown SoC profile 'Ascend910Z': choose one of Ascend910B2, ") as info:
        soc_profile("Ascend910Z")
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="unknown SoC profile"):
        RunOptions(soc="Ascend910Z")
    assert RunOptions(soc="Ascend910_9392").eval_options().soc == "Ascend910_9392"


def test_an_unknown_profile_on_the_command_line_exits_non_zero(capsys) -> None:
    from npukernelbench.cli import main

    with pytest.raises(SystemExit) as info:
        main(["prompt", str(ADD_CUSTOM), "--project-level", "--npukb-soc", "Ascend910Z"])
    assert info.value.code != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert "invalid choice: 'Ascend910Z'" in err[-1]


# -- layouts and the prompt ------------------------------------------------------------------------------

def test_layouts_name_their_default_soc() -> None:
    """Project mode: the layout's SoC (the public expert answers were written for the 910B3); the upstream
    modes: the Ascend910_9392 their prompt names; --npukb-soc over both."""
    from npukernelbench.modes import KERNEL_ONLY, expand

    assert layout_named("case-toml").default_soc == DEFAULT_SOC
    assert layout_named("upstream").default_soc == "Ascend910B3"
    assert layout_named("mkb").default_soc == "Ascend910B2"
    ours, public = load_spec(ADD_CUSTOM), layout_named("upstream").load(UPSTREAM_TASK, UPSTREAM_TASK.parents[2])
    assert (task_soc(ours), task_soc(public)) == (DEFAULT_SOC, "Ascend910B3")
    row = expand(public, KERNEL_ONLY)[0]
    assert task_soc(row) == "Ascend910_9392" and task_soc(row, "Ascend910B4") == "Ascend910B4"
    assert task_soc(ours, "Ascend910B2") == task_soc(public, "Ascend910B2") == "Ascend910B2"


def test_the_prompts_hardware_text_follows_the_profile() -> None:
    ours = load_spec(ADD_CUSTOM)
    public = layout_named("upstream").load(UPSTREAM_TASK, UPSTREAM_TASK.parents[2])

    def hardware(spec, soc=None) -> str:
        text = build_messages(spec, RunOptions(project_level=True, soc=soc).prompt_options())[1]["content"]
        return text[text.index("## Hardware"):]

    assert "- SoC: Ascend910B3\n" in hardware(ours) and "(AIV): 40; AI Cube cores (AIC): 20" in hardware(ours)
    nine = hardware(public, "Ascend910_9392")
    assert "- SoC: Ascend910_9392\n" in nine and "(AIV): 48; AI Cube cores (AIC): 24" in nine
    assert hardware(ours, "Ascend910_9392") == nine
    assert hardware(public) == hardware(ours)
    assert PromptOptions(soc="Ascend910B2").target_hardware().vector_cores == 48


# -- the simulator ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(PROFILES))
def test_a_tiling_function_sees_the_profiles_platform(sim, probe_build, name: str) -> None:
    p = soc_profile(name)
    result = sim.run(probe_build, launch(4, name))
    assert result.ok, result.message
    values, names = probe(result)
    assert values == (p.vector_cores, p.cube_cores, p.vector_cores, SOC_VERSION_VALUES[p.soc_version],
                      p.vector_cores, p.cube_cores, p.cube_cores, p.ub_bytes)
    assert names == (p.name, p.short_name, p.name)
    assert result.details["cost"]["soc"] == name


def test_one_build_serves_every_profile(sim, probe_build, make_project) -> None:
    """The profile travels with the run, not the build: the build key is the same for every profile (a
    rebuild finds the same artifact) and each run reports its own profile's figures."""
    again = sim.build(make_project("SocProbe", "soc_probe", HOST, KERNEL, PARAMS))
    assert again.key == probe_build.key and again.artifact == probe_build.artifact
    b3, nine = (probe(sim.run(probe_build, launch(4, soc)))[0][0] for soc in ("Ascend910B3", "Ascend910_9392"))
    assert (b3, nine) == (40, 48)
    assert probe(sim.run(probe_build, launch(4, None)))[0][0] == 40     # no profile: the default


def test_48_blocks_run_in_one_wave_on_910_9392_and_two_on_910b3(sim, probe_build) -> None:
    wide = sim.run(probe_build, launch(48, "Ascend910_9392"))
    narrow = sim.run(probe_build, launch(48, "Ascend910B3"))
    for result in (wide, narrow):
        assert result.ok, result.message
        assert result.outputs["y"][:48].tolist() == list(range(48))
    assert (wide.details["cost"]["waves"], narrow.details["cost"]["waves"]) == (1, 2)
    assert "per_core_cycles" not in wide.details["cost"]
    assert len(narrow.details["cost"]["per_core_cycles"]) == 40


def test_the_cost_models_per_core_accounting_is_sized_by_the_profile(sim, probe_build) -> None:
    for soc, cores in (("Ascend910_9392", 48), ("Ascend910B3", 40)):
        cost = sim.run(probe_build, launch(100, soc)).details["cost"]
        assert (cost["vector_cores"], cost["waves"], len(cost["per_core_cycles"])) == (cores, -(-100 // cores), cores)


def test_24_cube_blocks_fit_910_9392_but_not_910b3(sim, probe_build) -> None:
    ok = sim.run(probe_build, launch(24, "Ascend910_9392", cube=True))
    assert ok.ok, ok.message
    assert ok.outputs["y"][:24].tolist() == [1000.0 + i for i in range(24)]
    refused = sim.run(probe_build, launch(24, "Ascend910B3", cube=True))
    assert not refused.ok
    assert "blockDim 24 outside 1..20" in refused.message and "Ascend910B3 has 20 AI cube cores" in refused.message
    assert sim.run(probe_build, launch(20, "Ascend910B3", cube=True)).ok


def test_an_unknown_profile_in_a_launch_is_the_harness_mistake(sim, probe_build) -> None:
    with pytest.raises(InfrastructureError, match="unknown SoC profile 'Ascend910Z'"):
        sim.run(probe_build, launch(4, "Ascend910Z"))


def test_the_docs_carry_the_generated_profile_table() -> None:
    from npukernelbench.soc_profiles import soc_table_markdown

    text = (ROOT / "docs" / "simulator.md").read_text(encoding="utf-8")
    begin = text.index("\n", text.index("<!-- soc-profiles:begin")) + 1
    assert text[begin:text.index("<!-- soc-profiles:end -->")] == soc_table_markdown(), \
        "docs/simulator.md: regenerate the table with python -m npukernelbench.soc_profiles"


def test_a_malformed_soc_line_is_refused_by_the_launcher(sim, probe_build, monkeypatch) -> None:
    """The launcher checks the figures it is handed (at least one core, no more cube than vector cores)."""
    from dataclasses import replace

    from npukernelbench.toolchains.ascendc_sim import launch_files

    broken = replace(soc_profile("Ascend910_9392"), cube_cores=48, vector_cores=24)
    monkeypatch.setattr(launch_files, "check_profile", lambda profile: broken)
    with pytest.raises(InfrastructureError, match="rejected the harness's request: .*malformed soc line"):
        sim.run(probe_build, launch(4, "Ascend910_9392"))
