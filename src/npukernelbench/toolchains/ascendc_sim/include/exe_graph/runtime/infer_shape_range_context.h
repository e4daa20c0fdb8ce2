// exe_graph/runtime/infer_shape_range_context.h -- gert::InferShapeRangeContext, the argument of an
// operator's InferShapeRange function (dynamic-shape compilation). Part of the ascendc-sim clean-room
// simulator: shapes are static here, so the launcher accepts such functions and never runs them.
#pragma once
#include <cstddef>
#include <vector>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/range.h"
#include "exe_graph/runtime/shape.h"

namespace gert {

class InferShapeRangeContext : public ExtendedKernelContext {
 public:
  // Out of line (runtime/host_api.cpp). Every range is [shape, shape] of the io table's shapes.
  explicit InferShapeRangeContext(NpukbIoTable* io);
  ~InferShapeRangeContext();
  const Range<Shape>* GetInputShapeRange(size_t index) const;
  const Range<Shape>* GetOptionalInputShapeRange(size_t ir_index) const;
  const Range<Shape>* GetDynamicInputShapeRange(size_t ir_index, size_t relative_index) const;
  Range<Shape>* GetOutputShapeRange(size_t index);

 private:
  const Range<Shape>* Find(const Tensor* t) const;
  std::vector<Range<Shape>> inputs_;
  std::vector<Range<Shape>> outputs_;
};

}  // namespace gert
