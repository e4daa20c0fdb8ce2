"""LoadData (convolution data movement, Load3D) and its registers, against a numpy img2col written from the
Load3D page: an NC1HWC0 feature map in L1 unfolded into the (Ho * Wo) x (C1 * Kh * Kw * C0) matrix (rows
= output pixels, columns = channel block, filter row, filter column, channel), a window of it moved into
L0A (zZ, or transposed) or L0B (transposed, nZ); SetFmatrix / SetLoadDataPaddingValue as the registers a
call may leave unset (IsResetLoad3dConfig), SetLoadDataRepeat repeating the window, SetLoadDataBoundary
wrapping the reads, and the LoadData3DParamsV2Pro packing."""

from __future__ import annotations

import numpy as np
import pytest
from cube_program import CubeProgram, output, to_nz_b, to_zz

BODY = r"""
static constexpr IsResetLoad3dConfig KEEP = {false, false};
template <typename T> static LoadData3DParamsV2<T> v2() {
  LoadData3DParamsV2<T> p;
  p.l1H = P[2]; p.l1W = P[3]; p.channelSize = P[4];
  p.filterH = P[5]; p.filterW = P[6]; p.strideH = P[7]; p.strideW = P[8]; p.dilationFilterH = P[9];
  p.dilationFilterW = P[10];
  p.padList[0] = P[11]; p.padList[1] = P[12]; p.padList[2] = P[13]; p.padList[3] = P[14];
  p.mStartPt = P[15]; p.mExtension = P[16]; p.kStartPt = P[17]; p.kExtension = P[18];
  p.enTranspose = P[19] != 0;
  p.padValue = (T)P[20];
  return p;
}
// P[21]: 0 L0A, 1 L0B; P[22]: register mode (0 params, 1 SetFmatrix + padding register + KEEP, 2 V2Pro);
// P[23]: SetLoadDataRepeat (stride, time, mode) = P[24..26] when non-zero; P[27]: boundary; P[28]: src offset
template <typename T> static void load3d(Bufs& b) {
  LocalTensor<T> l1 = b.L1<T>();
  load(l1, 1, 256 * 1024 / sizeof(T));
  LocalTensor<T> src = l1[P[28]];
  LocalTensor<T> dst = P[21] ? b.L0B<T>() : b.L0A<T>();
  if (P[23]) SetLoadDataRepeat(LoadDataRepeatParam(P[24], P[25], P[26]));
  if (P[27]) SetLoadDataBoundary(P[27]);
  LoadData3DParamsV2<T> p = v2<T>();
  if (P[22] == 0) {
    LoadData(dst, src, p);
  } else if (P[22] == 1) {
    uint8_t pads[4] = {p.padList[0], p.padList[1], p.padList[2], p.padList[3]};
    SetFmatrix(p.l1H, p.l1W, pads, FmatrixMode::FMATRIX_LEFT);
    SetLoadDataPaddingValue<T>(p.padValue);
    p.l1H = 1; p.l1W = 1; p.padValue = (T)0;   // ignored with KEEP
    p.padList[0] = p.padList[1] = p.padList[2] = p.padList[3] = 0;
    LoadData<T, KEEP>(dst, src, p);
  } else {
    uint8_t pads[4] = {p.padList[0], p.padList[1], p.padList[2], p.padList[3]};
    SetFmatrix(p.l1H, p.l1W, pads, FmatrixMode::FMATRIX_LEFT);
    SetLoadDataPaddingValue<T>(p.padValue);
    LoadData3DParamsV2Pro q;
    q.channelSize = p.channelSize;
    q.enTranspose = p.enTranspose;
    q.extConfig = ((uint64_t)p.mStartPt << 48) | ((uint64_t)p.kStartPt << 32) | ((uint64_t)p.mExtension << 16) |
                  (uint64_t)p.kExtension;
    q.filterConfig = ((uint64_t)p.dilationFilterH << 40) | ((uint64_t)p.dilationFilterW << 32) |
                     ((uint64_t)p.filterH << 24) | ((uint64_t)p.filterW << 16) | ((uint64_t)p.strideH << 8) |
                     (uint64_t)p.strideW;
    LoadData(dst, src, q);
  }
  dump(0, dst, 65536 / sizeof(T));
}
static void body(void*) {
  Bufs b(false);
  switch (P[0]) {
    case 1: load3d<half>(b); break;
    case 2: load3d<float>(b); break;
    case 3: load3d<int8_t>(b); break;
    case 4: {  // Load3Dv1: not on Atlas A2/A3
      LoadData3DParamsV1<half> p;
      LoadData(b.L0A<half>(), b.L1<half>(), p);
      break;
    }
    case 5: {  // isSetFMatrix = false without SetFmatrix
      LoadData3DParamsV2<half> p;
      p.l1H = 2; p.l1W = 16; p.channelSize = 16; p.mExtension = 16; p.kExtension = 16;
      LoadData<half, KEEP>(b.L0A<half>(), b.L1<half>(), p);
      break;
    }
    case 6: SetLoadDataBoundary(P[2]); break;
  }
}
"""

