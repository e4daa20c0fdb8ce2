"""Debugging APIs (调试接口), each checked against its doc page: printf / PRINTF with the device's argument
conversions, DumpTensor with and without a shape, DumpAccChkPoint, PrintTimeStamp, assert /
ascendc_assert, Trap, the ASCENDC_DUMP switch, MetricsProfStart / MetricsProfStop. Kernels written for
these tests."""

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


def _run(tmp_path: Path, cache: Path, body: str, defines: str = ""):
    head = '#include "kernel_operator.h"\n#include "test_support.h"\nusing namespace AscendC;\n'
    source = defines + head + body + MAIN
    comp = compile_source(source, tmp_path, cache)
    assert comp.ok, comp.stderr[-3000:]
    assert comp.exe is not None
    return run_program(comp.exe, tmp_path)


def _log(ran) -> list[str]:
    """The kernel's log lines (the test runtime prints them to stdout with a block prefix)."""
    return [line.split("] ", 1)[1] if line.startswith("[block") else line for line in ran.stdout.splitlines()]


PRINTF = """
static void body(void*) {
  int64_t big = 5000000000LL;
  int32_t neg = -1;
  half h = static_cast<half>(1.5f);
  bfloat16_t b = bfloat16_t(2.5f);
  AscendC::printf("d=%d i=%i u=%u\\n", big, static_cast<int8_t>(-3), static_cast<uint16_t>(7));
  printf("x=%x f=%f g=%.2f s=%s\\n", neg, h, b, "str");
  PRINTF("bool=%d pct=%% end\\n", true);
  printf("missing %d\\n");
}
"""


@pytest.mark.api("上板打印/printf")
def test_printf_converts_arguments_as_the_device_does(tmp_path: Path, sim_cache: Path) -> None:
    """%d prints int64_t, %f half and bfloat16, %x 64 bits (a negative int32_t sign-extends)."""
    ran = _run(tmp_path, sim_cache, PRINTF)
    assert ran.returncode == 0, ran.stderr
    assert _log(ran) == ["d=5000000000 i=-3 u=7", "x=ffffffffffffffff f=1.500000 g=2.50 s=str",
                         "bool=1 pct=% end", "missing %d"]


@pytest.mark.api("上板打印/printf")
def test_printf_is_off_with_ascendc_dump_0(tmp_path: Path, sim_cache: Path) -> None:
    ran = _run(tmp_path, sim_cache, PRINTF, defines="#define ASCENDC_DUMP 0\n")
    assert ran.returncode == 0, ran.stderr
    assert _log(ran) == []


DUMP = """
static void body(void*) {
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 64 * 4), 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<half> t = buf.Get<half>();
  for (int i = 0; i < 16; ++i) t.SetValue(i, static_cast<half>(i * 0.5f));
  for (int i = 0; i < 64; ++i) g.SetValue(i, i - 8);
  DumpTensor(t, 5, 4);
  DumpTensor(g, 7, 3);
  uint32_t dims[2] = {2, 3};
  DumpTensor(t, 9, 4, ShapeInfo(2, dims));            // shape larger than the dump: '-' for the rest
  DumpAccChkPoint(t, 11, 16, 2);                       // from element 16 (32 bytes in)
  DumpAccChkPoint(g, 12, 8, 2);
}
"""


@pytest.mark.api("DumpTensor", "DumpAccChkPoint")
def test_dump_tensor_prints_header_and_values(tmp_path: Path, sim_cache: Path) -> None:
    ran = _run(tmp_path, sim_cache, DUMP)
    assert ran.returncode == 0, ran.stderr
    text = "\n".join(_log(ran))
    assert "DumpTensor: desc=5, addr=0, data_type=float16, position=UB, dump_size=4\n" \
           "[0.000000, 0.500000, 1.000000, 1.500000]" in text
    assert "DumpTensor: desc=7, addr=0, data_type=int32, position=GM, dump_size=3\n[-8, -7, -6]" in text
    assert "desc=9, addr=0, data_type=float16, position=UB, dump_size=4\n" \
           "[0.000000, 0.500000, 1.000000,\n 1.500000, -, -]" in text
    # the values at element 16 are whatever UB held there: only the header is fixed
    assert "DumpAccChkPoint: index=11, addr=32, data_type=float16, position=UB, dump_size=2" in text
    assert "DumpAccChkPoint: index=12, addr=32, data_type=int32, position=GM, dump_size=2\n[0, 1]" in text


