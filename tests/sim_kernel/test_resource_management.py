"""Resource management (资源管理), each API checked against its doc page: TPipe (InitBuffer at exactly the
UB capacity, Reset, Destroy / Init, one live TPipe, event IDs, GetBaseAddr, InitBufPool, the SPM buffer),
TQue / TQueBind (DeQue without template arguments, EnQue on a full queue, the queries, the TQue Buffer
limit of 8 event IDs per position and FreeAllEvent), TBufPool (sizes, bufIDSize, shared pools, the
pool's memory), custom TBufPools (EXTERN_IMPL_BUFPOOL), PopStackBuffer, LocalMemAllocator and the
static-tensor LocalTensor constructor. Kernels written for these tests."""

from __future__ import annotations

import numpy as np
import pytest
from simkit import syntax_check

RUN = "\nvoid run_test() { npukb_test::run_blocks(1, body, nullptr); }\n"


def run_ok(prog, body: str, n: int, dtype=np.int32):
    """Run `body` (it writes n values of dtype to output 0 through `o`) and return them."""
    src = ("static void body(void*) {\n"
           f"  GlobalTensor<{'int32_t' if dtype == np.int32 else 'float'}> o;\n"
           f"  o.SetGlobalBuffer((__gm__ {'int32_t' if dtype == np.int32 else 'float'}*)"
           f"npukb_test::gm_output(0, {n} * 4), {n});\n" + body + "\n}" + RUN)
    ran = prog.run(src)
    assert ran.returncode == 0, ran.stderr
    return prog.output(0, dtype)


def run_violation(prog, body: str) -> str:
    ran = prog.run("static void body(void*) {\n" + body + "\n}" + RUN)
    assert ran.returncode == 3, (ran.returncode, ran.stdout, ran.stderr)
    return ran.stderr.strip().splitlines()[-1]


# ---- TPipe ---------------------------------------------------------------------------------------------
@pytest.mark.api("TPipe/InitBuffer", "make_tuple")
def test_init_buffer_at_user_addresses(prog, tmp_path) -> None:
    """InitBuffer(que, addr0, addrs...): one buffer per (start address, length) tuple, each tensor as long as
    its own buffer; the addresses are not reserved from the TPipe."""
    got = run_ok(prog, """
  TPipe pipe;
  TQue<TPosition::VECOUT, 3> q;
  auto a0 = Std::make_tuple(0, 1024);
  auto a1 = Std::make_tuple(2048, 2048);
  Std::tuple<uint32_t, uint64_t> a2 = Std::make_tuple(8192u, (uint64_t)4096);
  pipe.InitBuffer(q, a0, a1, a2);
  uint64_t base = (uint64_t)pipe.GetBaseAddr((int8_t)TPosition::VECOUT);
  LocalTensor<float> x = q.AllocTensor<float>();
  LocalTensor<half> y = q.AllocTensor<half>();
  LocalTensor<int32_t> z = q.AllocTensor<int32_t>();
  o.SetValue(0, (int32_t)(x.GetPhyAddr() - base)); o.SetValue(1, (int32_t)x.GetSize());
  o.SetValue(2, (int32_t)(y.GetPhyAddr() - base)); o.SetValue(3, (int32_t)y.GetSize());
  o.SetValue(4, (int32_t)(z.GetPhyAddr() - base)); o.SetValue(5, (int32_t)z.GetSize());
  o.SetValue(6, (int32_t)pipe.used_bytes(Hardware::UB));
  q.EnQue(x); LocalTensor<float> w = q.DeQue<float>(); o.SetValue(7, (int32_t)w.GetSize());
  q.FreeTensor(w); q.FreeTensor(y); q.FreeTensor(z);
""", 8)
    assert got.tolist() == [0, 256, 2048, 1024, 8192, 1024, 0, 256]
    cases = {
        "auto a = Std::make_tuple(16, 256);": "buffer 0 [16, 272): the start address is not 32-byte aligned",
        "auto a = Std::make_tuple(196608 - 256, 512);": "buffer 0 [196352, 196864) exceeds the 196608-byte UB",
        "auto a = Std::make_tuple(0, 0);": "buffer 0 [0, 0): the start address must not be negative and the length "
                                          "must be positive",
    }
    for decl, msg in cases.items():
        line = run_violation(prog, f"TPipe pipe; TQue<TPosition::VECIN, 1> q; {decl} pipe.InitBuffer(q, a);")
        assert "TPipe::InitBuffer: " + msg in line, line
    line = run_violation(prog, "TPipe pipe; TQue<TPosition::VECIN, 2> q;"
                               " pipe.InitBuffer(q, Std::make_tuple(0, 1024), Std::make_tuple(512, 1024));")
    assert "TPipe::InitBuffer: buffer 1 [512, 1536) overlaps buffer 0 of the same queue" in line
    ran = prog.run("""static void body(void*) {
  TPipe pipe; TQue<TPosition::VECIN, 1> q; TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(q, Std::make_tuple(0, 1024));
  pipe.InitBuffer(b, 256);
}""" + RUN)
    assert ran.returncode == 0, ran.stderr
    assert "overlap the buffers that InitBuffer placed at user addresses" in ran.stderr
    bad = syntax_check('#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { TPipe pipe;'
                       " TQue<TPosition::VECIN, 1> q;"
                       " pipe.InitBuffer(q, Std::make_tuple(0, 1024), Std::make_tuple(0.5f, 64)); }\n", tmp_path)
    assert not bad.ok and "each address is a Std::tuple of two integers" in bad.stderr


