// npukb_sim/kernel/vec_traits.h -- the type helpers the vector API prototypes name: AscendC::Std's
// enable_if / is_same (the `typename Std::enable_if<Std::is_same<PrimT<T>, U>::value, bool>::type = true`
// template parameter of the scalar-operand overloads; std_type_traits.h declares them with the rest of
// AscendC's type traits), PrimT<T> (the element type of an operand type;
// a plain element type is its own), and the precision-configuration structs that the Exp, Ln,
// Reciprocal, Sqrt, Rsqrt and Div prototypes take as a template parameter. On Atlas A2/A3 the
// configuration has no effect (the documented algorithms other than INTRINSIC are Ascend 950 only):
// every value computes like the default. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/std_type_traits.h"

namespace AscendC {
namespace sim {
template <typename T, typename = void>
struct prim_of { using type = T; };
// an operand type that names its element type (LocalTensor<T>::PrimType, GlobalTensor<T>::PrimType)
template <typename T>
struct prim_of<T, std::void_t<typename T::PrimType>> { using type = typename T::PrimType; };
}  // namespace sim

template <typename T>
using PrimT = typename sim::prim_of<T>::type;

// ---- precision configurations (template parameters of the unary / Div prototypes) ----------------
enum class ExpAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
struct ExpConfig {
  ExpAlgo algo = ExpAlgo::INTRINSIC;
};
constexpr ExpConfig DEFAULT_EXP_CONFIG = {ExpAlgo::INTRINSIC};

enum class LnAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
struct LnConfig {
  LnAlgo algo = LnAlgo::INTRINSIC;
};
constexpr LnConfig DEFAULT_LN_CONFIG = {LnAlgo::INTRINSIC};

enum class ReciprocalAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
struct ReciprocalConfig {
  ReciprocalAlgo algo = ReciprocalAlgo::INTRINSIC;
};
constexpr ReciprocalConfig DEFAULT_RECIPROCAL_CONFIG = {ReciprocalAlgo::INTRINSIC};

enum class SqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
struct SqrtConfig {
  SqrtAlgo algo = SqrtAlgo::INTRINSIC;
};
constexpr SqrtConfig DEFAULT_SQRT_CONFIG = {SqrtAlgo::INTRINSIC};

enum class RsqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
struct RsqrtConfig {
  RsqrtAlgo algo = RsqrtAlgo::INTRINSIC;
};
constexpr RsqrtConfig DEFAULT_RSQRT_CONFIG = {RsqrtAlgo::INTRINSIC};

enum class DivAlgo {
  INTRINSIC = 0,
  DIFF_COMPENSATION,
  PRECISION_1ULP_FTZ_TRUE,
  PRECISION_0ULP_FTZ_TRUE,
  PRECISION_0ULP_FTZ_FALSE,
  PRECISION_1ULP_FTZ_FALSE
};
struct DivConfig {
  DivAlgo algo = DivAlgo::INTRINSIC;
};
constexpr DivConfig DEFAULT_DIV_CONFIG = {DivAlgo::INTRINSIC};

// ---- ReduceType: the reduceType template parameter of ReduceDataBlock / ReduceRepeat / ReducePairElem ----
enum class ReduceType : std::uint8_t { SUM = 0, MAX, MIN };

}  // namespace AscendC
