"""Device code is device code (docs/simulator.md, "Device code has no C library"): a kernel whose own code
calls what the AI core does not have (the C library, the C++ runtime's allocator, threads, files) fails
to build, naming the call and its kernel line; what the device compiler accepts (the AscendC API,
compiler builtins, header-only and constexpr standard code) keeps compiling and runs."""

from __future__ import annotations

import numpy as np
import pytest

from npukernelbench.toolchains.ascendc_sim import symbol_trace
from npukernelbench.toolchains.base import Launch, TensorArg

HOST = r"""
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  ctx->SetBlockDim(1);
  uint32_t* n = ctx->GetTilingData<uint32_t>();
  *n = static_cast<uint32_t>(ctx->GetInputShape(0)->GetStorageShape().GetShapeSize());
  ctx->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class DeviceProbe : public OpDef {
 public:
  explicit DeviceProbe(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(DeviceProbe);
}  // namespace ops
"""

PARAMS = [("x", "input", "REQUIRED", "float32"), ("y", "output", "REQUIRED", "float32")]

HEAD = r"""#include "kernel_operator.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>
#include "helper.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void device_probe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  uint32_t n = *reinterpret_cast<__gm__ uint32_t*>(tiling);
  __gm__ float* px = (__gm__ float*)x;
  __gm__ float* py = (__gm__ float*)y;
"""
HEAD_LINES = HEAD.count("\n")

# Each body line is numbered from the kernel file's line HEAD_LINES + 1.
C_LIBRARY = [
    "  memcpy(py, px, n * sizeof(float));                       // run-time size: needs the C library",
    "  memset(py, 0, n);",
    "  float* heap = static_cast<float*>(malloc(n * sizeof(float)));",
    "  FILE* f = fopen(\"/etc/hostname\", \"r\");",
    "  py[0] = static_cast<float>(strlen(reinterpret_cast<const char*>(px)) + (f != nullptr) + (heap != nullptr));",
    "}",
]
CXX_RUNTIME = [
    "  float* arr = new float[n];",
    "  arr[0] = px[0];",
    "  reinterpret_cast<__gm__ float**>(py)[1] = arr;                // the allocation escapes: not elided",
    "  py[0] = arr[0] + static_cast<float>(Sum(px, n));            // std::vector in the kernel's own header",
    "}",
]
THREADS = [
    "  __gthread_t t;",
    "  __gthread_create(&t, [](void* p) -> void* { return p; }, px);   // libstdc++'s internal thread wrapper",
    "  py[0] = px[0];",
    "}",
]
HELPER = """#pragma once
#include <vector>
inline float Sum(const float* p, unsigned n) {
  std::vector<float> v(p, p + n);
  float s = 0;
  for (float e : v) s += e;
  return s;
}
"""

# What the device compiler accepts: header-only and constexpr standard code, builtins, the AscendC API.
ACCEPTED = r"""#include "kernel_operator.h"
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <type_traits>
using namespace AscendC;

struct Block { float v[64]; };                     // a struct the compiler copies with block moves
constexpr int Square(int v) { return v * v; }
static_assert(std::is_same_v<std::remove_cv_t<const float>, float>, "type traits");

extern "C" __global__ __aicore__ void device_probe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  uint32_t n = *reinterpret_cast<__gm__ uint32_t*>(tiling);
  __gm__ float* px = (__gm__ float*)x;
  __gm__ float* py = (__gm__ float*)y;
  std::array<float, 4> scale{1.0f, 1.0f, 1.0f, 1.0f};
  Block local = {};                                 // an array initialiser: a compiler-emitted memset
  for (uint32_t i = 0; i < std::min<uint32_t>(n, 64); ++i) local.v[i] = px[i];
  Block copy = local;                               // a struct copy: compiler-emitted moves
  float bits = 0.0f;
  uint32_t one = 0x3f800000u;
  std::memcpy(&bits, &one, sizeof(one));            // a constant size: the builtin, no C library
  float big = std::numeric_limits<float>::max() > 1.0f ? bits : 0.0f;
  for (uint32_t i = 0; i < std::min<uint32_t>(n, 64); ++i) {
    py[i] = copy.v[i] * scale[i % 4] * big * static_cast<float>(Square(1)) * sqrt(1.0f);
  }
}
"""


def build(sim, make_project, body: list[str] | str, extra: dict[str, str] | None = None):
    source = body if isinstance(body, str) else HEAD + "\n".join(body) + "\n"
    files = {"op_kernel/helper.h": HELPER, **(extra or {})}
    return sim.build(make_project("DeviceProbe", "device_probe", HOST, source, PARAMS, files))


def line_of(body: list[str], needle: str) -> str:
    return f"op_kernel/device_probe.cpp:{HEAD_LINES + 1 + next(i for i, t in enumerate(body) if needle in t)}"


def test_c_library_calls_fail_to_build_naming_the_call_and_line(sim, make_project) -> None:
    result = build(sim, make_project, C_LIBRARY)
    assert not result.ok, "a kernel calling the C library built"
    text = result.diagnostics
    for name, needle in (("memcpy", "memcpy("), ("memset", "memset("), ("malloc", "malloc("), ("fopen", "fopen("),
                         ("strlen", "strlen(")):
        expected = f"{line_of(C_LIBRARY, needle)}: error: device code calls '{name}': there is no C library"
        assert expected in text, (expected, text)