@pytest.mark.api("TPipe/InitBuffer")
def test_ub_holds_exactly_its_capacity(prog) -> None:
    """The UB is 192 KB with nothing reserved: queues and buffers filling exactly 196,608 bytes fit (lengths
    round up to 32 bytes), one more byte does not."""
    got = run_ok(prog, """
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  TQue<TPosition::VECOUT, 1> r;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(q, 2, 32 * 1024);
  pipe.InitBuffer(r, 1, 64 * 1024);
  pipe.InitBuffer(b, 64 * 1024 - 31);
  o.SetValue(0, (int32_t)pipe.used_bytes(Hardware::UB));
  LocalTensor<float> t = b.Get<float>();
  o.SetValue(1, (int32_t)t.GetSize());
""", 2)
    assert got.tolist() == [196608, 16384]
    line = run_violation(prog, """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 196608 - 32);
  pipe.InitBuffer(b, 33);
""")
    assert "TPipe::InitBuffer: UB overflow: VECCALC buffer of 64 bytes at offset 196576 exceeds the 196608-byte UB" \
        in line


@pytest.mark.api("TPipe/Reset", "TPipe/InitBuffer")
def test_reset_releases_every_buffer(prog) -> None:
    got = run_ok(prog, """
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 128 * 1024);
  pipe.InitBuffer(q, 1, 1024);
  pipe.Reset();
  pipe.InitBuffer(q, 1, 128 * 1024);         // sized again, from the start of UB
  LocalTensor<float> t = q.AllocTensor<float>();
  o.SetValue(0, (int32_t)t.GetSize());
  o.SetValue(1, (int32_t)pipe.used_bytes(Hardware::UB));
  q.FreeTensor(t);
""", 2)
    assert got.tolist() == [32768, 131072]
    line = run_violation(prog, """
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 1024);
  pipe.Reset();
  LocalTensor<float> t = q.AllocTensor<float>();
""")
    assert "TQue::AllocTensor: the queue's buffers were released" in line


@pytest.mark.api("TPipe/Destroy", "TPipe/Init", "TPipe/DestroyWithoutPipeAll", "TPipe构造函数", "GetTPipePtr")
def test_one_tpipe_at_a_time(prog) -> None:
    got = run_ok(prog, """
  {
    TPipe first;
    o.SetValue(0, GetTPipePtr() == &first ? 1 : 0);
    first.Destroy();                          // releases it: another TPipe may follow
    o.SetValue(1, GetTPipePtr() == nullptr ? 1 : 0);
    TPipe second;
    TBuf<TPosition::VECCALC> b;
    second.InitBuffer(b, 256);
    second.DestroyWithoutPipeAll();
    first.Init();                             // the first one again
    o.SetValue(2, GetTPipePtr() == &first ? 1 : 0);
    TBuf<TPosition::VECCALC> c;
    first.InitBuffer(c, 512);
    o.SetValue(3, (int32_t)first.used_bytes(Hardware::UB));
  }
""", 4)
    assert got.tolist() == [1, 1, 1, 512]
    assert "TPipe: a second TPipe while another is alive" in run_violation(prog, "TPipe a; TPipe b;")
    line = run_violation(prog, "TPipe a; a.Destroy(); TBuf<TPosition::VECCALC> b; a.InitBuffer(b, 256);")
    assert "TPipe::InitBuffer: the TPipe was destroyed" in line


