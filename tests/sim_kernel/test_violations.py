"""Hardware-illegal actions stop the run with a message naming the API, the block and the source line."""

from __future__ import annotations

import numpy as np
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
    "pad_block_len_elements": ("pipe.InitBuffer(b, 4096); LocalTensor<float> t = b.Get<float>();"
                               " DataCopyPad(t, g, DataCopyExtParams(1, 6, 0, 0, 0), DataCopyPadExtParams<float>());",
                               "DataCopyPad: blockLen 6 bytes is not a multiple of sizeof(T) = 4"),
    "getvalue_range": ("pipe.InitBuffer(b, 64); LocalTensor<float> t = b.Get<float>(); float v = t.GetValue(16);"
                       " v += t.GetValue(49152);", "LocalTensor::GetValue: index 49152 is outside"),
    "tensor_overrun": ("pipe.InitBuffer(b, 256); LocalTensor<float> t = b.Get<float>(); Muls(t, t, 2.0f, 128);"
                       " Muls(t[64], t, 2.0f, 49150);", "Muls: UB overflow: dst access of 196600 bytes"),
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
    # an uninitialised TBuf hands out an empty tensor (device-like) but is no buffer to free
    "tbuf_uninitialised_free": ("LocalTensor<float> t = b.Get<float>(); b.FreeTensor(t);",
                                "TBuf::FreeTensor: the TBuf was never initialised"),
    "tbuf_get_too_many": ("pipe.InitBuffer(b, 256); LocalTensor<float> t = b.Get<float>(65);",
                          "TBuf::Get: requested 65 elements"),
    "getwithoffset_past_end": ("pipe.InitBuffer(b, 256); LocalTensor<float> t = b.GetWithOffset<float>(8, 256);",
                               "TBuf::GetWithOffset: offset 256 + 32 bytes exceeds the buffer of 256 bytes"),
    # a zero-length buffer is legal (it occupies no UB) but nothing may be accessed through it
    # (VECCALC queues hold no event IDs, so only the limit of 64 buffers applies)
    "too_many_buffers": ("TQue<TPosition::VECCALC, 1> c, d; pipe.InitBuffer(c, 40, 32); pipe.InitBuffer(d, 30, 32);",
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


OVERRUN = """
static void body(void*) {
  GlobalTensor<float> o;
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 128 * 4), 128);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, z, c;
  pipe.InitBuffer(a, 256);                      // 64 floats
  pipe.InitBuffer(z, 0);                        // zero-length, at the offset where c starts
  pipe.InitBuffer(c, 256);
  LocalTensor<float> ta = a.Get<float>();
  LocalTensor<float> tc = c.Get<float>();
  Duplicate(tc, 5.0f, 64);
  Duplicate(ta, 1.0f, 128);                     // 512 bytes into a 256-byte buffer: overwrites c, as on the device
  Duplicate(z.Get<float>(), 3.0f, 8);           // through the zero-length buffer: the first 8 floats of c
  DataCopy(o, ta, 128);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_an_overrun_inside_ub_is_a_warning_with_the_devices_result(prog) -> None:
    """The unified buffer is one memory and the hardware checks no tensor bounds: an access past a
    LocalTensor that stays inside UB touches the bytes beyond (here the next buffer) and is reported
    as a warning naming the line; past the end of UB it stays a violation (CASES)."""
    ran = prog.run(OVERRUN)
    assert ran.returncode == 0, ran.stderr
    got = prog.output(0, np.float32)
    assert (got[:64] == 1.0).all() and (got[64:72] == 3.0).all() and (got[72:] == 1.0).all()
    warnings = [ln for ln in ran.stderr.splitlines() if ln.startswith("WARNING: Duplicate: UB overflow")]
    assert all("runs past the LocalTensor" in w and "prog.cpp:" in w for w in warnings)
    assert len({w.rsplit(":", 1)[-1] for w in warnings}) == 2           # both lines named


UNSET_TBUF = """
static void body(void*) {
  GlobalTensor<float> o;
  o.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(0, 64 * 4), 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, unset;
  pipe.InitBuffer(a, 256);
  LocalTensor<float> ta = a.Get<float>();
  LocalTensor<float> t = unset.Get<float>();    // taken on a path that does not need it (TanhMath's float path)
  Duplicate(ta, 2.0f, 64);
  DataCopy(o, ta, 64);
  if (t.GetSize() != 0) Duplicate(ta, 0.0f, 64);
}
void run_test() { npukb_test::run_blocks(1, body, nullptr); }
"""


def test_get_on_a_tbuf_never_initialised_is_an_empty_tensor_and_a_warning(prog) -> None:
    ran = prog.run(UNSET_TBUF)
    assert ran.returncode == 0, ran.stderr
    assert (prog.output(0, np.float32) == 2.0).all()
    assert any(ln.startswith("WARNING: TBuf::Get: the TBuf was never initialised") and "prog.cpp:" in ln
               for ln in ran.stderr.splitlines()), ran.stderr
