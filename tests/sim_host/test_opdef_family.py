"""The operator-prototype registration family (OpDef, OpParamDef, OpAttrDef, OpAICoreDef, OpAICoreConfig,
OpMC2Def, OpAICPUDef, OpHostCPUDef, REGISTER_OP_AICORE_CONFIG) with every documented method and
signature, and the semantics the launcher gives them: an output's InitValue fills its GM before the
kernel runs, a configuration registered with REGISTER_OP_AICORE_CONFIG serves the 910B like
AddConfig's, private attributes (OpImplRegisterV2::PrivateAttr) follow the IR attributes. Also the
generated FORMAT_<NAME> macros of the kernel TU, the choice of host translation units (operator-API
library sources are not compiled) and project-relative includes across op_host/op_kernel."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.checks import check_sources
from npukernelbench.extract import host_sources
from npukernelbench.toolchains.base import KernelProject, Launch, TensorArg

EVERY_METHOD_HOST = r"""
#include "register/op_def_registry.h"
#include "register/op_config_registry.h"

namespace optiling {
static ge::graphStatus EveryTiling(gert::TilingContext* context) { context->SetBlockDim(1); return ge::GRAPH_SUCCESS; }
static ge::graphStatus Check(const ge::Operator& op, ge::AscendString& result) {
  (void)op; (void)result; return ge::GRAPH_SUCCESS;
}
static ge::graphStatus Generalize(const ge::Operator& op, const ge::AscendString& config, ge::AscendString& out) {
  (void)op; (void)config; (void)out; return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus EveryInferShape(gert::InferShapeContext* context) { (void)context; return GRAPH_SUCCESS; }
static graphStatus EveryInferRange(gert::InferShapeRangeContext* context) { (void)context; return GRAPH_SUCCESS; }
static graphStatus EveryInferDtype(gert::InferDataTypeContext* context) { (void)context; return GRAPH_SUCCESS; }
}  // namespace ge

namespace ops {
class EveryCustom : public OpDef {
 public:
  explicit EveryCustom(const char* name) : OpDef(name) {
    this->Comment(CommentSection::CATEGORY, "probe").Comment(CommentSection::BRIEF, "every method");
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND})
        .DataTypeForBinQuery({ge::DT_FLOAT, ge::DT_FLOAT}).FormatForBinQuery({ge::FORMAT_ND, ge::FORMAT_ND})
        .AutoContiguous().Version(1).Comment("input x");
    this->Input("s").ParamType(OPTIONAL).DataTypeList({ge::DT_FLOAT}).FormatList({ge::FORMAT_ND})
        .ValueDepend(OPTIONAL, DependScope::TILING).Scalar().To(ge::DT_FLOAT);
    this->Input("t").ParamType(OPTIONAL).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND})
        .ValueDepend(REQUIRED).ScalarList().To("x").IgnoreContiguous();
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND}).Follow("x").Follow("x", FollowType::DTYPE)
        .InitValue(0).InitValue({ScalarType::INT16, 1})
        .InitValue({{ScalarType::FLOAT32, 0}, {ScalarType::FLOAT16, 0}}).OutputShapeDependOnCompute();
    this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f).Version(1).Comment("scale");
    this->Attr("mode").AttrType(REQUIRED).String();
    this->Attr("dims").AttrType(OPTIONAL).ListInt({1, 2});
    this->Attr("flags").AttrType(OPTIONAL).ListBool({true});
    this->Attr("ws").AttrType(OPTIONAL).ListFloat({0.5f});
    this->Attr("nested").AttrType(OPTIONAL).ListListInt({{1}, {2, 3}});
    this->Attr("b").AttrType(OPTIONAL).Bool(false);
    this->Attr("n").AttrType(OPTIONAL).Int(3);
    ge::AscendString& attr_name = this->Attr("n").GetName();
    required_ = this->Attr("mode").IsRequired() && std::string(attr_name.GetString()) == "n";
    this->SetInferShape(ge::EveryInferShape).SetInferShapeRange(ge::EveryInferRange)
        .SetInferDataType(ge::EveryInferDtype);
    this->AICore().SetTiling(optiling::EveryTiling).SetCheckSupport(optiling::Check)
        .SetOpSelectFormat(optiling::Check).SetOpSupportInfo(optiling::Check).SetOpSpecInfo(optiling::Check)
        .SetParamGeneralize(optiling::Generalize).LaunchWithZeroEleOutputTensors(true);
    OpAICoreConfig config;
    OpAICoreConfig other("ascend910b");
    config = other;
    config.DynamicCompileStaticFlag(true).DynamicFormatFlag(true).DynamicRankSupportFlag(true)
        .DynamicShapeSupportFlag(true).NeedCheckSupportFlag(false).PrecisionReduceFlag(true)
        .ExtendCfgInfo("opFile.value", "every_custom");
    config.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    config.Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().AddConfig("ascend910b", config).AddConfig("ascend910_93");   // chained, as cann-ops does
    this->AICPU().FunctionName("f").KernelSo("libk.so").UserDefined(true).FlagAsync(false).FlagPartial(false)
        .ComputeCost("100").Engine("DNN_VM_AICPU").OpkernelLib("CUSTAICPUKernel").ExtendCfgInfo("k", "v");
    this->HostCPU().FunctionName("f").KernelSo("libk.so").UserDefined(true).FlagAsync(false).FlagPartial(false)
        .ComputeCost("100").Engine("DNN_VM_HOST_CPU").OpkernelLib("HostCPUKernel").ExtendCfgInfo("k", "v");
    OpMC2Def mc2;
    OpMC2Def copy(mc2);
    mc2 = copy;
    this->MC2().HcclGroup("group").HcclGroup(std::vector<const char*>{"a", "b"});
    this->MC2().HcclServerType(HcclServerType::AICORE);
    this->MC2().HcclServerType(HcclServerType::AICPU, "ascend910b");
    this->EnableFallBack().FormatMatchMode(FormatCheckOption::STRICT);
  }
  bool required_ = false;
};
OP_ADD(EveryCustom);
}  // namespace ops
"""

INIT_HOST = r"""
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus InitTiling(gert::TilingContext* context) {
  context->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class InitCustom : public OpDef {
 public:
  explicit InitCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
        .Format({ge::FORMAT_NCHW, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).FormatList({ge::FORMAT_NHWC})
        .InitValue({{ScalarType::FLOAT32, 2.5f}, {ScalarType::FLOAT16, -1.0f}});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).InitValue(0);
    this->Output("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
    this->Output("f").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32});
    this->AICore().SetTiling(optiling::InitTiling);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(InitCustom);
}  // namespace ops
"""

# Writes only output f: the generated format and dtype macros of its build.
INIT_KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void init_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, GM_ADDR f,
                                                  GM_ADDR workspace, GM_ADDR tiling) {
  int32_t* out = reinterpret_cast<int32_t*>(f);
  out[0] = FORMAT_X;
  out[1] = FORMAT_Y;
  out[2] = FORMAT_Z;
  out[3] = FORMAT_ND;
  out[4] = DT_INT4;
  out[5] = ORIG_DTYPE_X;
  static_assert(FORMAT_NCHW == 0 && FORMAT_NHWC == 1 && FORMAT_NDC1HWC0 == 32, "ge::Format values");
}
"""