@pytest.mark.api("TPipe/AllocEventID", "TPipe/ReleaseEventID", "TPipe/FetchEventID")
def test_event_ids(prog) -> None:
    got = run_ok(prog, """
  TPipe pipe;
  for (int i = 0; i < 8; ++i) o.SetValue(i, (int32_t)pipe.AllocEventID<HardEvent::V_MTE3>());
  pipe.ReleaseEventID<HardEvent::V_MTE3>(5);
  o.SetValue(8, (int32_t)pipe.FetchEventID<HardEvent::V_MTE3>());      // the lowest free one, not taken
  o.SetValue(9, (int32_t)pipe.FetchEventID(HardEvent::V_MTE3));
  o.SetValue(10, (int32_t)pipe.AllocEventID<HardEvent::V_MTE3>());
  o.SetValue(11, (int32_t)pipe.AllocEventID<HardEvent::MTE2_V>());     // each HardEvent has its own IDs
""", 12)
    assert got.tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 5, 5, 5, 0]
    line = run_violation(prog, "TPipe pipe; for (int i = 0; i < 9; ++i) pipe.AllocEventID<HardEvent::S_V>();")
    assert "TPipe::AllocEventID: all 8 event IDs" in line
    line = run_violation(prog, "TPipe pipe; pipe.ReleaseEventID<HardEvent::S_V>(2);")
    assert "TPipe::ReleaseEventID: event ID 2 was not allocated" in line


@pytest.mark.api("TPipe/GetBaseAddr")
def test_get_base_addr_gives_a_tensors_offset(prog) -> None:
    got = run_ok(prog, """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 100);
  pipe.InitBuffer(b, 64);
  LocalTensor<float> t = b.Get<float>();
  o.SetValue(0, (int32_t)(t.GetPhyAddr() - (uint64_t)pipe.GetBaseAddr((int8_t)TPosition::VECCALC)));
""", 1)
    assert got.tolist() == [128]


@pytest.mark.api("TPipe/InitSpmBuffer")
def test_spm_buffer_in_l1_is_not_for_910b(prog) -> None:
    """InitSpmBuffer(bufferSize) (the L1 form) is documented as unsupported on the Atlas A2/A3 series."""
    line = run_violation(prog, "TPipe pipe; pipe.InitSpmBuffer(1024 * 4);")
    assert "TPipe::InitSpmBuffer: InitSpmBuffer(bufferSize) (an SPM buffer in L1, 4096 bytes) is not supported on " \
        "the Atlas A2/A3 training series" in line


@pytest.mark.api("TPipe/InitSpmBuffer", "TPipe/WriteSpmBuffer", "TPipe/ReadSpmBuffer")
def test_spm_buffer_spills_to_the_workspace_and_back(prog) -> None:
    got = run_ok(prog, """
  GlobalTensor<float> ws;
  ws.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(1, 1024), 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 256);
  LocalTensor<float> t = b.Get<float>();
  for (int i = 0; i < 64; ++i) t.SetValue(i, (float)i);
  pipe.InitSpmBuffer(ws, 1024);
  pipe.WriteSpmBuffer(t, 64, 512);                     // 64 elements at byte 512 of the SPM buffer
  for (int i = 0; i < 64; ++i) t.SetValue(i, -1.0f);
  pipe.ReadSpmBuffer(t, DataCopyParams(2, 1, 0, 0), 512);   // two 32-byte blocks back
  for (int i = 0; i < 20; ++i) o.SetValue(i, (int32_t)t.GetValue(i));
""", 20)
    assert got.tolist() == list(range(16)) + [-1] * 4
    line = run_violation(prog, """
  GlobalTensor<float> ws;
  ws.SetGlobalBuffer((__gm__ float*)npukb_test::gm_output(1, 1024), 256);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 256);
  pipe.InitSpmBuffer(ws, 1024);
  pipe.WriteSpmBuffer(b.Get<float>(), 64, 800);
""")
    assert "TPipe::WriteSpmBuffer: the copy reaches byte 1056 of the 1024-byte SPM buffer" in line


