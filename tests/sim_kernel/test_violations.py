"""Hardware-illegal actions stop the run with a message naming the API, the block and the source line."""

from __future__ import annotations

import pytest

SETUP = """
static void body(void*) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 1024 * 4), 1024);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  TBuf<TPosition::VECCALC> b;
  %s
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""

CASES = {
    "ub_overflow": ("pipe.InitBuffer(b, 200 * 1024);", "TPipe::InitBuffer: UB overflow"),
    "unaligned": ("pipe.InitBuffer(b, 4096); LocalTensor<float> t = b.Get<float>(); Adds(t[3], t[3], 1.0f, 64);",
                  "Adds: unaligned UB address"),
    "gm_oob": ("pipe.InitBuffer(b, 8192); LocalTensor<float> t = b.Get<float>(); DataCopy(t, g, 2048);",
               "DataCopy: GM out of bounds"),
    "gm_oob_scalar": ("float v = g.GetValue(1024); (void)v;", "GlobalTensor::GetValue: GM out of bounds"),
    "deque_empty": ("pipe.InitBuffer(q, 1, 256); LocalTensor<float> t = q.DeQue<float>();",
                    "TQue::DeQue: hang: DeQue on empty queue"),
    "depth_exceeded": ("pipe.InitBuffer(q, 1, 256); LocalTensor<float> t = q.AllocTensor<float>();"
                       " LocalTensor<float> u = q.AllocTensor<float>();", "TQue::AllocTensor: queue depth exceeded"),
    "double_free": ("pipe.InitBuffer(q, 1, 256); LocalTensor<float> t = q.AllocTensor<float>();"
                    " q.FreeTensor(t); q.FreeTensor(t);", "TQue::FreeTensor: double FreeTensor"),
    "repeat_255": ("pipe.InitBuffer(b, 128 * 1024); LocalTensor<float> t = b.Get<float>();"
                   " int rep = 300; Add(t, t, t, 64, rep, BinaryRepeatParams(1, 1, 1, 0, 0, 0));",
                   "Add: repeatTimes 300 is outside [0, 255]"),
    "block_count": ("pipe.InitBuffer(b, 4096); LocalTensor<float> t = b.Get<float>();"
                    " DataCopy(t, g, DataCopyParams(5000, 1, 0, 0));", "DataCopy: blockCount 5000 exceeds"),
    "block_len_zero": ("pipe.InitBuffer(b, 4096); LocalTensor<float> t = b.Get<float>();"
                       " DataCopy(t, g, DataCopyParams(1, 0, 0, 0));", "DataCopy: blockLen 0 is illegal"),
    "getvalue_range": ("pipe.InitBuffer(b, 64); LocalTensor<float> t = b.Get<float>(); float v = t.GetValue(16);",
                       "LocalTensor::GetValue: index 16 is outside"),
    "tensor_overrun": ("pipe.InitBuffer(b, 256); LocalTensor<float> t = b.Get<float>(); Muls(t, t, 2.0f, 128);",
                       "Muls: UB overflow"),
    "waitflag_unset": ("WaitFlag<HardEvent::V_MTE3>(0);", "WaitFlag: hang"),
    "tbuf_free_foreign": ("pipe.InitBuffer(b, 256); pipe.InitBuffer(q, 1, 256);"
                          " LocalTensor<float> t = q.AllocTensor<float>(); b.FreeTensor(t);",
                          "TBuf::FreeTensor: the tensor does not lie in this TBuf"),
    # the UB pool counts what is already allocated: each buffer alone fits in 192 KiB, together they do not
    "ub_two_buffers": ("TBuf<TPosition::VECCALC> c; pipe.InitBuffer(b, 128 * 1024); pipe.InitBuffer(c, 128 * 1024);",
                       "TPipe::InitBuffer: UB overflow: VECCALC buffer of 131072 bytes at offset 131072"),
    "ub_queue_then_buffer": ("pipe.InitBuffer(q, 2, 64 * 1024); pipe.InitBuffer(b, 65 * 1024);",
                             "TPipe::InitBuffer: UB overflow: VECCALC buffer of 66560 bytes at offset 131072"),
    "ub_one_byte_over": ("TBuf<TPosition::VECCALC> c; pipe.InitBuffer(b, 196608 - 31); pipe.InitBuffer(c, 1);",
                         "TPipe::InitBuffer: UB overflow"),
    "l1_overflow": ("TQue<TPosition::A1, 1> a; pipe.InitBuffer(a, 2, 600 * 1024);", "TPipe::InitBuffer: L1 overflow"),
    "tbuf_get_too_many": ("pipe.InitBuffer(b, 256); LocalTensor<float> t = b.Get<float>(65);",
                          "TBuf::Get: requested 65 elements"),
    "getwithoffset_past_end": ("pipe.InitBuffer(b, 256); LocalTensor<float> t = b.GetWithOffset<float>(8, 256);",
                               "TBuf::GetWithOffset: offset 256 + 32 bytes exceeds the buffer of 256 bytes"),
    # a zero-length buffer is legal (it occupies no UB) but nothing may be accessed through it
    "zero_length_tbuf_access": ("pipe.InitBuffer(b, 0); LocalTensor<float> t = b.Get<float>(); Muls(t, t, 2.0f, 8);",
                                "Muls: UB overflow"),
    "too_many_buffers": ("TQue<QuePosition::VECOUT, 1> o; pipe.InitBuffer(q, 40, 32); pipe.InitBuffer(o, 30, 32);",
                         "TPipe::InitBuffer: too many buffers"),
}


FITS = """
static void body(void*) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> q;
  TBuf<TPosition::VECCALC> b;
  TBuf<TPosition::VECCALC> c;
  pipe.InitBuffer(q, 2, 32 * 1024);             // 64 KiB
  pipe.InitBuffer(b, 64 * 1024);                // 128 KiB
  pipe.InitBuffer(c, 64 * 1024 - 31);           // rounded up to 32 bytes: exactly 192 KiB in all
  LocalTensor<float> t = c.Get<float>();
  Duplicate(t, 1.0f, 16384 - 8);
  std::printf("used %u\\n", pipe.used_bytes(Hardware::UB));
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_ub_filled_exactly_is_allowed(prog) -> None:
    ran = prog.run(FITS)
    assert ran.returncode == 0, ran.stderr
    assert "used 196608" in ran.stdout


@pytest.mark.parametrize("name", sorted(CASES))
def test_violation_is_reported(prog, name: str) -> None:
    code, expected = CASES[name]
    ran = prog.run(SETUP % code)
    assert ran.returncode == 3, (ran.returncode, ran.stderr)
    line = ran.stderr.strip().splitlines()[-1]
    assert line.startswith("VIOLATION: " + expected.split(":")[0]), line
    assert expected in line, line
    assert "(block 0, " in line and "prog.cpp:" in line, line  # the kernel source location is named


ZERO = """
static void body(void*) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  TBuf<TPosition::VECCALC> b;
  TBuf<TPosition::VECCALC> c;
  pipe.InitBuffer(q, 1, 0);                     // zero-length buffers, as real kernels size them from the tiling
  pipe.InitBuffer(b, 0);
  pipe.InitBuffer(c, 1024);
  Duplicate(c.Get<float>(), 1.0f, 256);
  std::printf("used %u\\n", pipe.used_bytes(Hardware::UB));
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_zero_length_buffers_are_accepted(prog) -> None:
    ran = prog.run(ZERO)
    assert ran.returncode == 0, ran.stderr
    assert "used 1024" in ran.stdout
