// lib/conv_backprop/conv_bp_common.h -- the kernel-side types the convolution backprop high-level APIs
// share (ConvBackpropApi::ConvType, Conv3dConfig / CONV3D_CFG_DEFAULT, ConvBpContext): the object's type
// parameters are ConvType<position, format, type> and its config derives from ConvBpContext. Clean-room
// part of ascendc-sim, written from the public API documentation.
#pragma once
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
