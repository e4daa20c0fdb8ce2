"""Header shape: idioms real AscendC operators use, compiled (and where they have an effect, run) against
the simulator's headers. Each snippet is our own; each idiom is one that real operator code relies on:

- the macros and constants operators define themselves (`#define K_MAX_SHAPE_DIM 0` before the include,
  their own `INT_MAX` constant), which the headers must not take;
- scalar math used unqualified without an include (`sqrt`, `floor`, `tanh`, `expf` on scalars), next to
  `<cmath>` and to kernel entries named like libm functions;
- the real signatures, without extra defaulted parameters: `tbuf.Get<float>(0)`, APIs' addresses and
  function types, explicit template arguments;
- `que.DeQue()` without template arguments;
- the names visible without `using namespace AscendC;` (device types and built-ins) and those that are
  not (the AscendC classes stay in their namespace).

Violation reports still name the kernel line (tests/sim_kernel/test_violations.py); here a violation
inside a helper of the kernel's own is traced to that helper's line too.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from simkit import compile_source, run_program, syntax_check

HEAD = '#include "kernel_operator.h"\n'
RUN_MAIN = """
#include "test_support.h"
int main(int argc, char** argv) {
  npukb_test::set_dir(argc > 1 ? argv[1] : ".");
  npukb_test::run_blocks(1, body, nullptr);
  npukb_test::save_outputs();
  return 0;
}
"""

# name -> a translation unit that must compile (syntax only)
COMPILES = {
    # cann-ops kernels shrink LocalTensor this way; the header must not use the name itself
    "k_max_shape_dim_before_the_include": """
#define K_MAX_SHAPE_DIM 0
#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline uint32_t Dims(const LocalTensor<float>& t) { return t.GetShapeInfo().shapeDim; }
""",
    "k_max_shape_dim_after_the_include": HEAD + """
#define K_MAX_SHAPE_DIM 8
AscendC::ShapeInfo Info(const uint32_t* dims) { return AscendC::ShapeInfo(2, dims); }
uint32_t Size(const AscendC::ShapeInfo& s) { return AscendC::GetShapeSize(s) + AscendC::K_MAX_DIM; }
""",
    # a kernel's own limits constants (no <climits> behind its back)
    "own_int_max_constant": HEAD + """
using namespace AscendC;
namespace GridSampleGrad {
constexpr static int32_t INT_MAX = 2147483647;
constexpr static int32_t INT_MIN = -2147483648;
}
""",
    "own_global_int_max": HEAD + "constexpr int32_t INT_MAX = 2147483647;\n",
    # scalar math next to <cmath>, in both orders, and through `using namespace std`
    "cmath_after_the_include": HEAD + """
#include <cmath>
using namespace std;
float F(float x, double d, int i) { return sqrt(x) + std::sqrt(x) + sqrt(d) + sqrt(i) + std::sqrt(i) + floor(x); }
""",
    "cmath_before_the_include": "#include <cmath>\n" + HEAD + """
float F(float x, double d, int i) { return sqrt(x) + std::sqrt(x) + sqrt(d) + sqrt(i) + sqrtf(x) + std::pow(x, 2); }
""",
    "using_std_sqrt_at_global_scope": HEAD + "#include <cmath>\nusing std::sqrt;\n"
                                      "float F(float x) { return sqrt(x); }\n",
    "own_scalar_sqrt": HEAD + "__aicore__ inline float sqrt(float x) { return x; }\n"
                       "float F(float x) { return sqrt(x); }\n",
    # operators named after libm functions have entries of that name
    "entries_named_like_libm": HEAD + """
extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {}
extern "C" __global__ __aicore__ void exp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {}
extern "C" __global__ __aicore__ void floor(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {}
float F(float x) { return sqrt(x) + exp(x) + floor(x); }
""",
    # device types, qualifiers and built-ins need no using-directive
    "no_using_directive": HEAD + """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  AscendC::LocalTensor<half> t = buf.Get<half>();
  AscendC::GlobalTensor<bfloat16_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(x));
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::PipeBarrier<PIPE_V>();
  pipe_barrier(PIPE_ALL);
  int64_t b = AscendC::GetBlockIdx() + get_block_idx();
  (void)b; (void)t;
}
""",
    # the Matmul library's namespace brings the AscendC API with it
    "using_namespace_matmul": HEAD + """#include "lib/matmul_intf.h"
