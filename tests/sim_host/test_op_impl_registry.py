"""IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE registrations as the launcher runs them: TilingParse before
tiling with a value-initialised compile-info object (GetCompileInfo), InferShape / InferDataType
compared with the task's outputs (warnings), platform figures through fe::PlatFormInfos, and misuse
that must not compile."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

PROBE_H = r"""
#pragma once
#include <cstdint>
struct ProbeTiling {
  int64_t v[32];
};
"""

# Tiling and TilingParse registered with IMPL_OP_OPTILING only (the OpDef sets no tiling function).
PARSE_HOST = r"""
#include "probe_tiling.h"
#include "register/op_def_registry.h"
#include "platform/platform_info.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct ParseCompileInfo {
  int64_t parse_calls;
  int64_t core_num;
  uint64_t ub_size;
  uint64_t l0c_size;
  int64_t json_is_empty_object;
  int64_t vector_cores;
  int64_t untouched;
};
static int g_parse_calls = 0;
static int g_tiling_calls = 0;

static ge::graphStatus PrepareParse(gert::TilingParseContext* ctx) {
  ParseCompileInfo* ci = ctx->GetCompiledInfo<ParseCompileInfo>();
  fe::PlatFormInfos* plat = ctx->GetPlatformInfo();
  if (ci == nullptr || plat == nullptr || g_tiling_calls != 0) {
    return ge::GRAPH_FAILED;
  }
  ci->parse_calls = ++g_parse_calls;
  ci->core_num = plat->GetCoreNum();
  plat->GetLocalMemSize(fe::LocalMemType::UB, ci->ub_size);
  plat->GetLocalMemSize(fe::LocalMemType::L0_C, ci->l0c_size);
  ci->json_is_empty_object = std::string(ctx->GetCompiledJson()) == "{}" ? 1 : 0;
  ci->vector_cores = platform_ascendc::PlatformAscendC(plat).GetCoreNumAiv();
  return ctx->GetNodeType() == std::string("ParseCustom") ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}

static ge::graphStatus ParseTiling(gert::TilingContext* ctx) {
  ++g_tiling_calls;
  const ParseCompileInfo* ci = ctx->GetCompileInfo<ParseCompileInfo>();
  const void* raw = ctx->GetCompileInfo();
  int64_t* v = ctx->GetTilingData<ProbeTiling>()->v;
  v[0] = ci->parse_calls;
  v[1] = g_tiling_calls;
  v[2] = ci->core_num;
  v[3] = static_cast<int64_t>(ci->ub_size);
  v[4] = static_cast<int64_t>(ci->l0c_size);
  v[5] = ci->json_is_empty_object;
  v[6] = ci->vector_cores;
  v[7] = ci->untouched;
  v[8] = raw == static_cast<const void*>(ci) ? 1 : 0;
  v[9] = ctx->GetComputeNodeInputNum();
  v[10] = ctx->GetComputeNodeOutputNum();
  fe::PlatFormInfos infos;
  fe::OptionalInfos optional;
  v[11] = fe::PlatformInfoManager::Instance().GetPlatformInfoWithOutSocVersion(infos, optional);
  std::string soc;
  v[12] = infos.GetPlatformRes("version", "Short_SoC_version", soc) && soc == "Ascend910B" ? 1 : 0;
  v[13] = infos.GetCoreNumByType("VectorCore");
  v[14] = infos.GetCoreNumByType("AiCore");
  v[15] = optional.GetAICoreNum();
  v[16] = ge::UNKNOWN_DIM;
  v[17] = ge::UNKNOWN_DIM_NUM;
  ctx->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(ParseCustom).Tiling(ParseTiling).TilingParse<ParseCompileInfo>(PrepareParse);
}  // namespace optiling

