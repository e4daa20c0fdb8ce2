// npukb_sim/lib_tmp_sizes.h -- the simulator's temporary-buffer sizes of the AscendC library APIs
// (what the host Get*TmpSize helpers report and what the kernel-side APIs may check against), in
// one place so that host and kernel agree. Part of the ascendc-sim clean-room simulator.
//
// These are the simulator's own figures, documented in docs/simulator.md: the real library's
// internal formulas are not public. They follow the structure of the computation (fp32 work rows
// plus one 32-byte reduction block per row).
#pragma once
#include <cstdint>

namespace npukb_lib {

constexpr uint32_t kBlockBytes = 32;
constexpr uint32_t kFloatBytes = 4;
constexpr uint32_t kReduceBlockElems = kBlockBytes / kFloatBytes;   // one fp32 block per row

constexpr uint32_t AlignUp(uint32_t value, uint32_t unit) { return (value + unit - 1) / unit * unit; }

// SoftMax / SimpleSoftMax over rows of k elements: per row, k fp32 work elements (plus k more to
// hold the fp32 copy of a 16-bit source) and one fp32 reduction block.
constexpr uint32_t SoftMaxRowWorkElems(uint32_t k, uint32_t data_type_size) {
  return (data_type_size < kFloatBytes ? 2 * k : k) + kReduceBlockElems;
}
constexpr uint32_t SoftMaxMinTmpBytes(uint32_t k, uint32_t data_type_size) {
  return SoftMaxRowWorkElems(k, data_type_size) * kFloatBytes;
}
constexpr uint32_t SoftMaxMaxTmpBytes(uint32_t m, uint32_t k, uint32_t data_type_size) {
  return m * SoftMaxRowWorkElems(k, data_type_size) * kFloatBytes;
}

// SoftmaxFlashV2 over rows of k elements: SoftMax's work per row, plus (isUpdate) two fp32 blocks
// for the incoming max and sum.
constexpr uint32_t SoftMaxFlashV2MinTmpBytes(uint32_t k, uint32_t data_type_size, bool is_update) {
  return (SoftMaxRowWorkElems(k, data_type_size) + (is_update ? 2 * kReduceBlockElems : 0)) * kFloatBytes;
}

// Mean over rows of n elements accumulated in acc_type_size bytes: one accumulation row, plus the
// converted row when the source type differs from the accumulation type.
constexpr uint32_t MeanTmpBytes(uint32_t n, uint32_t src_type_size, uint32_t acc_type_size) {
  return AlignUp(n * acc_type_size, kBlockBytes) * (src_type_size != acc_type_size ? 2 : 1);
}


// ---- elementwise library APIs (math, activation) --------------------------------------------------
// What the host's Get<Api>TmpBufferFactorSize reports: the temporary space is maxLiveNodeCount times the
// bytes of the data computed at once, plus extraBuf bytes. An API computed in fp32 with `work` fp32
// vectors besides the destination needs `work` nodes on a float source; a 16-bit source also needs its
// fp32 copy and the fp32 result before the cast back, each vector twice the 16-bit data's bytes.
// Integer APIs work in their own type (`work` nodes of the element size).
struct TmpFactor {
  uint32_t maxLiveNodeCount;
  uint32_t extraBuf;
};
constexpr TmpFactor Fp32Work(uint32_t work, uint32_t type_size) {
  return type_size >= kFloatBytes ? TmpFactor{work, 0} : TmpFactor{(work + 2) * (kFloatBytes / type_size), 0};
}
constexpr uint32_t kRepeatBytes = 256;  // one vector instruction repeat
// min: one 256-byte repeat per node (or all of the data when it is smaller, rounded to 32 bytes);
// max: every element at once. 0 when the API needs no temporary space.
constexpr uint64_t ElemDataBytes(uint64_t n, uint32_t type_size) {
  return (n * type_size + kBlockBytes - 1) / kBlockBytes * kBlockBytes;
}
constexpr uint32_t ElemMinTmpBytes(TmpFactor f, uint64_t n, uint32_t type_size) {
  return f.maxLiveNodeCount == 0 && f.extraBuf == 0 ? 0u :
         static_cast<uint32_t>(f.maxLiveNodeCount * (ElemDataBytes(n, type_size) < kRepeatBytes ?
                                                     ElemDataBytes(n, type_size) : kRepeatBytes) + f.extraBuf);
}
constexpr uint32_t ElemMaxTmpBytes(TmpFactor f, uint64_t n, uint32_t type_size) {
  return f.maxLiveNodeCount == 0 && f.extraBuf == 0 ? 0u :
         static_cast<uint32_t>(f.maxLiveNodeCount * ElemDataBytes(n, type_size) + f.extraBuf);
}

// fp32 work vectors of each elementwise API (documented in docs/simulator.md). `reuse`: isReuseSource
// on a float source, which the docs let Sin, Cos, Exp, Digamma and Lgamma use as one work vector.
constexpr uint32_t LessOne(uint32_t work, bool reuse, uint32_t type_size) {
  return reuse && type_size >= kFloatBytes && work > 0 ? work - 1 : work;
}
constexpr TmpFactor SinTmpFactor(uint32_t ts, bool reuse) { return Fp32Work(LessOne(2, reuse, ts), ts); }
constexpr TmpFactor CosTmpFactor(uint32_t ts, bool reuse) { return Fp32Work(LessOne(2, reuse, ts), ts); }
constexpr TmpFactor TanTmpFactor(uint32_t ts, bool) { return Fp32Work(3, ts); }
constexpr TmpFactor AsinTmpFactor(uint32_t ts, bool) { return Fp32Work(3, ts); }
constexpr TmpFactor AcosTmpFactor(uint32_t ts, bool) { return Fp32Work(3, ts); }
constexpr TmpFactor AtanTmpFactor(uint32_t ts, bool) { return Fp32Work(3, ts); }
constexpr TmpFactor SinhTmpFactor(uint32_t ts, bool) { return Fp32Work(2, ts); }
constexpr TmpFactor CoshTmpFactor(uint32_t ts, bool) { return Fp32Work(2, ts); }
constexpr TmpFactor TanhTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor AsinhTmpFactor(uint32_t ts, bool) { return Fp32Work(2, ts); }
constexpr TmpFactor AcoshTmpFactor(uint32_t ts, bool) { return Fp32Work(2, ts); }
constexpr TmpFactor AtanhTmpFactor(uint32_t ts, bool) { return Fp32Work(2, ts); }
constexpr TmpFactor ErfTmpFactor(uint32_t ts, bool) { return Fp32Work(3, ts); }
constexpr TmpFactor ErfcTmpFactor(uint32_t ts, bool) { return Fp32Work(3, ts); }
constexpr TmpFactor DigammaTmpFactor(uint32_t ts, bool reuse) { return Fp32Work(LessOne(4, reuse, ts), ts); }
constexpr TmpFactor LgammaTmpFactor(uint32_t ts, bool reuse) { return Fp32Work(LessOne(4, reuse, ts), ts); }
constexpr TmpFactor ExpTmpFactor(uint32_t ts, bool reuse) { return Fp32Work(LessOne(3, reuse, ts), ts); }
constexpr TmpFactor LogTmpFactor(uint32_t ts, bool) { return Fp32Work(0, ts); }
constexpr TmpFactor Log2TmpFactor(uint32_t ts, bool) { return Fp32Work(0, ts); }
constexpr TmpFactor Log10TmpFactor(uint32_t ts, bool) { return Fp32Work(0, ts); }
constexpr TmpFactor RoundTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor FloorTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor CeilTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor TruncTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor FracTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor SignTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor FmodTmpFactor(uint32_t ts, bool) { return Fp32Work(2, ts); }
constexpr TmpFactor AxpyTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor ClampTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor XorTmpFactor(uint32_t, bool) { return TmpFactor{1, 0}; }  // (a | b) & ~(a & b) in the element type
// Power: a tensor exponent and base need ln(base), the product and the sign fix-up; a scalar operand
// one vector less. int32_t works by repeated squaring: the running power, the square and the bit mask.
constexpr TmpFactor PowerTmpFactor(bool base_is_tensor, bool exp_is_tensor, bool type_is_int, uint32_t ts) {
  return type_is_int ? TmpFactor{3, 0} : Fp32Work(base_is_tensor && exp_is_tensor ? 3 : 2, ts);
}
// Activations.
constexpr TmpFactor SigmoidTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor SiluTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor SwishTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor GeluTmpFactor(uint32_t ts, bool) { return Fp32Work(2, ts); }  // Gelu, FasterGelu, FasterGeluV2
constexpr TmpFactor GeGLUTmpFactor(uint32_t ts, bool) { return Fp32Work(2, ts); }
constexpr TmpFactor ReGluTmpFactor(uint32_t ts, bool) { return Fp32Work(1, ts); }
constexpr TmpFactor SwiGLUTmpFactor(uint32_t ts, bool) { return Fp32Work(2, ts); }

// CumSum over an [outter, inner] tensor: along the first axis it adds rows into an fp32 accumulation
// row (plus the converted row for a 16-bit type); along the last axis it transposes blocks of 16 rows,
// two fp32 planes of 16 rows each. min: what one pass needs, max: all rows at once.
constexpr uint32_t CumSumMinTmpBytes(uint32_t inner, uint32_t type_size, bool last_axis) {
  return last_axis ? 2 * 16 * AlignUp(inner * kFloatBytes, kBlockBytes)
                   : (type_size < kFloatBytes ? 2 : 1) * AlignUp(inner * kFloatBytes, kBlockBytes);
}
constexpr uint32_t CumSumMaxTmpBytes(uint32_t outter, uint32_t inner, uint32_t type_size, bool last_axis) {
  return last_axis ? 2 * AlignUp(outter < 16 ? 16 : outter, 16) * AlignUp(inner * kFloatBytes, kBlockBytes)
                   : CumSumMinTmpBytes(inner, type_size, last_axis);
}

// ---- the rest of the SoftMax family (rows of k elements, m rows) -------------------------------------
// SoftmaxFlash: SoftMax's row plus, with update, the incoming max and sum blocks (as SoftmaxFlashV2).
constexpr uint32_t SoftMaxFlashMinTmpBytes(uint32_t k, uint32_t data_type_size, bool is_update) {
  return SoftMaxFlashV2MinTmpBytes(k, data_type_size, is_update);
}
// SoftmaxGrad / SoftmaxGradFront: the fp32 product row (plus the fp32 copies of grad and src for a 16-bit
// type) and one reduction block; the full gradient adds its broadcast row.
constexpr uint32_t SoftMaxGradRowWorkElems(uint32_t k, uint32_t data_type_size, bool is_front) {
  return (data_type_size < kFloatBytes ? 3 * k : k) + (is_front ? 0 : k) + kReduceBlockElems;
}
constexpr uint32_t SoftMaxGradMinTmpBytes(uint32_t k, uint32_t data_type_size, bool is_front) {
  return SoftMaxGradRowWorkElems(k, data_type_size, is_front) * kFloatBytes;
}
// SoftmaxFlashV3 (half source, float statistics): the fp32 source row, the work row, the 8 partial means
// and the reduction block; with update, the incoming mean, max and sum blocks.
constexpr uint32_t SoftMaxFlashV3MinTmpBytes(uint32_t k, bool is_update) {
  return (2 * k + 2 * kReduceBlockElems + (is_update ? 3 * kReduceBlockElems : 0)) * kFloatBytes;
}
// LogSoftMax: SoftMax's row.
constexpr uint32_t LogSoftMaxMinTmpBytes(uint32_t k, uint32_t data_type_size) { return SoftMaxMinTmpBytes(k, data_type_size); }

}  // namespace npukb_lib

// The normalization and quantization families keep their figures in their own headers.
#include "npukb_sim/norm_tmp_sizes.h"
#include "npukb_sim/quant_tmp_sizes.h"
