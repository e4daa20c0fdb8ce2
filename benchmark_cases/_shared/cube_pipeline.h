// cube_pipeline.h -- the cube pipeline shared by the level-3 expert solutions: one output tile
// C[m x n] = A[m x k] * B[k x n] on an AI cube core, K streamed through L1 in ping-pong chunks
// (GM -> L1 with ND2NZ), each chunk split into L0 sub-chunks (L1 -> L0A/L0B with LoadData,
// transposing where the operand is not already in the fractal order Mmad wants), accumulated in L0C
// (float, or int32 for int8 inputs) and written out by Fixpipe.
//
// Operands in GM, all row-major with explicit row strides:
//   A: [m x k] (aTrans = false) or stored transposed [k x m] (aTrans = true)
//   B: [k x n] (bTrans = false) or stored transposed [n x k] (bTrans = true)
// Input types: half, bfloat16_t, int8_t. Tiles: m <= 128, n <= 256.
#pragma once
#include "kernel_operator.h"

namespace cube_kernels {

using namespace AscendC;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t AlignUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }

constexpr uint32_t TILE_M = 128;        // output tile rows (L0C holds 128 x 256 float = 128 KiB)
constexpr uint32_t TILE_N = 256;        // output tile columns

template <typename InT>
struct CubeTypes {
  using AccT = float;
};
template <>
struct CubeTypes<int8_t> {
  using AccT = int32_t;
};

template <typename InT>
class CubeTile {
 public:
  using AccT = typename CubeTypes<InT>::AccT;
  static constexpr uint32_t C0 = 32 / sizeof(InT);            // K elements of a fractal row
  static constexpr uint32_t FRAC = 512 / sizeof(InT);         // elements of one 512-byte fractal
  static constexpr uint32_t K_L1 = 512 / sizeof(InT);         // K of one L1 chunk
  static constexpr uint32_t K_L0 = 128 / sizeof(InT);         // K of one L0 sub-chunk
  static constexpr uint32_t K_ALIGN = sizeof(InT) == 1 ? 32 : 16;   // L1 row padding along K
  static_assert(sizeof(InT) == 1 || sizeof(InT) == 2, "cube_kernels::CubeTile supports half, bfloat16_t and int8_t");

  __aicore__ inline void Init(TPipe* pipe) {
    pipe->InitBuffer(a1_, 2 * TILE_M * K_L1 * sizeof(InT));
    pipe->InitBuffer(b1_, 2 * K_L1 * TILE_N * sizeof(InT));
    pipe->InitBuffer(a2_, 2 * TILE_M * K_L0 * sizeof(InT));
    pipe->InitBuffer(b2_, 2 * K_L0 * TILE_N * sizeof(InT));
    pipe->InitBuffer(co1_, TILE_M * TILE_N * sizeof(AccT));
    pipe->InitBuffer(biasL1_, TILE_N * sizeof(float));
    pipe->InitBuffer(bt_, TILE_N * sizeof(float));
    SetFlag<HardEvent::MTE1_MTE2>(0);
    SetFlag<HardEvent::MTE1_MTE2>(1);
    SetFlag<HardEvent::M_MTE1>(0);
    SetFlag<HardEvent::M_MTE1>(1);
    SetFlag<HardEvent::FIX_M>(0);
  }

  // Balance the flags raised by Init (call once, after the last Store).
  __aicore__ inline void End() {
    WaitFlag<HardEvent::MTE1_MTE2>(0);
    WaitFlag<HardEvent::MTE1_MTE2>(1);
    WaitFlag<HardEvent::M_MTE1>(0);
    WaitFlag<HardEvent::M_MTE1>(1);
    WaitFlag<HardEvent::FIX_M>(0);
  }

  // The next Compute adds bias[0..n) (GM, half or float) to every row.
  template <typename BiasT>
  __aicore__ inline void SetBias(const GlobalTensor<BiasT>& bias, uint32_t n) {
    LocalTensor<BiasT> l1 = biasL1_.Get<BiasT>();
    DataCopy(l1, bias, Nd2NzParams(1, 1, n, 0, n, 1, 0, 0));   // zero-padded to 32 bytes
    SetFlag<HardEvent::MTE2_MTE1>(2);
    WaitFlag<HardEvent::MTE2_MTE1>(2);
    LocalTensor<float> bt = bt_.Get<float>();
    DataCopy(bt, l1, DataCopyParams(1, static_cast<uint16_t>(CeilDiv(AlignUp(n, 16) * sizeof(BiasT), 64)), 0, 0));
    SetFlag<HardEvent::MTE1_M>(2);
    WaitFlag<HardEvent::MTE1_M>(2);
    hasBias_ = true;
  }