using namespace matmul;
bool HasWorkspace() { return GetSysWorkSpacePtr() != nullptr; }
""",
    # whole-memory sizes real kernels size buffers with
    "memory_size_constants": HEAD + """
static_assert(AscendC::TOTAL_UB_SIZE == 196608 && AscendC::TOTAL_VEC_LOCAL_SIZE == 196608);
static_assert(AscendC::TOTAL_L1_SIZE == 512 * 1024 && AscendC::TOTAL_L0C_SIZE == 128 * 1024);
static_assert(AscendC::TOTAL_L0A_SIZE == 64 * 1024 && AscendC::TOTAL_L0B_SIZE == 64 * 1024);
""",
    # the real signatures: an API's address has the real function type
    "api_function_types": HEAD + """
#include <type_traits>
using namespace AscendC;
static_assert(std::is_same_v<decltype(&GetBlockIdx), int64_t (*)()>);
void (*set_flag_ptr)(int32_t) = &SetFlag<HardEvent::V_MTE3>;
void (*wait_flag_ptr)(int32_t) = &WaitFlag<HardEvent::V_MTE3>;
void (*sync_ptr)() = &SyncAll<true>;
void (*add_ptr)(const LocalTensor<float>&, const LocalTensor<float>&, const LocalTensor<float>&, const int32_t&) =
    &Add<float>;
void (*dup_ptr)(const LocalTensor<float>&, const float&, const int32_t&) = &Duplicate<float>;
LocalTensor<float> (TBuf<TPosition::VECCALC>::*get_all)() = &TBuf<TPosition::VECCALC>::Get<float>;
LocalTensor<float> (TBuf<TPosition::VECCALC>::*get_len)(uint32_t) = &TBuf<TPosition::VECCALC>::Get<float>;
float (LocalTensor<float>::*get_value)(const uint32_t) const = &LocalTensor<float>::GetValue;
LocalTensor<float> (TQue<TPosition::VECIN, 1>::*deque)() = &TQue<TPosition::VECIN, 1>::DeQue<float>;
template <typename T, void (*op)(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&)> struct Apply {};
Apply<float, Exp<float>> apply_exp;
Apply<half, Relu<half>> apply_relu;
""",
    # explicit template arguments select the same overloads as deduction
    "explicit_template_arguments": HEAD + """
using namespace AscendC;
void F(const LocalTensor<float>& a, const GlobalTensor<float>& g, TQue<TPosition::VECIN, 1>& q, TBuf<>& b) {
  DataCopy<float>(a, g, 64);
  Duplicate<float>(a, 1.0f, 64);
  Adds<float>(a, a, 2.0f, 64);
  LocalTensor<float> t = q.AllocTensor<float>();
  q.EnQue<float>(t);
  LocalTensor<float> u = q.DeQue<float>();
  q.FreeTensor<float>(u);
  LocalTensor<int32_t> w = b.Get<int32_t>(0);
  (void)w;
}
""",
}

# name -> a translation unit that must NOT compile: what the real headers do not declare
REJECTED = {
    # the AscendC classes and functions are not global names
    "ascendc_names_need_their_namespace": HEAD + "void F() { TPipe pipe; }\n",
    "ascendc_functions_need_their_namespace": HEAD + "int64_t F() { return GetBlockNum(); }\n",
    # no trailing location parameters: an API takes exactly its documented arguments
    "no_extra_arguments": HEAD + """
