"""Launches the launcher refuses because the OpDef does not fit the task (op type name, parameter
names and ParamTypes, dtype combinations, SoC configuration, attributes), tensor-list outputs
through the launch files, and the poison pattern chosen by ``Launch.poison_seed``. Small builds
(one OpDef variant each); every refusal must name the thing and say what to do."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.base import Launch, TensorArg

HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
struct RefuseTiling { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  uint64_t n = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  ctx->GetTilingData<RefuseTiling>()->n = static_cast<uint32_t>(n);
  ctx->SetBlockDim(1);
  ctx->GetWorkspaceSizes(1)[0] = 64;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class RefuseCustom : public OpDef {
 public:
  explicit RefuseCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    ATTRS
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig(SOC);
  }
};
OP_ADD(RefuseCustom);
}  // namespace ops
"""

# Copies the first word of the workspace (never written: poison) and the first word of UB (never
# written: poison) to y[0], y[1]; y[2..] = x[2..] + 1.
KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
struct RefuseTiling { uint32_t n; };
extern "C" __global__ __aicore__ void refuse_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(RefuseTiling, t, tiling);
  GlobalTensor<DTYPE_X> gx;
  GlobalTensor<DTYPE_Y> gy;
  GlobalTensor<uint32_t> ws;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_X*>(x), t.n);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_Y*>(y), t.n);
  ws.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(workspace), 16);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<uint32_t> ub = buf.Get<uint32_t>();
  DTYPE_Y w, u;
  uint32_t wsWord = ws.GetValue(0), ubWord = ub.GetValue(0);
  std::memcpy(&w, &wsWord, sizeof w);
  std::memcpy(&u, &ubWord, sizeof u);
  gy.SetValue(0, w);
  gy.SetValue(1, u);
  for (uint32_t i = 2; i < t.n; ++i) gy.SetValue(i, gx.GetValue(i) + 1);
}
"""

PARAMS = [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")]


def _host(soc: str = '"ascend910b"', attrs: str = "") -> str:
    return HOST.replace("SOC", soc).replace("ATTRS", attrs)


def _launch(dt: str = "float32", n: int = 8, poison_seed: int = 0, attrs: dict | None = None) -> Launch:
    x = np.arange(n).astype(dt)
    return Launch(inputs=(TensorArg("x", dt, x),), outputs=(TensorArg("y", dt, shape=(n,)),),
                  attrs=attrs or {}, poison_seed=poison_seed)


def _built(sim, make_project, op: str = "RefuseCustom", host: str | None = None, params=PARAMS, kernel=KERNEL):
    build = sim.build(make_project(op, "refuse_custom", host or _host(), kernel, params))
    assert build.ok, build.diagnostics
    return build


@pytest.fixture(scope="module")
def good(sim, make_project):
    return _built(sim, make_project)


def test_the_fitting_launch_runs(sim, good):
    result = sim.run(good, _launch())
    assert result.ok, result.message
    assert list(result.outputs["y"][2:]) == [3, 4, 5, 6, 7, 8]


def test_op_type_without_a_registered_opdef_is_refused(sim, make_project):
    build = _built(sim, make_project, op="RefuseCustomV2")
    result = sim.run(build, _launch())
    assert not result.ok
    assert "no OpDef registered for op type 'RefuseCustomV2'" in result.message
    assert "OP_ADD(RefuseCustomV2)" in result.message and "(registered: RefuseCustom)" in result.message


def test_unsupported_dtype_combination_is_refused(sim, make_project):
    build = _built(sim, make_project, params=[("x", "input", "REQUIRED", "float16"),
                                              ("y", "output", "REQUIRED", "float16")])
    result = sim.run(build, _launch("float16"))
    assert not result.ok
    assert "OpDef RefuseCustom supports no data type combination (x=DT_FLOAT16, y=DT_FLOAT16)" in result.message
    assert "DataType({...})" in result.message


def test_mixed_columns_are_not_a_combination(sim, make_project):
    """x=float32 is column 0 and y=int32 column 1: no single column gives both."""
    build = _built(sim, make_project, params=[("x", "input", "REQUIRED", "float32"),
                                              ("y", "output", "REQUIRED", "int32")])
    x = np.arange(8, dtype=np.float32)
    result = sim.run(build, Launch(inputs=(TensorArg("x", "float32", x),),
                                   outputs=(TensorArg("y", "int32", shape=(8,)),), attrs={}))
    assert not result.ok and "supports no data type combination (x=DT_FLOAT, y=DT_INT32)" in result.message


@pytest.mark.parametrize("soc", ['"ascend310p"', None])
def test_missing_or_other_soc_config_is_refused(sim, make_project, soc):
    host = _host(soc) if soc else _host().replace('this->AICore().AddConfig("ascend910b");', "")
    result = sim.run(_built(sim, make_project, host=host), _launch())
    assert not result.ok
    assert "OpDef RefuseCustom declares no AI Core configuration for ascend910b" in result.message
    assert 'AddConfig("ascend910b")' in result.message


def test_parameter_names_differing_from_the_task_are_refused(sim, make_project):
    build = _built(sim, make_project, params=[("a", "input", "REQUIRED", "float32"),
                                              ("y", "output", "REQUIRED", "float32")],
                   kernel=KERNEL.replace("DTYPE_X", "DTYPE_A"))
    x = np.arange(8, dtype=np.float32)
    result = sim.run(build, Launch(inputs=(TensorArg("a", "float32", x),),
                                   outputs=(TensorArg("y", "float32", shape=(8,)),), attrs={}))
    assert not result.ok
    assert "declares inputs (x) and outputs (y) but the task has inputs (a) and outputs (y)" in result.message


def test_attribute_refusals(sim, make_project):
    build = _built(sim, make_project, host=_host(attrs='this->Attr("alpha").AttrType(REQUIRED).Float();'))
    missing = sim.run(build, _launch())
    assert not missing.ok
    assert "OpDef attribute 'alpha' is REQUIRED but the task passes no value for it" in missing.message
    wrong = sim.run(build, _launch(attrs={"alpha": ("int", 3)}))
    assert not wrong.ok and "OpDef attribute 'alpha' has a different type than the task's int" in wrong.message
    assert sim.run(build, _launch(attrs={"alpha": ("float", 0.5)})).ok


def _word(array: np.ndarray, i: int) -> int:
    return int(array[i : i + 1].view(np.uint32)[0])


def test_poison_seed_zero_is_0xa5_everywhere(sim, good):
    y = sim.run(good, _launch()).outputs["y"]
    assert _word(y, 0) == 0xA5A5A5A5            # workspace word never written
    assert _word(y, 1) == 0xA5A5A5A5            # UB word never written


def test_poison_seed_changes_the_pattern_and_is_deterministic(sim, good):
    a = sim.run(good, _launch(poison_seed=1)).outputs["y"]
    b = sim.run(good, _launch(poison_seed=1)).outputs["y"]
    c = sim.run(good, _launch(poison_seed=2)).outputs["y"]
    assert _word(a, 0) == _word(b, 0) and _word(a, 1) == _word(b, 1)
    assert _word(a, 0) != 0xA5A5A5A5 and _word(a, 0) != _word(c, 0)
    assert _word(a, 1) != _word(c, 1)
    assert list(a[2:]) == list(c[2:]) == [3, 4, 5, 6, 7, 8]     # written data do not depend on the seed


LIST_HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  ctx->SetBlockDim(1);
  ctx->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class SplitCustom : public OpDef {
 public:
  explicit SplitCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("ys").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(SplitCustom);
}  // namespace ops
"""