CFG_HOST = r"""
#include <cstring>
#include "register/op_def_registry.h"
#include "cfg_tiling.h"
#include "../op_kernel/cfg_common.h"

namespace optiling {
ge::graphStatus CfgTiling(gert::TilingContext* context);
}  // namespace optiling

namespace ops {
class CfgCustom : public OpDef {
 public:
  explicit CfgCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT64});
    this->Attr("alpha").AttrType(OPTIONAL).Int(kCfgAlpha);
    this->AICore().SetTiling(optiling::CfgTiling);
  }
};
OP_ADD(CfgCustom);
}  // namespace ops
"""

# Registers the 910B configuration apart from the OpDef (no AddConfig there).
CFG_CONFIG = r"""
#include "register/op_config_registry.h"
namespace ops {
REGISTER_OP_AICORE_CONFIG(CfgCustom, ascend910b, []() {
  ops::OpAICoreConfig config("ascend910b");
  return config;
});
}  // namespace ops
"""

# A prototype/tiling source that includes only the opdev log header: compiled (it defines the tiling).
CFG_TILING = r"""
#include <cstring>
#include "aclnn/opdev/op_log.h"
#include "register/op_impl_registry.h"
#include "cfg_tiling.h"

namespace optiling {
ge::graphStatus CfgTiling(gert::TilingContext* context) {
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  int64_t* v = context->GetTilingData<CfgTilingData>()->v;
  v[0] = static_cast<int64_t>(attrs->GetAttrNum());
  v[1] = *attrs->GetInt(0);
  v[2] = std::strcmp(attrs->GetStr(1), "SAME") == 0 ? 1 : 0;
  v[3] = *attrs->GetInt(2);
  v[4] = static_cast<int64_t>(attrs->GetListFloat(3)->GetSize());
  v[5] = static_cast<int64_t>(attrs->GetListFloat(3)->GetData()[1] * 10.0f);
  v[6] = *attrs->GetBool(4) ? 1 : 0;
  OP_LOGD(context->GetNodeName(), "tiling with %lld attributes", static_cast<long long>(v[0]));
  context->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(CfgCustom)
    .PrivateAttr("padding", "SAME")
    .PrivateAttr("mode", static_cast<int64_t>(5))
    .PrivateAttr("scales", std::vector<float>{0.5f, 1.5f})
    .PrivateAttr("flag", true);
}  // namespace optiling
"""

