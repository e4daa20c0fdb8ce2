"""The tensor-transform library against numpy, from the API pages: Broadcast (every dim / axis case and
data type, the temporary buffer GetBroadCastMaxMinTmpSize sizes, in place), Pad (both scenarios, every
type) and UnPad with the tilings PadTilingFunc / UnPadTilingFunc fill, the high-level Transpose
(ConfusionTranspose scenarios 1 to 7 with GetTransposeTilingInfo's tiling), TransData (NCDHW to and from
NDC1HWC0 and FRACTAL_Z_3D, the layouts read through GetShape()) and Fill of Global Memory. The host
helpers are called in the test kernels (they compile beside kernel_operator.h), so the tiling each test
hands the kernel API is the one the host computes. Constraints are violations."""

from __future__ import annotations

import numpy as np
import pytest
from lib_program import LibProgram, output, params

BODY = r"""
#include <tuple>
#include "lib/pad/pad_tiling.h"
#include "lib/transpose/confusion_transpose_tiling.h"
#include "lib/transpose/transdata_tiling.h"
#include "lib/broadcast/broadcast_tiling.h"

// Broadcast: P[2] case (0 [1] -> [k], 1 [1, k] -> [m, k], 2 [m, 1] -> [m, k]), P[3] m, P[4] k, P[5] form, P[6] case.
template <typename T, int32_t dim, int32_t axis> static void bc() {
  const uint32_t m = P[3], k = P[4];
  const int form = P[5], c = P[6];
  const uint32_t srcn = dim == 1 ? 1 : (axis == 0 ? k : m);
  const uint32_t dshape[2] = {dim == 1 ? k : m, k};
  const uint32_t sshape[2] = {dim == 1 ? 1u : (axis == 0 ? 1u : m), axis == 0 ? k : 1u};
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, c == 2 ? m * k : srcn + 32);
  LocalTensor<T> dst = c == 2 ? src : in<T>(u, 2, m * k + 32);
  uint32_t mx = 0, mn = 0;
  AscendC::GetBroadCastMaxMinTmpSize(platform_ascendc::PlatformAscendC(nullptr), dim == 1 ? ge::Shape({1}) :
      ge::Shape({sshape[0], sshape[1]}), dim == 1 ? ge::Shape({k}) : ge::Shape({m, k}), sizeof(T), false, mx, mn);
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(c == 1 ? mn - 32 : mn + 32);
  switch (form) {
    case 0: Broadcast<T, dim, axis>(dst, src, dshape, sshape, tmp); break;
    case 1: Broadcast<T, dim, axis>(dst, src, dshape, sshape); break;
    case 2: BroadCast<T, dim, axis>(dst, src, dshape, sshape, tmp); break;
    default: BroadCast<T, dim, axis>(dst, src, dshape, sshape); break;
  }
  out(0, dst, m * k + (c == 2 ? 0 : 32));
  LocalTensor<uint32_t> sz = u.get<uint32_t>(8);
  sz.SetValue(0, mx);
  sz.SetValue(1, mn);
  out(1, sz, 2);
}
template <typename T> static void bc_any() {
  switch (P[2]) {
    case 0: bc<T, 1, 0>(); break;
    case 1: bc<T, 2, 0>(); break;
    default: bc<T, 2, 1>(); break;
  }
}

// Pad: P[2] h, P[3] w, P[4] ori w, P[5] left, P[6] right, P[7] padValue, P[8] form, P[9] case.
template <typename T> static void pad() {
  const uint32_t h = P[2], w = P[3], ow = P[4];
  const int form = P[8], c = P[9];
  const uint32_t aw = npukb_lib::PadAlignedWidth(w, sizeof(T));
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, h * w + 32), dst = in<T>(u, 2, h * aw + 32);
  uint32_t mx = 0, mn = 0;
  GetPadMaxMinTmpSize(ge::Shape({h, w}), sizeof(T), mx, mn);
  tiling::PadTiling t;
  PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, ow}), c == 2 ? mn + 64 : mn, sizeof(T), t);
  if (c == 3) t = tiling::PadTiling{};
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(c == 1 ? mn - 32 : mn + 32);
  PadParams p;
  p.leftPad = P[5];
  p.rightPad = P[6];
  p.padValue = P[7];
  if (form == 0) Pad(dst, src, p, tmp, t); else Pad(dst, src, p, t);
  out(0, dst, h * aw + 32);
}

// UnPad: P[2] h, P[3] w, P[4] right, P[5] left, P[6] form, P[7] case.
template <typename T> static void unpad() {
  const uint32_t h = P[2], w = P[3];
  const int form = P[6], c = P[7];
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, h * w), dst = in<T>(u, 2, h * w);
  uint32_t mx = 0, mn = 0;
  GetUnPadMaxMinTmpSize(platform_ascendc::PlatformAscendC(nullptr), ge::Shape({h, w}), sizeof(T), mx, mn);
  tiling::UnPadTiling t;
  UnPadTilingFunc(ge::Shape({h, w}), mn, sizeof(T), t);
  if (c == 3) t = tiling::UnPadTiling{};
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(c == 1 ? mn - 32 : mn);
  UnPadParams p;
  p.leftPad = P[5];
  p.rightPad = P[4];
  if (form == 0) UnPad(dst, src, p, tmp, t); else UnPad(dst, src, p, t);
  out(0, dst, h * w);
}

// Transpose: P[2] type, P[3..6] dims (B, N, S, K) or (H, W), P[7] form, P[8] case; P[9] src, P[10] dst elements.
template <typename T> static void transpose() {
  const uint32_t type = P[2];
  const int form = P[7], c = P[8];
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, P[9]), dst = in<T>(u, 2, P[10]);
  const ge::Shape shape = type == 7 ? ge::Shape({P[3], P[4]}) : ge::Shape({P[3], P[4], P[5], P[6]});
  uint32_t mx = 0, mn = 0;
  GetTransposeMaxMinTmpSize(shape, sizeof(T), type, mx, mn);
  tiling::ConfusionTransposeTiling t;
  GetTransposeTilingInfo(shape, mn, sizeof(T), type, t);
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(mn + 32);
  TransposeType tt = static_cast<TransposeType>(c == 1 ? (type == 1 ? 2 : 1) : (c == 2 ? 13 : (c == 3 ? 9 : type)));
  if (form == 0) Transpose(dst, src, tmp, tt, t); else Transpose(dst, src, tt, t);
  out(0, dst, P[10]);
}

// TransData: layouts with a tuple shape (what MakeShape builds), read through GetShape().
template <typename... I> struct TestLayout {
  std::tuple<I...> shape;
  const std::tuple<I...>& GetShape() const { return shape; }
};
static constexpr TransDataConfig kToNdc = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
static constexpr TransDataConfig kFromNdc = {DataFormat::NDC1HWC0, DataFormat::NCDHW};
static constexpr TransDataConfig kToFz = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
static constexpr TransDataConfig kFromFz = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
template <const TransDataConfig& C, typename T, typename A, typename B>
static void trans_data_call(const A& a, const B& b, uint32_t n_src, uint32_t n_dst, int form, int c) {
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, n_src), dst = in<T>(u, 2, n_dst);
  uint32_t mx = 0, mn = 0;
  std::vector<int64_t> sd, dd;
  std::apply([&](auto... v) { (sd.push_back(v), ...); }, a.shape);
  std::apply([&](auto... v) { (dd.push_back(v), ...); }, b.shape);
  const bool ok = GetTransDataMaxMinTmpSize(platform_ascendc::PlatformAscendC(nullptr), ge::Shape(sd), ge::Shape(dd),
                                            ge::DT_FLOAT16, C, mx, mn);
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(c == 2 ? mn - 32 : (ok ? mn : 32));
  TransDataParams<A, B> p = {a, b};
  if (form == 0) TransData<C>(dst, src, tmp, p); else TransData<C>(dst, src, p);
  out(0, dst, n_dst);
}
template <typename T> static void trans_data() {
  const int conv = P[2], form = P[8], c = P[9];
  const int32_t n = P[3], ch = P[4], d = P[5], h = P[6], w = P[7];
  const int32_t c1 = (ch + 15) / 16, n1 = (n + 15) / 16, hwp = (h * w + 15) / 16 * 16;
  TestLayout<int32_t, int32_t, int32_t, int32_t, int32_t> nc{{n, ch, d, h, w}};
  TestLayout<int32_t, int32_t, int32_t, int32_t, int32_t, int32_t> ndc{{n, d, c == 1 ? c1 + 1 : c1, h, w, 16}};
  TestLayout<int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t> fz{{d, c1, h, w, n1, 16, 16}};
  const uint32_t nc_n = n * ch * d * hwp, ndc_n = n * d * c1 * h * w * 16, fz_n = d * c1 * h * w * n1 * 256;
  switch (conv) {
    case 0: trans_data_call<kToNdc, T>(nc, ndc, nc_n, ndc_n, form, c); break;
    case 1: trans_data_call<kFromNdc, T>(ndc, nc, ndc_n, nc_n, form, c); break;
    case 2: trans_data_call<kToFz, T>(nc, fz, nc_n, fz_n, form, c); break;
    default: trans_data_call<kFromFz, T>(fz, nc, fz_n, nc_n, form, c); break;
  }
}

// Fill: P[2] size, value pf(3), P[4] case (1: after InitBuffer).
template <typename T> static void fill() {
  const uint32_t size = P[2];
  GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(npukb_test::gm_output(0, (size + 16) * sizeof(T))), size + 16);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  if (P[4] == 1) pipe.InitBuffer(b, 1024);
  Fill(g, size, static_cast<T>(pf(3)));
}

static void body(void*) {
  const int api = P[0], dt = P[1];
  if (api == 0) {
    if (dt == 0) bc_any<float>();
    if (dt == 1) bc_any<half>();
    if (dt == 2) bc_any<int8_t>();
    if (dt == 3) bc_any<uint8_t>();
  }
  if (api == 1 || api == 2 || api == 3) {
    void (*f[3][6])() = {
        {pad<float>, pad<half>, pad<int16_t>, pad<uint16_t>, pad<int32_t>, pad<uint32_t>},
        {unpad<float>, unpad<half>, unpad<int16_t>, unpad<uint16_t>, unpad<int32_t>, unpad<uint32_t>},
        {transpose<float>, transpose<half>, transpose<int16_t>, transpose<uint16_t>, transpose<int32_t>,
         transpose<uint32_t>}};
    f[api - 1][dt]();
  }
  if (api == 4) {
    if (dt == 0) trans_data<half>();
    if (dt == 1) trans_data<int16_t>();
    if (dt == 2) trans_data<uint16_t>();
    if (dt == 3) trans_data<bfloat16_t>();
  }
  if (api == 5) {
    if (dt == 0) fill<float>();
    if (dt == 1) fill<half>();
    if (dt == 2) fill<int16_t>();
    if (dt == 3) fill<uint16_t>();
    if (dt == 4) fill<int32_t>();
    if (dt == 5) fill<uint32_t>();
  }
}
void run_test() { run_params(body); }
"""

