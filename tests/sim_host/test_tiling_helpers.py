"""Host helpers real op_host code builds on: tiling templates (TilingBaseClass + TilingRegistry), the
SoftMax, SoftmaxFlashV2 and Mean host tiling of the AscendC library (a nested SoftMaxTiling struct reaching the
kernel), ge::Shape, and the CANN logging / error-report macros."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import HOST_FLAGS, Compiler, find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR
from npukernelbench.toolchains.base import Launch, TensorArg

TILING_H = r"""
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(LibTiling)
  TILING_DATA_FIELD_DEF(int64_t, trace);
  TILING_DATA_FIELD_DEF(int64_t, shapeSize);
  TILING_DATA_FIELD_DEF(uint32_t, meanMin);
  TILING_DATA_FIELD_DEF(uint32_t, meanMax);
  TILING_DATA_FIELD_DEF(uint32_t, softmaxMin);
  TILING_DATA_FIELD_DEF(uint32_t, softmaxMax);
  TILING_DATA_FIELD_DEF(uint32_t, plainSplitM);
  TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, sm);
  TILING_DATA_FIELD_DEF(uint32_t, flashMin);
  TILING_DATA_FIELD_DEF(uint32_t, flashMax);
  TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, flash);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LibCustom, LibTiling)
}  // namespace optiling
"""

HOST = r"""
#include "lib_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_base.h"
#include "tiling/tiling_templates_registry.h"

namespace optiling {
static int64_t g_trace = 0;
static void Step(int id) { g_trace = g_trace * 10 + id; }

class NotCapableTiling : public TilingBaseClass {
 public:
  explicit NotCapableTiling(gert::TilingContext* context) : TilingBaseClass(context) {}
 protected:
  ge::graphStatus GetShapeAttrsInfo() override { Step(1); return ge::GRAPH_SUCCESS; }
  ge::graphStatus GetPlatformInfo() override { Step(2); return ge::GRAPH_SUCCESS; }
  bool IsCapable() override { Step(3); return false; }
  ge::graphStatus DoOpTiling() override { Step(9); return ge::GRAPH_SUCCESS; }
  ge::graphStatus DoLibApiTiling() override { Step(9); return ge::GRAPH_SUCCESS; }
  uint64_t GetTilingKey() const override { return 7; }
  ge::graphStatus GetWorkspaceSize() override { Step(9); return ge::GRAPH_SUCCESS; }
  ge::graphStatus PostTiling() override { Step(9); return ge::GRAPH_SUCCESS; }
};

class LibTilingTemplate : public TilingBaseClass {
 public:
  explicit LibTilingTemplate(gert::TilingContext* context) : TilingBaseClass(context) {}
 protected:
  ge::graphStatus GetShapeAttrsInfo() override { Step(1); return ge::GRAPH_SUCCESS; }
  ge::graphStatus GetPlatformInfo() override {
    Step(2);
    auto plat = platform_ascendc::PlatformAscendC(context_->GetPlatformInfo());
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, aicoreParams_.ubSize);
    return ge::GRAPH_SUCCESS;
  }
  bool IsCapable() override { Step(3); return aicoreParams_.ubSize == 196608; }
  ge::graphStatus DoOpTiling() override {
    Step(4);
    const gert::Shape& x = context_->GetInputShape(0)->GetStorageShape();
    std::vector<int64_t> dims;
    for (size_t i = 0; i < x.GetDimNum(); ++i) dims.push_back(x.GetDim(i));
    ge::Shape shape(dims);
    td_.set_shapeSize(shape.GetShapeSize());
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus DoLibApiTiling() override {
    Step(5);
    ge::Shape rows({7, 40});
    uint32_t minSize = AscendC::GetSoftMaxMinTmpSize(rows, 2, false);
    td_.set_softmaxMin(minSize);
    td_.set_softmaxMax(AscendC::GetSoftMaxMaxTmpSize(rows, 2, false));
    AscendC::SoftMaxTilingFunc(rows, 2, 2 * minSize + 10, td_.sm);
    AscendC::tiling::SoftMaxTiling plain{};
    AscendC::SoftMaxTilingFunc(rows, 2, 3 * minSize, plain);
    td_.set_plainSplitM(plain.splitM);
    ge::Shape scores({6, 64});
    uint32_t flashMin = AscendC::GetSoftMaxFlashV2MinTmpSize(scores, 4, 4, true);
    td_.set_flashMin(flashMin);
    td_.set_flashMax(AscendC::GetSoftMaxFlashV2MaxTmpSize(scores, 4, 4, true, true));
    AscendC::SoftMaxFlashV2TilingFunc(scores, 4, 4, 4 * flashMin, td_.flash, true, true);
    uint32_t meanMax = 0, meanMin = 0;
    AscendC::GetMeanMaxMinTmpSize(40, 2, 4, false, meanMax, meanMin);
    td_.set_meanMin(meanMin);
    td_.set_meanMax(meanMax);
    return ge::GRAPH_SUCCESS;
  }
  uint64_t GetTilingKey() const override { return 42; }
  ge::graphStatus GetWorkspaceSize() override {
    Step(6);
    context_->GetWorkspaceSizes(1)[0] = 64;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus PostTiling() override {
    Step(7);
    td_.set_trace(g_trace);
    context_->SetBlockDim(1);
    td_.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
    context_->GetRawTilingData()->SetDataSize(td_.GetDataSize());
    return ge::GRAPH_SUCCESS;
  }
 private:
  LibTiling td_;
};

REGISTER_TILING_TEMPLATE("LibCustom", LibTilingTemplate, 20);
REGISTER_TILING_TEMPLATE("LibCustom", NotCapableTiling, 10);

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  return TilingRegistry::GetInstance().DoTilingImpl(context);
}
}  // namespace optiling

