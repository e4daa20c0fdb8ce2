// npukb_sim/kernel/cube_sparse.h -- LoadDataWithSparse: L1 (B1) -> L0B of the densified 4:2 sparse right
// matrix (int8, 512-byte fractals) together with its 2-bit index fractals (128 bytes) into the cube's
// index buffer (a quarter of L0B), where MmadWithSparse (cube_mmad.h) reads them: the index fractal of
// the L0B fractal at byte 512 f is index fractal f. Only startIndex and repeatTimes are used: the
// fractals are consecutive on both sides. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npukb_sim/kernel/cube_copy.h"
#include "npukb_sim/kernel/cube_operand.h"
#include "npukb_sim/kernel/cube_types.h"
#include "npukb_sim/kernel/prim_type.h"

namespace AscendC {

template <typename T = std::int8_t, typename U = std::uint8_t,
          typename std::enable_if<std::is_same<PrimT<T>, std::int8_t>::value, bool>::type = true,
          typename std::enable_if<std::is_same<PrimT<U>, std::uint8_t>::value, bool>::type = true>
inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<U>& idx,
                               const LoadData2dParams& loadDataParam) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    LoadDataWithSparse<PrimT<T>, PrimT<U>>(sim::lite(dst), sim::lite(src), sim::lite(idx), loadDataParam);
  } else {
    sim::require_cube_core("LoadDataWithSparse", file, line);
    const LoadData2dParams& p = loadDataParam;
    if (p.repeatTimes == 0) return;
    if (p.ifTranspose) npukb::violation("LoadDataWithSparse", "ifTranspose is not supported (must be false)", file, line);
    const std::uint64_t n = p.repeatTimes;
    sim::check_cube_operand("LoadDataWithSparse", "dst", dst, n * 512, {Hardware::L0B}, file, line);
    sim::check_cube_operand("LoadDataWithSparse", "src", src, (p.startIndex + n) * 512, {Hardware::L1}, file, line);
    sim::check_cube_operand("LoadDataWithSparse", "idx", idx, (p.startIndex + n) * 128, {Hardware::L1}, file, line);
    const std::uint64_t first = dst.loc().addr / 512;
    if (first + n > 128) {
      npukb::violation("LoadDataWithSparse", "the index buffer (16 KiB, one 128-byte index fractal per L0B fractal) "
                       "overflows", file, line);
    }
    npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
    npukb::lazy_buffer(&regs.sparse_index, npukb::kL0bBytes / 4);
    std::memcpy(dst.ptr(), reinterpret_cast<const std::uint8_t*>(src.ptr()) + p.startIndex * 512ull, n * 512);
    std::memcpy(regs.sparse_index + first * 128, reinterpret_cast<const std::uint8_t*>(idx.ptr()) + p.startIndex * 128ull,
                n * 128);
    for (std::uint64_t f = first; f < first + n; ++f) regs.sparse_loaded[f / 64] |= 1ull << (f % 64);
    sim::cost_mte1(sim::cube_span(src, p.startIndex * 512ull, (p.startIndex + n) * 512), sim::cube_span(dst, 0, n * 512),
                   n * 640);
  }
}

}  // namespace AscendC
