// attention_pipeline.h -- the attention pipeline shared by the level-3 attention expert solutions
// (KERNEL_TYPE_MIX_AIC_1_2). A unit is up to 128 query rows against one key/value sequence:
//
//   cube    S = Q K^T          (float, workspace)       -> flag S_READY
//   vector  m = max(scale S), P = exp(scale S - m), l = sum P   (P in the input type, workspace)
//                                                        -> flag P_READY
//   cube    O = P V            (float, workspace)       -> flag O_READY
//   vector  out = O / l, plus the row statistics m and l  -> flag FREE
//
// Every AI core runs its units in order with two workspace slots, so the cube core computes the
// scores of unit j + 1 while its vector cores work on unit j. The two vector cores split each unit's
// rows in halves.
//
// A Problem provides
//   using InT = ..., OutT = ...;                 input (half / bfloat16_t) and output element types
//   uint32_t UnitCount(); void Unit(uint32_t i, cube_kernels::AttnUnit& u);
//   uint32_t MaxKv(); uint32_t Dv(); float Scale();   workspace sizing and the score scale
//   cube:   void Scores(CubeTile<InT>& t, const AttnUnit& u, const GlobalTensor<float>& s, uint32_t lds);
//           void Values(CubeTile<InT>& t, const AttnUnit& u, const GlobalTensor<InT>& p, uint32_t ldp,
//                       const GlobalTensor<float>& o, uint32_t ldo);
//   vector: void StoreOut(const AttnUnit& u, uint32_t row, uint32_t rows, const LocalTensor<OutT>& out,
//                         uint32_t ldUb);                           rows of dv elements, UB row stride ldUb
//           void StoreStats(const AttnUnit& u, uint32_t row0, uint32_t rows, const LocalTensor<float>& max8,
//                           const LocalTensor<float>& sum8);        every row's m and l repeated 8 times
#pragma once
#include "kernel_operator.h"
#include "cube_pipeline.h"
#include "cube_vector_mix.h"

namespace cube_kernels {

struct AttnUnit {
  uint32_t m = 0;      // query rows (<= TILE_M)
  uint32_t kv = 0;     // key/value length
  uint32_t a = 0, b = 0, c = 0;   // the problem's own coordinates of the unit
};

constexpr uint16_t ATT_S_READY0 = 0;   // + slot, cube -> vector
constexpr uint16_t ATT_P_READY0 = 2;   // + slot, vector -> cube
constexpr uint16_t ATT_O_READY0 = 4;   // + slot, cube -> vector
constexpr uint16_t ATT_FREE0 = 6;      // + slot, vector -> cube

__aicore__ inline uint64_t AttnAlign(uint64_t bytes) { return (bytes + 511) / 512 * 512; }

// Workspace layout of one slot: S (TILE_M x maxKv float), P (TILE_M x AlignUp(maxKv, 16) InT),
// O (TILE_M x dv float).
struct AttnSlot {
  uint64_t sBytes, pBytes, oBytes;
  __aicore__ inline AttnSlot(uint32_t maxKv, uint32_t dv, uint32_t inBytes)
      : sBytes(AttnAlign(static_cast<uint64_t>(TILE_M) * maxKv * 4)),
        pBytes(AttnAlign(static_cast<uint64_t>(TILE_M) * AlignUp(maxKv, 16) * inBytes)),
        oBytes(AttnAlign(static_cast<uint64_t>(TILE_M) * dv * 4)) {}
  __aicore__ inline uint64_t Bytes() const { return sBytes + pBytes + oBytes; }
};

template <class Problem>
class AttentionMix {
 public:
  using InT = typename Problem::InT;
  using OutT = typename Problem::OutT;
  static constexpr uint32_t OUT_ROWS = 8;   // output rows per vector step

