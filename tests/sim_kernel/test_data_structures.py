"""Data structures (数据结构) and auxiliary data structures (辅助数据结构), each checked against its doc page:
every LocalTensor and GlobalTensor member, ShapeInfo / GetShapeSize, TPosition, UnaryRepeatParams,
TQueBind's members, TBuf's constructor and GetWithOffset, ListTensorDesc / TensorDesc. Kernels written for
these tests."""

from __future__ import annotations

import numpy as np
import pytest

RUN = "\nvoid run_test() { npukb_test::run_blocks(1, body, nullptr); }\n"


def run_ok(prog, body: str, n: int) -> list[int]:
    """Run `body` (it writes n int32 values to output 0 through `o`) and return them."""
    src = ("static void body(void*) {\n  GlobalTensor<int32_t> o;\n"
           f"  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, {n} * 4), {n});\n" + body + "\n}" + RUN)
    ran = prog.run(src)
    assert ran.returncode == 0, ran.stderr
    return prog.output(0, np.int32).tolist()


def run_violation(prog, body: str) -> str:
    ran = prog.run("static void body(void*) {\n" + body + "\n}" + RUN)
    assert ran.returncode == 3, (ran.returncode, ran.stdout, ran.stderr)
    return ran.stderr.strip().splitlines()[-1]


def log_lines(ran) -> list[str]:
    """The kernel's log lines (the test runtime prints them to stdout with a block prefix)."""
    return [line.split("] ", 1)[1] if line.startswith("[block") else line for line in ran.stdout.splitlines()]


# ---- LocalTensor ---------------------------------------------------------------------------------------
@pytest.mark.api("LocalTensor/SetValue", "LocalTensor/GetValue", "LocalTensor/operator()", "LocalTensor/operator[]",
                 "LocalTensor/GetSize", "LocalTensor/SetSize", "LocalTensor/GetLength", "LocalTensor/GetPhyAddr",
                 "LocalTensor/SetUserTag", "LocalTensor/GetUserTag", "LocalTensor/GetPosition")
def test_local_tensor_members(prog) -> None:
    """GetLength counts bytes, GetSize / SetSize elements; operator[] is the tensor from an element offset
    (its size the rest); operator() is a reference to the element; GetPhyAddr(offset) is offset elements
    further; the tag is the user's; GetPosition the queue's TPosition."""
    got = run_ok(prog, """
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<int32_t> t = q.AllocTensor<int32_t>();
  for (int i = 0; i < 64; ++i) t.SetValue(i, i * 3);
  o.SetValue(0, t.GetValue(5));
  t(6) = 100;
  o.SetValue(1, t.GetValue(6));
  o.SetValue(2, (int32_t)t.GetSize());
  o.SetValue(3, (int32_t)t.GetLength());
  LocalTensor<int32_t> s = t[16];
  o.SetValue(4, (int32_t)s.GetSize());
  o.SetValue(5, s.GetValue(0));
  o.SetValue(6, (int32_t)(s.GetPhyAddr() - t.GetPhyAddr()));
  o.SetValue(7, (int32_t)(t.GetPhyAddr(3) - t.GetPhyAddr()));
  t.SetSize(8);
  o.SetValue(8, (int32_t)t.GetSize());
  o.SetValue(9, (int32_t)t.GetLength());
  TTagType tag = 10;
  t.SetUserTag(tag);
  o.SetValue(10, (int32_t)t.GetUserTag());
  o.SetValue(11, t.GetPosition() == static_cast<int32_t>(TPosition::VECOUT) ? 1 : 0);
  q.FreeTensor(t);
""", 12)
    assert got == [15, 100, 64, 256, 48, 48, 64, 12, 8, 32, 10, 1]


@pytest.mark.api("LocalTensor/GetValue")
def test_local_tensor_get_value_outside_ub_is_a_violation(prog) -> None:
    line = run_violation(prog, """
  LocalTensor<float> t(TPosition::VECCALC, 196608 - 32, 8);
  t.GetValue(8);
""")
    assert "LocalTensor::GetValue" in line and "index 8 is outside the LocalTensor of 8 elements" in line