CASE = {np.float16: 1, np.float32: 2, np.int8: 3}


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> CubeProgram:
    return CubeProgram(BODY, tmp_path_factory.mktemp("cube_load3d"), sim_cache)


RNG = np.random.default_rng(3)


def img2col(fm, ch, kh, kw, sh, sw, dh, dw, pads, pad_value):
    """fm: (C1, H, W, C0) -> the (Ho * Wo) x (C1 * Kh * Kw * C0) img2col matrix."""
    c1, h, w, c0 = fm.shape
    left, right, top, bottom = pads
    ho = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    wo = (w + left + right - dw * (kw - 1) - 1) // sw + 1
    out = np.full((ho * wo, c1 * kh * kw * c0), pad_value, dtype=fm.dtype)
    for oh in range(ho):
        for ow in range(wo):
            for c in range(c1):
                for fh in range(kh):
                    for fw in range(kw):
                        hi, wi = oh * sh + fh * dh - top, ow * sw + fw * dw - left
                        if 0 <= hi < h and 0 <= wi < w:
                            col = ((c * kh + fh) * kw + fw) * c0
                            out[oh * wo + ow, col: col + c0] = fm[c, hi, wi]
    return out


def window(mat, m0, mext, k0, kext, pad_value=0):
    """The window (positions past the matrix read as the padding value)."""
    win = np.full((mext, kext), pad_value, mat.dtype)
    part = mat[m0: m0 + mext, k0: k0 + kext]
    win[: part.shape[0], : part.shape[1]] = part
    return win


def run3d(prog, dtype, fm_shape, h, w, ch, filt=(1, 1), stride=(1, 1), dil=(1, 1), pads=(0, 0, 0, 0), win=None,
          transpose=0, to_b=0, mode=0, repeat=None, boundary=0, src_off=0, pad_value=0, fm_bytes=None):
    fm = fm_bytes if fm_bytes is not None else (RNG.uniform(-4, 4, fm_shape).astype(dtype) if dtype != np.int8 else
                                                RNG.integers(-100, 100, fm_shape, dtype=np.int8))
    m0, mext, k0, kext = win
    rep = repeat or (0, 1, 0)
    extra = (h, w, ch, filt[0], filt[1], stride[0], stride[1], dil[0], dil[1], *pads, m0, mext, k0, kext, transpose,
             pad_value, to_b, mode, 1 if repeat else 0, *rep, boundary, src_off)
    d = prog.ok(CASE[dtype], fm, extra=extra)
    return fm, output(d, 0, dtype)


@pytest.mark.api("LoadData（卷积数据搬运）", "SetLoadDataPaddingValue")
def test_load3d_conv_window_into_l0a(prog):
    c0 = 16
    fm_shape = (2, 4, 5, c0)                  # C1 = 2 (32 channels), H = 4, W = 5
    pads = (1, 1, 1, 0)
    fm, got = run3d(prog, np.float16, fm_shape, 4, 5, 32, filt=(3, 2), pads=pads, win=(0, 20, 16, 64), pad_value=3)
    mat = img2col(fm.reshape(fm_shape), 32, 3, 2, 1, 1, 1, 1, pads, np.float16(3))
    assert mat.shape == (3 * 6, 2 * 3 * 2 * 16)
    want = to_zz(window(mat, 0, 20, 16, 64, 3), 16, c0)
    np.testing.assert_array_equal(got[: want.size], want)


