"""The sort family against numpy, from the API pages: Sort32 / MrgSort / GetMrgSortResult (排序组合) and the
high-level Concat, Sort, Extract, MrgSort, GetSortLen, GetSortOffset and TopK, for half and float.

The layout the A2 / A3 pages document: 8-byte (score, index) pairs, the score in the low bytes (half: two
reserved bytes), the uint32 index in the high four; descending scores; equal scores in input order (the
earlier element, the earlier list first); a NaN before every number. Constraints of the pages (repeat
ranges, alignment, validBit, the conditions of repeatTime > 1, overlap, k and inner limits, the tmp
buffer's position and size) are violations; the Ascend 950-only forms fail to compile."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lib_program import LibProgram, output, params
from simkit import syntax_check

BODY = r"""
template <typename T> static uint32_t pair_elems(uint32_t n) { return n * 8 / sizeof(T); }
// n elements rounded up to whole 256-byte units (Sort32's operands need 128 / 256-byte alignment)
template <typename T> static uint32_t r256(uint32_t n) { return (n * sizeof(T) + 255) / 256 * 256 / sizeof(T); }

template <typename T> static void sort32() {
  const uint32_t rep = P[2];
  const int mode = P[3];
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, r256<T>(32 * rep + 256));
  LocalTensor<uint32_t> idx = in<uint32_t>(u, 2, r256<uint32_t>(32 * rep + 64));
  LocalTensor<T> dst = u.get<T>(r256<T>(pair_elems<T>(32 * rep) + 256));
  if (mode == 1) { Sort32(dst[64 / sizeof(T)], src, idx, rep); return; }           // dst 64 bytes off 256
  if (mode == 2) { Sort32(dst, src[8 / sizeof(T) * 4], idx, rep); return; }       // src0 32 bytes off
  if (mode == 3) { Sort32(dst, src, idx, 256); return; }
  Sort32(dst, src, idx, static_cast<int32_t>(rep));
  out(0, dst.template ReinterpretCast<uint8_t>(), 32 * rep * 8);
}

// The lists: input 1 holds them one after the other (raw pairs); P: lengths, validBit, suspension, repeat.
template <typename T, bool hl> static void mrg() {
  const uint16_t lens[4] = {(uint16_t)P[2], (uint16_t)P[3], (uint16_t)P[4], (uint16_t)P[5]};
  const uint16_t valid = P[6];
  const bool suspend = P[7] != 0;
  const int32_t repeat = P[8];
  const int mode = P[9];
  const uint32_t total = P[10];   // pairs in input 1
  Ub u;
  LocalTensor<T> all = in<T>(u, 1, pair_elems<T>(total) + 64);
  LocalTensor<T> dst = u.get<T>(pair_elems<T>(total) + 64);
  uint32_t off = 0;
  LocalTensor<T> l[4];
  for (int i = 0; i < 4; ++i) { l[i] = all[pair_elems<T>(off)]; off += lens[i] + (mode == 3 && i == 1 ? 4 : 0); }
  MrgSortSrcList<T> list(l[0], l[1], l[2], l[3]);
  LocalTensor<T> d = mode == 1 ? all : dst;
  uint32_t sorted[4] = {7, 7, 7, 7};
  if constexpr (hl) {
    if (suspend) MrgSort<T, true>(d, list, lens, sorted, valid, repeat);
    else MrgSort<T, false>(d, list, lens, sorted, valid, repeat);
  } else {
    MrgSort4Info info(lens, suspend, valid, repeat);
    MrgSort(d, list, info);
    uint16_t r[4];
    GetMrgSortResult(r[0], r[1], r[2], r[3]);
    for (int i = 0; i < 4; ++i) sorted[i] = r[i];
  }
  out(0, dst.template ReinterpretCast<uint8_t>(), total * 8);
  LocalTensor<uint32_t> s = u.get<uint32_t>(8);
  for (int i = 0; i < 4; ++i) s.SetValue(i, sorted[i]);
  out(1, s, 4);
}