PAD_T = {0: np.float32, 1: np.float16, 2: np.int16, 3: np.uint16, 4: np.int32, 5: np.uint32}
BC_T = {0: np.float32, 1: np.float16, 2: np.int8, 3: np.uint8}


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> LibProgram:
    return LibProgram(BODY, tmp_path_factory.mktemp("transform"), sim_cache)


# ---- Broadcast ----------------------------------------------------------------------------------------

@pytest.mark.api("Broadcast", "GetBroadCastMaxMinTmpSize")
@pytest.mark.parametrize("dt", sorted(BC_T))
@pytest.mark.parametrize("case,m,k", [(0, 1, 40), (1, 5, 64), (2, 6, 32), (2, 11, 20)])
@pytest.mark.parametrize("form", [0, 1, 2, 3])
def test_broadcast(prog, dt, case, m, k, form) -> None:
    dtype = BC_T[dt]
    rng = np.random.default_rng(case * 10 + m)
    srcn = 1 if case == 0 else (k if case == 1 else m)
    src = rng.integers(1, 100, srcn + 32).astype(dtype)
    d = prog.ok(params(0, dt, case, m, k, form, 0), src, np.zeros(m * k + 32, dtype))
    got = output(d, 0, dtype)
    want = {0: np.full(k, src[0]), 1: np.tile(src[:k], (m, 1)), 2: np.repeat(src[:m, None], k, 1)}[case]
    np.testing.assert_array_equal(got[:m * k], want.ravel().astype(dtype))
    assert np.all(got[m * k:] == 0)
    mx, mn = output(d, 1, np.uint32)
    assert mn <= mx
    assert (mn > 0) == (case == 2)       # only [m, 1] -> [m, k] broadcasts through blocks