namespace ops {
class LibCustom : public OpDef {
 public:
  explicit LibCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(LibCustom);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void lib_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(td, tiling);
  const SoftMaxTiling& sm = td.sm;
  int64_t* out = reinterpret_cast<int64_t*>(y);
  out[0] = td.trace;
  out[1] = td.shapeSize;
  out[2] = td.meanMin;
  out[3] = td.meanMax;
  out[4] = td.softmaxMin;
  out[5] = td.softmaxMax;
  out[6] = td.plainSplitM;
  const uint32_t fields[16] = {sm.srcM, sm.srcK, sm.srcSize, sm.outMaxM, sm.outMaxK, sm.outMaxSize, sm.splitM,
                               sm.splitK, sm.splitSize, sm.reduceM, sm.reduceK, sm.reduceSize, sm.rangeM, sm.tailM,
                               sm.tailSplitSize, sm.tailReduceSize};
  for (int i = 0; i < 16; ++i) out[8 + i] = fields[i];
  out[24] = td.flashMin;
  out[25] = td.flashMax;
  const SoftMaxTiling& f = td.flash;
  const uint32_t flash[16] = {f.srcM, f.srcK, f.srcSize, f.outMaxM, f.outMaxK, f.outMaxSize, f.splitM, f.splitK,
                              f.splitSize, f.reduceM, f.reduceK, f.reduceSize, f.rangeM, f.tailM, f.tailSplitSize,
                              f.tailReduceSize};
  for (int i = 0; i < 16; ++i) out[26 + i] = flash[i];
  // the kernel-side tiling of a shape known at run time (work buffer in fp32 elements) is the host's
  SoftMaxTiling k = AscendC::SoftMaxFlashV2TilingFuncImpl(6, 64, 4, 4, td.flashMin, true, true);
  const uint32_t twin[16] = {k.srcM, k.srcK, k.srcSize, k.outMaxM, k.outMaxK, k.outMaxSize, k.splitM, k.splitK,
                             k.splitSize, k.reduceM, k.reduceK, k.reduceSize, k.rangeM, k.tailM, k.tailSplitSize,
                             k.tailReduceSize};
  int64_t same = 1;
  for (int i = 0; i < 16; ++i) same = same && twin[i] == flash[i];
  out[42] = same;
}
"""


@pytest.fixture(scope="module")
def observed(sim, make_project):
    proj = make_project("LibCustom", "lib_custom", HOST, KERNEL,
                        [("x", "input", "REQUIRED", "float16"), ("y", "output", "REQUIRED", "int64")],
                        {"op_host/lib_custom_tiling.h": TILING_H})
    build = sim.build(proj)
    assert build.ok, build.diagnostics
    result = sim.run(build, Launch(inputs=(TensorArg("x", "float16", np.zeros((3, 5, 2), np.float16)),),
                                   outputs=(TensorArg("y", "int64", shape=(43,)),), attrs={}))
    assert result.ok, result.message
    return result


def test_tiling_templates_run_by_priority_until_one_is_capable(observed):
    # NotCapable (priority 10): shape, platform, IsCapable -> stop; then the capable one, every step.
    assert observed.outputs["y"][0] == 1231234567
    assert observed.details["tiling_key"] == 42
    assert observed.details["workspace_bytes"] == 64


@pytest.mark.api("GetMeanMaxMinTmpSize")
def test_ge_shape_and_mean_tmp_size(observed):
    v = observed.outputs["y"]
    assert v[1] == 30
    # Mean of 40 half elements accumulated in float: one float row of 160 bytes plus its cast copy.
    assert list(v[2:4]) == [320, 320]


@pytest.mark.api("SoftMax/SimpleSoftMax Tiling")
def test_softmax_host_tiling_reaches_the_kernel(observed):
    v = observed.outputs["y"]
    row = (2 * 40 + 8) * 4                      # fp32 work row for a 16-bit source + one reduction block
    assert list(v[4:7]) == [row, 7 * row, 3]
    # [7, 40] rows, half max/sum (16 per block), room for 2 rows per pass: 3 passes + 1 tail row.
    assert list(v[8:24]) == [7, 40, 280, 7, 16, 112, 2, 40, 80, 2, 8, 16, 3, 1, 40, 8]


@pytest.mark.api("SoftmaxFlashV2 Tiling接口")
def test_softmax_flash_v2_host_tiling_and_its_kernel_side_twin(observed):
    v = observed.outputs["y"]
    row = (64 + 8 + 2 * 8) * 4                  # a float row + one reduction block + the incoming max and sum
    assert list(v[24:26]) == [row, 6 * row]
    # [6, 64] float scores, float max/sum (8 per block), room for 4 rows per pass: 1 pass + 2 tail rows.
    assert list(v[26:42]) == [6, 64, 384, 6, 8, 48, 4, 64, 256, 4, 8, 32, 1, 2, 128, 16]
    assert v[42] == 1


LOG_PROGRAM = r"""
#include "aclnn/opdev/op_log.h"
#include "experiment/metadef/common/util/error_manager/error_manager.h"
int main() {
  OP_LOGD("MyNode", "value %d", 3);
  OP_LOGI("plain %d", 4);
  OP_LOGE(561002, "code %s", "bad");
  OP_LOGE_WITHOUT_REPORT("MyNode", "%s", "no report");
  REPORT_INNER_ERROR("E89999", "%s", "inner");
  REPORT_INPUT_ERROR("E10001", std::vector<std::string>({"param"}), std::vector<std::string>({"x"}));
  return 0;
}
"""


@pytest.fixture(scope="module")
def compiler() -> Compiler:
    found = find_compiler()
    if isinstance(found, str):
        pytest.skip(found)
    return found


def test_log_and_error_report_macros_print_to_stderr(compiler, tmp_path):
    src = tmp_path / "log.cpp"
    src.write_text(LOG_PROGRAM, encoding="utf-8")
    built = subprocess.run([compiler.path, *HOST_FLAGS, "-I", str(INCLUDE_DIR), str(src), "-o", str(tmp_path / "log")],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    ran = subprocess.run([str(tmp_path / "log")], capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0
    assert ran.stderr.splitlines() == ["[DEBUG] MyNode: value 3", "[INFO] plain 4", "[ERROR] [561002] code bad",
                                       "[ERROR] MyNode: no report", "[ERROR] E89999: inner",
                                       "[ERROR] E10001: param=x"]