DUMP_MISALIGNED = """
static void body(void*) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> t = buf.Get<float>();
  DumpAccChkPoint(t, 1, 3, 2);   // 12 bytes in: not 32-byte aligned
}
"""


@pytest.mark.api("DumpAccChkPoint")
def test_dump_acc_chk_point_offset_must_be_aligned(tmp_path: Path, sim_cache: Path) -> None:
    ran = _run(tmp_path, sim_cache, DUMP_MISALIGNED)
    assert ran.returncode == 3 and "DumpAccChkPoint" in ran.stderr and "not 32-byte aligned" in ran.stderr


TIMESTAMP = """
static void body(void*) {
  PrintTimeStamp(0x10001);
}
"""


@pytest.mark.api("PrintTimeStamp")
def test_print_time_stamp_prints_only_when_switched_on(tmp_path: Path, sim_cache: Path) -> None:
    off = _run(tmp_path / "off", sim_cache, TIMESTAMP)
    assert off.returncode == 0 and _log(off) == []
    on = _run(tmp_path / "on", sim_cache, TIMESTAMP, defines="#define ASCENDC_TIME_STAMP_ON\n")
    assert on.returncode == 0
    (line,) = _log(on)
    assert line.startswith("descId is 65537, rsv is 0, timeStamp is ") and line.endswith(", pcPtr is 0, entry is 0.")


ASSERTS = """
static void body(void*) {
  int n = 10;
  assert(n == 10);
  ascendc_assert(n > 0, "n=%d", n);
#ifdef FAIL_ASSERT
  assert(n < 5, "n is %d", n);  // ASSERT-LINE
#endif
#ifdef FAIL_TRAP
  Trap();  // TRAP-LINE
#endif
  MetricsProfStart();
  MetricsProfStop();
}
"""


def _line(tmp_path: Path, marker: str) -> int:
    return next(i for i, t in enumerate((tmp_path / "prog.cpp").read_text().splitlines(), 1) if marker in t)


@pytest.mark.api("异常检测/assert", "ascendc_assert", "MetricsProfStart", "MetricsProfStop")
def test_a_true_assertion_passes_and_a_false_one_stops_the_kernel(tmp_path: Path, sim_cache: Path) -> None:
    ok = _run(tmp_path / "ok", sim_cache, ASSERTS)
    assert ok.returncode == 0, ok.stderr
    bad = _run(tmp_path / "bad", sim_cache, ASSERTS, defines="#define FAIL_ASSERT\n")
    assert bad.returncode == 3
    assert "assertion failed: n < 5" in bad.stderr and "n is 10" in bad.stderr
    assert f"prog.cpp:{_line(tmp_path / 'bad', 'ASSERT-LINE')})" in bad.stderr
    off = _run(tmp_path / "off", sim_cache, ASSERTS, defines="#define FAIL_ASSERT\n#define ASCENDC_DUMP 0\n")
    assert off.returncode == 0, off.stderr


@pytest.mark.api("Trap")
def test_trap_stops_the_ai_core(tmp_path: Path, sim_cache: Path) -> None:
    ran = _run(tmp_path, sim_cache, ASSERTS, defines="#define FAIL_TRAP\n")
    assert ran.returncode == 3 and "Trap: " in ran.stderr
    assert f"prog.cpp:{_line(tmp_path, 'TRAP-LINE')})" in ran.stderr