@pytest.mark.api("Broadcast")
def test_broadcast_in_place_row(prog) -> None:
    """Real kernels broadcast a row in place (dst = src, [1, k] -> [m, k])."""
    src = np.concatenate([np.arange(16, dtype=np.float32), np.zeros(48, np.float32)])
    d = prog.ok(params(0, 0, 1, 4, 16, 0, 2), src)
    np.testing.assert_array_equal(output(d, 0, np.float32), np.tile(np.arange(16, dtype=np.float32), 4))


@pytest.mark.api("Broadcast")
@pytest.mark.parametrize("case,m,k,c,form,needle", [
    (2, 6, 32, 1, 0, "smaller than"), (1, 4, 12, 0, 1, "must be 32-byte aligned")])
def test_broadcast_constraints(prog, case, m, k, c, form, needle) -> None:
    line = prog.violation(params(0, 0, case, m, k, form, c), np.zeros(128, np.float32), np.zeros(512, np.float32))
    assert needle in line


# ---- Pad / UnPad --------------------------------------------------------------------------------------

PAD_CASES = [
    # h, w (elements, for 4-byte types; halved for 2-byte ones), ori w, left, right
    (4, 5, 5, 1, 2),     # scenario 1: unaligned width, both sides
    (3, 7, 7, 0, 1),
    (2, 8, 6, 0, 2),     # scenario 2: aligned width, redundant columns padded on the right
    (5, 16, 13, 0, 1),
]


