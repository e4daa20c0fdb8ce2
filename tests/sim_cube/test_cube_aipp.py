"""SetAippFunctions + LoadImageToLocal (AIPP) against a numpy model of the two pages: crop, channel swaps,
colour-space conversion, data-type conversion, spatial padding (constant, edge, block, mirror), channel
padding and single-line reads, into L1 as [rows][columns][channels]; the documented limits as violations."""

from __future__ import annotations

import numpy as np
import pytest
from cube_program import CubeProgram, output

BODY = r"""
// P[2] format, P[3] output type (0 uint8, 1 int8, 2 half); crop P[4..8] (horiz, vert, hStart, vStart, srcW);
// pads P[9..12] (top, bottom, left, right); P[13] padding mode, P[14..17] pad values; swaps P[18..20] (RB,
// UV, AX); P[21] single line; dtc mean P[22..24], min P[25..27] (float), var P[28..30] (float);
// P[31] cPaddingMode, P[32] cPaddingValue; P[33] csc on, matrix P[34..42], biasIn P[43..45], biasOut P[46..48]
template <typename U> static void aipp(Bufs& b) {
  AippParams<U> c;
  c.paddingParams.paddingMode = P[13];
  c.paddingParams.paddingValueCh0 = (U)P[14];
  c.paddingParams.paddingValueCh1 = (U)P[15];
  c.paddingParams.paddingValueCh2 = (U)P[16];
  c.paddingParams.paddingValueCh3 = (U)P[17];
  c.swapParams.isSwapRB = P[18]; c.swapParams.isSwapUV = P[19]; c.swapParams.isSwapAX = P[20];
  c.singleLineParams.isSingleLineCopy = P[21];
  c.dtcParams.dtcMeanCh0 = P[22]; c.dtcParams.dtcMeanCh1 = P[23]; c.dtcParams.dtcMeanCh2 = P[24];
  c.dtcParams.dtcMinCh0 = (half)pf(25); c.dtcParams.dtcMinCh1 = (half)pf(26); c.dtcParams.dtcMinCh2 = (half)pf(27);
  c.dtcParams.dtcVarCh0 = (half)pf(28); c.dtcParams.dtcVarCh1 = (half)pf(29); c.dtcParams.dtcVarCh2 = (half)pf(30);
  c.cPaddingParams.cPaddingMode = P[31];
  c.cPaddingParams.cPaddingValue = (U)P[32];
  c.cscParams.isEnableCsc = P[33];
  int16_t* m = &c.cscParams.cscMatrixR0C0;
  for (int i = 0; i < 9; ++i) m[i] = P[34 + i];
  c.cscParams.cscBiasIn0 = P[43]; c.cscParams.cscBiasIn1 = P[44]; c.cscParams.cscBiasIn2 = P[45];
  c.cscParams.cscBiasOut0 = P[46]; c.cscParams.cscBiasOut1 = P[47]; c.cscParams.cscBiasOut2 = P[48];
  AippInputFormat f = (AippInputFormat)P[2];
  if (f == AippInputFormat::YUV420SP_U8) SetAippFunctions(gin<uint8_t>(1), gin<uint8_t>(2), f, c);
  else SetAippFunctions(gin<uint8_t>(1), f, c);
  LoadImageToLocalParams p(P[4], P[5], P[6], P[7], P[8], P[9], P[10], P[11], P[12]);
  LoadImageToLocal(b.L1<U>(), p);
  dump(0, b.L1<U>(), 65536 / sizeof(U));
}
static void body(void*) {
  Bufs b(false);
  if (P[0] == 2) { LoadImageToLocal(b.L1<half>(), LoadImageToLocalParams(2, 2, 0, 0, 2, 0, 0, 0, 0)); return; }
  if (P[0] == 3) {   // output type differs from SetAippFunctions's
    AippParams<int8_t> c;
    SetAippFunctions(gin<uint8_t>(1), AippInputFormat::YUV400_U8, c);
    LoadImageToLocal(b.L1<half>(), LoadImageToLocalParams(2, 2, 0, 0, 2, 0, 0, 0, 0));
    return;
  }
  if (P[3] == 0) aipp<uint8_t>(b);
  else if (P[3] == 1) aipp<int8_t>(b);
  else aipp<half>(b);
}
"""

FMT = {"YUV420SP": 0, "XRGB8888": 1, "RGB888": 4, "YUV400": 9}
OUT = {np.uint8: 0, np.int8: 1, np.float16: 2}


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> CubeProgram:
    return CubeProgram(BODY, tmp_path_factory.mktemp("cube_aipp"), sim_cache)


RNG = np.random.default_rng(9)