@pytest.mark.api("LoadData（卷积数据搬运）")
def test_load3d_strides_and_dilation(prog):
    fm_shape = (1, 7, 7, 16)
    fm, got = run3d(prog, np.float16, fm_shape, 7, 7, 16, filt=(2, 2), stride=(2, 3), dil=(2, 1), win=(0, 16, 0, 64))
    mat = img2col(fm.reshape(fm_shape), 16, 2, 2, 2, 3, 2, 1, (0, 0, 0, 0), np.float16(0))
    want = to_zz(window(mat, 0, 16, 0, 64), 16, 16)
    np.testing.assert_array_equal(got[: want.size], want)


@pytest.mark.api("LoadData（卷积数据搬运）")
def test_load3d_as_2d_nz_to_zz_and_transposes(prog):
    # the page's 2D use: N = 1, H = 1, 1 x 1 filter: the feature map is an NZ matrix (M = W rows, K = C)
    m, k = 32, 48
    a = RNG.uniform(-1, 1, (m, k)).astype(np.float16)
    nz = a.reshape(m, k // 16, 16).transpose(1, 0, 2)              # (C1, W, C0) with H = 1
    _, got = run3d(prog, np.float16, None, 1, m, k, win=(0, m, 0, k), fm_bytes=nz.copy())
    np.testing.assert_array_equal(got[: m * k], to_zz(a, 16, 16))
    # enTranspose into L0A: A^T in zZ
    _, got = run3d(prog, np.float16, None, 1, m, k, win=(0, m, 0, k), transpose=1, fm_bytes=nz.copy())
    np.testing.assert_array_equal(got[: m * k], to_zz(a.T.copy(), 16, 16))
    # into L0B the matrix is transposed automatically: rows of the window are B's K (k0 = 16), columns N
    _, got = run3d(prog, np.float16, None, 1, m, k, win=(0, m, 0, k), to_b=1, fm_bytes=nz.copy())
    np.testing.assert_array_equal(got[: m * k], to_nz_b(a, 16))


@pytest.mark.api("LoadData（卷积数据搬运）")
def test_load3d_float_into_l0b(prog):
    m, k = 16, 32
    a = RNG.uniform(-1, 1, (m, k)).astype(np.float32)
    nz = a.reshape(m, k // 8, 8).transpose(1, 0, 2)
    _, got = run3d(prog, np.float32, None, 1, m, k, win=(0, m, 0, k), to_b=1, fm_bytes=nz.copy())
    np.testing.assert_array_equal(got[: m * k], to_nz_b(a, 8))


@pytest.mark.api("LoadData（卷积数据搬运）")
def test_load3d_type_and_shape_limits(prog):
    fm = RNG.integers(-100, 100, (1, 2, 16, 32), dtype=np.int8)
    ok = dict(win=(0, 32, 0, 32), fm_bytes=fm)
    run3d(prog, np.int8, None, 2, 16, 32, **ok)                                   # int8 into L0A: fine
    assert "8- or 4-bit" in prog.violation(3, fm, extra=_extra(2, 16, 32, (0, 32, 0, 32), to_b=1))
    assert "b8/b4" in prog.violation(3, fm, extra=_extra(2, 16, 32, (0, 32, 0, 32), transpose=1))
    assert "small-channel" in prog.violation(3, fm, extra=_extra(2, 16, 24, (0, 32, 0, 24)))
    assert "kStartPt" in prog.violation(3, fm, extra=_extra(2, 16, 64, (0, 32, 16, 32)))
    assert "Load3Dv1" in prog.violation(4)


def _extra(h, w, ch, win, transpose=0, to_b=0, mode=0, repeat=None, boundary=0, src_off=0):
    rep = repeat or (0, 1, 0)
    return (h, w, ch, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, *win, transpose, 0, to_b, mode, 1 if repeat else 0, *rep,
            boundary, src_off)


@pytest.mark.api("SetFmatrix", "SetLoadDataPaddingValue")
def test_registers_replace_the_call_fields(prog):
    fm_shape = (1, 3, 4, 16)
    pads = (1, 0, 1, 1)
    base = dict(filt=(2, 2), pads=pads, win=(0, 16, 0, 64), pad_value=7)
    fm, direct = run3d(prog, np.float16, fm_shape, 3, 4, 16, **base)
    _, via_regs = run3d(prog, np.float16, fm_shape, 3, 4, 16, mode=1, fm_bytes=fm, **base)
    np.testing.assert_array_equal(direct, via_regs)
    mat = img2col(fm.reshape(fm_shape), 16, 2, 2, 1, 1, 1, 1, pads, np.float16(7))
    np.testing.assert_array_equal(direct[: 16 * 64], to_zz(window(mat, 0, 16, 0, 64, 7), 16, 16))
    assert "SetFmatrix was never called" in prog.violation(5)


@pytest.mark.api("SetFmatrix")
def test_v2pro_packs_the_same_instruction(prog):
    fm_shape = (2, 3, 3, 16)
    base = dict(filt=(2, 2), stride=(1, 1), dil=(1, 1), pads=(1, 1, 1, 1), win=(0, 16, 16, 96), pad_value=-2)
    fm, direct = run3d(prog, np.float16, fm_shape, 3, 3, 32, **base)
    _, pro = run3d(prog, np.float16, fm_shape, 3, 3, 32, mode=2, fm_bytes=fm, **base)
    np.testing.assert_array_equal(direct, pro)


@pytest.mark.api("SetLoadDataRepeat")
def test_repeat_along_m_and_k(prog):
    m, k = 64, 64
    a = RNG.uniform(-1, 1, (m, k)).astype(np.float16)
    nz = a.reshape(m, k // 16, 16).transpose(1, 0, 2).copy()
    # along M (mode 0): 2 windows of 16 rows, 2 units (2 x 16 rows on A2/A3) apart -> rows 0..15 and 32..47
    _, got = run3d(prog, np.float16, None, 1, m, k, win=(0, 16, 0, 32), repeat=(2, 2, 0), fm_bytes=nz)
    big = np.concatenate([a[0:16, 0:32], a[32:48, 0:32]])
    np.testing.assert_array_equal(got[: big.size], to_zz(big, 16, 16))
    # along K (mode 1): columns 0..15 and 48..63
    _, got = run3d(prog, np.float16, None, 1, m, k, win=(0, 16, 0, 16), repeat=(3, 2, 1), fm_bytes=nz)
    big = np.concatenate([a[0:16, 0:16], a[0:16, 48:64]], axis=1)
    np.testing.assert_array_equal(got[: big.size], to_zz(big, 16, 16))
    # repeatTime 0: nothing moves
    _, got = run3d(prog, np.float16, None, 1, m, k, win=(0, 16, 0, 16), repeat=(1, 0, 0), fm_bytes=nz)
    assert np.all(got.view(np.uint16) == 0xA5A5)


@pytest.mark.api("SetLoadDataBoundary")
def test_boundary_wraps_reads_to_the_start_of_l1(prog):
    m, k = 32, 16
    a = RNG.uniform(-1, 1, (m, k)).astype(np.float16)
    nz = a.reshape(m, 1, 16).transpose(1, 0, 2).copy().reshape(-1)      # 1024 bytes
    l1 = np.zeros(2048, np.float16)
    l1[512: 512 + 256] = nz[:256]             # rows 0..15 at byte 1024 .. 1535
    l1[:256] = nz[256:]                       # rows 16..31 wrapped to the start
    # the source starts at byte 1024 with a boundary of 1536: rows 16.. read past it and wrap to byte 0
    _, got = run3d(prog, np.float16, None, 1, m, k, win=(0, m, 0, k), boundary=1536, src_off=512, fm_bytes=l1)
    np.testing.assert_array_equal(got[: m * k], to_zz(a, 16, 16))
    assert "1024" in prog.violation(6, extra=(512,))
    assert "boundary" in prog.violation(1, l1, extra=_extra(1, m, k, (0, m, 0, k), boundary=1024, src_off=512))