def test_cxx_runtime_calls_fail_to_build_also_from_a_kernel_header(sim, make_project) -> None:
    result = build(sim, make_project, CXX_RUNTIME)
    assert not result.ok, "a kernel using the C++ allocator built"
    text = result.diagnostics
    new_array = f"{line_of(CXX_RUNTIME, 'new float')}: error: device code calls 'operator new[](unsigned long)'"
    assert new_array in text, text
    # std::vector's allocation, inside the kernel's own header
    assert "op_kernel/helper.h:4: error: device code calls 'operator new(unsigned long)'" in text, text


def test_a_thread_started_through_libstdcxx_internals_fails_to_build(sim, make_project) -> None:
    result = build(sim, make_project, THREADS)
    assert not result.ok, "a kernel starting a thread built"
    expected = f"{line_of(THREADS, '__gthread_create')}: error: device code calls 'pthread_create'"
    assert expected in result.diagnostics, result.diagnostics


def test_what_the_device_compiler_accepts_builds_and_runs(sim, make_project) -> None:
    result = build(sim, make_project, ACCEPTED)
    assert result.ok, result.diagnostics
    x = np.arange(64, dtype=np.float32)
    run = sim.run(result, Launch(inputs=(TensorArg("x", "float32", x),),
                                 outputs=(TensorArg("y", "float32", shape=(64,)),), attrs={}))
    assert run.ok, run.message
    np.testing.assert_array_equal(run.outputs["y"], x)


# Namespace-scope objects with a dynamic initialiser are built when the simulator loads the kernel, on the
# host (never in a launch): <iostream>'s ios_base::Init builds, as real kernels that include it do; what
# host code may not link stays out.
LOAD_TIME_OK = "#include <iostream>\n" + ACCEPTED
LOAD_TIME_FILE = ACCEPTED.replace("struct Block {",
                                  "static void* g_log = fopen(\"/tmp/kernel.log\", \"w\");\nstruct Block {")


def test_load_time_initialisers_are_held_to_what_host_code_may_link(sim, make_project) -> None:
    assert build(sim, make_project, LOAD_TIME_OK).ok
    result = build(sim, make_project, "#include <cstdio>\n" + LOAD_TIME_FILE)
    assert not result.ok, "a kernel file opening a file at load time built"
    assert "error: device code calls 'fopen'" in result.diagnostics, result.diagnostics


@pytest.mark.parametrize("text,expected", [
    ("0x0000000000000010\n/a/b.h:3\n/c/d.cpp:7 (discriminator 2)\n0x20\n??:0\n",
     {0x10: ["/a/b.h:3", "/c/d.cpp:7 (discriminator 2)"], 0x20: ["??:0"]}),
])
def test_addr2line_output_is_read_per_address(text: str, expected: dict[int, list[str]]) -> None:
    assert symbol_trace.parse_addr2line(text) == expected


def test_the_symbol_checks_read_outputs_longer_than_the_confinement_keeps(tmp_path) -> None:
    # an addr2line run over a big kernel's call sites prints hundreds of KB; the confinement's pipe keeps
    # 64 KiB: a truncated listing would leave sites without their call chain (and blame the kernel)
    from npukernelbench.toolchains.ascendc_sim import builder

    run = builder._tool_runner(tmp_path, {}, "test")
    text = run(["/bin/sh", "-c", "i=0; while [ $i -lt 20000 ]; do echo 0123456789abcdef; i=$((i+1)); done"],
               "printing")
    assert len(text) == 20000 * 17 and not list(tmp_path.iterdir())


# A distribution's compiler may turn hardening on by default (Ubuntu's g++: -fstack-protector-strong and
# -D_FORTIFY_SOURCE=3): the device-code flags must turn off what would make the compiler itself call the C
# library, or every kernel would fail the device-symbol check on such a host.
DISTRO_DEFAULTS = ("-fstack-protector-all", "-D_FORTIFY_SOURCE=3")
CANARY_SOURCE = r"""
#include <cstring>
void fill(char* out, const char* in, unsigned n);
void kernel_like(char* out, const char* in, unsigned n) {
  char local[64];
  std::memcpy(local, in, n);
  fill(out, local, n);
}
"""


def _undefined(tmp_path, flags: tuple[str, ...]) -> set[str]:
    import subprocess

    from npukernelbench.toolchains.ascendc_sim import compiler as cc
    from npukernelbench.toolchains.ascendc_sim import elf_object

    found = cc.find_compiler()
    if isinstance(found, str):
        pytest.fail(found, pytrace=False)
    (tmp_path / "k.cpp").write_text(CANARY_SOURCE, encoding="utf-8")
    subprocess.run([found.path, *DISTRO_DEFAULTS, *flags, "-c", "k.cpp", "-o", "k.o"], cwd=tmp_path, check=True,
                   capture_output=True, timeout=120)
    return {s.name for s in elf_object.read(tmp_path / "k.o").symbols if not s.defined and s.name}


def test_kernel_flags_undo_a_distributions_default_hardening(tmp_path) -> None:
    from npukernelbench.toolchains.ascendc_sim.compiler import KERNEL_FLAGS

    assert not {"__stack_chk_fail", "__memcpy_chk"} & _undefined(tmp_path, KERNEL_FLAGS)
    # the same compile without the flags that undo them calls the C library's canary and bounds checks
    assert "__stack_chk_fail" in _undefined(tmp_path, tuple(f for f in KERNEL_FLAGS if f != "-fno-stack-protector"))
    assert "__memcpy_chk" in _undefined(tmp_path, tuple(f for f in KERNEL_FLAGS if f != "-U_FORTIFY_SOURCE"))