# Output list: tensor i of ys receives consecutive elements of x (its length from the descriptor).
LIST_KERNEL = r"""
#include "kernel_operator_list_tensor_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void split_custom(GM_ADDR x, GM_ADDR ys, GM_ADDR workspace, GM_ADDR tiling) {
  ListTensorDesc list(reinterpret_cast<__gm__ void*>(ys));
  GlobalTensor<float> gx;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
  uint64_t at = 0;
  uint64_t buf[8];
  for (uint32_t i = 0; i < list.GetSize(); ++i) {
    TensorDesc<float> desc;
    desc.SetShapeAddr(buf);
    list.GetDesc(desc, i);
    uint64_t n = 1;
    for (uint32_t d = 0; d < desc.GetDim(); ++d) n *= desc.GetShape(d);
    GlobalTensor<float> gy;
    gy.SetGlobalBuffer(list.GetDataPtr<float>(i), n);
    for (uint64_t k = 0; k < n; ++k) gy.SetValue(k, gx.GetValue(at + k));
    at += n;
  }
}
"""


def test_list_outputs_travel_through_the_launch_files(sim, make_project):
    build = sim.build(make_project("SplitCustom", "split_custom", LIST_HOST, LIST_KERNEL,
                                   [("x", "input", "REQUIRED", "float32"), ("ys", "output", "DYNAMIC", "float32")]))
    assert build.ok, build.diagnostics
    x = np.arange(2 * 3 + 5, dtype=np.float32)
    result = sim.run(build, Launch(inputs=(TensorArg("x", "float32", x),),
                                   outputs=(TensorArg("ys", "float32", shape=[(2, 3), (5,)]),), attrs={}))
    assert result.ok, result.message
    ys = result.outputs["ys"]
    assert isinstance(ys, list) and [a.shape for a in ys] == [(2, 3), (5,)]
    assert np.array_equal(ys[0].ravel(), x[:6]) and np.array_equal(ys[1], x[6:])
