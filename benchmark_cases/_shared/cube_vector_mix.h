// cube_vector_mix.h -- the cube/vector split shared by the mixed level-3 expert solutions
// (KERNEL_TYPE_MIX_AIC_1_2): the AI cube core of every AI core computes its output tiles into a
// two-slot float (int32) workspace; its two vector cores apply the case's epilogue to half of each
// tile's rows. Cross-core flags (mode 2) order the two sides: READY[slot] cube -> vector when a tile
// landed in the workspace, FREE[slot] vector -> cube when both vector cores read it.
//
// A Problem provides
//   using InT = ...;                                   cube input type (half, bfloat16_t, int8_t)
//   uint32_t TileCount();                              tiles of the whole problem
//   void Tile(uint32_t i, cube_kernels::TileDesc& d);            operands and shape of tile i
//   GlobalTensor<InT> a, b;                            the cube operands (offsets in TileDesc)
//   void InitVector(TPipe* pipe);                      vector side: its UB buffers
//   void Epilogue(const cube_kernels::TileDesc& d, const GlobalTensor<AccT>& acc, uint32_t row0, uint32_t rows);
//                                                      vector side: rows [row0, row0 + rows) of the
//                                                      tile, acc row-major with row stride d.n
#pragma once
#include "kernel_operator.h"
#include "cube_pipeline.h"

namespace cube_kernels {

struct TileDesc {
  uint64_t aOff = 0, bOff = 0;     // element offsets of the tile's operands in Problem::a / b
  uint64_t lda = 0, ldb = 0;       // row strides of the operands as stored
  bool aTrans = false, bTrans = false;
  uint32_t m = 0, n = 0, k = 0;    // tile shape
  uint32_t g = 0, m0 = 0, n0 = 0;  // the tile's place in the problem (group, first row, first column)
};

constexpr uint16_t FLAG_READY0 = 0;   // + slot
constexpr uint16_t FLAG_FREE0 = 2;    // + slot
constexpr uint64_t SLOT_ELEMS = static_cast<uint64_t>(TILE_M) * TILE_N;

// Workspace bytes of the split for `cores` AI cores (two slots each).
constexpr uint64_t MixWorkspaceBytes(uint32_t cores) { return static_cast<uint64_t>(cores) * 2 * SLOT_ELEMS * 4; }

template <class Problem>
__aicore__ inline void RunMix(Problem& p, GM_ADDR workspace) {
  using InT = typename Problem::InT;
  using AccT = typename CubeTypes<InT>::AccT;
  const uint32_t core = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / GetSubBlockNum();
  const uint32_t cores = GetBlockNum();
  GlobalTensor<AccT> ws;
  ws.SetGlobalBuffer((__gm__ AccT*)workspace + static_cast<uint64_t>(core) * 2 * SLOT_ELEMS, 2 * SLOT_ELEMS);
  TPipe pipe;
  uint32_t j = 0;
  if ASCEND_IS_AIC {
    CubeTile<InT> tile;
    tile.Init(&pipe);
    for (uint32_t i = core; i < p.TileCount(); i += cores, ++j) {
      TileDesc d;
      p.Tile(i, d);
      const uint32_t slot = j % 2;
      if (j >= 2) CrossCoreWaitFlag(FLAG_FREE0 + slot);
      if (d.k > 0) tile.Compute(p.a[d.aOff], d.lda, d.aTrans, p.b[d.bOff], d.ldb, d.bTrans, d.m, d.n, d.k);
      else tile.ComputeZero(d.m, d.n);                   // an empty reduction: zeros
      tile.Store(ws[slot * SLOT_ELEMS], d.n);
      CrossCoreSetFlag<2, PIPE_FIX>(FLAG_READY0 + slot);
    }
    tile.End();
  }
  if ASCEND_IS_AIV {
    p.InitVector(&pipe);
    for (uint32_t i = core; i < p.TileCount(); i += cores, ++j) {
      TileDesc d;
      p.Tile(i, d);
      const uint32_t slot = j % 2;
      CrossCoreWaitFlag(FLAG_READY0 + slot);
      const uint32_t half = CeilDiv(d.m, 2);
      const uint32_t row0 = GetSubBlockIdx() * half;
      const uint32_t rows = row0 >= d.m ? 0 : (d.m - row0 < half ? d.m - row0 : half);
      if (rows > 0) p.Epilogue(d, ws[slot * SLOT_ELEMS], row0, rows);
      CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_FREE0 + slot);
    }
  }
}