# ---- TQue / TQueBind -----------------------------------------------------------------------------------
@pytest.mark.api("TQue/DeQue", "TQue/EnQue", "TQue/HasTensorInQue", "TQue/GetTensorCountInQue", "TQue/VacantInQue",
                 "TQue/HasIdleBuffer", "TQue/AllocTensor", "TQue/FreeTensor")
def test_queue_queries_and_dequeue_without_template_arguments(prog) -> None:
    got = run_ok(prog, """
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 2, 256);
  LocalTensor<float> a = q.AllocTensor<float>();
  o.SetValue(0, q.HasIdleBuffer() ? 1 : 0);           // one of two still free
  LocalTensor<float> b = q.AllocTensor<float>();
  o.SetValue(1, q.HasIdleBuffer() ? 1 : 0);
  o.SetValue(2, q.VacantInQue() ? 1 : 0);
  o.SetValue(3, q.EnQue(a) ? 1 : 0);
  o.SetValue(4, q.GetTensorCountInQue());
  o.SetValue(5, q.VacantInQue() ? 1 : 0);             // depth 1: full
  o.SetValue(6, q.HasTensorInQue() ? 1 : 0);
  TBufHandle h = q.DeQue();                           // no template arguments: the buffer's handle
  o.SetValue(7, h == (TBufHandle)a.GetPhyAddr() ? 1 : 0);
  o.SetValue(8, q.HasTensorInQue() ? 1 : 0);
  q.FreeTensor(a);
  q.FreeTensor(b);
""", 9)
    assert got.tolist() == [1, 0, 1, 1, 1, 0, 1, 1, 0]


@pytest.mark.api("TQueBind/EnQue")
def test_enque_on_a_full_queue_returns_false(prog) -> None:
    got = run_ok(prog, """
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  TQue<TPosition::VECIN, 1> r;
  pipe.InitBuffer(q, 1, 256);
  pipe.InitBuffer(r, 1, 256);
  LocalTensor<float> a = q.AllocTensor<float>();
  LocalTensor<float> b = r.AllocTensor<float>();
  o.SetValue(0, q.EnQue(a) ? 1 : 0);
  o.SetValue(1, q.EnQue(b) ? 1 : 0);                  // full: not queued
  LocalTensor<float> c = q.DeQue<float>();
  o.SetValue(2, c.GetPhyAddr() == a.GetPhyAddr() ? 1 : 0);
  o.SetValue(3, q.HasTensorInQue() ? 1 : 0);
""", 4)
    assert got.tolist() == [1, 0, 1, 0]


@pytest.mark.api("TQueBind/FreeAllEvent")
def test_eight_event_ids_per_position_and_free_all_event(prog) -> None:
    """Queue buffers of one TPosition hold at most 8 event IDs. The page says a later AllocTensor /
    FreeTensor may fail past the limit: sizing more is a warning (FreeAllEvent gives a queue's IDs back,
    no warning then), a ninth buffer of the position in use at once is a violation."""
    body = """
  TPipe pipe;
  TQue<TPosition::VECIN, 1> a, b, c, d, e;
  TQue<TPosition::VECOUT, 1> out;
  pipe.InitBuffer(a, 2, 32);
  pipe.InitBuffer(b, 2, 32);
  pipe.InitBuffer(c, 2, 32);
  pipe.InitBuffer(d, 2, 32);
  pipe.InitBuffer(out, 2, 32);                        // another position: its own 8
  %s
  pipe.InitBuffer(e, 1, 32);
  o.SetValue(0, 1);
"""
    src = "static void body(void*) {\n  GlobalTensor<int32_t> o;\n" \
          "  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 4), 1);\n%s\n}" + RUN
    ran = prog.run(src % (body % ""))
    assert ran.returncode == 0, ran.stderr
    assert "WARNING: TPipe::InitBuffer" in ran.stderr
    assert "the TQue Buffer limit: VECIN queue buffers hold 8 of the 8 event IDs" in ran.stderr
    ran = prog.run(src % (body % "a.FreeAllEvent();"))
    assert ran.returncode == 0 and "TQue Buffer limit" not in ran.stderr, ran.stderr
    # Nine VECIN buffers in use at once: the ninth AllocTensor fails; freeing one first makes room.
    alloc = """
  TPipe pipe;
  TQue<TPosition::VECIN, 2> q[5];
  for (int i = 0; i < 5; ++i) pipe.InitBuffer(q[i], 2, 32);
  LocalTensor<float> t[10];
  for (int i = 0; i < 8; ++i) t[i] = q[i / 2].AllocTensor<float>();
  %s
  t[8] = q[4].AllocTensor<float>();
"""
    line = run_violation(prog, alloc % "")
    assert "TQue::AllocTensor: the TQue Buffer limit: 8 VECIN queue buffers are already in use" in line
    assert run_ok(prog, alloc % "q[0].FreeTensor(t[0]);" + "  o.SetValue(0, 7);", 1).tolist() == [7]