# Operator-API library sources (aclnn level-2 API, level-0 operator): not compiled by the tiling build,
# whatever their names (they would not compile here: opdev is CANN's operator-API runtime).
CFG_API = r"""
#include "opdev/op_executor.h"
#include "cfg_api.h"
aclnnStatus aclnnCfgCustomGetWorkspaceSize(const aclTensor* x, aclTensor* y, uint64_t* ws, aclOpExecutor** ex);
"""
CFG_API_HEADER = r"""
#pragma once
#include "aclnn/aclnn_base.h"
"""
CFG_LEVEL0 = r"""
#include "cfg_api.h"
namespace l0op { const aclTensor* CfgCustom(const aclTensor* x, aclOpExecutor* executor); }
"""

CFG_TILING_H = r"""
#pragma once
#include <cstdint>
struct CfgTilingData {
  int64_t v[8];
};
"""

CFG_KERNEL = r"""
#include "kernel_operator.h"
#include "../op_host/cfg_tiling.h"
#include "cfg_common.h"
extern "C" __global__ __aicore__ void cfg_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(CfgTilingData, t, tiling);
  int64_t* out = reinterpret_cast<int64_t*>(y);
  for (int i = 0; i < 7; ++i) out[i] = t.v[i];
  out[7] = kCfgAlpha;
}
"""

CFG_COMMON = "#pragma once\nconstexpr int64_t kCfgAlpha = 9;\n"

CFG_FILES = {
    "op_host/cfg_custom.cpp": CFG_HOST, "op_host/cfg_custom_config.cpp": CFG_CONFIG,
    "op_host/cfg_custom_tiling.cpp": CFG_TILING, "op_host/cfg_tiling.h": CFG_TILING_H,
    "op_host/cfg_custom_api.cpp": CFG_API, "op_host/cfg_api.h": CFG_API_HEADER, "op_host/cfg_level0.cc": CFG_LEVEL0,
    "op_kernel/cfg_custom.cpp": CFG_KERNEL, "op_kernel/cfg_common.h": CFG_COMMON,
}


def _describe(sim, host: str):
    return sim.describe(KernelProject(op="", kernel="", files={"op_host/probe.cpp": host}, params=()))


@pytest.mark.api("原型注册接口（OP_ADD）", "OpDef/Input", "OpDef/Output", "OpDef/Attr", "OpDef/SetInferShape",
                 "OpDef/SetInferDataType", "OpDef/AICore", "OpDef/Comment", "OpParamDef/ParamType",
                 "OpParamDef/DataType", "OpParamDef/DataTypeList",
                 "OpParamDef/UnknownShapeFormat（废弃）", "OpParamDef/Comment",
                 "OpAttrDef/Comment", "OpAICoreDef/SetTiling", "OpAICoreConfig/OpAICoreConfig构造函数",
                 "OpAICoreConfig/Input", "OpAICoreConfig/Output", "OpAICoreConfig/operator =", "EnableFallBack",
                 "FormatMatchMode", "AICPU", "HostCPU", "MC2",
                 "SetInferShapeRange", "DataTypeForBinQuery", "FormatForBinQuery", "To", "Version", "ValueDepend",
                 "InitValue", "Follow", "Scalar", "ScalarList", "AutoContiguous", "IgnoreContiguous",
                 "OutputShapeDependOnCompute", "SetCheckSupport", "SetOpSelectFormat", "SetOpSupportInfo",
                 "SetOpSpecInfo", "SetParamGeneralize", "LaunchWithZeroEleOutputTensors", "AddConfig",
                 "HcclGroup", "HcclServerType", "DynamicCompileStaticFlag", "DynamicFormatFlag",
                 "DynamicRankSupportFlag", "DynamicShapeSupportFlag", "NeedCheckSupportFlag", "PrecisionReduceFlag",
                 "FunctionName", "KernelSo", "UserDefined", "FlagAsync", "FlagPartial", "ComputeCost", "Engine",
                 "OpkernelLib", "ExtendCfgInfo")