@pytest.mark.api("LocalTensor/ReinterpretCast", "LocalTensor/SetAddrWithOffset", "LocalTensor/SetShapeInfo",
                 "LocalTensor/GetShapeInfo", "辅助数据结构/ShapeInfo")
def test_reinterpret_cast_offset_tensor_and_shape_info(prog) -> None:
    """ReinterpretCast keeps the address, the bytes and the contents (the size in the new type);
    SetAddrWithOffset counts its offset in elements of the source; ShapeInfo keeps shape, original shape
    and format, GetShapeSize is the product of the shape's dims."""
    got = run_ok(prog, """
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 256);
  LocalTensor<int32_t> t = b.Get<int32_t>();
  t.SetValue(0, 0x00020001);
  LocalTensor<int16_t> h = t.ReinterpretCast<int16_t>();
  o.SetValue(0, (int32_t)h.GetSize());
  o.SetValue(1, h.GetValue(0));
  o.SetValue(2, h.GetValue(1));
  o.SetValue(3, h.GetPhyAddr() == t.GetPhyAddr() ? 1 : 0);
  LocalTensor<half> x;
  x.SetAddrWithOffset(t, 16);                      // 16 int32_t = 64 bytes in
  o.SetValue(4, (int32_t)(x.GetPhyAddr() - t.GetPhyAddr()));
  o.SetValue(5, (int32_t)x.GetSize());             // the remaining 192 bytes as half
  uint32_t dims[3] = {2, 3, 4};
  uint32_t orig[2] = {6, 3};
  t.SetShapeInfo(ShapeInfo(3, dims, 2, orig, DataFormat::NZ));
  ShapeInfo si = t.GetShapeInfo();
  o.SetValue(6, si.shapeDim);
  o.SetValue(7, (int32_t)si.shape[2]);
  o.SetValue(8, si.originalShapeDim);
  o.SetValue(9, (int32_t)si.originalShape[0]);
  o.SetValue(10, si.dataFormat == DataFormat::NZ ? 1 : 0);
  o.SetValue(11, GetShapeSize(si));
  ShapeInfo nd(2, orig);
  o.SetValue(12, nd.dataFormat == DataFormat::ND ? nd.originalShapeDim : -1);
  ShapeInfo fmt(1, dims, DataFormat::NCHW);
  o.SetValue(13, fmt.dataFormat == DataFormat::NCHW ? (int32_t)fmt.originalShape[0] : -1);
  ShapeInfo empty;
  o.SetValue(14, empty.shapeDim);
  o.SetValue(15, (int32_t)K_MAX_DIM);
""", 16)
    assert got == [128, 1, 2, 1, 64, 96, 3, 4, 2, 6, 1, 24, 2, 2, 0, 8]


@pytest.mark.api("LocalTensor/Print", "LocalTensor/ToFile")
def test_print_shows_one_data_block_per_line(prog) -> None:
    """Print writes one 32-byte DataBlock per line, led by the index of its first element; Print(len) the
    first len elements. ToFile has no file system to write to in a kernel run and reports failure."""
    ran = prog.run("""
static void body(void*) {
  GlobalTensor<int32_t> o;
  o.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 4), 1);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 64);
  LocalTensor<int32_t> t = b.Get<int32_t>();
  for (int i = 0; i < 16; ++i) t.SetValue(i, i);
  t.Print(11);
  LocalTensor<float> f = b.Get<float>(8);
  f.SetValue(0, 1.5f);
  f.Print();
  o.SetValue(0, t.ToFile("t.bin") != 0 ? 1 : 0);
}
""" + RUN)
    assert ran.returncode == 0, ran.stderr
    assert log_lines(ran) == ["0000: 0 1 2 3 4 5 6 7", "0008: 8 9 10",
                              "0000: 1.500000" + " 0.000000" * 7]   # 1..7 as float bits: denormals
    assert prog.output(0, np.int32).tolist() == [1]


# ---- GlobalTensor --------------------------------------------------------------------------------------
@pytest.mark.api("GlobalTensor/GlobalTensor构造函数", "GlobalTensor/SetGlobalBuffer", "GlobalTensor/GetPhyAddr",
                 "GlobalTensor/GetSize", "GlobalTensor/operator[]", "GlobalTensor/operator()",
                 "GlobalTensor/GetValue", "GlobalTensor/SetValue", "GlobalTensor/SetShapeInfo",
                 "GlobalTensor/GetShapeInfo", "GlobalTensor/ReinterpretCast", "GlobalTensor/SetL2CacheHint")