using namespace AscendC;
void F() { SetFlag<HardEvent::V_MTE3>(0, "file.cpp", 1); }
""",
}


@pytest.mark.parametrize("name", sorted(COMPILES))
def test_idiom_compiles(tmp_path: Path, name: str) -> None:
    result = syntax_check(COMPILES[name], tmp_path)
    assert result.ok, result.stderr[-3000:]


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_what_the_real_headers_lack_is_rejected(tmp_path: Path, name: str) -> None:
    result = syntax_check(REJECTED[name], tmp_path)
    assert not result.ok


def _run(tmp_path: Path, cache: Path, source: str):
    comp = compile_source(source, tmp_path, cache)
    assert comp.ok, comp.stderr[-3000:]
    assert comp.exe is not None
    return run_program(comp.exe, tmp_path)


DEVICE_MATH = HEAD + """
#include "test_support.h"
static void body(void*) {
  float* o = reinterpret_cast<float*>(npukb_test::gm_output(0, 8 * 4));
  volatile float x = 2.25f;
  half h = static_cast<half>(6.25f);
  o[0] = sqrt(x);               // float stays float
  o[1] = floor(x);
  o[2] = tanh(x);
  o[3] = expf(x);
  o[4] = static_cast<float>(sqrt(h));
  o[5] = abs(-x);               // the floating abs, not C's abs(int)
  o[6] = static_cast<float>(sqrt(9.0));
  o[7] = powf(x, 2);
}
"""


def test_scalar_math_without_an_include(tmp_path: Path, sim_cache: Path) -> None:
    ran = _run(tmp_path, sim_cache, DEVICE_MATH + RUN_MAIN)
    assert ran.returncode == 0, ran.stderr
    got = np.frombuffer((tmp_path / "out0.bin").read_bytes(), np.float32)
    x = np.float32(2.25)
    want = [1.5, 2.0, np.tanh(x), np.exp(x), 2.5, 2.25, 3.0, x * x]
    np.testing.assert_allclose(got, np.array(want, np.float32), rtol=1e-6)


GET_ZERO = HEAD + """
#include "test_support.h"
using namespace AscendC;
static void body(void*) {
  GlobalTensor<int32_t> o;
  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 4 * 4), 4);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> none = buf.Get<float>(0);         // a tensor of 0 elements (not a location argument)
  LocalTensor<float> some = buf.Get<float>(16);
  LocalTensor<float> all = buf.Get<float>();
  o.SetValue(0, static_cast<int32_t>(none.GetSize()));
  o.SetValue(1, static_cast<int32_t>(some.GetSize()));
  o.SetValue(2, static_cast<int32_t>(all.GetSize()));
  o.SetValue(3, static_cast<int32_t>(o.GetValue(0)));  // GetValue(0) reads index 0
}
"""


@pytest.mark.api("TBuf/Get", "GlobalTensor/GetValue", "GlobalTensor/SetValue")
def test_get_with_a_literal_zero_is_a_zero_length_tensor(tmp_path: Path, sim_cache: Path) -> None:
    ran = _run(tmp_path, sim_cache, GET_ZERO + RUN_MAIN)
    assert ran.returncode == 0, ran.stderr
    assert np.frombuffer((tmp_path / "out0.bin").read_bytes(), np.int32).tolist() == [0, 16, 64, 0]


HELPER_LINE = HEAD + """
#include "test_support.h"
using namespace AscendC;
template <typename T>
__aicore__ inline void Fill(const LocalTensor<T>& t, int32_t n) {
  Duplicate(t, T(1), n);   // HELPER-LINE
}
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  Fill(buf.Get<float>(), 64);
  Fill(buf.Get<float>(), 1 << 20);
}
"""


def test_a_violation_in_a_helper_of_the_kernel_names_the_helpers_line(tmp_path: Path, sim_cache: Path) -> None:
    ran = _run(tmp_path, sim_cache, HELPER_LINE + RUN_MAIN)
    assert ran.returncode == 3, ran.stderr
    source = (tmp_path / "prog.cpp").read_text().splitlines()
    line = next(i for i, text in enumerate(source, 1) if "HELPER-LINE" in text)
    assert f"prog.cpp:{line})" in ran.stderr, ran.stderr
