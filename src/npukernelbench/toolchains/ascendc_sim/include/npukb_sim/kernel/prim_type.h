// npukb_sim/kernel/prim_type.h -- AscendC::PrimT<T>: the primitive element type of a tensor element
// type (the type itself for the basic data types). Templates of the API use it to check that a value
// parameter has the tensor's element type (Fill, LoadData 3D, LoadDataWithSparse, MmadWithSparse, ...).
// Its one definition is vec_traits.h's (the vector prototypes name it too). Clean-room part of ascendc-sim.
#pragma once
#include "npukb_sim/kernel/vec_traits.h"