  __aicore__ inline void Run(Problem& p, GM_ADDR workspace) {
    const uint32_t core = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / GetSubBlockNum();
    const uint32_t cores = GetBlockNum();
    maxKv_ = p.MaxKv();
    dv_ = p.Dv();
    ldp_ = AlignUp(maxKv_, 16);
    const AttnSlot slot(maxKv_, dv_, sizeof(InT));
    GM_ADDR base = workspace + static_cast<uint64_t>(core) * 2 * slot.Bytes();
    for (uint32_t s = 0; s < 2; ++s) {
      GM_ADDR at = base + s * slot.Bytes();
      s_[s].SetGlobalBuffer((__gm__ float*)at, static_cast<uint64_t>(TILE_M) * maxKv_);
      p_[s].SetGlobalBuffer((__gm__ InT*)(at + slot.sBytes), static_cast<uint64_t>(TILE_M) * ldp_);
      o_[s].SetGlobalBuffer((__gm__ float*)(at + slot.sBytes + slot.pBytes), static_cast<uint64_t>(TILE_M) * dv_);
    }
    if ASCEND_IS_AIC {
      Cube(p, core, cores);
    }
    if ASCEND_IS_AIV {
      Vector(p, core, cores);
    }
  }

 private:
  __aicore__ inline void Cube(Problem& p, uint32_t core, uint32_t cores) {
    CubeTile<InT> tile;
    tile.Init(&pipe_);
    AttnUnit prev;
    uint32_t j = 0;
    for (uint32_t i = core; i < p.UnitCount(); i += cores, ++j) {
      AttnUnit u;
      p.Unit(i, u);
      const uint32_t slot = j % 2;
      if (j >= 2) CrossCoreWaitFlag(ATT_FREE0 + slot);
      p.Scores(tile, u, s_[slot], maxKv_);
      CrossCoreSetFlag<2, PIPE_FIX>(ATT_S_READY0 + slot);
      if (j >= 1) ValuesOf(p, tile, prev, 1 - slot);
      prev = u;
    }
    if (j >= 1) ValuesOf(p, tile, prev, (j - 1) % 2);
    tile.End();
  }

  __aicore__ inline void ValuesOf(Problem& p, CubeTile<InT>& tile, const AttnUnit& u, uint32_t slot) {
    CrossCoreWaitFlag(ATT_P_READY0 + slot);
    p.Values(tile, u, p_[slot], ldp_, o_[slot], dv_);
    CrossCoreSetFlag<2, PIPE_FIX>(ATT_O_READY0 + slot);
  }

  __aicore__ inline void Vector(Problem& p, uint32_t core, uint32_t cores) {
    const uint32_t kvPad = AlignUp(maxKv_, 16);
    dvPad_ = AlignUp(dv_, 16);
    pipe_.InitBuffer(x_, kvPad * sizeof(float));
    pipe_.InitBuffer(pr_, kvPad * sizeof(InT));
    pipe_.InitBuffer(work_, AlignUp(CeilDiv(kvPad * sizeof(float), 256) * 8, 32) + 32);
    pipe_.InitBuffer(red_, 32);
    pipe_.InitBuffer(max8_, TILE_M / 2 * 8 * sizeof(float));
    pipe_.InitBuffer(sum8_, TILE_M / 2 * 8 * sizeof(float));
    pipe_.InitBuffer(o_ub_, OUT_ROWS * dvPad_ * sizeof(float));
    pipe_.InitBuffer(out_ub_, OUT_ROWS * dvPad_ * sizeof(OutT));
    const float scale = p.Scale();
    uint32_t j = 0;
    for (uint32_t i = core; i < p.UnitCount(); i += cores, ++j) {
      AttnUnit u;
      p.Unit(i, u);
      const uint32_t slot = j % 2;
      const uint32_t half = CeilDiv(u.m, 2);
      const uint32_t row0 = GetSubBlockIdx() * half;
      const uint32_t rows = row0 >= u.m ? 0 : (u.m - row0 < half ? u.m - row0 : half);
      CrossCoreWaitFlag(ATT_S_READY0 + slot);
      for (uint32_t r = 0; r < rows; ++r) Softmax(u.kv, scale, s_[slot][static_cast<uint64_t>(row0 + r) * maxKv_],
                                                  p_[slot][static_cast<uint64_t>(row0 + r) * ldp_], r);
      CrossCoreSetFlag<2, PIPE_MTE3>(ATT_P_READY0 + slot);
      if (rows > 0) p.StoreStats(u, row0, rows, max8_.Get<float>(), sum8_.Get<float>());
      StoresDone();
      CrossCoreWaitFlag(ATT_O_READY0 + slot);
      for (uint32_t r = 0; r < rows; r += OUT_ROWS) {
        const uint32_t cnt = rows - r < OUT_ROWS ? rows - r : OUT_ROWS;
        Normalise(p, u, o_[slot][static_cast<uint64_t>(row0 + r) * dv_], row0 + r, r, cnt);
      }
      CrossCoreSetFlag<2, PIPE_MTE3>(ATT_FREE0 + slot);
    }
  }