# ---- TBufPool, custom pools ----------------------------------------------------------------------------
@pytest.mark.api("TPipe/InitBufPool", "TBufPool/InitBufPool", "TBufPool/InitBuffer", "TBufPool构造函数",
                 "TBufPool/Reset")
def test_buf_pools(prog) -> None:
    got = run_ok(prog, """
  TPipe pipe;
  TBuf<TPosition::VECCALC> lead;
  pipe.InitBuffer(lead, 64);
  TBufPool<TPosition::VECCALC> pool;
  pipe.InitBufPool(pool, 1000);                       // 1024 bytes at 64
  TBufPool<TPosition::VECCALC, 2> sub, shared;
  pool.InitBufPool(sub, 512);                         // the first 512 of the pool
  pool.InitBufPool(shared, 256, sub);                 // reuses the start of sub
  TQue<TPosition::VECIN, 1> q;
  TBuf<TPosition::VECCALC> b, c;
  sub.InitBuffer(q, 1, 100);
  sub.InitBuffer(b, 64);
  shared.InitBuffer(c, 32);
  pool.Reset();
  o.SetValue(0, (int32_t)pipe.used_bytes(Hardware::UB));
  LocalTensor<float> t = q.AllocTensor<float>();
  uint64_t base = (uint64_t)pipe.GetBaseAddr((int8_t)TPosition::VECCALC);
  o.SetValue(1, (int32_t)(t.GetPhyAddr() - base));
  o.SetValue(2, (int32_t)(b.Get<float>().GetPhyAddr() - base));
  o.SetValue(3, (int32_t)(c.Get<float>().GetPhyAddr() - base));
  q.FreeTensor(t);
""", 4)
    assert got.tolist() == [64 + 1024, 64, 64 + 128, 64]
    ids = run_violation(prog, """
  TPipe pipe; TBufPool<TPosition::VECCALC, 2> pool; pipe.InitBufPool(pool, 1024);
  TBuf<TPosition::VECCALC> a, b, c; pool.InitBuffer(a, 32); pool.InitBuffer(b, 32); pool.InitBuffer(c, 32);
""")
    assert "TBufPool::InitBuffer: the TBufPool hands out at most 2 buffers (bufIDSize)" in ids
    full = run_violation(prog, """
  TPipe pipe; TBufPool<TPosition::VECCALC> pool; pipe.InitBufPool(pool, 256);
  TBuf<TPosition::VECCALC> a; pool.InitBuffer(a, 512);
""")
    assert "TBufPool::InitBuffer: TBufPool overflow" in full
    memory = run_violation(prog, """
  TPipe pipe; TBufPool<TPosition::VECCALC> pool; pipe.InitBufPool(pool, 256);
  TBuf<TPosition::A1> a; pool.InitBuffer(a, 32);
""")
    assert "differs from the TBufPool's (UB)" in memory
    shared = run_violation(prog, """
  TPipe pipe; TBufPool<TPosition::VECCALC> a, b; pipe.InitBufPool(a, 256); pipe.InitBufPool(b, 512, a);
""")
    assert "TPipe::InitBufPool: length 512 exceeds the shared pool's 256 bytes" in shared


