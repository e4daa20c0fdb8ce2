"""``npukb cache info`` / ``npukb cache clear``, and what enters the build cache key."""

from __future__ import annotations

import dataclasses

from npukernelbench import confinement as conf_mod
from npukernelbench.cli import main
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain, builder
from npukernelbench.toolchains.ascendc_sim.compiler import find_compiler

HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) { ctx->SetBlockDim(1); return ge::GRAPH_SUCCESS; }
}
namespace ops {
class CopyCustom : public OpDef {
 public:
  explicit CopyCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(CopyCustom);
}
"""
KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void copy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  BODY
}
"""
PARAMS = [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")]


def test_info_and_clear(sim, make_project, tmp_path, capsys) -> None:
    toolchain = AscendCSimToolchain(cache_dir=tmp_path / "cache")
    assert toolchain.build(make_project("CopyCustom", "copy_custom", HOST, KERNEL.replace("BODY", ""), PARAMS)).ok
    broken = toolchain.build(make_project("CopyCustom", "copy_custom", HOST, KERNEL.replace("BODY", "int x = ;"),
                                          PARAMS))
    assert not broken.ok
    assert main(["cache", "info", "--cache-dir", str(tmp_path / "cache")]) == 0
    out = capsys.readouterr().out
    assert f"build cache: {tmp_path / 'cache'}" in out and "builds: 1 successful, 1 with compiler diagnostics" in out
    assert "runtime objects: 1 compiler/simulator version(s)" in out
    # copy_custom's host step and the toolchain self-test's, both reusable by later builds
    assert "host descriptions (host steps reused by builds of the same op_host sources): 2" in out
    assert main(["cache", "clear", "--cache-dir", str(tmp_path / "cache")]) == 0
    assert "cleared the build cache" in capsys.readouterr().out
    assert not any((tmp_path / "cache" / part).exists() for part in ("builds", "runtime", "pch", "tmp"))
    main(["cache", "info", "--cache-dir", str(tmp_path / "cache")])
    out = capsys.readouterr().out
    assert "builds: 0 successful, 0 with compiler diagnostics" in out and "reused by builds of the same op_host " \
        "sources): 0" in out


def test_key_covers_compiler_identity_and_confinement(make_project, monkeypatch) -> None:
    monkeypatch.delenv(conf_mod.ENV_CAP, raising=False)
    project = make_project("CopyCustom", "copy_custom", HOST, KERNEL.replace("BODY", ""), PARAMS)
    compiler = find_compiler()
    assert not isinstance(compiler, str), compiler
    assert compiler.identity.startswith(compiler.version) and compiler.identity != compiler.version
    key = builder.build_key(project, compiler)
    rebuilt = dataclasses.replace(compiler, identity=compiler.identity + "|another binary")
    assert builder.build_key(project, rebuilt) != key
    monkeypatch.setenv(conf_mod.ENV_CAP, conf_mod.RLIMITS)
    capped = builder.build_key(project, compiler)
    assert (capped != key) == (conf_mod._detect("").level != conf_mod.RLIMITS)