def test_global_tensor_members(prog) -> None:
    """SetGlobalBuffer with a size gives GetSize that many elements, without one 0; operator[] is the
    tensor from an element offset; GetPhyAddr(offset) the address offset elements further;
    ReinterpretCast keeps address and bytes; SetL2CacheHint takes every documented mode."""
    got = run_ok(prog, """
  __gm__ int32_t* base = (__gm__ int32_t*)npukb_test::gm_output(1, 64 * 4);
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(base, 64);
  for (int i = 0; i < 64; ++i) g.SetValue(i, 1000 + i);
  o.SetValue(0, (int32_t)g.GetSize());
  o.SetValue(1, g.GetValue(7));
  o.SetValue(2, (int32_t)(g.GetPhyAddr(5) - g.GetPhyAddr()));
  GlobalTensor<int32_t> s = g[10];
  o.SetValue(3, s.GetValue(0));
  o.SetValue(4, (int32_t)s.GetSize());
  g(3) = 7;
  o.SetValue(5, g.GetValue(3));
  GlobalTensor<int32_t> bare;
  bare.SetGlobalBuffer(base);
  o.SetValue(6, (int32_t)bare.GetSize());
  GlobalTensor<int16_t> h = g.ReinterpretCast<int16_t>();
  o.SetValue(7, (int32_t)h.GetSize());
  o.SetValue(8, (void*)h.GetPhyAddr() == (void*)g.GetPhyAddr() ? 1 : 0);
  uint32_t dims[2] = {8, 8};
  g.SetShapeInfo(ShapeInfo(2, dims));
  o.SetValue(9, GetShapeSize(g.GetShapeInfo()));
  g.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
  g.SetL2CacheHint<CacheRwMode::READ>(CacheMode::CACHE_MODE_NORMAL);
  g.SetL2CacheHint<CacheRwMode::WRITE>(CacheMode::CACHE_MODE_PERSISTENT);
  o.SetValue(10, g.GetValue(63));
""", 11)
    assert got == [64, 1007, 5, 1010, 54, 7, 0, 128, 1, 64, 1063]


@pytest.mark.api("GlobalTensor/SetValue")
def test_global_tensor_access_past_its_gm_tensor_is_a_violation(prog) -> None:
    line = run_violation(prog, """
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer((__gm__ int32_t*)npukb_test::gm_output(0, 64), 16);
  g.SetValue(4096, 1);
""")
    assert "GlobalTensor::SetValue" in line


# ---- auxiliary structures ------------------------------------------------------------------------------
@pytest.mark.api("辅助数据结构/UnaryRepeatParams", "辅助数据结构/TPosition")
def test_unary_repeat_params_and_positions(prog) -> None:
    """UnaryRepeatParams' documented defaults and its two constructors (the second sets halfBlock); every
    documented TPosition names a distinct value."""
    got = run_ok(prog, """
  UnaryRepeatParams d;
  o.SetValue(0, (int32_t)d.blockNumber);
  o.SetValue(1, d.dstBlkStride * 10 + d.srcBlkStride);
  o.SetValue(2, d.dstRepStride * 10 + d.srcRepStride);
  o.SetValue(3, (d.repeatStrideMode ? 4 : 0) + (d.strideSizeMode ? 2 : 0) + (d.halfBlock ? 1 : 0));
  UnaryRepeatParams p(2, 3, 4, 5);
  o.SetValue(4, p.dstBlkStride * 1000 + p.srcBlkStride * 100 + p.dstRepStride * 10 + p.srcRepStride);
  o.SetValue(5, p.halfBlock ? 1 : 0);
  UnaryRepeatParams q(1, 1, 8, 4, true);
  o.SetValue(6, q.halfBlock ? q.srcRepStride : -1);
  TPosition all[] = {TPosition::GM, TPosition::A1, TPosition::A2, TPosition::B1, TPosition::B2, TPosition::C1,
                     TPosition::C2, TPosition::CO1, TPosition::CO2, TPosition::VECIN, TPosition::VECOUT,
                     TPosition::VECCALC, TPosition::SPM, TPosition::C2PIPE2GM, TPosition::C2PIPE2LOCAL};
  int distinct = 0;
  for (int i = 0; i < 15; ++i) {
    bool seen = false;
    for (int j = 0; j < i; ++j) seen = seen || all[i] == all[j];
    distinct += seen ? 0 : 1;
  }
  o.SetValue(7, distinct);
  o.SetValue(8, TPosition::LCM == TPosition::VECCALC && TPosition::SHM == TPosition::SPM ? 1 : 0);
  o.SetValue(9, (int32_t)DEFAULT_BLK_NUM * 100 + DEFAULT_BLK_STRIDE * 10 + DEFAULT_REPEAT_STRIDE);
""", 10)
    assert got == [8, 11, 88, 0, 2345, 0, 4, 15, 1, 818]