def test_every_documented_registration_method_compiles_and_describes(sim) -> None:
    described = _describe(sim, EVERY_METHOD_HOST)
    assert described.ok, described.diagnostics
    sig = described.signature("EveryCustom")
    assert sig is not None
    assert [p.name for p in sig.inputs] == ["x", "s", "t"] and [p.name for p in sig.outputs] == ["y"]
    assert [a.name for a in sig.attrs] == ["alpha", "mode", "dims", "flags", "ws", "nested", "b", "n"]
    assert sig.inputs[1].any_column and sig.inputs[1].param_type == "OPTIONAL"
    assert sig.inputs[0].dtypes == ("float32", "float16")


@pytest.mark.parametrize("wrong, name", [
    ('this->Comment("text");', "Comment"),                                    # Comment takes a CommentSection
    ('this->AICore().SetCheckSupport([](int) { return ge::GRAPH_SUCCESS; });', "SetCheckSupport"),  # OP_CHECK_FUNC
    ('this->Input("x").ValueDepend(OPTIONAL, 1);', "ValueDepend"),            # the scope is a DependScope
])
@pytest.mark.api("OpDef/Comment", "SetCheckSupport", "ValueDepend")
def test_signatures_differing_from_the_documented_ones_do_not_compile(sim, wrong: str, name: str) -> None:
    assert _describe(sim, EVERY_METHOD_HOST).ok           # the file compiles without the wrong call
    host = EVERY_METHOD_HOST.replace('this->EnableFallBack()', wrong + '\n    this->EnableFallBack()')
    described = _describe(sim, host)
    assert not described.ok
    first = next(line for line in described.diagnostics.splitlines() if "error" in line)
    line = host.split("\n").index("    " + wrong) + 1
    assert f"probe.cpp:{line}:" in first and name in described.diagnostics


def _init_launch(dtype: str, np_dtype) -> Launch:
    outs = tuple(TensorArg(n, dtype, shape=(8,)) for n in ("y", "z", "w")) + (TensorArg("f", "int32", shape=(8,)),)
    return Launch(inputs=(TensorArg("x", dtype, np.ones(4, np_dtype)),), outputs=outs, attrs={})


@pytest.mark.api("InitValue", "Format", "FormatList")
@pytest.mark.parametrize("dtype, np_dtype, y_value, x_format", [
    ("float32", np.float32, 2.5, 0),       # column 0: y's first InitValue, x in NCHW
    ("float16", np.float16, -1.0, 2),      # column 1: y's second InitValue, x in ND
])
def test_init_value_fills_the_output_before_the_kernel_and_formats_reach_the_kernel(
        sim, make_project, dtype, np_dtype, y_value, x_format) -> None:
    params = [("x", "input", "REQUIRED", dtype), ("y", "output", "REQUIRED", dtype),
              ("z", "output", "REQUIRED", dtype), ("w", "output", "REQUIRED", dtype),
              ("f", "output", "REQUIRED", "int32")]
    build = sim.build(make_project("InitCustom", "init_custom", INIT_HOST, INIT_KERNEL, params))
    assert build.ok, build.diagnostics
    result = sim.run(build, _init_launch(dtype, np_dtype))
    assert result.ok, result.message
    assert np.all(result.outputs["y"] == np_dtype(y_value))           # InitValue per DataType column
    assert np.all(result.outputs["z"] == 0)                           # InitValue(0): zeroed
    assert np.all(result.outputs["w"].view(np.uint8) == 0xA5)         # no InitValue: still poisoned
    assert list(result.outputs["f"][:6]) == [x_format, 1, 2, 2, 29, 0 if dtype == "float32" else 1]


REF_HOST = r"""
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus RefTiling(gert::TilingContext* context) { context->SetBlockDim(1); return ge::GRAPH_SUCCESS; }
}  // namespace optiling

namespace ops {
class RefCustom : public OpDef {
 public:
  explicit RefCustom(const char* name) : OpDef(name) {
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
    this->AICore().SetTiling(optiling::RefTiling);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(RefCustom);
}  // namespace ops
"""

