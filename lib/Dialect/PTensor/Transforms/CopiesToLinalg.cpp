//===- CopiesToLinalg.cpp - memref.copy as an elementwise generic ---------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORCOPIESTOLINALG
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

namespace {
struct PTensorCopiesToLinalgPass
    : public ptensor::impl::PTensorCopiesToLinalgBase<
          PTensorCopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    // Ranked copies only: an unranked one stays a memref.copy.
    getOperation()->walk([&](memref::CopyOp c) {
      if (isa<MemRefType>(c.getSource().getType()) &&
          isa<MemRefType>(c.getTarget().getType()))
        copies.push_back(c);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      auto rank = cast<MemRefType>(copy.getTarget().getType()).getRank();
      AffineMap id = b.getMultiDimIdentityMap(rank);
      SmallVector<utils::IteratorType> iterators(
          rank, utils::IteratorType::parallel);
      linalg::GenericOp::create(
          b, copy.getLoc(), TypeRange(), copy.getSource(), copy.getTarget(),
          ArrayRef<AffineMap>{id, id}, iterators,
          [](OpBuilder &nb, Location loc, ValueRange args) {
            linalg::YieldOp::create(nb, loc, args[0]);
          });
      copy.erase();
    }
  }
};
} // namespace