// ---- vector-side row copies (rows of `n` elements, row stride `ld` in GM, `nPad` in UB) ----------
template <typename T>
__aicore__ inline void LoadRows(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t rows, uint32_t n,
                                uint64_t ld, uint32_t nPad) {
  const uint32_t rowBytes = n * sizeof(T);
  const uint32_t gap = (nPad * sizeof(T) - AlignUp(rowBytes, 32)) / 32;
  DataCopyExtParams cp(static_cast<uint16_t>(rows), rowBytes, static_cast<uint32_t>((ld - n) * sizeof(T)), gap, 0);
  DataCopyPad(dst, src, cp, DataCopyPadExtParams<T>(false, 0, 0, 0));
}

template <typename T>
__aicore__ inline void StoreRows(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t rows, uint32_t n,
                                 uint64_t ld, uint32_t nPad) {
  const uint32_t rowBytes = n * sizeof(T);
  const uint32_t gap = (nPad * sizeof(T) - AlignUp(rowBytes, 32)) / 32;
  DataCopyExtParams cp(static_cast<uint16_t>(rows), rowBytes, gap, static_cast<uint32_t>((ld - n) * sizeof(T)), 0);
  DataCopyPad(dst, src, cp);
}

// Pipe ordering of one vector-side step: loads (MTE2) -> compute (V) -> stores (MTE3) -> next loads.
__aicore__ inline void LoadsDone() {
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
}
__aicore__ inline void ComputeDone() {
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
}
__aicore__ inline void StoresDone() {
  SetFlag<HardEvent::MTE3_MTE2>(0);
  WaitFlag<HardEvent::MTE3_MTE2>(0);
}

// ---- int32 tile -> OutT with a per-column scale and a per-row (per-token) scale --------------------
// out[r, j] = float(acc[r, j]) * scale[j] * pts[r], computed in float32, rounded once.
template <typename OutT, typename ScaleT>
class DequantEpilogue {
 public:
  static constexpr uint32_t ROWS = 16;

  __aicore__ inline void Init(TPipe* pipe) {
    pipe->InitBuffer(acc_, ROWS * TILE_N * sizeof(int32_t));
    pipe->InitBuffer(x_, ROWS * TILE_N * sizeof(float));
    pipe->InitBuffer(out_, ROWS * TILE_N * sizeof(OutT));
    pipe->InitBuffer(scaleIn_, TILE_N * sizeof(ScaleT));
    pipe->InitBuffer(scale_, TILE_N * sizeof(float));
    pipe->InitBuffer(ptsIn_, ROWS * sizeof(ScaleT) + 32);
    pipe->InitBuffer(pts_, ROWS * sizeof(float) + 32);
  }

  // Rows [row0, row0 + rows) of the n-column tile acc (row stride n); scale: the tile's n columns;
  // pts: the tile's first row onwards; out: the tile's origin, row stride ldo.
  __aicore__ inline void Run(uint32_t n, const GlobalTensor<int32_t>& acc, uint32_t row0, uint32_t rows,
                             const GlobalTensor<ScaleT>& scale, const GlobalTensor<ScaleT>& pts,
                             const GlobalTensor<OutT>& out, uint64_t ldo) {
    const uint32_t nPad = AlignUp(n, 16);
    LocalTensor<int32_t> a = acc_.Get<int32_t>();
    LocalTensor<float> x = x_.Get<float>(), sc = scale_.Get<float>(), tok = pts_.Get<float>();
    LocalTensor<OutT> o = out_.Get<OutT>();
    LocalTensor<ScaleT> scIn = scaleIn_.Get<ScaleT>(), tokIn = ptsIn_.Get<ScaleT>();
    LoadRows(scIn, scale, 1, n, n, nPad);
    LoadsDone();
    Cast(sc, scIn, RoundMode::CAST_NONE, nPad);
    for (uint32_t r = 0; r < rows; r += ROWS) {
      const uint32_t cnt = rows - r < ROWS ? rows - r : ROWS;
      LoadRows(a, acc[static_cast<uint64_t>(row0 + r) * n], cnt, n, n, nPad);
      LoadRows(tokIn, pts[row0 + r], 1, cnt, cnt, AlignUp(cnt, 16));
      LoadsDone();
      Cast(x, a, RoundMode::CAST_NONE, cnt * nPad);
      Cast(tok, tokIn, RoundMode::CAST_NONE, AlignUp(cnt, 16));
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      for (uint32_t i = 0; i < cnt; ++i) {
        Mul(x[i * nPad], x[i * nPad], sc, nPad);
        Muls(x[i * nPad], x[i * nPad], tok.GetValue(i), nPad);
      }
      Cast(o, x, RoundMode::CAST_RINT, cnt * nPad);
      ComputeDone();
      StoreRows(out[static_cast<uint64_t>(row0 + r) * ldo], o, cnt, n, ldo, nPad);
      StoresDone();
    }
  }

 private:
  TBuf<TPosition::VECCALC> acc_, x_, out_, scaleIn_, scale_, ptsIn_, pts_;
};

}  // namespace cube_kernels
