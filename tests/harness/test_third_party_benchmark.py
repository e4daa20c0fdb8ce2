"""benchmarks/third_party.py, the third-party yardstick, on a corpus made here (the real corpus is test data
outside the repository): operator discovery and kernel pairing, the blocker rules (ours / the code's own
/ limit), the cann-ops path end to end on a small operator with its own example (gen_data.py, an aclnn
main.cpp run against the ACL stand-in, verify_result.py) -- matching, and not matching when the kernel
is wrong -- and the EvoKernel driver's reference side (sizes scaled down, binding arguments mapped)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture()
def bench(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import third_party
    import third_party_blockers
    import third_party_corpus

    return third_party, third_party_blockers, third_party_corpus


# -- blockers ----------------------------------------------------------------------------------------

def test_blocker_lines_drop_locations_and_numbers(bench) -> None:
    _, blockers, _ = bench
    message = ("In file included from op_host/x.cpp:3:\nop_host/x_tiling.h:17:10: fatal error: log/ops_log.h: "
               "No such file or directory\n   17 | #include \"log/ops_log.h\"")
    assert blockers.blocker(message) == "error: log/ops_log.h: No such file or directory"
    assert blockers.blocker("op_kernel/k.cpp:9:5: error: 'Foo' was not declared in this scope") == \
        "error: 'Foo' was not declared in this scope"


@pytest.mark.parametrize("layer, line, facts, owner", [
    # a project file of that name up to underscores: renamed, include not
    ("host_built", "error: bam_custom_tiling.h: No such file or directory",
     dict(project_files=("op_host/b_a_m_custom_tiling.h",)), "code"),
    # a sibling folder of the repository has it
    ("host_built", "error: ../../other/op_host/common.h: No such file or directory",
     dict(repo_files=("src/other/op_host/common.h",)), "code"),
    # a CANN package header the simulator lacks
    ("host_built", "error: opdev/op_executor.h: No such file or directory", {}, "ours"),
    # neither: a helper of the repository's common folders
    ("host_built", "error: op_util.h: No such file or directory", {}, "code"),
    # a name defined nowhere in the repository is CANN's
    ("kernel_built", "error: 'TQueSync' was not declared in this scope", {}, "ours"),
    ("kernel_built", "error: 'MyHelper' was not declared in this scope",
     dict(repo_files=("a.h",), repo_text=lambda: "#define MyHelper(x) x\n"), "code"),
    # a documented API, even when some repository file defines a function of that name
    ("kernel_built", "error: 'Sort' was not declared in this scope",
     dict(repo_text=lambda: "void Sort(int x) {\n}", api_names=frozenset({"Sort"})), "ours"),
    ("kernel_built", "error: undefined reference to `b_a_m_custom'", {}, "code"),
    # a call that fits the repository's own helper of that name (not the simulator's API of that name)
    ("kernel_built", "error: no matching function for call to 'Ceil(int64_t&, int64_t&)'",
     dict(repo_files=("src/common/kernel_utils.h",),
          repo_text=lambda: "template <typename T>\n__aicore__ inline T Ceil(T a, T b)\n{\n"), "code"),
    ("kernel_built", "error: no matching function for call to 'Ceil(int64_t&, int64_t&)'", {}, "ours"),
    # the host-code boundary refuses system calls by construction
    ("host_built", "error: host code calls 'syscall': host code may use the C++ standard library, but no files",
     {}, "limit"),
    ("ran_cleanly", "AIV exception: UB out of range in DataCopy", {}, "ours"),
    ("ran_cleanly", "timeout: the simulated run exceeded its limit of 120 s of CPU time", {}, "limit"),
    # a time-out before the launch reported anything (its message mentions the tiling function)
    ("tiling_ran", "timeout: the simulated run exceeded its limit of 60 s of CPU time (an endless loop in the kernel "
                   "or the tiling function? --npukb-run-timeout sets the base limit)", {}, "limit"),
    ("tiling_ran", "launch refused: TilingFunc returned failure (status 1)", {}, "ours"),
    ("matched", "verify_result.py: mismatch", {}, "ours"),
])
def test_blocker_owners_follow_the_rule_table(bench, layer, line, facts, owner) -> None:
    _, blockers, _ = bench
    got, reason = blockers.classify(layer, line, blockers.Facts(**facts))
    assert got == owner, reason
    assert reason


# -- discovery -----------------------------------------------------------------------------------------

def test_operators_are_found_and_paired_with_their_kernel(bench, tmp_path: Path) -> None:
    _, _, corpus = bench
    for name in ("cann-ops/src/math/foo_bar", "EvoKernel/ops-x-910b/BAMCustom"):
        (tmp_path / name / "op_host").mkdir(parents=True)
        (tmp_path / name / "op_kernel" / "sub").mkdir(parents=True)
    (tmp_path / "cann-ops/src/math/foo_bar/op_host/foo_bar.cpp").write_text("//", encoding="utf-8")
    (tmp_path / "cann-ops/src/math/foo_bar/op_kernel/foo_bar.cpp").write_text("//", encoding="utf-8")
    (tmp_path / "cann-ops/src/math/foo_bar/op_kernel/sub/x.h").write_text("//", encoding="utf-8")
    (tmp_path / "cann-ops/src/math/foo_bar/README.md").write_text("not project", encoding="utf-8")
    ops = corpus.find_operators(tmp_path)
    assert [(o.source, o.name) for o in ops] == [("EvoKernel", "EvoKernel/ops-x-910b/BAMCustom"),
                                                ("cann-ops", "cann-ops/src/math/foo_bar")]
    assert sorted(ops[1].files) == ["op_host/foo_bar.cpp", "op_kernel/foo_bar.cpp", "op_kernel/sub/x.h"]
    assert corpus.pair_kernel(["FooBar"], ["foo_bar"]) == corpus.Pairing("FooBar", "foo_bar")
    assert corpus.pair_kernel(["BAMCustom"], ["b_a_m_custom"]) == corpus.Pairing("BAMCustom", "b_a_m_custom")
    assert corpus.pair_kernel(["A", "B"], ["c", "d"]).problem
    assert corpus.pair_kernel([], ["c"]).problem


# -- cann-ops end to end ----------------------------------------------------------------------------------

HOST = r"""
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddProbeTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AddProbe, AddProbeTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  AddProbeTilingData tiling;
  tiling.set_totalLength(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
  tiling.set_alpha(*context->GetAttrs()->GetFloat(0));
  context->SetBlockDim(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AddProbe : public OpDef {
 public:
  explicit AddProbe(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("alpha").AttrType(REQUIRED).Float();
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(AddProbe);
}  // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void add_probe(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  GlobalTensor<float> xGm, yGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
  yGm.SetGlobalBuffer((__gm__ float*)y, t.totalLength);
  zGm.SetGlobalBuffer((__gm__ float*)z, t.totalLength);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * t.totalLength * sizeof(float));
  LocalTensor<float> a = buf.Get<float>();
  LocalTensor<float> b = a[t.totalLength];
  DataCopy(a, xGm, t.totalLength);
  DataCopy(b, yGm, t.totalLength);
  PipeBarrier<PIPE_ALL>();
  COMPUTE
  PipeBarrier<PIPE_ALL>();
  DataCopy(zGm, a, t.totalLength);
}
"""
RIGHT = "Add(a, a, b, t.totalLength);\n  Muls(a, a, t.alpha, t.totalLength);"
WRONG = "Muls(a, a, t.alpha, t.totalLength);"      # forgets y

GEN_DATA = """
import os
import numpy as np
np.random.seed(3)
x = np.random.uniform(-2, 2, [64]).astype(np.float32)
y = np.random.uniform(-2, 2, [64]).astype(np.float32)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x.tofile("./input/input_x.bin")
y.tofile("./input/input_y.bin")
((x + y) * np.float32(0.5)).tofile("./output/golden.bin")
"""

VERIFY = """
import sys
import numpy as np
real = np.fromfile(sys.argv[1], dtype=np.float32)
golden = np.fromfile(sys.argv[2], dtype=np.float32)
if real.shape == golden.shape and np.allclose(real, golden, rtol=1e-4, atol=1e-4):
    print("test pass")
else:
    print("[ERROR] result error")
"""

RUN_SH = """python3 gen_data.py
ret=`python3 verify_result.py output/output_z.bin output/golden.bin`
"""

MAIN = r"""
#include <cstdint>
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnn_add_probe.h"

static std::vector<float> Read(const char* path, size_t n) {
  std::vector<float> v(n);
  FILE* f = std::fopen(path, "rb");
  if (f) { std::fread(v.data(), sizeof(float), n, f); std::fclose(f); }
  return v;
}

static aclTensor* Make(std::vector<float>& host, const std::vector<int64_t>& shape, void** dev) {
  size_t bytes = host.size() * sizeof(float);
  aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(*dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape.data(),
                         shape.size(), *dev);
}

int main() {
  aclrtStream stream;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS)
    return 1;
  std::vector<int64_t> shape = {64};
  std::vector<float> x = Read("../input/input_x.bin", 64), y = Read("../input/input_y.bin", 64), z(64, 0.0f);
  void *dx, *dy, *dz;
  aclTensor* tx = Make(x, shape, &dx);
  aclTensor* ty = Make(y, shape, &dy);
  aclTensor* tz = Make(z, shape, &dz);
  uint64_t ws = 0;
  aclOpExecutor* executor;
  if (aclnnAddProbeGetWorkspaceSize(tx, ty, 0.5, tz, &ws, &executor) != ACL_SUCCESS) return 2;
  if (aclnnAddProbe(nullptr, ws, executor, stream) != ACL_SUCCESS) return 3;
  aclrtSynchronizeStream(stream);
  aclrtMemcpy(z.data(), 64 * sizeof(float), dz, 64 * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
  FILE* f = std::fopen("../output/output_z.bin", "wb");
  std::fwrite(z.data(), sizeof(float), 64, f);
  std::fclose(f);
  aclDestroyTensor(tx); aclDestroyTensor(ty); aclDestroyTensor(tz);
  aclrtFree(dx); aclrtFree(dy); aclrtFree(dz);
  aclrtDestroyStream(stream); aclrtResetDevice(0); aclFinalize();
  return 0;
}
"""


def _corpus(root: Path, compute: str) -> str:
    op = root / "cann-ops" / "src" / "math" / "add_probe"
    files = {"op_host/add_probe.cpp": HOST, "op_kernel/add_probe.cpp": KERNEL.replace("COMPUTE", compute),
             "examples/AclNNInvocationNaive/gen_data.py": GEN_DATA,
             "examples/AclNNInvocationNaive/verify_result.py": VERIFY,
             "examples/AclNNInvocationNaive/run.sh": RUN_SH, "examples/AclNNInvocationNaive/main.cpp": MAIN}
    for rel, text in files.items():
        (op / rel).parent.mkdir(parents=True, exist_ok=True)
        (op / rel).write_text(textwrap.dedent(text), encoding="utf-8")
    return "cann-ops/src/math/add_probe"


@pytest.mark.parametrize("compute, matched", [(RIGHT, True), (WRONG, False)])
def test_a_cann_ops_operator_runs_its_own_example_end_to_end(bench, sim, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch, compute, matched) -> None:
    third_party, _, _ = bench
    monkeypatch.setenv("NPUKB_CACHE_DIR", str(sim.cache.root))
    name = _corpus(tmp_path, compute)
    record = third_party.evaluate_operator(str(tmp_path), name, "all")
    assert not record.get("harness_error") and not record.get("infrastructure"), record["message"]
    assert record["reached"][:4] == ["host_built", "kernel_built", "tiling_ran", "ran_cleanly"], record
    assert "1 call(s); x [64]; y [64]" in record["inputs"]
    if matched:
        assert record["reached"][-1] == "matched" and record["failed"] is None, record
    else:
        assert record["failed"] == "matched" and "mismatch" in record["message"], record


def test_an_example_calling_a_hand_written_aclnn_api_gives_no_inputs(bench, sim, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    third_party, _, _ = bench
    monkeypatch.setenv("NPUKB_CACHE_DIR", str(sim.cache.root))
    name = _corpus(tmp_path, RIGHT)
    main = tmp_path / name / "examples" / "AclNNInvocationNaive" / "main.cpp"
    main.write_text(MAIN.replace('"aclnn_add_probe.h"', '"aclnnop/aclnn_add.h"'), encoding="utf-8")
    record = third_party.evaluate_operator(str(tmp_path), name, "all")
    assert record["reached"] == ["host_built", "kernel_built"] and record["failed"] is None
    assert record["inputs"].startswith("no inputs derivable: the example calls the hand-written aclnn API")


# -- EvoKernel: the reference side ------------------------------------------------------------------------

REFERENCE = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, in_features, out_features, scaling_factor):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return (self.fc(x) + self.bias) * self.scaling_factor

batch_size = 4096
in_features = 1024
out_features = 512
scaling_factor = 2.0

def get_inputs():
    return [torch.rand(batch_size, in_features)]

def get_init_inputs():
    return [in_features, out_features, scaling_factor]
"""


def test_the_driver_scales_sizes_down_and_maps_the_binding_arguments(bench, tmp_path: Path) -> None:
    import third_party_evokernel_driver as driver
    import torch

    path = tmp_path / "1_Probe.py"
    path.write_text(REFERENCE, encoding="utf-8")
    sizes, elements = driver.choose_sizes(path, 1 << 16)
    assert elements <= 1 << 16 and sizes                      # halved until within the budget
    assert set(sizes) <= {"batch_size", "in_features", "out_features"}
    module = driver.load_reference(path, sizes)
    assert module.batch_size == sizes.get("batch_size", 4096)
    model = module.Model(*module.get_init_inputs())
    inputs = module.get_inputs()
    params = [{"name": "x", "kind": "tensor"}, {"name": "fc_weight", "kind": "tensor"},
              {"name": "fc_b", "kind": "optional_tensor"}, {"name": "post_bias", "kind": "tensor"},
              {"name": "scaling_factor", "kind": "float"}]
    values, notes = driver.map_arguments(params, inputs, model, {}, module)
    assert notes == ["x=input", "fc_weight=fc.weight", "fc_b=fc.bias", "post_bias=bias",
                     "scaling_factor=scaling_factor"]
    assert torch.equal(values[1], model.fc.weight) and values[4] == 2.0
    with pytest.raises(driver.NoInputs, match="'q'"):
        driver.map_arguments([{"name": "x", "kind": "tensor"}, {"name": "q", "kind": "tensor"}], inputs, model, {},
                             module)


def test_binding_parameters_and_device_adaptation(bench) -> None:
    import third_party_evokernel as evo

    text = """
    static at::Tensor f_impl(const at::Tensor& x,   // (N, C)
                             const c10::optional<at::Tensor>& bias_opt, double eps, int64_t dim) {
      TORCH_CHECK(x.device().type() == c10::DeviceType::PrivateUse1, "npu");
      TORCH_CHECK(x.device().is_privateuseone());
      return x;
    }
    TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) { m.impl("f", &f_impl); }
    PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("f_custom", &f_impl, "f"); }
    """
    name, params = evo.binding_function(text)
    assert name == "f_custom"
    assert params == [{"name": "x", "kind": "tensor"}, {"name": "bias_opt", "kind": "optional_tensor"},
                      {"name": "eps", "kind": "float"}, {"name": "dim", "kind": "int"}]
    adapted = evo.adapt_binding(text)
    assert "PrivateUse1" not in adapted and "is_privateuseone" not in adapted
    assert "c10::DeviceType::CPU" in adapted and "is_cpu()" in adapted


def test_the_script_reports_layers_blockers_and_owners(bench, capsys: pytest.CaptureFixture[str]) -> None:
    third_party, _, _ = bench
    records = [
        {"operator": "cann-ops/a", "source": "cann-ops", "reached": list(third_party.LAYERS), "failed": None,
         "inputs": "examples/x"},
        {"operator": "cann-ops/b", "source": "cann-ops", "reached": ["host_built"], "failed": "kernel_built",
         "blocker": "error: 'X' was not declared in this scope", "owner": "ours", "reason": "r1"},
        {"operator": "EvoKernel/c", "source": "EvoKernel", "reached": ["host_built", "kernel_built"], "failed": None,
         "inputs": "no inputs derivable: because"},
    ]
    third_party.report(records, "all", 1.0)
    out = capsys.readouterr().out
    assert "kernel compiles" in out and "2/3 (67%)" in out
    assert "[ours] kernel compiles: error: 'X' was not declared in this scope" in out
    assert "1  no inputs derivable: because" in out
    assert "failed operators by owner: ours 1" in out
    assert sys.modules.get("third_party") is third_party
