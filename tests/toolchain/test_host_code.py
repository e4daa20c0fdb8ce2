"""Host code keeps the C++ standard library but no files, processes, threads or clocks (docs/simulator.md,
"What host code may link"): host code whose own code links such a function fails to build, naming the
call and its line; strings, containers, string and console streams, exceptions and math keep building."""

from __future__ import annotations

from npukernelbench.toolchains.ascendc_sim import host_symbols
from npukernelbench.toolchains.base import KernelProject

OPDEF = r"""
namespace ops {
class HostProbe : public OpDef {
 public:
  explicit HostProbe(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(HostProbe);
}  // namespace ops
"""

HEAD = """#include "register/op_def_registry.h"
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx) {
  ctx->SetBlockDim(1);
  uint32_t* n = ctx->GetTilingData<uint32_t>();
"""
TAIL = """  ctx->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
""" + OPDEF

FORBIDDEN = [
    "  FILE* f = fopen(\"/etc/hostname\", \"r\");",
    "  std::ofstream log(\"/tmp/tiling.log\");",
    "  std::thread worker([] {});",
    "  worker.detach();",
    "  *n = static_cast<uint32_t>(time(nullptr)) + (f != nullptr) + log.good();",
]
ALLOWED = [
    "  std::vector<int> dims{1, 2, 3};",
    "  std::map<std::string, int> names{{\"x\", 1}};",
    "  std::ostringstream text;",
    "  text << \"dims \" << dims.size() << ' ' << std::sqrt(16.0);",
    "  std::string s = text.str();",
    "  int parsed = 0;",
    "  try { parsed = std::stoi(\"7\"); } catch (const std::exception& e) { printf(\"%s\\n\", e.what()); }",
    "  static thread_local std::vector<int> cached;   // a tiling object kept per thread, as real code does",
    "  cached.push_back(parsed);",
    "  *n = static_cast<uint32_t>(s.size() + names.size() + parsed + cached.size());",
]
FIRST_LINE = HEAD.count("\n") + 1


def describe(sim, body: list[str]):
    files = {"op_host/host_probe.cpp": HEAD + "\n".join(body) + "\n" + TAIL,
             "op_kernel/host_probe.cpp": "#include \"kernel_operator.h\"\n"}
    return sim.describe(KernelProject(op="HostProbe", kernel="host_probe", files=files, params=()))


def test_host_code_linking_files_threads_or_clocks_fails_to_build(sim) -> None:
    result = describe(sim, FORBIDDEN)
    assert not result.ok, "host code opening files built"
    text = result.diagnostics
    for needle, name in (("fopen(", "'fopen'"), ("std::thread worker", "'std::thread::_M_start_thread("),
                         ("time(nullptr)", "'time'")):
        line = FIRST_LINE + next(i for i, t in enumerate(FORBIDDEN) if needle in t)
        assert f"op_host/host_probe.cpp:{line}: error: host code calls {name}" in text, (needle, text)
    assert "std::basic_ofstream" in text, text


def test_the_cxx_standard_library_and_console_output_keep_building(sim) -> None:
    result = describe(sim, ALLOWED)
    assert result.ok, result.diagnostics
    assert [s.op for s in result.signatures] == ["HostProbe"]


def test_families_are_read_from_the_mangled_name() -> None:
    # the name declared in namespace std decides, not a return type or an argument
    start_thread = "_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE"
    assert host_symbols.std_name(start_thread) == "thread"
    assert host_symbols.std_name("_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc") == "ls"
    string_create = "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm"
    assert host_symbols.std_name(string_create) == "basic_string"
    library = frozenset()
    assert host_symbols.permitted("_ZSt4cout", library) and host_symbols.permitted("_Znwm", library)
    assert host_symbols.permitted("__tls_get_addr", library)   # thread_local storage, no thread of its own
    assert not host_symbols.permitted("_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode", library)
    assert not host_symbols.permitted("_ZNSt6chrono3_V212system_clock3nowEv", library)
    assert not host_symbols.permitted("fopen", library) and host_symbols.permitted("snprintf", host_symbols.C_LIBRARY)


def test_host_sources_may_call_each_other(sim) -> None:
    # a helper defined in one host source, used in another (real op_host projects split their tiling)
    main = HEAD.replace("static ge::graphStatus TilingFunc", "int HelperRows();\nstatic ge::graphStatus TilingFunc")
    files = {"op_host/host_probe.cpp": main + "  *n = static_cast<uint32_t>(HelperRows());\n" + TAIL,
             "op_host/host_probe_helper.cpp": "namespace optiling { int HelperRows() { return 3; } }\n",
             "op_kernel/host_probe.cpp": "#include \"kernel_operator.h\"\n"}
    result = sim.describe(KernelProject(op="HostProbe", kernel="host_probe", files=files, params=()))
    assert result.ok, result.diagnostics