class Cfg:
    def __init__(self, fmt, out, crop, pads=(0, 0, 0, 0), pad_mode=0, pad_values=(0, 0, 0, 0), swaps=(0, 0, 0),
                 single=0, mean=(0, 0, 0), mn=(0.0, 0.0, 0.0), var=(1.0, 1.0, 1.0), cpad=(0, 0), csc=None):
        self.fmt, self.out, self.crop, self.pads = fmt, out, crop, pads
        self.pad_mode, self.pad_values, self.swaps, self.single = pad_mode, pad_values, swaps, single
        self.mean, self.mn, self.var, self.cpad, self.csc = mean, mn, var, cpad, csc

    def extra(self):
        csc = self.csc or (0, (0,) * 9, (0, 0, 0), (0, 0, 0))
        return (FMT[self.fmt], OUT[self.out], *self.crop, *self.pads, self.pad_mode, *self.pad_values, *self.swaps,
                self.single, *self.mean, *[float(x) for x in self.mn], *[float(x) for x in self.var], *self.cpad,
                csc[0], *csc[1], *csc[2], *csc[3])


def pixels(cfg: Cfg, planes) -> np.ndarray:
    """The source image as (rows, srcW, channels) after the swaps."""
    w = cfg.crop[4]
    if cfg.fmt == "YUV400":
        return planes[0].reshape(-1, w, 1).astype(np.int64)
    if cfg.fmt == "RGB888":
        img = planes[0].reshape(-1, w, 3).astype(np.int64)
    elif cfg.fmt == "XRGB8888":
        img = planes[0].reshape(-1, w, 4).astype(np.int64)
        img = img[:, :, 1:4] if cfg.swaps[2] else img[:, :, 0:3]
    else:
        y = planes[0].reshape(-1, w).astype(np.int64)
        uv = planes[1].reshape(-1, w).astype(np.int64)
        rows = y.shape[0]
        img = np.zeros((rows, w, 3), np.int64)
        img[:, :, 0] = y
        for r in range(rows):
            for x in range(w):
                img[r, x, 1] = uv[r // 2, (x // 2) * 2]
                img[r, x, 2] = uv[r // 2, (x // 2) * 2 + 1]
        if cfg.swaps[1]:
            img[:, :, [1, 2]] = img[:, :, [2, 1]]
        return img
    if cfg.swaps[0]:
        img = img[:, :, ::-1]
    return img


def model(cfg: Cfg, planes) -> np.ndarray:
    hz, vt, hs, vs, _ = cfg.crop
    rows = 1 if cfg.single else vt
    img = pixels(cfg, planes)[vs: vs + rows, hs: hs + hz]
    ch = img.shape[2]
    if cfg.csc and ch == 3:
        mat = np.array(cfg.csc[1], np.int64).reshape(3, 3)
        if cfg.fmt in ("YUV420SP", "YUV400"):
            img = (np.einsum("ij,rcj->rci", mat, img - np.array(cfg.csc[3])) >> 8)
        else:
            img = (np.einsum("ij,rcj->rci", mat, img) >> 8) + np.array(cfg.csc[2])
        img = np.clip(img, 0, 255)
    if cfg.out == np.int8:
        val = np.clip(img - np.array(cfg.mean[:ch]), -128, 127).astype(np.float32)
    elif cfg.out == np.float16:
        val = ((img - np.array(cfg.mean[:ch])).astype(np.float32) - np.array(cfg.mn[:ch], np.float32)) * \
            np.array(cfg.var[:ch], np.float32)
    else:
        val = img.astype(np.float32)
    top, bot, left, right = cfg.pads
    h, w = val.shape[:2]

    def src(q, pad, size, pad2):
        if pad <= q < pad + size:
            return q - pad
        if cfg.pad_mode == 0:
            return -1
        if cfg.pad_mode == 1:
            return 0 if q < pad else size - 1
        if cfg.pad_mode == 2:
            return q if q < pad else size - pad2 + (q - pad - size)
        return pad - q - 1 if q < pad else size - 1 - (q - pad - size)

    cp = 4 if cfg.cpad[0] == 1 else 32 // np.dtype(cfg.out).itemsize
    out = np.full((h + top + bot, w + left + right, cp), cfg.cpad[1], np.float32)
    for oy in range(out.shape[0]):
        sy = src(oy, top, h, bot)
        for ox in range(out.shape[1]):
            sx = src(ox, left, w, right)
            if sy < 0 or sx < 0:
                out[oy, ox, :ch] = cfg.pad_values[:ch]
            else:
                out[oy, ox, :ch] = val[sy, sx]
    return out.astype(cfg.out)


def run(prog, cfg: Cfg, planes):
    d = prog.ok(1, *planes, extra=cfg.extra())
    want = model(cfg, planes)
    got = output(d, 0, cfg.out)[: want.size].reshape(want.shape)
    return got, want


@pytest.mark.api("LoadImageToLocal", "SetAippFunctions")
def test_rgb_crop_swap_and_four_channel_padding(prog):
    img = RNG.integers(0, 256, 8 * 10 * 3, dtype=np.uint8)
    cfg = Cfg("RGB888", np.uint8, (6, 4, 2, 3, 10), swaps=(1, 0, 0), cpad=(1, 9))
    got, want = run(prog, cfg, [img])
    np.testing.assert_array_equal(got, want)
    assert np.all(got[:, :, 3] == 9)


@pytest.mark.api("LoadImageToLocal", "SetAippFunctions")
def test_yuv400_constant_left_right_padding_to_int8(prog):
    img = RNG.integers(0, 256, 6 * 8, dtype=np.uint8)
    cfg = Cfg("YUV400", np.int8, (4, 3, 2, 1, 8), pads=(0, 0, 2, 3), pad_values=(-5, 0, 0, 0), mean=(100, 0, 0))
    got, want = run(prog, cfg, [img])
    np.testing.assert_array_equal(got, want)
    assert got[0, 0, 0] == -5 and got.shape[2] == 32


@pytest.mark.api("LoadImageToLocal", "SetAippFunctions")
def test_xrgb_moves_x_and_converts_to_half(prog):
    img = RNG.integers(0, 256, 4 * 6 * 4, dtype=np.uint8)
    cfg = Cfg("XRGB8888", np.float16, (4, 3, 0, 1, 6), swaps=(0, 0, 1), mean=(10, 20, 30), mn=(1.0, 2.0, 3.0),
              var=(0.5, 0.25, 0.125))
    got, want = run(prog, cfg, [img])
    np.testing.assert_array_equal(got, want)


@pytest.mark.api("LoadImageToLocal", "SetAippFunctions")
def test_yuv420sp_swap_uv_and_csc_to_rgb(prog):
    y = RNG.integers(0, 256, 6 * 8, dtype=np.uint8)
    uv = RNG.integers(0, 256, 3 * 8, dtype=np.uint8)
    csc = (1, (256, 0, 359, 256, -88, -183, 256, 454, 0), (0, 0, 0), (0, 128, 128))
    cfg = Cfg("YUV420SP", np.uint8, (4, 4, 2, 2, 8), swaps=(0, 1, 0), csc=csc)
    got, want = run(prog, cfg, [y, uv])
    np.testing.assert_array_equal(got, want)


@pytest.mark.api("LoadImageToLocal", "SetAippFunctions")
def test_rgb_csc_to_yuv(prog):
    img = RNG.integers(0, 256, 4 * 4 * 3, dtype=np.uint8)
    csc = (1, (66, 129, 25, -38, -74, 112, 112, -94, -18), (16, 128, 128), (0, 0, 0))
    cfg = Cfg("RGB888", np.uint8, (4, 4, 0, 0, 4), csc=csc)
    got, want = run(prog, cfg, [img])
    np.testing.assert_array_equal(got, want)


@pytest.mark.api("LoadImageToLocal")
@pytest.mark.parametrize("mode", [1, 2, 3])
def test_edge_block_and_mirror_padding(prog, mode):
    img = RNG.integers(0, 256, 8 * 8, dtype=np.uint8)
    cfg = Cfg("YUV400", np.uint8, (4, 4, 2, 2, 8), pads=(2, 1, 3, 2), pad_mode=mode)
    got, want = run(prog, cfg, [img])
    np.testing.assert_array_equal(got, want)


@pytest.mark.api("LoadImageToLocal", "SetAippFunctions")
def test_single_line_reads_one_row(prog):
    img = RNG.integers(0, 256, 6 * 8 * 3, dtype=np.uint8)
    cfg = Cfg("RGB888", np.uint8, (4, 5, 2, 2, 8), single=1)
    got, want = run(prog, cfg, [img])
    assert got.shape[0] == 1
    np.testing.assert_array_equal(got, want)


@pytest.mark.api("LoadImageToLocal", "SetAippFunctions")
def test_aipp_limits(prog):
    img = RNG.integers(0, 256, 8 * 8, dtype=np.uint8)
    bad = Cfg("YUV400", np.uint8, (4, 4, 1, 0, 8))
    assert "even" in prog.violation(1, img, extra=bad.extra())
    bad = Cfg("YUV400", np.uint8, (4, 4, 0, 0, 8), pads=(1, 0, 0, 0))
    assert "left and right only" in prog.violation(1, img, extra=bad.extra())
    bad = Cfg("YUV400", np.uint8, (4, 2, 0, 0, 8), pads=(3, 0, 0, 0), pad_mode=2)
    assert "no larger than the crop" in prog.violation(1, img, extra=bad.extra())
    bad = Cfg("YUV400", np.uint8, (6, 2, 4, 0, 8))
    assert "source width" in prog.violation(1, img, extra=bad.extra())
    assert "never called" in prog.violation(2)
    assert "output type" in prog.violation(3, img)