  // C = A * B for one tile (accumulate: add to the tile left in L0C by the previous Compute).
  __aicore__ inline void Compute(const GlobalTensor<InT>& a, uint64_t lda, bool aTrans, const GlobalTensor<InT>& b,
                                 uint64_t ldb, bool bTrans, uint32_t m, uint32_t n, uint32_t k, bool accumulate = false) {
    m_ = m;
    n_ = n;
    nMmad_ = (sizeof(InT) == 1 && !bTrans) ? AlignUp(n, 32) : n;   // int8 B is loaded in 32-column squares
    if (!accumulate) WaitFlag<HardEvent::FIX_M>(0);               // the previous tile left L0C
    LocalTensor<AccT> c = co1_.Get<AccT>();
    bool first = !accumulate;
    for (uint32_t k0 = 0; k0 < k; k0 += K_L1) {
      const uint32_t kc = k - k0 < K_L1 ? k - k0 : K_L1;
      const uint32_t s = l1Slot_;
      l1Slot_ ^= 1;
      LocalTensor<InT> a1 = a1_.Get<InT>()[s * TILE_M * K_L1];
      LocalTensor<InT> b1 = b1_.Get<InT>()[s * K_L1 * TILE_N];
      WaitFlag<HardEvent::MTE1_MTE2>(s);
      if (!aTrans) {
        DataCopy(a1, a[k0], Nd2NzParams(1, m, kc, 0, lda, AlignUp(m, 16), 1, 0));
      } else {
        DataCopy(a1, a[k0 * lda], Nd2NzParams(1, kc, m, 0, lda, AlignUp(kc, K_ALIGN), 1, 0));
      }
      if (!bTrans) {
        DataCopy(b1, b[k0 * ldb], Nd2NzParams(1, kc, n, 0, ldb, AlignUp(kc, K_ALIGN), 1, 0));
      } else {
        DataCopy(b1, b[k0], Nd2NzParams(1, n, kc, 0, ldb, AlignUp(n, 16), 1, 0));
      }
      SetFlag<HardEvent::MTE2_MTE1>(s);
      WaitFlag<HardEvent::MTE2_MTE1>(s);
      for (uint32_t j0 = 0; j0 < kc; j0 += K_L0) {
        const uint32_t ks = kc - j0 < K_L0 ? kc - j0 : K_L0;
        const uint32_t t = l0Slot_;
        l0Slot_ ^= 1;
        LocalTensor<InT> a2 = a2_.Get<InT>()[t * TILE_M * K_L0];
        LocalTensor<InT> b2 = b2_.Get<InT>()[t * K_L0 * TILE_N];
        WaitFlag<HardEvent::M_MTE1>(t);
        LoadA(a2, a1, aTrans, kc, j0 / C0, CeilDiv(ks, C0));
        LoadB(b2, b1, bTrans, kc, j0 / C0, CeilDiv(ks, C0));
        SetFlag<HardEvent::MTE1_M>(t);
        WaitFlag<HardEvent::MTE1_M>(t);
        MmadParams mp;
        // m = 1 would switch Mmad to GEMV (A read from L0A as a plain K vector); A sits in L0A as zZ
        // fractals here, so a single row is computed as two (the second row is never stored).
        mp.m = static_cast<uint16_t>(m == 1 ? 2 : m);
        mp.n = static_cast<uint16_t>(nMmad_);
        mp.k = static_cast<uint16_t>(ks);
        mp.cmatrixInitVal = first;
        if (first && hasBias_) {
          Mmad(c, a2, b2, bt_.Get<AccT>(), mp);
          hasBias_ = false;
        } else {
          Mmad(c, a2, b2, mp);
        }
        first = false;
        SetFlag<HardEvent::M_MTE1>(t);
      }
      SetFlag<HardEvent::MTE1_MTE2>(s);
    }
  }

  // A tile of zeros (for an empty K range): Mmad of zero-filled L0A and L0B fractals.
  __aicore__ inline void ComputeZero(uint32_t m, uint32_t n) {
    m_ = m;
    n_ = n;
    nMmad_ = n;
    WaitFlag<HardEvent::FIX_M>(0);
    const uint32_t t = l0Slot_;
    l0Slot_ ^= 1;
    LocalTensor<InT> a2 = a2_.Get<InT>()[t * TILE_M * K_L0];
    LocalTensor<InT> b2 = b2_.Get<InT>()[t * K_L0 * TILE_N];
    WaitFlag<HardEvent::M_MTE1>(t);
    InitConstValue(a2, InitConstValueParams<InT>(1, static_cast<uint16_t>(CeilDiv(m, 16)), 0, static_cast<InT>(0)));
    InitConstValue(b2, InitConstValueParams<InT>(1, static_cast<uint16_t>(CeilDiv(n, 16)), 0, static_cast<InT>(0)));
    SetFlag<HardEvent::MTE1_M>(t);
    WaitFlag<HardEvent::MTE1_M>(t);
    MmadParams mp;
    mp.m = static_cast<uint16_t>(m);
    mp.n = static_cast<uint16_t>(n);
    mp.k = static_cast<uint16_t>(C0);
    Mmad(co1_.Get<AccT>(), a2, b2, mp);
    SetFlag<HardEvent::M_MTE1>(t);
  }

