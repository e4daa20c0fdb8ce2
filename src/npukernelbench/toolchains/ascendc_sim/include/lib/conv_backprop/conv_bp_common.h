// lib/conv_backprop/conv_bp_common.h -- the kernel-side types the convolution backprop high-level APIs
// share (ConvBackpropApi::ConvType, Conv3dConfig / CONV3D_CFG_DEFAULT, ConvBpContext): the object's type
// parameters are ConvType<position, format, type> and its config derives from ConvBpContext) and the
// simulator's kernel-side helpers both objects use (npukb::convbp: Init's tiling copy and checks, the
// Init-first check, the tiling's shape / stride / dilation check, the ctx of Conv3DBackpropFilter).
// Clean-room part of ascendc-sim, written from the public API documentation.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "lib/conv/conv_common_types.h"

namespace ConvBackpropApi {

using ConvCommonApi::ConvFormat;
using ConvCommonApi::TPosition;

template <TPosition POSITION, ConvFormat FORMAT, typename T>
struct ConvType {
  constexpr static TPosition pos = POSITION;     // the logical position of the input or output
  constexpr static ConvFormat format = FORMAT;   // its data format
  using Type = T;                                // its data type
};

// The compile-time configuration of a backprop object (no documented fields; the default is the only one).
struct Conv3dConfig {};
inline constexpr Conv3dConfig CONV3D_CFG_DEFAULT{};

// The four ConvType parameters of a backprop object, in the order its declaration names them.
template <class A, class B, class C, class D>
struct ConvBpContext {
  using AType = A;
  using BType = B;
  using CType = C;
  using DType = D;
};

}  // namespace ConvBackpropApi

namespace npukb {
namespace convbp {
inline std::string num(std::uint64_t v) { return std::to_string(v); }

// The iteration state Conv3DBackpropFilter's pages expose as the object's ctx (ctx.isFirstIter_).
struct BpFilterContext {
  bool isFirstIter_ = true;
};

// Init's common part: called once, with a tiling pointer; copies the tiling into `dst`. `cls` names the
// object ("Conv3DBackpropInput") in the messages.
template <class T>
inline void init_tiling(bool already, const T* tiling, T& dst, const char* cls, const char* file, int line) {
  const std::string api = std::string(cls) + "::Init";
  if (already) npukb::violation(api.c_str(), "Init is called only once", file, line);
  if (tiling == nullptr) npukb::violation(api.c_str(), "the tiling pointer is null", file, line);
  std::memcpy(&dst, tiling, sizeof(dst));
}

// The violation every API but Init raises before Init.
inline void need_init(bool init, const char* cls, const char* api, const char* file, int line) {
  if (!init) npukb::violation((std::string(cls) + "::" + api).c_str(), "Init must be called first", file, line);
}

// The tiling's original shapes, strides and dilations are all non-zero (the fields both tilings have).
template <class T>
inline bool geometry_nonzero(const T& t) {
  const bool dims = t.batch > 0 && t.cin > 0 && t.cout > 0 && t.dout > 0 && t.ho > 0 && t.wo > 0 && t.di > 0 &&
                    t.hi > 0 && t.wi > 0 && t.dk > 0 && t.hk > 0 && t.wk > 0;
  const bool steps = t.strideD > 0 && t.strideH > 0 && t.strideW > 0 && t.dilationD > 0 && t.dilationH > 0 &&
                     t.dilationW > 0;
  return dims && steps;
}
}  // namespace convbp
}  // namespace npukb