CUSTOM_POOL = """
class MyPool {
 public:
  MyPool() { Init(); }
  template <class T>
  bool InitBuffer(T& que, uint8_t num, uint32_t len) {
    uint8_t first = GetCurBufSize();
    que.InitStartBufHandle(GetBufHandle(first), num, len);
    for (uint8_t i = 0; i < num; ++i) {
      que.InitBufHandle(this, i, GetBufHandle(first + i), GetCurAddr() + i * len, len);
    }
    SetCurAddr(GetCurAddr() + num * len);
    SetCurBufSize(first + num);
    return true;
  }
  EXTERN_IMPL_BUFPOOL(MyPool, TPosition::VECCALC, 4);
};
static void body(void*) {
  GlobalTensor<int32_t> o;
  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 4 * 4), 4);
  TPipe pipe;
  TBuf<TPosition::VECCALC> lead;
  pipe.InitBuffer(lead, 256);
  MyPool pool;
  pipe.InitBufPool(pool, 2048);
  TQue<TPosition::VECIN, 1> q;
  pool.InitBuffer(q, 2, 512);
  uint64_t base = (uint64_t)pipe.GetBaseAddr((int8_t)TPosition::VECCALC);
  LocalTensor<float> a = q.AllocTensor<float>();
  LocalTensor<float> b = q.AllocTensor<float>();
  o.SetValue(0, (int32_t)(a.GetPhyAddr() - base));
  o.SetValue(1, (int32_t)(b.GetPhyAddr() - base));
  o.SetValue(2, (int32_t)pool.GetCurAddr());
  o.SetValue(3, (int32_t)pool.GetCurBufSize());
  q.FreeTensor(a);
  q.FreeTensor(b);
}
""" + RUN


@pytest.mark.api("EXTERN_IMPL_BUFPOOL宏", "GetBufHandle", "SetCurAddr", "自定义TBufPool/GetCurAddr", "SetCurBufSize",
                 "GetCurBufSize",
                 "自定义TBufPool/Init", "InitBufHandle", "InitStartBufHandle")
def test_custom_buf_pool_places_queue_buffers(prog) -> None:
    ran = prog.run(CUSTOM_POOL)
    assert ran.returncode == 0, ran.stderr
    assert prog.output(0, np.int32).tolist() == [256, 768, 256 + 1024, 2]


@pytest.mark.api("自定义TBufPool/Reset", "自定义TBufPool/Init", "TPipe/InitBufPool")
def test_custom_buf_pool_reset_releases_the_pool(prog) -> None:
    """Reset releases the pool: its cursor goes back to the pool's start with no buffer in use, and its
    handles serve again only after TPipe::InitBufPool sizes the pool anew."""
    pool = CUSTOM_POOL.split("static void body")[0]
    ran = prog.run(pool + """static void body(void*) {
  GlobalTensor<int32_t> o;
  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 4 * 4), 4);
  TPipe pipe;
  TBuf<TPosition::VECCALC> lead;
  pipe.InitBuffer(lead, 64);
  MyPool pool;
  pipe.InitBufPool(pool, 1024);
  TQue<TPosition::VECIN, 1> q;
  pool.InitBuffer(q, 2, 256);
  o.SetValue(0, (int32_t)pool.GetCurAddr());
  pool.Reset();
  o.SetValue(1, (int32_t)pool.GetCurAddr());
  o.SetValue(2, (int32_t)pool.GetCurBufSize());
  pipe.InitBufPool(pool, 512);
  TQue<TPosition::VECOUT, 1> r;
  pool.InitBuffer(r, 1, 128);
  o.SetValue(3, (int32_t)pool.GetCurBufSize());
}
""" + RUN)
    assert ran.returncode == 0, ran.stderr
    assert prog.output(0, np.int32).tolist() == [64 + 512, 64, 0, 1]
    ran = prog.run(pool + """static void body(void*) {
  TPipe pipe; MyPool pool; pipe.InitBufPool(pool, 1024); pool.Reset();
  TQue<TPosition::VECIN, 1> q; pool.InitBuffer(q, 1, 256);
}
""" + RUN)
    assert ran.returncode == 3, (ran.returncode, ran.stderr)
    assert "TQueBind::InitStartBufHandle: the custom TBufPool was Reset or never initialised" in ran.stderr


@pytest.mark.api("GetSysWorkSpacePtr", "SetSysWorkSpace", "GetUserWorkspace")
def test_system_and_user_workspace(prog) -> None:
    """SetSysWorkspace sets the pointer GetSysWorkSpacePtr returns; GetUserWorkspace gives the kernel's
    workspace argument back (the simulator keeps no system part ahead of the user's)."""
    got = run_ok(prog, """
  __gm__ uint8_t* ws = (__gm__ uint8_t*)npukb_test::gm_output(1, 4096);
  __gm__ uint8_t* before = GetSysWorkSpacePtr();
  SetSysWorkspace(ws);
  o.SetValue(0, GetSysWorkSpacePtr() == ws ? 1 : 0);
  o.SetValue(1, before == ws ? 1 : 0);
  o.SetValue(2, GetUserWorkspace(ws) == ws ? 1 : 0);
  SetSysWorkspace(ws + 512);
  o.SetValue(3, (int32_t)(GetSysWorkSpacePtr() - ws));
""", 4)
    assert got.tolist() == [1, 0, 1, 512]