  // Write the tile to GM (row stride ldc) converting the accumulator: float -> half/bfloat16/float,
  // int32 -> int32, or int32 -> half scaled by deqScale (DEQF16). relu clamps negatives first.
  template <typename OutT>
  __aicore__ inline void Store(const GlobalTensor<OutT>& dst, uint64_t ldc, bool relu = false, float deqScale = 1.0f) {
    SetFlag<HardEvent::M_FIX>(0);
    WaitFlag<HardEvent::M_FIX>(0);
    FixpipeParamsV220 fp(static_cast<uint16_t>(n_), static_cast<uint16_t>(m_), static_cast<uint16_t>(AlignUp(m_, 16)),
                         static_cast<uint32_t>(ldc), relu);
    fp.quantPre = QuantFor<OutT>();
    if (fp.quantPre == QuantMode_t::DEQF16) {
      uint32_t bits;
      __builtin_memcpy(&bits, &deqScale, 4);
      fp.deqScalar = bits;
    }
    Fixpipe<OutT, AccT, CFG_ROW_MAJOR>(dst, co1_.Get<AccT>(), fp);
    SetFlag<HardEvent::FIX_M>(0);
  }

 private:
  template <typename OutT>
  static __aicore__ inline QuantMode_t QuantFor() {
    if constexpr (IsSameType<AccT, OutT>::value) return QuantMode_t::NoQuant;
    else if constexpr (IsSameType<OutT, half>::value && IsSameType<AccT, float>::value) return QuantMode_t::F322F16;
    else if constexpr (IsSameType<OutT, bfloat16_t>::value) return QuantMode_t::F322BF16;
    else return QuantMode_t::DEQF16;
  }

  // L1 (NZ) -> L0A (zZ): K fractals [kb0, kb0 + k1) of the chunk for every 16-row block of A.
  __aicore__ inline void LoadA(const LocalTensor<InT>& a2, const LocalTensor<InT>& a1, bool aTrans, uint32_t kc,
                               uint32_t kb0, uint32_t k1) {
    const uint32_t m1 = CeilDiv(m_, 16);
    if (!aTrans) {            // fractal (mb, kb) of the NZ chunk is kb * m1 + mb
      for (uint32_t mb = 0; mb < m1; ++mb) {
        LoadData(a2[mb * k1 * FRAC], a1, LoadData2DParams(kb0 * m1 + mb, k1, m1, 0, 0, false, 0));
      }
      return;
    }
    const uint32_t kRows = AlignUp(kc, K_ALIGN) / 16;   // 16-row fractals per column block of A^T
    if constexpr (sizeof(InT) == 2) {                   // transpose each 16 x 16 fractal of A^T
      for (uint32_t mb = 0; mb < m1; ++mb) {
        LoadData(a2[mb * k1 * FRAC], a1, LoadData2DParams(mb * kRows + kb0, k1, 1, 0, 0, true, 0));
      }
    } else {                                            // int8: 32 x 32 squares give rows 2j and 2j + 1
      for (uint32_t j = 0; j < CeilDiv(m_, 32); ++j) {
        LoadDataWithTranspose(a2[2 * j * k1 * FRAC], a1,
                              LoadData2dTransposeParams(j * kRows / 2 + kb0, k1, 1, 0, k1 - 1));
      }
    }
  }

  // L1 -> L0B (nZ): K fractals [kb0, kb0 + k1) of the chunk, each a row of n1 fractals.
  __aicore__ inline void LoadB(const LocalTensor<InT>& b2, const LocalTensor<InT>& b1, bool bTrans, uint32_t kc,
                               uint32_t kb0, uint32_t k1) {
    const uint32_t n1 = CeilDiv(nMmad_, 16);
    if (bTrans) {             // the NZ chunk of B^T already is nZ: fractal (kb, nb) is kb * n1 + nb
      LoadData(b2, b1, LoadData2DParams(kb0 * n1, k1 * n1, 1, 0, 0, false, 0));
      return;
    }
    const uint32_t kRows = AlignUp(kc, K_ALIGN) / 16;
    for (uint32_t kb = 0; kb < k1; ++kb) {
      if constexpr (sizeof(InT) == 2) {   // fractal (nb, kb) of the NZ chunk is nb * kRows + kb: transpose it
        LoadData(b2[kb * n1 * FRAC], b1, LoadData2DParams(kb0 + kb, n1, kRows, 0, 0, true, 0));
      } else {                            // int8: 32 x 32 squares, two L0B fractals each
        LoadDataWithTranspose(b2[kb * n1 * FRAC], b1,
                              LoadData2dTransposeParams(kb0 + kb, n1 / 2, kRows / 2, 1, 0));
      }
    }
  }

  TBuf<TPosition::A1> a1_;
  TBuf<TPosition::B1> b1_;
  TBuf<TPosition::A2> a2_;
  TBuf<TPosition::B2> b2_;
  TBuf<TPosition::CO1> co1_;
  TBuf<TPosition::C1> biasL1_;
  TBuf<TPosition::C2> bt_;
  uint32_t m_ = 0, n_ = 0, nMmad_ = 0;
  uint32_t l1Slot_ = 0, l0Slot_ = 0;
  bool hasBias_ = false;
};

}  // namespace cube_kernels