namespace ops {
class ParseCustom : public OpDef {
 public:
  explicit ParseCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ParseCustom);
}  // namespace ops
"""

COPY_TILING_KERNEL = r"""
#include "kernel_operator.h"
#include "probe_tiling.h"
extern "C" __global__ __aicore__ void {kernel}(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(ProbeTiling, t, tiling);
  int64_t* out = reinterpret_cast<int64_t*>(y);
  for (int i = 0; i < 32; ++i) out[i] = t.v[i];
}
"""

PROBE_PARAMS = [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "int64")]


def _probe_launch() -> Launch:
    return Launch(inputs=(TensorArg("x", "float32", np.zeros((4, 8), np.float32)),),
                  outputs=(TensorArg("y", "int64", shape=(32,)),), attrs={})


@pytest.fixture(scope="module")
def parse_build(sim, make_project):
    proj = make_project("ParseCustom", "parse_custom", PARSE_HOST,
                        COPY_TILING_KERNEL.replace("{kernel}", "parse_custom"), PROBE_PARAMS,
                        {"op_host/probe_tiling.h": PROBE_H, "op_kernel/probe_tiling.h": PROBE_H})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    return build


def test_tiling_parse_runs_once_before_tiling_with_the_compile_info(sim, parse_build):
    result = sim.run(parse_build, _probe_launch())
    assert result.ok, result.message
    v = result.outputs["y"]
    assert list(v[:2]) == [1, 1]                   # one TilingParse, then one tiling call
    assert list(v[2:7]) == [40, 196608, 131072, 1, 40]
    assert v[7] == 0                               # compile info is value-initialised
    assert v[8] == 1                               # GetCompileInfo() and GetCompileInfo<T>() agree
    assert list(v[9:11]) == [1, 1]


def test_platform_info_manager_describes_the_910b(sim, parse_build):
    result = sim.run(parse_build, _probe_launch())
    assert result.ok, result.message
    v = result.outputs["y"]
    assert list(v[11:18]) == [0, 1, 40, 20, 20, -1, -2]


def test_failing_tiling_parse_is_reported(sim, make_project):
    host = PARSE_HOST.replace('return ctx->GetNodeType() == std::string("ParseCustom") ? ge::GRAPH_SUCCESS : '
                              'ge::GRAPH_FAILED;', "return ge::GRAPH_FAILED;")
    proj = make_project("ParseCustom", "parse_custom", host, COPY_TILING_KERNEL.replace("{kernel}", "parse_custom"),
                        PROBE_PARAMS, {"op_host/probe_tiling.h": PROBE_H, "op_kernel/probe_tiling.h": PROBE_H})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    result = sim.run(build, _probe_launch())
    assert not result.ok
    assert "TilingParse" in result.message and "returned failure" in result.message


# InferShape / InferDataType in their own TU (as _proto.cpp files do), tiling through the OpDef.
SHAPE_PROTO = r"""
#include "register/op_def_registry.h"
namespace ops {
static ge::graphStatus InferShape4ShapeCustom(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  gert::Shape* y = ctx->GetOutputShape(0);
  if (x == nullptr || y == nullptr || ctx->GetComputeNodeInputNum() != 1 || *ctx->GetAttrs()->GetBool(0)) {
    return ge::GRAPH_FAILED;
  }
  *y = *x;
  return ge::GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType4ShapeCustom(gert::InferDataTypeContext* ctx) {
  return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
}
IMPL_OP_INFERSHAPE(ShapeCustom).InferShape(InferShape4ShapeCustom).InferDataType(InferDataType4ShapeCustom);
}  // namespace ops
"""

SHAPE_HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus ShapeTiling(gert::TilingContext* ctx) {
  ctx->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class ShapeCustom : public OpDef {
 public:
  explicit ShapeCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("fail").AttrType(OPTIONAL).Bool(false);
    this->AICore().SetTiling(optiling::ShapeTiling);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ShapeCustom);
}  // namespace ops
"""

SHAPE_KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void shape_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  const float* xs = reinterpret_cast<const float*>(x);
#if ORIG_DTYPE_Y == DT_FLOAT
  float* ys = reinterpret_cast<float*>(y);
  for (int i = 0; i < 24; ++i) ys[i] = xs[i] + 1.0f;
#endif
}
"""


@pytest.fixture(scope="module")
def shape_builds(sim, make_project):
    def build(y_dtype: str):
        proj = make_project("ShapeCustom", "shape_custom", SHAPE_HOST, SHAPE_KERNEL,
                            [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", y_dtype)],
                            {"op_host/shape_custom_proto.cpp": SHAPE_PROTO})
        b = sim.build(proj)
        assert b.ok, b.diagnostics
        return b
    return {"float32": build("float32"), "float16": build("float16")}


def _shape_launch(y_shape, y_dtype="float32", fail=False) -> Launch:
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    return Launch(inputs=(TensorArg("x", "float32", x),), outputs=(TensorArg("y", y_dtype, shape=y_shape),),
                  attrs={"fail": ("bool", fail)})


def test_infer_shape_that_agrees_runs_without_warnings(sim, shape_builds):
    result = sim.run(shape_builds["float32"], _shape_launch((4, 6)))
    assert result.ok, result.message
    assert np.array_equal(result.outputs["y"], np.arange(24, dtype=np.float32).reshape(4, 6) + 1)
    assert result.details["host_warnings"] == []


# The single-operator (aclnn) path does not run InferShape / InferDataType: what they get wrong is a
# warning in the result details, and the kernel still runs on the task's outputs.
def test_infer_shape_disagreeing_with_the_task_is_a_warning(sim, shape_builds):
    result = sim.run(shape_builds["float32"], _shape_launch((24,)))
    assert result.ok, result.message
    assert result.details["host_warnings"] == [
        "InferShape of op ShapeCustom gives output 'y' the shape [4, 6] but the task's output 'y' has shape [24]"]
    assert np.array_equal(result.outputs["y"], np.arange(24, dtype=np.float32) + 1)


def test_infer_datatype_disagreeing_with_the_task_is_a_warning(sim, shape_builds):
    result = sim.run(shape_builds["float16"], _shape_launch((4, 6), "float16"))
    assert result.ok, result.message
    assert result.details["host_warnings"] == [
        "InferDataType of op ShapeCustom gives output 'y' the data type DT_FLOAT but the task's output 'y' is "
        "DT_FLOAT16"]


def test_failing_infer_shape_is_a_warning(sim, shape_builds):
    result = sim.run(shape_builds["float32"], _shape_launch((4, 6), fail=True))
    assert result.ok, result.message
    assert result.details["host_warnings"] == ["InferShape of op ShapeCustom returned failure (status 4294967295)"]


def test_crashing_infer_shape_cannot_touch_the_launch(sim, make_project):
    proto = SHAPE_PROTO.replace("  *y = *x;\n", "  *y = *x;\n  *static_cast<volatile int*>(nullptr) = 1;\n")
    assert proto != SHAPE_PROTO
    proj = make_project("ShapeCustom", "shape_custom", SHAPE_HOST, SHAPE_KERNEL,
                        [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")],
                        {"op_host/shape_custom_proto.cpp": proto})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    result = sim.run(build, _shape_launch((4, 6)))
    assert result.ok, result.message
    assert result.details["host_warnings"] == ["InferShape/InferDataType of op ShapeCustom crashed (signal 11)"]
    assert np.array_equal(result.outputs["y"], np.arange(24, dtype=np.float32).reshape(4, 6) + 1)


# Misuse that the real headers reject must not compile here either: (replace, by, expected diagnostic).
MISUSE = {
    "tiling_parse_without_compile_info_type": (
        "TilingParse<ParseCompileInfo>(PrepareParse);", "TilingParse(PrepareParse);", "TilingParse"),
    "tiling_parse_with_a_tiling_function": (
        "TilingParse<ParseCompileInfo>(PrepareParse);", "TilingParse<ParseCompileInfo>(ParseTiling);", "TilingParse"),
    "writing_through_the_tiling_compile_info": (
        "v[0] = ci->parse_calls;", "v[0] = ci->parse_calls = 5;", "read-only"),
    "compiled_info_on_the_tiling_context": (
        "const ParseCompileInfo* ci = ctx->GetCompileInfo<ParseCompileInfo>();",
        "const ParseCompileInfo* ci = ctx->GetCompiledInfo<ParseCompileInfo>();", "GetCompiledInfo"),
}


@pytest.mark.parametrize("name", sorted(MISUSE))
def test_misuse_does_not_compile(sim, make_project, name):
    old, new, expected = MISUSE[name]
    assert old in PARSE_HOST
    proj = make_project("ParseCustom", "parse_custom", PARSE_HOST.replace(old, new),
                        COPY_TILING_KERNEL.replace("{kernel}", "parse_custom"), PROBE_PARAMS,
                        {"op_host/probe_tiling.h": PROBE_H, "op_kernel/probe_tiling.h": PROBE_H})
    build = sim.build(proj)
    assert not build.ok
    assert expected in build.diagnostics, build.diagnostics


@pytest.mark.parametrize("with_platform_info", [True, False])
def test_unqualified_std_names_only_through_platform_info(sim, make_project, with_platform_info):
    """CANN's platform/platform_info.h declares std::map/string/vector globally; nothing else does."""
    include = '#include "platform/platform_info.h"\n' if with_platform_info else ""
    host = SHAPE_HOST.replace('#include "register/op_def_registry.h"\n',
                              '#include "register/op_def_registry.h"\n' + include, 1)
    host = host.replace("namespace optiling {", "namespace optiling {\nstatic const map<int, string> kNames = {};", 1)
    proj = make_project("ShapeCustom", "shape_custom", host, SHAPE_KERNEL,
                        [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")])
    build = sim.build(proj)
    assert build.ok == with_platform_info, build.diagnostics
    if not with_platform_info:
        assert "map" in build.diagnostics
