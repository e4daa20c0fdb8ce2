// lib/conv_backprop/conv_bp_common.h -- the kernel-side types the convolution backprop high-level APIs
// share (ConvBackpropApi::ConvType, ConvBackpropApi::ConvBpContext), written from the usage pages of
// Conv3DBackpropFilter / Conv3DBackpropInput. Clean-room part of ascendc-sim.
#pragma once
#include "kernel_operator.h"
#include "lib/conv/conv_common_types.h"

namespace ConvBackpropApi {

// The position, data format and data type of one operand of a convolution backprop object.
template <AscendC::TPosition POSITION, ConvCommonApi::ConvFormat FORMAT, typename T>
struct ConvType {
  constexpr static AscendC::TPosition pos = POSITION;
  constexpr static ConvCommonApi::ConvFormat format = FORMAT;
  using Type = T;
};

// The four ConvType parameters of a backprop object, in the order its declaration names them (the base
// of its Cfg).
template <class A, class B, class C, class D>
struct ConvBpContext {
  using AType = A;
  using BType = B;
  using CType = C;
  using DType = D;
};

}  // namespace ConvBackpropApi
