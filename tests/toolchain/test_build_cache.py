"""Content-addressed build cache and build diagnostics."""

from __future__ import annotations

from npukernelbench.result import ErrorCategory

HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  ctx->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
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
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void copy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  // VARIANT
}
"""

PARAMS = [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")]


def test_identical_sources_are_a_cache_hit(sim, make_project):
    proj = make_project("CopyCustom", "copy_custom", HOST, KERNEL.replace("VARIANT", "cache-hit"), PARAMS)
    first = sim.build(proj)
    assert first.ok, first.diagnostics
    assert not first.cached
    second = sim.build(proj)
    assert second.ok and second.cached
    assert second.key == first.key and second.artifact == first.artifact
    assert second.seconds < 0.5


def test_changed_source_or_dtype_is_a_miss(sim, make_project):
    base = make_project("CopyCustom", "copy_custom", HOST, KERNEL.replace("VARIANT", "miss"), PARAMS)
    changed = make_project("CopyCustom", "copy_custom", HOST, KERNEL.replace("VARIANT", "miss 2"), PARAMS)
    other_dtype = make_project("CopyCustom", "copy_custom", HOST, KERNEL.replace("VARIANT", "miss"),
                               [(n, r, p, "float16") for n, r, p, _ in PARAMS])
    keys = {sim.build(p).key for p in (base, changed, other_dtype)}
    assert len(keys) == 3


def test_failed_build_is_classified_and_cached(sim, make_project):
    broken = KERNEL.replace("// VARIANT", "AscendC::LocalTensor<float> t; AscendC::Muls(t, t, t, 8);")
    proj = make_project("CopyCustom", "copy_custom", HOST, broken, PARAMS)
    first = sim.build(proj)
    assert not first.ok and first.artifact is None
    assert first.error_category is not None
    assert "op_kernel/copy_custom.cpp" in first.diagnostics
    again = sim.build(proj)
    assert again.cached and not again.ok
    assert again.diagnostics == first.diagnostics and again.error_category == first.error_category


def test_kernel_signature_must_match_the_opdef(sim, make_project):
    wrong = KERNEL.replace("GM_ADDR y, ", "")
    build = sim.build(make_project("CopyCustom", "copy_custom", HOST, wrong, PARAMS))
    assert not build.ok
    assert "copy_custom" in build.diagnostics


def test_host_syntax_error_is_reported_with_its_file(sim, make_project):
    host = HOST.replace("ctx->SetBlockDim(1);", "ctx->SetBlockDim(1)")
    build = sim.build(make_project("CopyCustom", "copy_custom", host, KERNEL, PARAMS))
    assert not build.ok
    assert build.error_category is ErrorCategory.SYNTAX_STRUCTURE
    assert "op_host/copy_custom.cpp" in build.diagnostics


def test_confinement_wrapper_failure_is_not_the_candidates_and_not_cached(tmp_path):
    """A build step whose only output is the confinement wrapper's own error (``unshare: ...``) is our
    machinery failing: reported as such and never written to the build cache."""
    from pathlib import Path

    from npukernelbench.sandbox import ProcessOutcome
    from npukernelbench.toolchains.ascendc_sim import builder

    wrapper = ProcessOutcome(returncode=1, stdout="", stderr="unshare: sigprocmask unblock failed: Invalid argument\n",
                             seconds=0.1)
    failure = builder._compile_failure(wrapper, Path(tmp_path), "linking the host code")
    assert failure.infra and builder.INFRA_MARKER in failure.diagnostics
    compiler = ProcessOutcome(returncode=1, stdout="", stderr="op_kernel/x.cpp:3:1: error: expected ';'\n", seconds=0.1)
    assert not builder._compile_failure(compiler, Path(tmp_path), "compiling op_kernel/x.cpp").infra