  // One row of scores: P = exp(scale * s - m) in InT, m and l into the row statistics.
  __aicore__ inline void Softmax(uint32_t kv, float scale, const GlobalTensor<float>& s, const GlobalTensor<InT>& prow,
                                 uint32_t r) {
    const uint32_t kvPad = AlignUp(kv, 16);
    LocalTensor<float> x = x_.Get<float>(), work = work_.Get<float>(), red = red_.Get<float>();
    LocalTensor<InT> pr = pr_.Get<InT>();
    LoadRows(x, s, 1, kv, kv, kvPad);
    LoadsDone();
    Muls(x, x, scale, static_cast<int32_t>(kv));
    ReduceMax(red, x, work, static_cast<int32_t>(kv));
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float m = red.GetValue(0);
    Adds(x, x, -m, static_cast<int32_t>(kv));
    Exp(x, x, static_cast<int32_t>(kv));
    Cast(pr, x, RoundMode::CAST_RINT, static_cast<int32_t>(kv));
    ReduceSum(red, x, work, static_cast<int32_t>(kv));
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    const float l = red.GetValue(0);
    Duplicate(max8_.Get<float>()[r * 8], m, 8);
    Duplicate(sum8_.Get<float>()[r * 8], l, 8);
    ComputeDone();
    StoreRows(prow, pr, 1, kv, kv, kvPad);
    StoresDone();
    SetFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(0);
  }

  // Output rows [r, r + cnt) of the vector core's part (local row lr): O / l in OutT.
  __aicore__ inline void Normalise(Problem& p, const AttnUnit& u, const GlobalTensor<float>& o, uint32_t row,
                                   uint32_t lr, uint32_t cnt) {
    LocalTensor<float> x = o_ub_.Get<float>(), sum8 = sum8_.Get<float>();
    LocalTensor<OutT> out = out_ub_.Get<OutT>();
    LoadRows(x, o, cnt, dv_, dv_, dvPad_);
    LoadsDone();
    SetFlag<HardEvent::V_S>(0);   // the row sums were written by Duplicate
    WaitFlag<HardEvent::V_S>(0);
    for (uint32_t i = 0; i < cnt; ++i) {
      Muls(x[i * dvPad_], x[i * dvPad_], 1.0f / sum8.GetValue((lr + i) * 8), static_cast<int32_t>(dv_));
    }
    Cast(out, x, RoundMode::CAST_RINT, static_cast<int32_t>(cnt * dvPad_));
    ComputeDone();
    p.StoreOut(u, row, cnt, out, dvPad_);
    StoresDone();
    SetFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(0);
  }

  TPipe pipe_;
  GlobalTensor<float> s_[2], o_[2];
  GlobalTensor<InT> p_[2];
  uint32_t maxKv_ = 0, dv_ = 0, ldp_ = 0, dvPad_ = 0;
  TBuf<TPosition::VECCALC> x_, pr_, work_, red_, max8_, sum8_, o_ub_, out_ub_;
};

// Host-side mirror of the workspace size (bytes) for `cores` AI cores.
__aicore__ inline uint64_t AttnWorkspaceBytes(uint32_t cores, uint32_t maxKv, uint32_t dv, uint32_t inBytes) {
  return static_cast<uint64_t>(cores) * 2 * AttnSlot(maxKv, dv, inBytes).Bytes();
}

}  // namespace cube_kernels
