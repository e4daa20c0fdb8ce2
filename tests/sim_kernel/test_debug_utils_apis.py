"""The Utils API debugging functions (调测接口), each checked against its doc page: asc_dump and its
memory-named forms, clock, asc_time_stamp, asc_prof_start / asc_prof_stop and assert through
"utils/debug/asc_assert.h". Kernels written for these tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from simkit import compile_source, run_program

MAIN = """
int main(int argc, char** argv) {
  npukb_test::set_dir(argc > 1 ? argv[1] : ".");
  npukb_test::run_blocks(1, body, nullptr);
  npukb_test::save_outputs();
  return 0;
}
"""
HEAD = ('#include "kernel_operator.h"\n#include "utils/debug/asc_dump.h"\n#include "utils/debug/asc_time.h"\n'
        '#include "utils/debug/asc_assert.h"\n#include "test_support.h"\nusing namespace AscendC;\n')


def _run(tmp_path: Path, cache: Path, body: str, defines: str = ""):
    comp = compile_source(defines + HEAD + body + MAIN, tmp_path, cache)
    assert comp.ok, comp.stderr[-3000:]
    assert comp.exe is not None
    return run_program(comp.exe, tmp_path)


def _log(ran) -> list[str]:
    return [line.split("] ", 1)[1] if line.startswith("[block") else line for line in ran.stdout.splitlines()]


DUMP = """
static void body(void*) {
  __gm__ int32_t* g = (__gm__ int32_t*)npukb_test::gm_output(0, 64 * 4);
  for (int i = 0; i < 64; ++i) g[i] = i - 8;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<half> t = buf.Get<half>();
  for (int i = 0; i < 16; ++i) t.SetValue(i, static_cast<half>(i * 0.5f));
  __ubuf__ half* u = (__ubuf__ half*)t.GetPhyAddr();
  asc_dump_gm(g + 8, 7u, 3);
  asc_dump(g, 8u, 2);
  asc_dump_ubuf(u, 5u, 4);
  asc_dump(u + 16, 6u, 2);
#ifdef WRONG_MEMORY
  asc_dump_gm(u, 1u, 1);
#endif
#ifdef PAST_THE_END
  asc_dump(g + 124, 1u, 8);  // past the GM tensor
#endif
}
"""


@pytest.mark.api("asc_dump")
def test_asc_dump_prints_gm_and_ub_data_with_its_description(tmp_path: Path, sim_cache: Path) -> None:
    ran = _run(tmp_path / "ok", sim_cache, DUMP)
    assert ran.returncode == 0, ran.stderr
    log = _log(ran)
    assert log[0] == "asc_dump_gm: desc=7, addr=32, data_type=int32, position=GM, dump_size=3"
    assert log[1] == "[0, 1, 2]"
    assert log[2] == "asc_dump: desc=8, addr=0, data_type=int32, position=GM, dump_size=2"
    assert log[3] == "[-8, -7]"
    assert log[4].startswith("asc_dump_ubuf: desc=5, addr=") and log[4].endswith("position=UB, dump_size=4")
    assert "data_type=float16" in log[4]
    assert log[5] == "[0.000000, 0.500000, 1.000000, 1.500000]"
    assert log[6].startswith("asc_dump: desc=6, ") and "position=UB" in log[6]
    assert int(log[6].split("addr=")[1].split(",")[0]) == int(log[4].split("addr=")[1].split(",")[0]) + 32


@pytest.mark.api("asc_dump")
def test_asc_dump_checks_the_memory_and_the_size(tmp_path: Path, sim_cache: Path) -> None:
    wrong = _run(tmp_path / "wrong", sim_cache, DUMP, defines="#define WRONG_MEMORY\n")
    assert wrong.returncode == 3 and "asc_dump_gm: input points into UB, not GM" in wrong.stderr, wrong.stderr
    past = _run(tmp_path / "past", sim_cache, DUMP, defines="#define PAST_THE_END\n")
    assert past.returncode == 3 and "VIOLATION: asc_dump: " in past.stderr, past.stderr


@pytest.mark.api("asc_dump")
def test_asc_dump_is_off_with_ascendc_dump_0(tmp_path: Path, sim_cache: Path) -> None:
    ran = _run(tmp_path, sim_cache, DUMP, defines="#define ASCENDC_DUMP 0\n")
    assert ran.returncode == 0, ran.stderr
    assert _log(ran) == []


CLOCK = """
#include <ctime>    // after kernel_operator.h: clock stays the kernel's
#include <chrono>
static void body(void*) {
  __gm__ uint64_t* out = (__gm__ uint64_t*)npukb_test::gm_output(0, 2 * 8);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 8192);
  LocalTensor<float> t = buf.Get<float>();
  uint64_t before = clock();
  Duplicate(t, 1.0f, 2048);
  Exp(t, t, 2048);
  uint64_t after = std::clock();
  out[0] = before;
  out[1] = after;
  printf("elapsed %d\\n", static_cast<int64_t>(after - before) > 0 ? 1 : 0);
  asc_prof_start();
  asc_prof_stop();
}
"""


@pytest.mark.api("clock", "asc_prof_start", "asc_prof_stop")
def test_clock_counts_the_cycles_of_the_work_between_two_calls(tmp_path: Path, sim_cache: Path) -> None:
    """clock() (also spelt std::clock, with <ctime> included after the kernel headers) is the block's
    (estimated) cycle count: vector work between two calls advances it; the profiling markers print nothing
    and change nothing."""
    import numpy as np

    ran = _run(tmp_path, sim_cache, CLOCK)
    assert ran.returncode == 0, ran.stderr
    assert _log(ran) == ["elapsed 1"]
    before, after = np.fromfile(tmp_path / "out0.bin", dtype=np.uint64)
    assert after > before


TIMESTAMP = """
static void body(void*) {
  asc_time_stamp(0x10002u);
}
"""


@pytest.mark.api("asc_time_stamp")
def test_asc_time_stamp_prints_only_when_switched_on(tmp_path: Path, sim_cache: Path) -> None:
    off = _run(tmp_path / "off", sim_cache, TIMESTAMP)
    assert off.returncode == 0 and _log(off) == []
    on = _run(tmp_path / "on", sim_cache, TIMESTAMP, defines="#define ASCENDC_TIME_STAMP_ON\n")
    assert on.returncode == 0, on.stderr
    (line,) = _log(on)
    assert line.startswith("descId is 65538, rsv is 0, timeStamp is ") and line.endswith(", pcPtr is 0, entry is 0.")


ASSERT = """
static void body(void*) {
  int a = 7;
  assert(a == 7);
#ifdef FAIL_ASSERT
  assert(a == 6);
#endif
}
"""


@pytest.mark.api("调测接口/assert")
def test_utils_assert_stops_the_kernel_on_a_false_condition(tmp_path: Path, sim_cache: Path) -> None:
    ok = _run(tmp_path / "ok", sim_cache, ASSERT)
    assert ok.returncode == 0, ok.stderr
    bad = _run(tmp_path / "bad", sim_cache, ASSERT, defines="#define FAIL_ASSERT\n")
    assert bad.returncode == 3 and "assertion failed: a == 6" in bad.stderr, bad.stderr


PRINTF_TRACE = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> t = buf.Get<float>();
  TRACE_START(0x2);
  Duplicate(t, 2.0f, 64);
  TRACE_STOP(0x2);
  TRACE_START(PIPE_V, 0x3);
  Muls(t, t, 1.5f, 64);
  TRACE_STOP(PIPE_V, 0x3);
  int32_t n = -5;
  uint8_t u = 200;
  printf("n=%d u=%u f=%f x=%x s=%s\\n", n, u, t.GetValue(3), n, "ok");
}
"""


@pytest.mark.api("调测接口/printf", "TRACE_START", "TRACE_STOP")
def test_utils_printf_formats_like_the_device_and_trace_points_change_nothing(tmp_path: Path, sim_cache: Path) -> None:
    """printf converts by type (%x of a negative int32_t prints 64 bits); TRACE_START / TRACE_STOP take
    the apid alone or a pipe and the apid, and neither prints nor changes the result."""
    ran = _run(tmp_path, sim_cache, PRINTF_TRACE)
    assert ran.returncode == 0, ran.stderr
    assert _log(ran) == ["n=-5 u=200 f=3.000000 x=fffffffffffffffb s=ok"]
