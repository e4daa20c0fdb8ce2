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

// The four operand types of a backprop object (the base of its Cfg).
template <class A, class B, class C, class D>
struct ConvBpContext {
  using xType = A;
  using cType = B;
  using dType = C;
  using yType = D;
  using SrcT = typename A::Type;
  using DstT = typename D::Type;
  using L0cT = float;
  __aicore__ inline ConvBpContext() {}
};

}  // namespace ConvBackpropApi