@pytest.mark.api("辅助数据结构/ListTensorDesc", "TensorDesc/构造和析构函数", "TensorDesc/SetShapeAddr",
                 "TensorDesc/GetDim", "TensorDesc/GetIndex", "TensorDesc/GetShape", "TensorDesc/GetDataPtr",
                 "TensorDesc/GetDataObj")
def test_list_tensor_desc_parses_a_tensor_list(prog) -> None:
    """A tensor list in GM (offset of the pointer table, each tensor's rank and dims, the pointer table):
    GetSize counts the pointers, GetDataPtr gives each, GetDesc fills a TensorDesc (rank, index, dims at
    the address SetShapeAddr gave, data pointer, a GlobalTensor of the tensor's elements); length and
    shapeSize are checked when given."""
    prelude = """
  uint64_t* list = (uint64_t*)npukb_test::gm_output(1, 16 * 8);
  float* d0 = (float*)npukb_test::gm_output(2, 6 * 4);
  float* d1 = (float*)npukb_test::gm_output(3, 5 * 4);
  for (int i = 0; i < 6; ++i) d0[i] = 0.5f * i;
  for (int i = 0; i < 5; ++i) d1[i] = 10.0f + i;
  list[0] = 6 * 8;                       // the pointer table starts at word 6
  list[1] = 2; list[2] = 2; list[3] = 3;   // tensor 0: [2, 3]
  list[4] = 1; list[5] = 5;                // tensor 1: [5]
  list[6] = (uint64_t)(uintptr_t)d0; list[7] = (uint64_t)(uintptr_t)d1;
"""
    got = run_ok(prog, prelude + """
  ListTensorDesc l((__gm__ void*)list, 8 * 8, 2);
  o.SetValue(0, (int32_t)l.GetSize());
  o.SetValue(1, l.GetDataPtr<float>(1) == (__gm__ float*)d1 ? 1 : 0);
  uint64_t shape[8];
  TensorDesc<float> desc;
  desc.SetShapeAddr(shape);
  l.GetDesc(desc, 0);
  o.SetValue(2, (int32_t)desc.GetDim());
  o.SetValue(3, (int32_t)desc.GetIndex());
  o.SetValue(4, (int32_t)(desc.GetShape(0) * 10 + desc.GetShape(1)));
  o.SetValue(5, (int32_t)shape[1]);
  o.SetValue(6, desc.GetDataPtr() == d0 ? 1 : 0);
  GlobalTensor<float> g = desc.GetDataObj();
  o.SetValue(7, (int32_t)g.GetSize());
  o.SetValue(8, (int32_t)(g.GetValue(5) * 10));
  ListTensorDesc later;
  later.Init((__gm__ void*)list);
  later.GetDesc(desc, 1);
  o.SetValue(9, (int32_t)(desc.GetDim() * 100 + desc.GetIndex() * 10 + desc.GetShape(0)));
""", 10)
    assert got == [2, 1, 2, 0, 23, 3, 1, 6, 25, 115]
    line = run_violation(prog, prelude + """
  ListTensorDesc l((__gm__ void*)list, 8 * 8, 3);
""")
    assert "ListTensorDesc" in line and "3" in line


