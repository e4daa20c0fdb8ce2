// npukb_sim/lib_math_configs.h -- the algorithm-configuration structs of the high-level math APIs
// (AtanConfig, CosConfig, SinConfig, TanhConfig, ErfConfig, FmodConfig, PowerConfig, CumSumConfig and
// CumSumInfo) with their documented defaults. The kernel APIs take them as template parameters and some
// host helpers (GetCosMaxMinTmpSize, GetSinMaxMinTmpSize, ...) as arguments, so host and kernel share this
// header. On Atlas A2 / A3 the algorithm choices are reserved (Ascend 950 only): the simulator accepts
// and ignores them. Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

namespace AscendC {

enum class AtanAlgo {
  TAYLOR_EXPANSION = 0,
  POLYNOMIAL_APPROXIMATION,
};
struct AtanConfig {
  AtanAlgo algo = AtanAlgo::TAYLOR_EXPANSION;
};
constexpr AtanConfig defaultAtanConfig = {AtanAlgo::TAYLOR_EXPANSION};

enum class CosAlgo {
  POLYNOMIAL_APPROXIMATION = 0,
  RADIAN_REDUCTION,
};
struct CosConfig {
  CosAlgo algo = CosAlgo::POLYNOMIAL_APPROXIMATION;
};
constexpr CosConfig defaultCosConfig = {CosAlgo::POLYNOMIAL_APPROXIMATION};

enum class SinAlgo {
  POLYNOMIAL_APPROXIMATION = 0,
  RADIAN_REDUCTION,
};
struct SinConfig {
  SinAlgo algo = SinAlgo::POLYNOMIAL_APPROXIMATION;
};
constexpr SinConfig defaultSinConfig = {SinAlgo::POLYNOMIAL_APPROXIMATION};

enum class TanhAlgo {
  INTRINSIC = 0,
  SUBSECTION_COMPENSATION,
};
struct TanhConfig {
  TanhAlgo algo = TanhAlgo::INTRINSIC;
};
constexpr TanhConfig DEFAULT_TANH_CONFIG = {TanhAlgo::INTRINSIC};

enum class ErfAlgo {
  PADE_APPROXIMATION = 0,
  SUBSECTION_POLYNOMIAL_APPROXIMATION,
};
struct ErfConfig {
  ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};
constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};

constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo {
  NORMAL = 0,
  ITERATION_COMPENSATION = 1,
};
struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {FmodAlgo::NORMAL, FMOD_ITERATION_NUM_MAX};

enum class PowerAlgo {
  INTRINSIC = 0,
  DOUBLE_FLOAT_TECH,
};
struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig defaultPowerConfig = {PowerAlgo::INTRINSIC};

enum class CumSumAlgorithm {
  CUMSUM_ALGORITHM_LINEBYLINE = 0,
  CUMSUM_ALGORITHM_SKLANSKY = 1
};
struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, false, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};
};

}  // namespace AscendC