# ---- PopStackBuffer, LocalMemAllocator, static tensors -------------------------------------------------
@pytest.mark.api("PopStackBuffer")
def test_pop_stack_buffer_is_the_rest_of_the_position(prog) -> None:
    got = run_ok(prog, """
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 1000);
  LocalTensor<int16_t> rest;
  o.SetValue(0, PopStackBuffer<int16_t, TPosition::LCM>(rest) ? 1 : 0);
  uint64_t base = (uint64_t)pipe.GetBaseAddr((int8_t)TPosition::VECCALC);
  o.SetValue(1, (int32_t)(rest.GetPhyAddr() - base));
  o.SetValue(2, (int32_t)rest.GetSize());
""", 3)
    assert got.tolist() == [1, 1024, (196608 - 1024) // 2]


@pytest.mark.api("LocalMemAllocator/Alloc", "LocalMemAllocator/GetCurAddr", "LocalMemAllocator构造函数")
def test_local_mem_allocator(prog) -> None:
    got = run_ok(prog, """
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> a = ub.Alloc<float, 64>();
  o.SetValue(0, (int32_t)ub.GetCurAddr());
  LocalTensor<half> b = ub.Alloc<TPosition::VECIN, half>(33);       // 66 bytes
  o.SetValue(1, (int32_t)ub.GetCurAddr());
  LocalTensor<int32_t> c = ub.Alloc<int32_t>(8);                    // starts 32-byte aligned
  o.SetValue(2, (int32_t)(c.GetPhyAddr() - a.GetPhyAddr()));
  o.SetValue(3, (int32_t)c.GetSize());
  o.SetValue(4, b.GetPosition() == (int32_t)TPosition::VECIN ? 1 : 0);
  LocalMemAllocator<Hardware::L1> l1;                               // another memory: its own allocator
  LocalTensor<half> d = l1.Alloc<TPosition::A1, half, 16>();
  o.SetValue(5, (int32_t)l1.GetCurAddr());
""", 6)
    assert got.tolist() == [256, 322, 352, 8, 1, 32]
    assert "a second LocalMemAllocator of UB" in run_violation(
        prog, "LocalMemAllocator<Hardware::UB> a; LocalMemAllocator<> b;")
    assert "LocalMemAllocator::Alloc: 49153 elements at address 0 exceed the 196608-byte UB" in run_violation(
        prog, "LocalMemAllocator<> a; a.Alloc<float>(49153);")


@pytest.mark.api("LocalTensor构造函数", "LocalTensor/GetPosition", "LocalTensor/SetBufferLen", "LocalTensor/GetSize")
def test_static_tensor_constructor(prog) -> None:
    got = run_ok(prog, """
  LocalTensor<float> t(TPosition::VECCALC, 64, 16);
  for (int i = 0; i < 16; ++i) t.SetValue(i, (float)i);
  LocalTensor<float> u(TPosition::VECCALC, 96, 8);                  // the last 8 of t
  o.SetValue(0, (int32_t)u.GetValue(0));
  o.SetValue(1, (int32_t)u.GetSize());
  o.SetValue(2, t.GetPosition());
  LocalTensor<float> v = t[4];
  v.SetBufferLen(4);
  o.SetValue(3, (int32_t)v.GetSize());
""", 4)
    assert got.tolist() == [8, 8, int_position("VECCALC"), 4]
    assert "LocalTensor: start address 40 is not 32-byte aligned" in run_violation(
        prog, "LocalTensor<float> t(TPosition::VECCALC, 40, 16);")
    assert "exceeds the 196608-byte buffer" in run_violation(prog, "LocalTensor<float> t(TPosition::VECIN, 196576, 9);")


def int_position(name: str) -> int:
    """The TPosition enumerator values (the documented order)."""
    order = ["GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC"]
    return order.index(name)
