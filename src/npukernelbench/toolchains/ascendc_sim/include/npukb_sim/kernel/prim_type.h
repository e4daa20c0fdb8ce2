// npukb_sim/kernel/prim_type.h -- AscendC::PrimT<T>: the primitive element type of a tensor element
// type (the type itself for the basic data types). Templates of the API use it to check that a value
// parameter has the tensor's element type (Fill, LoadData 3D, LoadDataWithSparse, MmadWithSparse, ...).
// Clean-room part of ascendc-sim.
#pragma once

namespace AscendC {
namespace sim {
template <typename T>
struct PrimOf {
  using type = T;
};
}  // namespace sim

template <typename T>
using PrimT = typename sim::PrimOf<T>::type;

}  // namespace AscendC