# ---- TQueBind, TBuf --------------------------------------------------------------------------------------
@pytest.mark.api("TQueBind/TQueBind构造函数", "TQueBind/AllocTensor", "TQueBind/FreeTensor", "TQueBind/EnQue",
                 "TQueBind/DeQue", "TQueBind/VacantInQue", "TQueBind/HasTensorInQue",
                 "TQueBind/GetTensorCountInQue", "TQueBind/HasIdleBuffer")
def test_tque_bind_members(prog) -> None:
    """A VECIN -> VECOUT queue of depth 2 with 2 buffers: the queries follow what is allocated and queued;
    DeQue hands back what EnQue queued, in order; the in-place forms serve a queue of depth 0."""
    got = run_ok(prog, """
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> q;
  pipe.InitBuffer(q, 2, 128);
  o.SetValue(0, (q.VacantInQue() ? 1 : 0) * 100 + (q.HasTensorInQue() ? 1 : 0) * 10 + (q.HasIdleBuffer() ? 1 : 0));
  LocalTensor<int32_t> a = q.AllocTensor<int32_t>();
  LocalTensor<int32_t> b = q.AllocTensor<int32_t>();
  a.SetValue(0, 11);
  b.SetValue(0, 22);
  o.SetValue(1, q.HasIdleBuffer() ? 1 : 0);
  q.EnQue(a);
  q.EnQue(b);
  o.SetValue(2, q.GetTensorCountInQue() * 10 + (q.VacantInQue() ? 1 : 0));
  LocalTensor<int32_t> x = q.DeQue<int32_t>();
  o.SetValue(3, x.GetValue(0));
  o.SetValue(4, q.GetTensorCountInQue() * 10 + (q.HasTensorInQue() ? 1 : 0));
  LocalTensor<int32_t> y = q.DeQue<int32_t>();
  o.SetValue(5, y.GetValue(0));
  o.SetValue(6, (int32_t)y.GetSize());
  q.FreeTensor(x);
  q.FreeTensor(y);
  o.SetValue(7, q.HasIdleBuffer() ? 1 : 0);
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 0> z;
  pipe.InitBuffer(z, 1, 64);
  LocalTensor<float> t;
  z.AllocTensor(t);
  z.EnQue(t);
  LocalTensor<float> u;
  z.DeQue(u);
  o.SetValue(8, (int32_t)u.GetSize());
  z.FreeTensor(u);
""", 9)
    assert got == [101, 0, 20, 11, 11, 22, 32, 1, 16]
    line = run_violation(prog, """
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 128);
  LocalTensor<int32_t> x = q.DeQue<int32_t>();
""")
    assert "DeQue on empty queue" in line


@pytest.mark.api("TBuf/TBuf构造函数", "TBuf/GetWithOffset")
def test_tbuf_get_with_offset(prog) -> None:
    """GetWithOffset(size, bufOffset): size elements from bufOffset bytes into the TBuf; bufOffset must be
    32-byte aligned and size * sizeof(T) + bufOffset within the buffer."""
    got = run_ok(prog, """
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  TBuf<> plain;                                     // the default position is VECCALC
  pipe.InitBuffer(b, 1024);
  pipe.InitBuffer(plain, 64);
  LocalTensor<float> all = b.Get<float>();
  LocalTensor<float> part = b.GetWithOffset<float>(32, 512);
  o.SetValue(0, (int32_t)part.GetSize());
  o.SetValue(1, (int32_t)(part.GetPhyAddr() - all.GetPhyAddr()));
  LocalTensor<half> last = b.GetWithOffset<half>(16, 992);   // exactly to the end
  o.SetValue(2, (int32_t)last.GetSize());
  o.SetValue(3, plain.Get<int32_t>().GetPosition() == static_cast<int32_t>(TPosition::VECCALC) ? 1 : 0);
""", 4)
    assert got == [32, 512, 16, 1]
    line = run_violation(prog, """
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 1024);
  LocalTensor<float> part = b.GetWithOffset<float>(8, 48);
""")
    assert "bufOffset 48 is not a multiple of 32 bytes" in line
    line = run_violation(prog, """
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 1024);
  LocalTensor<half> last = b.GetWithOffset<half>(17, 992);
""")
    assert "exceeds the buffer of 1024 bytes" in line
