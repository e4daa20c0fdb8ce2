"""The tiling debugging API (tiling/context/context_builder.h, namespace context_ascendc): ContextBuilder
builds a TilingContext or a TilingParse KernelContext by hand, OpTilingRegistry finds an op's Tiling
function, and the op's real Tiling / TilingParse functions run on what was built. One host program,
compiled with the real compiler against the simulator's headers and its host runtime, and run.

Simulator choices checked here (see the header): no shared object is loaded (LoadTilingLibrary reports
on the tiling functions compiled into the program), no file is read (AddInputTd with a path leaves the
input without data), every processor name is the Ascend 910B, and misuse the documentation rules out
makes the Build functions return nullptr."""

from __future__ import annotations

import subprocess

import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import HOST_FLAGS, find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR, RUNTIME_DIR

PROGRAM = r"""
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "tiling/context/context_builder.h"

namespace optiling {
struct ProbeCompileInfo {
  int64_t cores;
  int64_t json_null;
};
// Writes what it sees into the raw tiling data (int64 words).
static ge::graphStatus ProbeTiling(gert::TilingContext* ctx) {
  gert::TilingData* raw = ctx->GetRawTilingData();
  if (raw == nullptr) return ge::GRAPH_FAILED;
  raw->Append<int64_t>(ctx->GetInputShape(0)->GetStorageShape().GetShapeSize());
  const gert::Tensor* lens = ctx->GetDynamicInputTensor(1, 0);
  int64_t sum = 0;
  for (int64_t i = 0; lens->GetData<int64_t>() != nullptr && i < lens->GetShapeSize(); ++i) {
    sum += lens->GetData<int64_t>()[i];
  }
  raw->Append<int64_t>(sum);
  raw->Append<int64_t>(*ctx->GetAttrs()->GetInt(0));
  const ProbeCompileInfo* ci = ctx->GetCompileInfo<ProbeCompileInfo>();
  raw->Append<int64_t>(ci == nullptr ? -1 : ci->cores);
  ctx->SetBlockDim(8);
  ctx->SetTilingKey(3);
  size_t* ws = ctx->GetWorkspaceSizes(2);
  ws[0] = 4096;
  ws[1] = 64;
  return ge::GRAPH_SUCCESS;
}
static ge::graphStatus ProbeParse(gert::TilingParseContext* ctx) {
  ProbeCompileInfo* ci = ctx->GetCompiledInfo<ProbeCompileInfo>();
  ci->cores = ctx->GetPlatformInfo()->GetCoreNum();
  ci->json_null = ctx->GetCompiledJson() == nullptr ? 1 : 0;
  return ge::GRAPH_SUCCESS;
}
static ge::graphStatus OtherTiling(gert::TilingContext*) { return ge::GRAPH_SUCCESS; }
}  // namespace optiling

namespace ops {
class DefTiled : public OpDef {
 public:
  explicit DefTiled(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::ProbeTiling);
  }
};
OP_ADD(DefTiled);
}  // namespace ops
IMPL_OP_OPTILING(ImplTiled).Tiling(optiling::OtherTiling).TilingParse<optiling::ProbeCompileInfo>(optiling::ProbeParse);

using context_ascendc::ContextBuilder;

static unsigned bits16(const gert::Tensor* t, int i) { return t->GetData<uint16_t>()[i]; }

int main() {
  // ---- OpTilingRegistry
  context_ascendc::OpTilingRegistry reg;
  std::printf("load %d %d %d\n", reg.LoadTilingLibrary("/your/path/liboptiling.so"), reg.LoadTilingLibrary(nullptr),
              reg.LoadTilingLibrary(""));
  context_ascendc::TilingFunc f_def = reg.GetTilingFunc("DefTiled");
  context_ascendc::TilingFunc f_impl = reg.GetTilingFunc("ImplTiled");
  std::printf("funcs %d %d %d %d\n", f_def == &optiling::ProbeTiling, f_impl == &optiling::OtherTiling,
              reg.GetTilingFunc("NoSuchOp") == nullptr, reg.GetTilingFunc(nullptr) == nullptr);

  // ---- BuildKernelRunContext: a TilingParse context (input 0 json, input 1 platform, output 0 info)
  fe::PlatFormInfos plat;
  optiling::ProbeCompileInfo ci{-1, -1};
  auto kh = ContextBuilder().Inputs({nullptr, reinterpret_cast<void*>(&plat)})
                .Outputs({reinterpret_cast<void*>(&ci)}).BuildKernelRunContext();
  gert::KernelContext* kc = kh->GetContext<gert::KernelContext>();
  std::printf("kernel %zu %zu %d %d %d\n", kc->GetInputNum(), kc->GetOutputNum(),
              kc->GetInputPointer<fe::PlatFormInfos>(1) == &plat,
              kc->GetOutputPointer<optiling::ProbeCompileInfo>(0) == &ci,
              kc->GetInputPointer<void>(2) == nullptr);
  gert::TilingParseContext* pc = kh->GetContext<gert::TilingParseContext>();
  const uint32_t parsed = optiling::ProbeParse(pc);
  std::printf("parse %u %lld %lld %d\n", parsed, (long long)ci.cores, (long long)ci.json_null,
              (void*)pc == (void*)kc);
  gert::ComputeNodeInfo* kinfo = kh->MutableComputeNodeInfo();
  std::printf("kinfo %zu %zu\n", kinfo->GetIrInputsNum(), kinfo->GetInputsNum());

  // ---- BuildTilingContext
  gert::StorageShape x_shape = {{4, 6}, {4, 6}};
  std::vector<float> xv(24);
  for (int i = 0; i < 24; ++i) xv[i] = i + 0.5f;
  std::vector<int64_t> lens = {3, 5};
  std::vector<float> special = {1.0f / 3.0f, 65504.0f, 70000.0f, 5.9604645e-8f, -2.0f, 65520.0f};
  alignas(8) uint8_t tiling_buf[256] = {};
  gert::TilingData td(tiling_buf, sizeof tiling_buf);
  alignas(8) uint8_t ws_buf[sizeof(gert::ContinuousVector) + 4 * sizeof(size_t)] = {};
  auto* ws = reinterpret_cast<gert::ContinuousVector*>(ws_buf);
  ws->Init(4);
  ContextBuilder builder;
  (void)builder.NodeIoNum(4, 1)
      .IrInstanceNum({1, 2, 0, 2})
      .SetOpNameType("node0", "DefTiled")
      .AddInputTd(0, ge::DT_FLOAT16, ge::FORMAT_ND, ge::FORMAT_ND, x_shape, reinterpret_cast<void*>(xv.data()))
      .AddInputTd(1, ge::DT_INT64, ge::FORMAT_ND, ge::FORMAT_ND, {{2}, {2}}, reinterpret_cast<void*>(lens.data()))
      .AddInputTd(2, ge::DT_FLOAT, ge::FORMAT_NCHW, ge::FORMAT_NC1HWC0, {{1, 2, 3, 4}, {1, 1, 3, 4, 16}}, "./x.bin")
      .AddInputTd(3, ge::DT_FLOAT16, ge::FORMAT_ND, ge::FORMAT_ND, {{6}, {6}}, reinterpret_cast<void*>(special.data()))
      .AddInputTd(4, ge::DT_BF16, ge::FORMAT_ND, ge::FORMAT_ND, {{6}, {6}}, reinterpret_cast<void*>(special.data()))
      .AddOutputTd(0, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_FRACTAL_NZ, {{4, 6}, {1, 1, 16, 16}})
      .AddAttr("i", int64_t(-7))
      .AddAttr("b", true)
      .AddAttr("s", std::string("mode"))
      .AddAttr("f", 0.25f)
      .AddAttr("lf", std::vector<float>{1.5f, 2.5f})
      .AddAttr("lb", std::vector<bool>{true, false, true})
      .AddAttr("li", std::vector<int64_t>{4, 5, 6})
      .AddAttr("ls", std::vector<std::string>{"ab", "c"})
      .AddAttr("lli", std::vector<std::vector<int64_t>>{{1, 2}, {3, 4, 5}})
      .CompileInfo(&ci)
      .AddPlatformInfo(nullptr)
      .TilingData(&td)
      .Workspace(ws);
  auto holder = builder.BuildTilingContext();
  gert::TilingContext* ctx = holder->GetContext<gert::TilingContext>();
  std::printf("node %s %s %zu %zu %d\n", ctx->GetNodeName(), ctx->GetNodeType(), ctx->GetComputeNodeInputNum(),
              ctx->GetComputeNodeOutputNum(), (void*)holder->GetContext<gert::KernelContext>() == (void*)ctx);
  const gert::Shape& s0 = ctx->GetInputShape(0)->GetStorageShape();
  std::printf("in0 %zu %lld %lld %d %04x %04x\n", s0.GetDimNum(), (long long)s0.GetDim(0), (long long)s0.GetDim(1),
              (int)ctx->GetInputDesc(0)->GetDataType(), bits16(ctx->GetInputTensor(0), 0),
              bits16(ctx->GetInputTensor(0), 23));
  std::printf("in1 %lld %lld %lld\n", (long long)ctx->GetDynamicInputShape(1, 1)->GetStorageShape().GetDim(0),
              (long long)ctx->GetDynamicInputTensor(1, 0)->GetData<int64_t>()[1],
              (long long)ctx->GetDynamicInputTensor(1, 0)->GetSize());
  const gert::Tensor* file_in = ctx->GetDynamicInputTensor(1, 1);
  std::printf("file %d %d %d %zu %lld\n", file_in->GetData<float>() == nullptr, (int)file_in->GetOriginFormat(),
              (int)file_in->GetStorageFormat(), file_in->GetStorageShape().GetDimNum(),
              (long long)file_in->GetOriginShape().GetShapeSize());
  std::printf("absent %d\n", ctx->GetOptionalInputShape(2) == nullptr);
  const gert::Tensor* h = ctx->GetDynamicInputTensor(3, 0);
  const gert::Tensor* b = ctx->GetDynamicInputTensor(3, 1);
  std::printf("half %04x %04x %04x %04x %04x %04x\n", bits16(h, 0), bits16(h, 1), bits16(h, 2), bits16(h, 3),
              bits16(h, 4), bits16(h, 5));
  std::printf("bf16 %04x %04x %d\n", bits16(b, 0), bits16(b, 4), (int)b->GetDataType());
  std::printf("out0 %d %d %zu\n", (int)ctx->GetOutputDesc(0)->GetDataType(),
              (int)ctx->GetOutputDesc(0)->GetStorageFormat(),
              ctx->GetOutputShape(0)->GetStorageShape().GetDimNum());
  const gert::RuntimeAttrs* a = ctx->GetAttrs();
  const gert::ContinuousVector* ls = a->GetAttrPointer<gert::ContinuousVector>(7);
  const char* strs = static_cast<const char*>(ls->GetData());
  const gert::ContinuousVectorVector* lli = a->GetListListInt(8);
  std::printf("attrs %zu %lld %d %s %.2f\n", a->GetAttrNum(), (long long)*a->GetInt(0), *a->GetBool(1) ? 1 : 0,
              a->GetStr(2), *a->GetFloat(3));
  std::printf("lists %zu %.1f %zu %d %d %lld %zu %s %s\n", a->GetListFloat(4)->GetSize(),
              a->GetListFloat(4)->GetData()[1], a->GetListBool(5)->GetSize(),
              a->GetListBool(5)->GetData()[1] ? 1 : 0, a->GetListBool(5)->GetData()[2] ? 1 : 0,
              (long long)a->GetListInt(6)->GetData()[2], ls->GetSize(), strs, strs + 3);
  std::printf("lli %zu %zu %lld %lld\n", lli->GetSize(), lli->Get(1)->GetSize(),
              (long long)static_cast<const int64_t*>(lli->Get(1)->GetData())[2],
              (long long)static_cast<const int64_t*>(lli->Get(0)->GetData())[1]);
  std::printf("ctx %d %u %d\n", ctx->GetRawTilingData() == &td, ctx->GetPlatformInfo()->GetCoreNum(),
              ctx->GetCompileInfo() == &ci);
  gert::ComputeNodeInfo* info = holder->MutableComputeNodeInfo();
  std::printf("info %s %s %zu %zu %zu %zu %d %zu\n", info->GetNodeName(), info->GetNodeType(), info->GetIrInputsNum(),
              info->GetInputsNum(), info->GetIrOutputsNum(), info->GetOutputsNum(),
              (int)info->GetInputTdInfo(4)->GetDataType(), info->GetAttrs()->GetAttrNum());

  // ---- the op's Tiling function on the built context
  context_ascendc::TilingFunc tiling = reg.GetTilingFunc(ctx->GetNodeType());
  uint32_t status = tiling(ctx);
  const int64_t* words = reinterpret_cast<const int64_t*>(tiling_buf);
  std::printf("tiling %u %zu %lld %lld %lld %lld\n", status, td.GetDataSize(), (long long)words[0], (long long)words[1],
              (long long)words[2], (long long)words[3]);
  std::printf("launch %u %llu %zu %zu %zu %zu\n", ctx->GetBlockDim(), (unsigned long long)ctx->GetTilingKey(),
              ctx->GetWorkspaceNum(), ws->GetSize(), static_cast<const size_t*>(ws->GetData())[0],
              static_cast<const size_t*>(ws->GetData())[1]);
  std::printf("ws_cap %d\n", ctx->GetWorkspaceSizes(5) == nullptr);

  // ---- platform: a given fe::PlatFormInfos, a named processor, none
  auto given = ContextBuilder().PlatformInfo(reinterpret_cast<void*>(&plat)).BuildTilingContext();
  auto named = ContextBuilder().PlatformInfo(reinterpret_cast<void*>(&plat)).AddPlatformInfo("Ascend910B3")
                   .BuildTilingContext();
  auto none = ContextBuilder().BuildTilingContext();
  gert::TilingContext* nc = none->GetContext<gert::TilingContext>();
  std::printf("platform %d %d %u %d %d %d %zu\n",
              given->GetContext<gert::TilingContext>()->GetPlatformInfo() == &plat,
              named->GetContext<gert::TilingContext>()->GetPlatformInfo() != &plat,
              named->GetContext<gert::TilingContext>()->GetPlatformInfo()->GetCoreNum(),
              nc->GetPlatformInfo() == nullptr, nc->GetRawTilingData() == nullptr, nc->GetCompileInfo() == nullptr,
              nc->GetComputeNodeInputNum());

  // ---- a copied builder is independent of its source
  ContextBuilder base = ContextBuilder().NodeIoNum(1, 1).IrInstanceNum({1});
  ContextBuilder copy = base;
  (void)copy.AddInputTd(0, ge::DT_INT32, ge::FORMAT_ND, ge::FORMAT_ND, {{7}, {7}});
  auto from_copy = copy.BuildTilingContext();
  auto from_base = base.BuildTilingContext();
  std::printf("copy %d %d\n", (int)from_copy->GetContext<gert::TilingContext>()->GetInputDesc(0)->GetDataType(),
              (int)from_base->GetContext<gert::TilingContext>()->GetInputDesc(0)->GetDataType());

  // ---- misuse the documentation rules out: no context
  gert::StorageShape one = {{1}, {1}};
  std::printf("refused %d %d %d %d %d %d %d\n",
              ContextBuilder().AddInputTd(0, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND, one)
                  .NodeIoNum(1, 1).IrInstanceNum({1}).BuildTilingContext() == nullptr,
              ContextBuilder().NodeIoNum(1, 1).IrInstanceNum({1})
                  .AddInputTd(1, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND, one).BuildTilingContext() == nullptr,
              ContextBuilder().NodeIoNum(2, 1).IrInstanceNum({1}).BuildTilingContext() == nullptr,
              ContextBuilder().NodeIoNum(1, 1).BuildTilingContext() == nullptr,
              ContextBuilder().NodeIoNum(1, 1).IrInstanceNum({1})
                  .AddOutputTd(1, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND, one).BuildTilingContext() == nullptr,
              ContextBuilder().AddAttr("a", int64_t(1)).AddAttr("a", 2.0f).BuildTilingContext() == nullptr,
              ContextBuilder().NodeIoNum(1, 1).BuildKernelRunContext() == nullptr);
  return 0;
}
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess:
    compiler = find_compiler()
    if isinstance(compiler, str):
        pytest.fail(f"no C++ compiler: {compiler}", pytrace=False)
    folder = tmp_path_factory.mktemp("tiling_debug")
    (folder / "main.cpp").write_text(PROGRAM, encoding="utf-8")
    sources = [str(folder / "main.cpp"), str(RUNTIME_DIR / "host_api.cpp"), str(RUNTIME_DIR / "soc.cpp")]
    build = subprocess.run([compiler.path, *HOST_FLAGS, "-I", str(INCLUDE_DIR), *sources, "-o", str(folder / "prog")],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-4000:]
    ran = subprocess.run([str(folder / "prog")], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr[-4000:]
    return ran


def line(run: subprocess.CompletedProcess, tag: str) -> list[str]:
    for text in run.stdout.splitlines():
        parts = text.split()
        if parts and parts[0] == tag:
            return parts[1:]
    raise AssertionError(f"no '{tag}' line in {run.stdout!r}")


@pytest.mark.api("OpTilingRegistry", "OpTilingRegistry/构造和析构函数", "LoadTilingLibrary")
def test_load_tiling_library_stands_for_the_compiled_tiling_code(run) -> None:
    assert line(run, "load") == ["1", "0", "0"]        # tiling functions are compiled in; no path: failure
    assert "the simulator loads no shared objects" in run.stderr


@pytest.mark.api("GetTilingFunc")
def test_get_tiling_func_finds_opdef_and_impl_op_registrations(run) -> None:
    assert line(run, "funcs") == ["1", "1", "1", "1"]
    assert "no Tiling function for op type NoSuchOp" in run.stderr


@pytest.mark.api("KernelRunContextHolder结构定义", "BuildKernelRunContext", "Inputs", "Outputs")
def test_kernel_run_context_is_a_tiling_parse_context(run) -> None:
    assert line(run, "kernel") == ["2", "1", "1", "1", "1"]
    assert line(run, "parse") == ["0", "40", "1", "1"]   # the op's TilingParse fills the output object
    assert line(run, "kinfo") == ["0", "0"]


@pytest.mark.api("ContextBuilder", "ContextBuilder构造函数", "BuildTilingContext", "NodeIoNum", "SetOpNameType",
                 "IrInstanceNum", "AddInputTd", "AddOutputTd", "KernelRunContextHolder结构定义")
def test_tiling_context_describes_the_node(run) -> None:
    assert line(run, "node") == ["node0", "DefTiled", "5", "1", "1"]     # 1 + 2 + 0 + 2 input instances
    assert line(run, "in0") == ["2", "4", "6", "1", "3800", "4de0"]      # float -> float16: 0.5, 23.5
    assert line(run, "in1") == ["1", "5", "16"]                          # int64 values copied as they are
    assert line(run, "absent") == ["1"]
    assert line(run, "out0") == ["0", "29", "4"]                         # DT_FLOAT, FRACTAL_NZ storage
    assert line(run, "info") == ["node0", "DefTiled", "4", "5", "1", "1", "27", "9"]


@pytest.mark.api("AddInputTd")
def test_const_values_convert_to_float16_and_bfloat16(run) -> None:
    # 1/3, 65504 (max), 70000 (inf), 2^-24 (smallest subnormal), -2, 65520 (ties to even: inf)
    assert line(run, "half") == ["3555", "7bff", "7c00", "0001", "c000", "7c00"]
    assert line(run, "bf16") == ["3eab", "c000", "27"]


@pytest.mark.api("AddInputTd")
def test_a_file_path_is_not_read_by_host_code(run) -> None:
    assert line(run, "file") == ["1", "0", "3", "5", "24"]    # described (NCHW -> NC1HWC0), no data
    assert "'./x.bin' is not read" in run.stderr


@pytest.mark.api("AddAttr")
def test_attributes_in_the_order_added_with_their_types(run) -> None:
    assert line(run, "attrs") == ["9", "-7", "1", "mode", "0.25"]
    assert line(run, "lists") == ["2", "2.5", "3", "0", "1", "6", "2", "ab", "c"]
    assert line(run, "lli") == ["2", "3", "5", "2"]


@pytest.mark.api("CompileInfo", "ContextBuilder/PlatformInfo", "AddPlatformInfo", "ContextBuilder/TilingData",
                 "Workspace")
def test_the_ops_tiling_function_runs_on_the_built_context(run) -> None:
    assert line(run, "ctx") == ["1", "40", "1"]
    # shape size of x, sum of the int64 input, attr 0, compile info's core count
    assert line(run, "tiling") == ["0", "32", "24", "8", "-7", "40"]
    assert line(run, "launch") == ["8", "3", "2", "2", "4096", "64"]   # workspace sizes land in the given vector
    assert line(run, "ws_cap") == ["1"]                                 # beyond its capacity: nullptr


@pytest.mark.api("ContextBuilder/PlatformInfo", "AddPlatformInfo", "BuildTilingContext")
def test_platform_sources_and_an_empty_builder(run) -> None:
    assert line(run, "platform") == ["1", "1", "40", "1", "1", "1", "0"]


@pytest.mark.api("ContextBuilder构造函数")
def test_a_copied_builder_is_independent(run) -> None:
    assert line(run, "copy") == ["3", "28"]      # DT_INT32 in the copy, DT_UNDEFINED in the source


@pytest.mark.api("NodeIoNum", "IrInstanceNum", "AddInputTd", "AddOutputTd", "AddAttr")
def test_misuse_the_documentation_rules_out_builds_nothing(run) -> None:
    assert line(run, "refused") == ["1"] * 7
    assert "before NodeIoNum and IrInstanceNum" in run.stderr
    assert "added twice" in run.stderr or "already added" in run.stderr


WRONG = {
    "no default inputs": "ContextBuilder().Inputs();",
    "an int attribute is ambiguous": 'ContextBuilder().AddAttr("a", 1);',
    "NodeIoNum takes two counts": "ContextBuilder().NodeIoNum(1);",
    "no global KernelRunContextHolder": "::KernelRunContextHolder h;",
    "GetTilingFunc takes a C string": 'context_ascendc::OpTilingRegistry().GetTilingFunc(std::string("x"));',
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_undocumented_uses_do_not_compile(tmp_path, name: str) -> None:
    compiler = find_compiler()
    if isinstance(compiler, str):
        pytest.fail(f"no C++ compiler: {compiler}", pytrace=False)
    head = '#include <string>\n#include "tiling/context/context_builder.h"\nusing context_ascendc::ContextBuilder;\n'
    good = head + 'void f() { ContextBuilder().NodeIoNum(1, 1).AddAttr("a", int64_t(1)); }\n'
    bad = head + "void f() { " + WRONG[name] + " }\n"
    for text, ok in ((good, True), (bad, False)):
        (tmp_path / "t.cpp").write_text(text, encoding="utf-8")
        out = subprocess.run([compiler.path, "-std=c++17", "-fsyntax-only", "-I", str(INCLUDE_DIR), "t.cpp"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert (out.returncode == 0) == ok, (text, out.stderr[-2000:])