template <typename T, bool full> static void hl_sort() {
  const int32_t rep = P[2];
  const int mode = P[3];
  const uint32_t n = 32 * (rep > 0 && rep <= 255 ? rep : 1);
  Ub u;
  LocalTensor<T> values = in<T>(u, 1, n);
  LocalTensor<uint32_t> idx = in<uint32_t>(u, 2, n);
  LocalTensor<T> concat = u.get<T>(n), ctmp = u.get<T>(16);
  LocalTensor<T> sorted = u.get<T>(pair_elems<T>(n));
  LocalTensor<T> tmp = u.get<T>(mode == 1 ? pair_elems<T>(n) - 32 / sizeof(T) : pair_elems<T>(n));
  LocalTensor<T> dv = u.get<T>(n);
  LocalTensor<uint32_t> di = u.get<uint32_t>(n);
  Concat(concat, values, ctmp, static_cast<int32_t>(n / 16));
  Sort<T, full>(sorted, concat, idx, tmp, rep);
  Extract(dv, di, sorted, rep);
  out(0, sorted.template ReinterpretCast<uint8_t>(), n * 8);
  out(1, dv, n);
  out(2, di, n);
  LocalTensor<int32_t> sz = u.get<int32_t>(8);
  sz.SetValue(0, GetSortLen<T>(P[4]));
  sz.SetValue(1, GetSortOffset<T>(P[4]));
  out(3, sz, 2);
}

