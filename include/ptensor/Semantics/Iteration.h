//===- Iteration.h - the iteration space of an elementwise call --*- C++ -*-===//
//
// TensorIterator in small: for operands of one broadcast shape, the order
// of the dimensions (outer to inner, by the operands' strides) and which
// adjacent dimensions merge into one (contiguous in every operand), so that
// e.g. all-contiguous operands of any shape run as one rank-1 kernel.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_ITERATION_H
#define PTENSOR_SEMANTICS_ITERATION_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ptensor::semantics {

/// The dimensions of `shape` in outer-to-inner order (TensorIterator's
/// reorder_dimensions): a dimension with a larger stride is outer.
/// Operands whose strides for a pair are zero or equal do not vote;
/// conflicting votes keep row-major order. `strides`: per operand, one
/// stride (in elements) per dimension of `shape`, 0 where broadcast.
std::vector<size_t>
orderDimensions(const std::vector<int64_t> &shape,
                const std::vector<std::vector<int64_t>> &strides);

/// The dimensions of `order` (size-1 dimensions left out) grouped into
/// runs that every operand walks contiguously: dimension d joins the group
/// of the one before it, p, when stride[p] == stride[d] * size[d] in every
/// operand. Each group becomes one dimension of the kernel.
std::vector<std::vector<size_t>>
coalesceDimensions(const std::vector<int64_t> &shape,
                   const std::vector<std::vector<int64_t>> &strides,
                   const std::vector<size_t> &order);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_ITERATION_H