CHECK_IA = """
static void body(void*) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 256 * 4), 256);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> in;
  TQue<TPosition::VECOUT, 1> out;
  pipe.InitBuffer(in, 1, 256 * sizeof(float));
  pipe.InitBuffer(out, 1, 256 * sizeof(float));
  LocalTensor<float> src = in.AllocTensor<float>();
  LocalTensor<float> dst = out.AllocTensor<float>();
  Duplicate(src, 1.0f, 256);
#if defined(MODE_VECTOR)
  // the documented idiom: (start, end] in 32-byte units from GetPhyAddr(); vector writes to dst
  CheckLocalMemoryIA({0, (uint32_t)(dst.GetPhyAddr() / 32), (uint32_t)((dst.GetPhyAddr() + 256 * sizeof(float)) / 32),
                      false, false, false, true, false, false, true});
  Adds(src, src, 1.0f, 256);                        // another buffer: not caught
  Adds(dst, src, 1.0f, 256);                        // IA-LINE
#elif defined(MODE_RESET)
  CheckLocalMemoryIA({0, (uint32_t)(dst.GetPhyAddr() / 32), (uint32_t)((dst.GetPhyAddr() + 1024) / 32),
                      false, false, false, true, false, false, true});
  CheckLocalMemoryIA({0, 0, 0, false, false, false, false, false, false, false});   // reset
  Adds(dst, src, 1.0f, 256);
  DataCopy(g, dst, 256);
#elif defined(MODE_SCALAR)
  LocalTensor<float> t(TPosition::VECCALC, 4096, 64);
  CheckLocalMemoryIAParam p;
  p.enableBit = 3;
  p.startAddr = 4096 / 32 - 1;                      // UB units: block 128, the tensor's first, is in (127, 128]
  p.endAddr = 4096 / 32;
  p.isScalarRead = true;
  p.isEnable = true;
  CheckLocalMemoryIA(p);
  t.SetValue(0, 2.0f);                              // a write: not caught
  g.SetValue(0, t.GetValue(8));                     // block 129: outside
  g.SetValue(1, t.GetValue(0));                     // SCALAR-LINE
#elif defined(MODE_MTE)
  CheckLocalMemoryIA({1, (uint32_t)(src.GetPhyAddr() / 32) + 4, (uint32_t)(src.GetPhyAddr() / 32) + 5,
                      false, false, false, false, true, false, true});
  DataCopy(g, src, 32);                             // MTE read of bytes [0, 128): blocks 0..3, outside (4, 5]
  DataCopy(g, src, 256);                            // MTE-LINE
#elif defined(MODE_TWICE)
  CheckLocalMemoryIA({2, 0, 1, true, false, false, false, false, false, true});
  CheckLocalMemoryIA({2, 0, 1, true, false, false, false, false, false, true});
#elif defined(MODE_BAD_REGISTER)
  CheckLocalMemoryIA({4, 0, 1, true, false, false, false, false, false, true});
#endif
  in.FreeTensor(src);
  out.FreeTensor(dst);
}
"""


@pytest.mark.api("CheckLocalMemoryIA(ISASI)")
def test_check_local_memory_ia_catches_accesses_in_its_range(tmp_path: Path, sim_cache: Path) -> None:
    """An enabled exception register catches the access kinds it names to the 32-byte blocks (start, end]
    (the page's example: a vector write to dst); other kinds, other blocks and a reset register do not."""
    ran = _run(tmp_path / "vector", sim_cache, CHECK_IA, defines="#define MODE_VECTOR\n")
    assert ran.returncode == 3, (ran.stdout, ran.stderr)
    assert "CheckLocalMemoryIA: vector write of UB bytes [1024, 2048)" in ran.stderr
    assert f"prog.cpp:{_line(tmp_path / 'vector', 'IA-LINE')})" in ran.stderr
    ran = _run(tmp_path / "reset", sim_cache, CHECK_IA, defines="#define MODE_RESET\n")
    assert ran.returncode == 0, ran.stderr
    ran = _run(tmp_path / "scalar", sim_cache, CHECK_IA, defines="#define MODE_SCALAR\n")
    assert ran.returncode == 3 and "scalar read of UB bytes [4096, 4097)" in ran.stderr, ran.stderr
    assert "exception register 3" in ran.stderr
    assert f"prog.cpp:{_line(tmp_path / 'scalar', 'SCALAR-LINE')})" in ran.stderr
    ran = _run(tmp_path / "mte", sim_cache, CHECK_IA, defines="#define MODE_MTE\n")
    assert ran.returncode == 3 and "MTE read of UB bytes [0, 1024)" in ran.stderr, ran.stderr
    assert f"prog.cpp:{_line(tmp_path / 'mte', 'MTE-LINE')})" in ran.stderr


@pytest.mark.api("CheckLocalMemoryIA(ISASI)")
def test_check_local_memory_ia_constraints(tmp_path: Path, sim_cache: Path) -> None:
    """Each use is followed by a reset (enabling a register twice is reported); enableBit is 0 to 3."""
    ran = _run(tmp_path / "twice", sim_cache, CHECK_IA, defines="#define MODE_TWICE\n")
    assert ran.returncode == 3 and "exception register 2 is enabled again without a reset" in ran.stderr
    ran = _run(tmp_path / "bad", sim_cache, CHECK_IA, defines="#define MODE_BAD_REGISTER\n")
    assert ran.returncode == 3 and "enableBit 4 is not an exception register" in ran.stderr
