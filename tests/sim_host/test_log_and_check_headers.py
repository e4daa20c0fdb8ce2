"""The logging, error-report and check headers real op_host code includes (log/ops_log.h, error/ops_error.h,
ops_error.h, base/err_msg.h, utils/log/asc_cpu_log.h, toolchain/slog.h), the tiling-key helper of
tiling/tiling_type.h, the format helpers of graph/types.h and the standard headers tiling/tiling_base.h
brings: a host program compiled with the real compiler against the simulator's headers, run, and its
output and exit status checked. Log macros print, check macros run the given action (a return) only
when their condition holds."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from npukernelbench.toolchains.ascendc_sim.compiler import find_compiler
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR

PROGRAM = r"""
#include <cstdio>
#include "tiling/tiling_type.h"
#include "error/ops_error.h"
#include "ops_error.h"
#include "base/err_msg.h"
#include "utils/log/asc_cpu_log.h"
#include "graph/types.h"

struct FakeContext {
  const char* GetNodeName() const { return "node7"; }
};

static int Checked(bool bad) {
  OPS_CHECK(bad, OPS_LOG_E("CheckOp", "bad value %d", 3), return 7);
  return 0;
}

static ge::graphStatus NullChecked(const FakeContext* context, const int* ptr) {
  OPS_CHECK_NULL_WITH_CONTEXT(context, ptr);
  return ge::GRAPH_SUCCESS;
}

static int NullCheckedRet(const FakeContext* context, const int* ptr) {
  OPS_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, 42);
  return 0;
}

int main() {
  FakeContext ctx;
  OPS_LOG_D("MyOp", "debug %d", 1);
  OPS_LOG_I(&ctx, "info %s", "two");
  OPS_LOG_W(std::string("StrOp"), "warn %.1f", 3.5);
  OPS_LOG_E_WITHOUT_REPORT("MyOp", "no report");
  OPS_REPORT_VECTOR_INNER_ERR("VecOp", "vector %d", 5);
  OPS_REPORT_CUBE_INNER_ERR("CubeOp", "cube");
  REPORT_INNER_ERR_MSG("EZ9999", "op[%s], %s is nullptr!", "MyOp", "x");
  REPORT_USER_ERR_MSG("EZ1001", "user %d", 9);
  ASC_CPU_LOG_INFO("tiling %d", 11);
  ASC_CPU_LOG_ERROR("plain");
  AlogRecord(OP, DLOG_TYPE_DEBUG, DLOG_ERROR, "record %d", 4);
  AlogRecord(OP, DLOG_TYPE_RUN, DLOG_DEBUG, "hidden record");
  std::printf("tid %d\n", syscall(__NR_gettid) > 0 ? 1 : 0);
  int value = 1;
  std::printf("checked %d %d\n", Checked(false), Checked(true));
  std::printf("null %u %u\n", NullChecked(&ctx, &value), NullChecked(&ctx, nullptr));
  std::printf("nullret %d %d\n", NullCheckedRet(&ctx, &value), NullCheckedRet(&ctx, nullptr));
  std::printf("levels %d %d %d\n", CheckLogLevel(OP, DLOG_DEBUG), CheckLogLevel(OP, DLOG_ERROR),
              AlogCheckDebugLevel(static_cast<int32_t>(OP), DLOG_INFO));
  std::printf("key %llu\n", static_cast<unsigned long long>(GET_TILINGKEY(0, 2, 2, 1, 0, 0, 1) % 1000000000000UL));
  std::printf("fullkey %d\n", GET_TILINGKEY(3) == optiling::TILINGKEYOFFSET + 3 ? 1 : 0);
  int32_t packed = ge::GetFormatFromSub(ge::FORMAT_FRACTAL_Z, 4);
  std::printf("format %d %d %d %d\n", ge::GetPrimaryFormat(packed), ge::GetSubFormat(packed),
              ge::HasSubFormat(packed) ? 1 : 0, ge::HasSubFormat(ge::FORMAT_ND) ? 1 : 0);
  std::stringstream ss;
  std::array<uint64_t, 3> dims{1, 2, 3};
  ss << dims[2];
  std::printf("std %s\n", ss.str().c_str());
  return 0;
}
"""


@pytest.fixture(scope="module")
def program_output(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    compiler = find_compiler()
    if isinstance(compiler, str):
        pytest.fail(f"no C++ compiler: {compiler}", pytrace=False)
    folder = tmp_path_factory.mktemp("log_headers")
    (folder / "main.cpp").write_text(PROGRAM, encoding="utf-8")
    build = subprocess.run([compiler.path, "-std=c++17", "-w", "-I", str(INCLUDE_DIR), "main.cpp", "-o", "prog"],
                           cwd=folder, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run([str(Path(folder) / "prog")], cwd=folder, capture_output=True, text=True, timeout=60,
                         env={"PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    return run.stdout, run.stderr


def test_ops_log_macros_print_with_the_operator_name(program_output: tuple[str, str]) -> None:
    _, err = program_output
    assert "[DEBUG] MyOp: debug 1" in err
    assert "[INFO] node7: info two" in err            # a context stands for its node name
    assert "[WARNING] StrOp: warn 3.5" in err
    assert "[ERROR] MyOp: no report" in err
    assert "[ERROR] VecOp: vector 5" in err
    assert "[ERROR] CubeOp: cube" in err


def test_error_report_macros_print_the_code_and_the_formatted_message(program_output: tuple[str, str]) -> None:
    _, err = program_output
    assert "[ERROR] EZ9999: op[MyOp], x is nullptr!" in err
    assert "[ERROR] EZ1001: user 9" in err


@pytest.mark.api("ASC_CPU_LOG")
def test_asc_cpu_log_prints_level_location_and_message(program_output: tuple[str, str]) -> None:
    _, err = program_output
    info = next(line for line in err.splitlines() if "tiling 11" in line)
    assert info.startswith("[INFO] main.cpp:") and info.endswith("main: tiling 11")
    assert any(line.startswith("[ERROR] main.cpp:") and line.endswith("plain") for line in err.splitlines())


def test_check_macros_run_their_action_only_when_the_check_fails(program_output: tuple[str, str]) -> None:
    out, err = program_output
    assert "checked 0 7" in out                      # OPS_CHECK returned the given value on failure
    assert "[ERROR] CheckOp: bad value 3" in err      # ... after running the log statement
    assert f"null 0 {0xFFFFFFFF}" in out             # GRAPH_SUCCESS, then GRAPH_FAILED for a null pointer
    assert "nullret 0 42" in out
    assert "[ERROR] node7: ptr is nullptr!" in err


def test_log_levels_default_to_errors_only(program_output: tuple[str, str]) -> None:
    out, err = program_output
    assert "levels 0 1 0" in out
    assert "[ERROR] record 4" in err and "hidden record" not in err
    assert "tid 1" in out                              # the ops log header brings syscall(__NR_gettid)


def test_get_tilingkey_puts_the_first_argument_in_the_lowest_digit(program_output: tuple[str, str]) -> None:
    out, _ = program_output
    assert "key 1001220" in out
    assert "fullkey 1" in out


def test_format_helpers_split_and_join_primary_and_sub_format(program_output: tuple[str, str]) -> None:
    out, _ = program_output
    assert "format 4 4 1 0" in out


def test_tiling_base_brings_sstream_and_array(program_output: tuple[str, str]) -> None:
    out, _ = program_output
    assert "std 3" in out