@pytest.mark.api("张量变换/Pad", "Pad Tiling")
@pytest.mark.parametrize("dt", sorted(PAD_T))
@pytest.mark.parametrize("case", PAD_CASES)
@pytest.mark.parametrize("form", [0, 1])
def test_pad(prog, dt, case, form) -> None:
    dtype = PAD_T[dt]
    scale = 4 // np.dtype(dtype).itemsize
    h, w, ow, left, right = case
    w, ow = (w * scale, ow * scale) if w % 8 == 0 else (w, ow)
    if (h * w * np.dtype(dtype).itemsize) % 32:
        h = 8 * scale          # the source must hold whole 32-byte blocks
    aw = -(-w * np.dtype(dtype).itemsize // 32) * 32 // np.dtype(dtype).itemsize
    src = np.arange(h * w).astype(dtype)
    d = prog.ok(params(1, dt, h, w, ow, left, right, 321, form, 0), np.concatenate([src, np.zeros(32, dtype)]),
                np.full(h * aw + 32, 7, dtype))
    got = output(d, 0, dtype)[:h * aw].reshape(h, aw)
    x = src.reshape(h, w)
    if (w * np.dtype(dtype).itemsize) % 32:        # scenario 1
        np.testing.assert_array_equal(got[:, :left], np.full((h, left), 321, dtype))
        np.testing.assert_array_equal(got[:, left:left + w], x)
        np.testing.assert_array_equal(got[:, left + w:left + w + right], np.full((h, right), 321, dtype))
        assert np.all(got[:, left + w + right:] == 7)
    else:
        want = x.copy()
        want[:, ow:ow + right] = 321
        np.testing.assert_array_equal(got, want)


@pytest.mark.api("张量变换/Pad")
@pytest.mark.parametrize("h,w,ow,left,right,case,needle", [
    (8, 5, 5, 2, 2, 0, "exceeds the 32-byte aligned width"),
    (8, 8, 8, 0, 1, 0, "holds no redundant columns"),
    (8, 8, 6, 1, 1, 0, "only rightPad"),
    (8, 8, 6, 0, 3, 0, "exceeds the width"),
    (8, 5, 4, 0, 1, 0, "cannot carry redundant columns"),
    (3, 5, 5, 0, 1, 0, "not a whole number of 32-byte blocks"),
    (8, 5, 5, 0, 1, 1, "smaller than"),
    (8, 5, 5, 0, 1, 2, "planned for a work buffer"),
    (8, 5, 5, 0, 1, 3, "PadTiling is empty"),
])
def test_pad_constraints(prog, h, w, ow, left, right, case, needle) -> None:
    line = prog.violation(params(1, 0, h, w, ow, left, right, 0, 0, case), np.zeros(128, np.float32),
                          np.zeros(128, np.float32))
    assert needle in line


@pytest.mark.api("UnPad", "UnPad Tiling")
@pytest.mark.parametrize("dt", sorted(PAD_T))
@pytest.mark.parametrize("h,right", [(3, 1), (5, 3)])
@pytest.mark.parametrize("form", [0, 1])
def test_unpad(prog, dt, h, right, form) -> None:
    dtype = PAD_T[dt]
    w = 64 // np.dtype(dtype).itemsize
    src = np.arange(h * w).astype(dtype)
    d = prog.ok(params(2, dt, h, w, right, 1, form, 0), src, np.full(h * w, 7, dtype))
    got = output(d, 0, dtype)
    np.testing.assert_array_equal(got[:h * (w - right)], src.reshape(h, w)[:, :w - right].ravel())
    assert np.all(got[h * (w - right):] == 7)


@pytest.mark.api("UnPad")
@pytest.mark.parametrize("w,right,case,needle", [
    (12, 1, 0, "not 32-byte aligned"), (16, 0, 0, "rightPad 0 must be"), (16, 8, 0, "rightPad 8 must be"),
    (16, 1, 1, "smaller than"), (16, 1, 3, "UnPadTiling is empty")])
def test_unpad_constraints(prog, w, right, case, needle) -> None:
    assert needle in prog.violation(params(2, 0, 2, w, right, 0, 0, case), np.zeros(64, np.float32),
                                    np.zeros(64, np.float32))


# ---- Transpose (ConfusionTranspose) -------------------------------------------------------------------

def nz_index(rows: int, cols: int):
    """(r, c) of a [rows, cols] matrix -> its offset in the NZ layout [ceil(cols/16), rows, 16]."""
    return lambda r, c: ((c // 16) * rows + r) * 16 + c % 16


def transpose_case(ty: int, dims: tuple, dtype):
    """(source memory, expected destination memory, sentinel) of a scenario."""
    sentinel = 99
    if ty == 7:
        h, w = dims
        x = np.arange(h * w).astype(dtype).reshape(h, w)
        return x.ravel(), x.T.ravel(), sentinel
    b, n, s, k = dims
    h = n * k
    k1, h1, n1 = -(-k // 16), -(-h // 16), -(-n // 16)
    x = (np.arange(b * n * s * k) % 1000).astype(dtype).reshape(b, n, s, k)
    from_bsh = ty in (3, 4)
    src_len = b * h1 * 16 * s if from_bsh else b * n * k1 * 16 * s
    dst_len = {1: b * s * n * k, 2: b * s * k1 * n1 * 256, 3: b * n * k1 * 16 * s, 4: b * n * s * k1 * 16,
               5: b * s * h1 * 16, 6: b * h1 * 16 * s}[ty]
    src = np.zeros(src_len, dtype)
    dst = np.full(dst_len, sentinel, dtype)
    nz_k, nz_h = nz_index(s, k1 * 16), nz_index(s, h1 * 16)
    for bb in range(b):
        for nn in range(n):
            for ss in range(s):
                for kk in range(k):
                    hh = nn * k + kk
                    v = x[bb, nn, ss, kk]
                    nz4 = (bb * n + nn) * k1 * 16 * s + nz_k(ss, kk)
                    nz3 = bb * h1 * 16 * s + nz_h(ss, hh)
                    src[nz3 if from_bsh else nz4] = v
                    at = {1: ((bb * s + ss) * n + nn) * k + kk,
                          2: (bb * s + ss) * k1 * n1 * 256 + ((kk // 16) * n1 * 16 + nn) * 16 + kk % 16,
                          3: nz4, 4: ((bb * n + nn) * s + ss) * k1 * 16 + kk,
                          5: (bb * s + ss) * h1 * 16 + hh, 6: nz3}[ty]
                    dst[at] = v
    return src, dst, sentinel


TRANSPOSE_CASES = [(1, (1, 2, 32, 16)), (2, (2, 3, 16, 32)), (3, (1, 2, 32, 24)), (4, (2, 2, 16, 20)),
                   (5, (1, 3, 16, 16)), (6, (2, 2, 16, 12)), (7, (32, 48))]


@pytest.mark.api("张量变换/Transpose", "Transpose Tiling")
@pytest.mark.parametrize("dt", sorted(PAD_T))
@pytest.mark.parametrize("ty,dims", TRANSPOSE_CASES)
@pytest.mark.parametrize("form", [0, 1])
def test_confusion_transpose(prog, dt, ty, dims, form) -> None:
    dtype = PAD_T[dt]
    src, want, sentinel = transpose_case(ty, dims, dtype)
    d4 = tuple(dims) + (0,) * (4 - len(dims))
    d = prog.ok(params(3, dt, ty, *d4, form, 0, src.size, want.size), src, np.full(want.size, sentinel, dtype))
    np.testing.assert_array_equal(output(d, 0, dtype), want)


@pytest.mark.api("张量变换/Transpose")
@pytest.mark.parametrize("case,needle", [(1, "computed for transposeType"), (2, "Ascend 950PR / 950DT only"),
                                         (3, "is not supported")])
def test_confusion_transpose_constraints(prog, case, needle) -> None:
    line = prog.violation(params(3, 0, 1, 1, 1, 16, 16, 0, case, 256, 256), np.zeros(256, np.float32),
                          np.zeros(256, np.float32))
    assert needle in line


def test_confusion_transpose_needs_aligned_2d_shapes(prog) -> None:
    line = prog.violation(params(3, 0, 7, 20, 16, 0, 0, 0, 0, 320, 320), np.zeros(320, np.float32),
                          np.zeros(320, np.float32))
    assert "multiples of 16" in line


# ---- TransData ----------------------------------------------------------------------------------------

TD_T = {0: np.float16, 1: np.int16, 2: np.uint16, 3: np.uint16}    # bfloat16_t travels as its bits


def transdata_case(conv: int, n: int, c: int, d: int, h: int, w: int, dtype):
    hw = h * w
    hwp, c1, n1 = -(-hw // 16) * 16, -(-c // 16), -(-n // 16)
    fz = conv in (2, 3)
    nn = n1 * 16 if fz else n
    x = (np.arange(n * c * d * hw) % 3000 + 1).astype(dtype).reshape(n, c, d, hw)
    nc_mem = np.full(n * c * d * hwp, 7, dtype)
    other = np.zeros(d * c1 * hw * n1 * 256 if fz else n * d * c1 * hw * 16, dtype)
    for i_n in range(nn):
        for i_c in range(c1 * 16):
            for i_d in range(d):
                for i_hw in range(hw):
                    at = ((((i_d * c1 + i_c // 16) * hw + i_hw) * n1 + i_n // 16) * 16 + i_n % 16) * 16 + i_c % 16 \
                        if fz else (((i_n * d + i_d) * c1 + i_c // 16) * hw + i_hw) * 16 + i_c % 16
                    if i_n < n and i_c < c:
                        other[at] = x[i_n, i_c, i_d, i_hw]
                        nc_mem[((i_n * c + i_c) * d + i_d) * hwp + i_hw] = x[i_n, i_c, i_d, i_hw]
    if conv in (0, 2):
        return nc_mem, other, np.full(other.size, 5, dtype)
    expected = np.full(nc_mem.size, 5, dtype)       # the H * W padding of an NCDHW result is left alone
    for i_n in range(n):
        for i_c in range(c):
            for i_d in range(d):
                base = ((i_n * c + i_c) * d + i_d) * hwp
                expected[base:base + hw] = x[i_n, i_c, i_d]
    return other, expected, np.full(nc_mem.size, 5, dtype)


@pytest.mark.api("TransData", "GetTransDataMaxMinTmpSize")
@pytest.mark.parametrize("dt", sorted(TD_T))
@pytest.mark.parametrize("conv", [0, 1, 2, 3])
@pytest.mark.parametrize("shape", [(1, 16, 2, 2, 8), (2, 20, 1, 3, 5), (17, 3, 2, 1, 4)])
@pytest.mark.parametrize("form", [0, 1])
def test_trans_data(prog, dt, conv, shape, form) -> None:
    src, want, init = transdata_case(conv, *shape, TD_T[dt])
    d = prog.ok(params(4, dt, conv, *shape, form, 0), src, init)
    np.testing.assert_array_equal(output(d, 0, TD_T[dt]), want)


@pytest.mark.api("TransData")
@pytest.mark.parametrize("case,needle", [(1, "do not match the formats"), (2, "smaller than")])
def test_trans_data_constraints(prog, case, needle) -> None:
    src, _, init = transdata_case(0, 1, 16, 2, 2, 8, np.float16)
    assert needle in prog.violation(params(4, 0, 0, 1, 16, 2, 2, 8, 0, case), src, init)


# ---- Fill ---------------------------------------------------------------------------------------------

@pytest.mark.api("张量变换/Fill")
@pytest.mark.parametrize("dt", sorted(PAD_T))
def test_fill_global_memory(prog, dt) -> None:
    d = prog.ok(params(5, dt, 100, 3.0, 0))
    got = output(d, 0, PAD_T[dt])
    assert np.all(got[:100] == 3)
    assert got[100:].tobytes() == bytes([0xA5]) * (16 * np.dtype(PAD_T[dt]).itemsize)   # poisoned: not written


@pytest.mark.api("张量变换/Fill")
def test_fill_only_before_init_buffer(prog) -> None:
    assert "before the kernel's first InitBuffer" in prog.violation(params(5, 0, 100, 1.0, 1))