# An output named like an input is a ref parameter: its kernel argument and generated macros are y_ref.
REF_KERNEL = r"""
#include <type_traits>
#include "kernel_operator.h"
static_assert(std::is_same<DTYPE_Y, half>::value && ORIG_DTYPE_Y == DT_FLOAT16 && FORMAT_Y == FORMAT_ND, "input y");
static_assert(std::is_same<DTYPE_Y_REF, float>::value && ORIG_DTYPE_Y_REF == DT_FLOAT && FORMAT_Y_REF == FORMAT_NCHW,
              "output y: y_ref");
extern "C" __global__ __aicore__ void ref_custom(GM_ADDR y, GM_ADDR y_ref, GM_ADDR workspace, GM_ADDR tiling) {
  (void)y; (void)y_ref; (void)workspace; (void)tiling;
}
"""


@pytest.mark.api("Format")
def test_an_output_named_like_an_input_gets_the_generated_ref_macros(sim, make_project) -> None:
    params = [("y", "input", "REQUIRED", "float16"), ("y", "output", "REQUIRED", "float32")]
    build = sim.build(make_project("RefCustom", "ref_custom", REF_HOST, REF_KERNEL, params))
    assert build.ok, build.diagnostics


@pytest.fixture(scope="module")
def cfg_build(sim):
    from npukernelbench.toolchains.base import ParamSlot

    project = KernelProject(op="CfgCustom", kernel="cfg_custom", files=dict(CFG_FILES),
                            params=(ParamSlot("x", "input", "REQUIRED", "float32"),
                                    ParamSlot("y", "output", "REQUIRED", "int64")))
    build = sim.build(project)
    assert build.ok, build.diagnostics
    return build


@pytest.mark.api("OpAICoreConfig注册接口（REGISTER_OP_AICORE_CONFIG）")
def test_registered_aicore_config_and_private_attributes(sim, cfg_build) -> None:
    launch = Launch(inputs=(TensorArg("x", "float32", np.zeros(4, np.float32)),),
                    outputs=(TensorArg("y", "int64", shape=(8,)),), attrs={})
    result = sim.run(cfg_build, launch)
    assert result.ok, result.message                                   # the registered config serves the 910B
    v = list(result.outputs["y"])
    assert v[0] == 5                                                   # 1 IR attribute + 4 private ones
    assert v[1] == 9                                                   # the IR attribute's default comes first
    assert v[2:7] == [1, 5, 2, 15, 1]                                  # then the private ones, in order
    assert v[7] == 9                                                   # op_kernel's header, included from both


def test_a_config_registered_for_another_processor_only_is_refused(sim, make_project) -> None:
    files = dict(CFG_FILES)
    files["op_host/cfg_custom_config.cpp"] = CFG_CONFIG.replace("ascend910b", "ascend310p")
    from npukernelbench.toolchains.base import ParamSlot

    build = sim.build(KernelProject(op="CfgCustom", kernel="cfg_custom", files=files,
                                    params=(ParamSlot("x", "input", "REQUIRED", "float32"),
                                            ParamSlot("y", "output", "REQUIRED", "int64"))))
    assert build.ok, build.diagnostics
    result = sim.run(build, Launch(inputs=(TensorArg("x", "float32", np.zeros(4, np.float32)),),
                                   outputs=(TensorArg("y", "int64", shape=(8,)),), attrs={}))
    assert not result.ok
    assert "ascend910b" in result.message


def test_operator_api_library_sources_are_not_host_translation_units() -> None:
    assert host_sources(CFG_FILES) == ["op_host/cfg_custom.cpp", "op_host/cfg_custom_config.cpp",
                                       "op_host/cfg_custom_tiling.cpp"]
    with_l0_name = {**CFG_FILES, "op_host/cfg_custom_l0.cpp": "int x;", "op_host/aclnn_cfg.cpp": "int y;",
                    "op_host/sub/helper.cpp": "int z;"}
    assert host_sources(with_l0_name) == host_sources(CFG_FILES)


def test_project_relative_includes_pass_the_static_checks_and_escaping_ones_do_not(sim) -> None:
    headers, preprocessing = sim.include_allowlist(), sim.preprocessing()
    assert check_sources(CFG_FILES, headers, preprocessing) is None
    escaping = {**CFG_FILES, "op_host/cfg_custom.cpp": CFG_HOST.replace("../op_kernel/cfg_common.h",
                                                                        "../../common/cfg_common.h")}
    finding = check_sources(escaping, headers, preprocessing)
    assert finding is not None and finding.rule == "include-path"