// TopK: P[2] outter, P[3] inner, P[4] n, P[5] k, P[9] isLargest, P[10] form (0 tmp, 1 framework), P[11] case.
template <typename T, bool init, bool fin, TopKMode mode> static void topk() {
  const int32_t outter = P[2], inner = P[3], n = P[4], k = P[5];
  const bool largest = P[9] != 0;
  const int form = P[10], c = P[11];
  const bool small = mode == TopKMode::TOPK_NSMALL;
  const uint32_t kpad = small ? k : (k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
  const uint32_t kpi = small ? k : (k + 7) / 8 * 8;
  Ub u;
  LocalTensor<T> src = in<T>(u, 1, outter * inner);
  LocalTensor<int32_t> sidx = in<int32_t>(u, 2, small ? outter * inner : inner);
  LocalTensor<bool> finish = in<bool>(u, 3, 32);
  LocalTensor<T> dv = in<T>(u, 4, outter * kpad + 32);
  LocalTensor<int32_t> di = in<int32_t>(u, 5, outter * kpi + 8);
  const uint32_t need = npukb_lib::TopKMinTmpBytes(inner, outter, init, small, largest, sizeof(T));
  LocalTensor<uint8_t> tmp = u.get<uint8_t>(c == 1 ? need - 32 : need);
  TopkTiling tiling{};
  tiling.innerDataSize = c == 2 ? inner + 32 : inner;
  tiling.kAlignFourBytes = (k + 7) / 8 * 8;
  tiling.kAlignTwoBytes = (k + 15) / 16 * 16;
  TopKInfo info{outter, inner, n};
  LocalTensor<T> d = c == 5 ? src : dv;
  if (c == 4) {
    TBuf<TPosition::VECIN> qb;
    u.pipe.InitBuffer(qb, need);
    LocalTensor<uint8_t> qtmp = qb.Get<uint8_t>();
    TopK<T, init, fin, false, mode>(d, di, src, sidx, finish, qtmp, k, tiling, info, largest);
  } else if (form == 0) {
    TopK<T, init, fin, false, mode>(d, di, src, sidx, finish, tmp, k, tiling, info, largest);
  } else {
    TopK<T, init, fin, false, mode, defaultTopKConfig>(d, di, src, sidx, finish, k, tiling, info, largest);
  }
  out(0, dv, outter * kpad);
  out(1, di, outter * kpi);
}
template <typename T> static void topk_any() {
  const bool init = P[7] != 0, fin = P[8] != 0, small = P[6] != 0;
  if (small) {
    if (init) topk<T, true, false, TopKMode::TOPK_NSMALL>(); else topk<T, false, false, TopKMode::TOPK_NSMALL>();
  } else if (init) {
    if (fin) topk<T, true, true, TopKMode::TOPK_NORMAL>(); else topk<T, true, false, TopKMode::TOPK_NORMAL>();
  } else {
    if (fin) topk<T, false, true, TopKMode::TOPK_NORMAL>(); else topk<T, false, false, TopKMode::TOPK_NORMAL>();
  }
}

static void body(void*) {
  const int api = P[0], dt = P[1];
  if (api == 0) { if (dt == 0) sort32<float>(); else sort32<half>(); }
  if (api == 1) { if (dt == 0) mrg<float, false>(); else mrg<half, false>(); }
  if (api == 2) {
    if (P[5] != 0) { if (dt == 0) hl_sort<float, true>(); else hl_sort<half, true>(); }
    else { if (dt == 0) hl_sort<float, false>(); else hl_sort<half, false>(); }
  }
  if (api == 3) { if (dt == 0) mrg<float, true>(); else mrg<half, true>(); }
  if (api == 4) { if (dt == 0) topk_any<float>(); else topk_any<half>(); }
}
void run_test() { run_params(body); }
"""

DT = {0: np.float32, 1: np.float16}


@pytest.fixture(scope="module")
def prog(tmp_path_factory, sim_cache) -> LibProgram:
    return LibProgram(BODY, tmp_path_factory.mktemp("sort"), sim_cache)


def _key(v: float) -> tuple[int, float]:
    """Descending order, NaN first; Python's sort is stable (equal scores keep their order)."""
    return (0, 0.0) if np.isnan(v) else (1, -float(v))


def sort_pairs(scores: np.ndarray, idx: np.ndarray) -> list[tuple[float, int]]:
    order = sorted(range(len(scores)), key=lambda i: _key(scores[i]))
    return [(scores[i], int(idx[i])) for i in order]


def pairs_bytes(pairs, dtype) -> bytes:
    fmt = "<fI" if dtype == np.float32 else "<eHI"
    out = b""
    for s, i in pairs:
        out += struct.pack(fmt, float(s), i) if dtype == np.float32 else struct.pack(fmt, float(s), 0, i)
    return out


def read_pairs(raw: np.ndarray, dtype) -> tuple[np.ndarray, np.ndarray]:
    b = raw.tobytes()
    n = len(b) // 8
    vals = np.frombuffer(b, dtype=dtype)[:: 8 // np.dtype(dtype).itemsize][:n]
    idx = np.frombuffer(b, dtype=np.uint32)[1::2]
    return vals, idx


def _scores(dt: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.integers(-20, 20, n).astype(DT[dt])     # many ties
    v[3] = np.nan
    v[7] = np.inf
    v[11] = -np.inf
    return v


# ---- Sort32 / MrgSort / GetMrgSortResult ------------------------------------------------------------

@pytest.mark.api("Sort32")
@pytest.mark.parametrize("dt", [0, 1])
def test_sort32_sorts_each_repeat_of_32_with_ties_in_input_order(prog, dt) -> None:
    rep = 3
    v = _scores(dt, 32 * rep, dt)
    idx = np.arange(1000, 1000 + 32 * rep, dtype=np.uint32)
    d = prog.ok(params(0, dt, rep, 0), np.concatenate([v, np.zeros(256, DT[dt])]), np.concatenate(
        [idx, np.zeros(64, np.uint32)]))
    got = output(d, 0, np.uint8)
    want = b"".join(pairs_bytes(sort_pairs(v[r * 32:(r + 1) * 32], idx[r * 32:(r + 1) * 32]), DT[dt])
                    for r in range(rep))
    assert got.tobytes() == want


@pytest.mark.api("Sort32")
def test_sort32_repeat_range(prog) -> None:
    line = prog.violation(params(0, 0, 2, 3), np.zeros(320, np.float32), np.zeros(128, np.uint32))
    assert "Sort32" in line and "outside [0, 255]" in line


@pytest.mark.api("Sort32")
@pytest.mark.parametrize("mode,needle", [(1, "dst starts at UB offset"), (2, "src0 starts at UB offset")])
def test_sort32_page_alignment_is_a_warning(prog, mode, needle) -> None:
    """The page asks 256-byte aligned dst and 32-element aligned src0; real kernels run Sort32 on
    32-byte aligned buffers: a warning, the run goes on."""
    ran, _ = prog.run(params(0, 0, 2, mode), np.zeros(320, np.float32), np.zeros(128, np.uint32))
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert "WARNING: Sort32" in ran.stderr and needle in ran.stderr and "aligned as the page requires" in ran.stderr


def _lists(dt: int, lens: list[int], seed: int) -> tuple[list[list[tuple[float, int]]], bytes]:
    rng = np.random.default_rng(seed)
    lists, raw = [], b""
    base = 0
    for ln in lens:
        v = rng.integers(-8, 8, ln).astype(DT[dt])
        p = sort_pairs(v, np.arange(base, base + ln, dtype=np.uint32))
        base += 100
        lists.append(p)
        raw += pairs_bytes(p, DT[dt])
    return lists, raw


def merge(lists, stop: bool) -> tuple[list[tuple[float, int]], list[int]]:
    taken = [0] * len(lists)
    out = []
    while True:
        pick = -1
        empty = False
        for i, lst in enumerate(lists):
            if taken[i] >= len(lst):
                empty = True
                continue
            if pick < 0 or _key(lst[taken[i]][0]) < _key(lists[pick][taken[pick]][0]):
                pick = i
        if pick < 0 or (stop and empty):
            break
        out.append(lists[pick][taken[pick]])
        taken[pick] += 1
    return out, taken + [0] * (4 - len(lists))


MERGE_CASES = [([5, 7, 0, 0], 3, False), ([6, 2, 9, 0], 7, False), ([4, 4, 4, 4], 15, False),
               ([3, 9, 5, 6], 15, True), ([0, 4, 2, 3], 15, True)]


@pytest.mark.api("排序组合（ISASI）/MrgSort", "GetMrgSortResult")
@pytest.mark.parametrize("dt", [0, 1])
@pytest.mark.parametrize("lens,valid,stop", MERGE_CASES)
def test_basic_mrg_sort_merges_two_to_four_lists(prog, dt, lens, valid, stop) -> None:
    nl = {3: 2, 7: 3, 15: 4}[valid]
    lists, raw = _lists(dt, lens, sum(lens))
    total = sum(lens)
    d = prog.ok(params(1, dt, *lens, valid, int(stop), 1, 0, total), np.frombuffer(raw + bytes(512), np.uint8))
    merged, taken = merge(lists[:nl], stop)
    assert output(d, 0, np.uint8).tobytes()[:len(merged) * 8] == pairs_bytes(merged, DT[dt])
    if stop:
        assert list(output(d, 1, np.uint32)) == taken


@pytest.mark.api("排序组合（ISASI）/MrgSort")
@pytest.mark.parametrize("dt", [0, 1])
def test_basic_mrg_sort_repeats_over_contiguous_groups(prog, dt) -> None:
    lists1, raw1 = _lists(dt, [4, 4, 4, 4], 1)
    lists2, raw2 = _lists(dt, [4, 4, 4, 4], 2)
    d = prog.ok(params(1, dt, 4, 4, 4, 4, 15, 0, 2, 0, 32), np.frombuffer(raw1 + raw2 + bytes(512), np.uint8))
    want = pairs_bytes(merge(lists1, False)[0], DT[dt]) + pairs_bytes(merge(lists2, False)[0], DT[dt])
    assert output(d, 0, np.uint8).tobytes() == want


@pytest.mark.api("排序组合（ISASI）/MrgSort")
@pytest.mark.parametrize("case,needle", [
    ((4, 4, 4, 4, 15, 0, 1, 1, 16), "overlap"),                    # dst is the lists' memory
    ((4, 4, 4, 4, 5, 0, 1, 0, 16), "validBit 5"),
    ((4, 4, 4, 4, 15, 0, 2, 3, 40), "takes effect only"),          # repeat 2, lists not contiguous
    ((4, 4, 4, 4, 15, 1, 2, 0, 32), "takes effect only"),          # repeat 2 with suspension
    ((4, 5000, 0, 0, 3, 0, 1, 0, 16), "outside [0, 4095]"),
])
def test_basic_mrg_sort_constraints(prog, case, needle) -> None:
    line = prog.violation(params(1, 0, *case), np.zeros(48000, np.uint8))
    assert needle in line


@pytest.mark.api("排序操作/MrgSort")
@pytest.mark.parametrize("dt", [0, 1])
@pytest.mark.parametrize("lens,valid,stop", MERGE_CASES)
def test_high_level_mrg_sort_reports_sorted_num_when_suspended(prog, dt, lens, valid, stop) -> None:
    nl = {3: 2, 7: 3, 15: 4}[valid]
    lists, raw = _lists(dt, lens, 7 + sum(lens))
    total = sum(lens)
    d = prog.ok(params(3, dt, *lens, valid, int(stop), 1, 0, total), np.frombuffer(raw + bytes(512), np.uint8))
    merged, taken = merge(lists[:nl], stop)
    assert output(d, 0, np.uint8).tobytes()[:len(merged) * 8] == pairs_bytes(merged, DT[dt])
    # sortedNum is written in the exhausted-suspension mode only
    assert list(output(d, 1, np.uint32)) == (taken if stop else [7, 7, 7, 7])


@pytest.mark.api("排序操作/MrgSort")
def test_high_level_mrg_sort_repeat_range(prog) -> None:
    line = prog.violation(params(3, 0, 4, 4, 4, 4, 15, 0, 0, 0, 16), np.zeros(1024, np.uint8))
    assert "repeatTime 0 is outside [1, 255]" in line


# ---- Concat / Sort / Extract / GetSortLen / GetSortOffset -------------------------------------------

@pytest.mark.api("Concat", "Sort", "Extract", "GetSortLen", "GetSortOffset")
@pytest.mark.parametrize("dt", [0, 1])
@pytest.mark.parametrize("full", [True, False])
def test_concat_sort_extract(prog, dt, full) -> None:
    rep = 5
    n = 32 * rep
    v = _scores(dt, n, 10 + dt)
    idx = np.arange(n, dtype=np.uint32)[::-1].copy()
    d = prog.ok(params(2, dt, rep, 0, 100, int(full)), v, idx)
    groups = [(0, n)] if full else [(r * 32, r * 32 + 32) for r in range(rep)]
    want = [p for a, b in groups for p in sort_pairs(v[a:b], idx[a:b])]
    assert output(d, 0, np.uint8).tobytes() == pairs_bytes(want, DT[dt])
    vals = output(d, 1, DT[dt])
    np.testing.assert_array_equal(vals, np.array([p[0] for p in want], DT[dt]))
    np.testing.assert_array_equal(output(d, 2, np.uint32), np.array([p[1] for p in want], np.uint32))
    # GetSortLen / GetSortOffset: 100 pairs, in elements of T
    assert list(output(d, 3, np.int32)) == [800 // np.dtype(DT[dt]).itemsize] * 2


@pytest.mark.api("Sort", "GetSortTmpSize")
def test_full_sort_needs_the_documented_tmp(prog) -> None:
    line = prog.violation(params(2, 0, 4, 1, 8, 1), np.zeros(128, np.float32), np.zeros(128, np.uint32))
    assert "GetSortTmpSize" in line


def test_sort_repeat_range(prog) -> None:
    line = prog.violation(params(2, 0, 256, 0, 8, 1), np.zeros(128, np.float32), np.zeros(128, np.uint32))
    assert "repeatTime 256 is outside [0, 255]" in line


# ---- TopK -------------------------------------------------------------------------------------------

def topk_ref(src: np.ndarray, sidx: np.ndarray | None, finish, k: int, n: int, largest: bool, small: bool):
    outter, inner = src.shape
    vals, idxs = [], []
    for r in range(outter):
        row = src[r].astype(np.float32)
        key = row if largest else -row
        ix = np.arange(inner) if sidx is None else (sidx[r] if small else sidx)
        order = sorted(range(inner), key=lambda j: _key(key[j]))[:k]
        vals.append(src[r][order])
        idxs.append([n] * k if finish is not None and finish[r] else [int(ix[j]) for j in order])
    return np.array(vals), np.array(idxs, np.int32)


TOPK_CASES = [
    # small, init, finish, outter, inner, n, k, largest
    (False, False, False, 3, 64, 60, 5, True),
    (False, True, True, 4, 96, 96, 10, False),
    (False, True, False, 2, 32, 32, 32, True),
    (False, False, True, 2, 256, 200, 17, False),
    (True, False, False, 4, 32, 17, 8, True),
    (True, True, False, 3, 32, 32, 3, False),
]


@pytest.mark.api("TopK")
@pytest.mark.parametrize("dt", [0, 1])
@pytest.mark.parametrize("form", [0, 1])
@pytest.mark.parametrize("case", TOPK_CASES)
def test_topk(prog, dt, form, case) -> None:
    small, init, fin, outter, inner, n, k, largest = case
    rng = np.random.default_rng(outter * inner + k)
    src = rng.integers(-50, 50, (outter, inner)).astype(DT[dt])
    src[0, 5] = np.nan
    src[-1, 1] = np.inf
    pad = np.finfo(DT[dt]).min if largest else np.finfo(DT[dt]).max
    src[:, n:] = pad
    sidx = (rng.permutation(outter * inner if small else inner).astype(np.int32) + 7) if init else None
    finish = np.array([r % 2 == 1 for r in range(outter)] + [False] * (32 - outter)) if fin else None
    kpad = k if small else -(-k // (32 // np.dtype(DT[dt]).itemsize)) * (32 // np.dtype(DT[dt]).itemsize)
    kpi = k if small else -(-k // 8) * 8
    dv0 = np.full(outter * kpad + 32, 99, DT[dt])
    di0 = np.full(outter * kpi + 8, -5, np.int32)
    d = prog.ok(params(4, dt, outter, inner, n, k, int(small), int(init), int(fin), int(largest), form, 0),
                src.ravel(), sidx if sidx is not None else np.zeros(inner, np.int32),
                finish if finish is not None else np.zeros(32, bool), dv0, di0)
    wv, wi = topk_ref(src, None if sidx is None else (sidx.reshape(outter, inner) if small else sidx), finish, k, n,
                      largest, small)
    gv = output(d, 0, DT[dt]).reshape(outter, kpad)
    gi = output(d, 1, np.int32).reshape(outter, kpi)
    np.testing.assert_array_equal(gv[:, :k], wv)
    np.testing.assert_array_equal(gi[:, :k], wi)
    assert np.all(gi[:, k:] == -5)     # the padding of each row is left alone


@pytest.mark.api("TopK")
@pytest.mark.parametrize("case,needle", [
    (1, "smaller than"), (2, "TopkTiling was computed for inner"), (4, "VECCALC"), (5, "overlap")])
def test_topk_constraints(prog, case, needle) -> None:
    src = np.zeros(128, np.float32)
    line = prog.violation(params(4, 0, 2, 64, 64, 4, 0, 0, 0, 1, 0, case), src, np.zeros(64, np.int32),
                          np.zeros(32, bool), np.zeros(64, np.float32), np.zeros(32, np.int32))
    assert "TopK" in line and needle in line


@pytest.mark.api("TopK")
@pytest.mark.parametrize("shape,needle", [
    ((2, 64, 64, 65, 0), "k 65 is outside [1, n = 64]"),
    ((2, 48, 40, 4, 0), "positive multiple of 32"),
    ((2, 64, 64, 4, 1), "small mode (TOPK_NSMALL) needs topKInfo.inner = 32"),
    ((1, 4128, 4128, 4, 0), "exceeds the normal mode's maximum 4096"),
    ((2, 64, 70, 4, 0), "topKInfo.n 70 is outside"),
])
def test_topk_shape_constraints(prog, shape, needle) -> None:
    outter, inner, n, k, small = shape
    line = prog.violation(params(4, 0, outter, inner, n, k, small, 0, 0, 1, 0, 0),
                          np.zeros(outter * inner, np.float32), np.zeros(outter * inner, np.int32), np.zeros(32, bool),
                          np.zeros(4096, np.float32), np.zeros(4096, np.int32))
    assert needle in line


STATIC = {
    "sort_config": ("LocalTensor<float> a; Sort<float>(a, a, 32u);", "documented for the Ascend 950PR / 950DT only"),
    "sort_config_idx": ("LocalTensor<float> a; LocalTensor<uint32_t> i; LocalTensor<uint8_t> t; "
                        "Sort<float, uint32_t>(a, i, a, i, t, 32u);", "documented for the Ascend 950PR / 950DT only"),
    "topk_small_finish": ("LocalTensor<float> a; LocalTensor<int32_t> i; LocalTensor<bool> f; TopkTiling t; TopKInfo k;"
                          "TopK<float, false, true, false, TopKMode::TOPK_NSMALL>(a, i, a, i, f, 1, t, k);",
                          "supports isHasfinish = false only"),
    "topk_radix": ("static constexpr TopKConfig c = {TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, true};"
                   "LocalTensor<float> a; LocalTensor<int32_t> i; LocalTensor<bool> f; TopkTiling t; TopKInfo k;"
                   "TopK<float, false, false, false, TopKMode::TOPK_NORMAL, c>(a, i, a, i, f, 1, t, k);",
                   "Ascend 950PR / 950DT only"),
    "sort32_int": ("LocalTensor<int32_t> a; LocalTensor<uint32_t> i; Sort32(a, a, i, 1);", "unsupported data type"),
    "sort_len_int": ("GetSortLen<int32_t>(8);", "unsupported data type"),
}


@pytest.mark.api("Sort", "TopK", "Sort32", "GetSortLen")
@pytest.mark.parametrize("case", sorted(STATIC))
def test_sort_compile_time_constraints(tmp_path, case) -> None:
    code, expected = STATIC[case]
    comp = syntax_check('#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { ' + code + ' }\n', tmp_path)
    assert not comp.ok
    assert expected in comp.stderr, comp.stderr[-2000:]


@pytest.mark.api("排序操作/MrgSort")
def test_mrg_sort_src_list_deduces_its_type(tmp_path) -> None:
    """The MrgSort page's example builds the list with class template argument deduction."""
    code = ("LocalTensor<half> s; uint16_t n[4] = {1, 1, 1, 1}; uint32_t k[4];"
            "AscendC::MrgSortSrcList list = AscendC::MrgSortSrcList(s[0], s[4], s[8], s[12]);"
            "AscendC::MrgSort<half, false>(s, list, n, k, 0b1111, 1);")
    comp = syntax_check('#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f() { ' + code + ' }\n', tmp_path)
    assert comp.ok, comp.stderr[-2000:]
