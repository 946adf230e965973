//===- LowerDeviceCopies.cpp - the ptensor-lower-device-copies pass -------===//

#include "ptensor/Conversion/DeviceCopies/DeviceCopies.h"

#include "DeviceMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORLOWERDEVICECOPIES
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// The value `v` is a cast of (memref.cast chains stripped).
static Value stripCasts(Value v) {
  while (auto cast = v.getDefiningOp<memref::CastOp>())
    v = cast.getSource();
  return v;
}

/// Erases a fresh stream (`gpu.wait async`) whose only uses are waits for
/// it alone: what emitOnStream leaves around an op that was replaced.
static void eraseIfEmptyStream(RewriterBase &rewriter, Value token) {
  auto create = token.getDefiningOp<gpu::WaitOp>();
  if (!create || !create.getAsyncDependencies().empty())
    return;
  for (Operation *user : token.getUsers()) {
    auto wait = dyn_cast<gpu::WaitOp>(user);
    if (!wait || wait.getAsyncToken() || wait->getNumOperands() != 1)
      return;
  }
  for (Operation *user : llvm::make_early_inc_range(token.getUsers()))
    rewriter.eraseOp(user);
  rewriter.eraseOp(create);
}

/// Replaces an async GPU op by `replacements` for its other results; its
/// token becomes its dependency (or a fresh stream when it had none), and
/// a stream left with nothing to do goes.
static void replaceAsyncOp(RewriterBase &rewriter, Operation *op,
                           Value token, ValueRange dependencies,
                           ValueRange replacements) {
  SmallVector<Value> values(replacements);
  Value before;
  if (token) {
    before = dependencies.empty()
                 ? gpu::WaitOp::create(rewriter, op->getLoc(), token.getType(),
                                       ValueRange())
                       .getAsyncToken()
                 : dependencies.front();
    values.push_back(before);
  }
  rewriter.replaceOp(op, values);
  if (before)
    eraseIfEmptyStream(rewriter, before);
}

/// Moves the allocation of `buffer` (a fresh memref.alloc or gpu.alloc) to
/// the host or the device, with its frees; fails with an error when it is
/// not such an allocation or a host buffer would be read by a kernel.
static LogicalResult placeAllocation(RewriterBase &rewriter, Value buffer,
                                     bool onDevice, Operation *copy) {
  Value allocated = stripCasts(buffer);
  Operation *alloc = allocated.getDefiningOp();
  if (!isa_and_nonnull<memref::AllocOp, gpu::AllocOp>(alloc))
    return copy->emitError("expected the destination of a device copy to be "
                           "a fresh memref.alloc or gpu.alloc");
  if (onDevice == isa<gpu::AllocOp>(alloc))
    return success();
  if (!onDevice) {
    for (Operation *user : allocated.getUsers())
      if (user->getParentOfType<gpu::LaunchOp>())
        return copy->emitError(
                   "the result of a copy to the host is read by a GPU kernel "
                   "of the same function; only returning it is supported "
                   "(copy it in a host function)")
                   .attachNote(user->getLoc())
               << "read here";
  }
  auto type = cast<MemRefType>(allocated.getType());
  rewriter.setInsertionPoint(alloc);
  Value replacement;
  if (auto gpuAlloc = dyn_cast<gpu::AllocOp>(alloc)) {
    replacement = allocateOn(rewriter, alloc->getLoc(), onDevice, type,
                             gpuAlloc.getDynamicSizes());
    replaceAsyncOp(rewriter, alloc, gpuAlloc.getAsyncToken(),
                   gpuAlloc.getAsyncDependencies(), replacement);
  } else {
    replacement = allocateOn(rewriter, alloc->getLoc(), onDevice, type,
                             cast<memref::AllocOp>(alloc).getDynamicSizes());
    rewriter.replaceOp(alloc, replacement);
  }
  // Its frees follow it.
  for (Operation *user : llvm::make_early_inc_range(replacement.getUsers())) {
    rewriter.setInsertionPoint(user);
    if (auto free = dyn_cast<gpu::DeallocOp>(user)) {
      freeOn(rewriter, user->getLoc(), onDevice, replacement);
      replaceAsyncOp(rewriter, user, free.getAsyncToken(),
                     free.getAsyncDependencies(), {});
    } else if (isa<memref::DeallocOp>(user)) {
      freeOn(rewriter, user->getLoc(), onDevice, replacement);
      rewriter.eraseOp(user);
    }
  }
  return success();
}

/// Lowers one marked copy: the destination on its side, the source made
/// contiguous on its side, an async memcpy, the staging buffer freed.
static LogicalResult lowerCopy(RewriterBase &rewriter, gpu::MemcpyOp copy,
                               StringRef direction) {
  bool sourceOnDevice = direction != kDeviceCopyToDevice;
  bool destOnDevice = direction != kDeviceCopyToHost;
  if (failed(placeAllocation(rewriter, copy.getDst(), destOnDevice, copy)))
    return failure();
  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  Value isStaged;
  Value source =
      makeContiguous(rewriter, loc, sourceOnDevice, copy.getSrc(), isStaged);
  Value dest = copy.getDst();
  emitOnStream(rewriter, loc, [&](Value token) {
    return gpu::MemcpyOp::create(rewriter, loc, token.getType(), token, dest,
                                 source)
        .getAsyncToken();
  });
  if (isStaged)
    scf::IfOp::create(rewriter, loc, isStaged, [&](OpBuilder &b, Location l) {
      freeOn(b, l, sourceOnDevice, source);
      scf::YieldOp::create(b, l);
    });
  rewriter.eraseOp(copy);
  return success();
}

namespace {
struct PTensorLowerDeviceCopiesPass
    : public ptensor::impl::PTensorLowerDeviceCopiesBase<
          PTensorLowerDeviceCopiesPass> {
  void runOnOperation() override {
    SmallVector<gpu::MemcpyOp> copies;
    getOperation().walk([&](gpu::MemcpyOp copy) {
      if (copy->hasAttr(kDeviceCopyAttrName))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (gpu::MemcpyOp copy : copies) {
      auto direction = copy->getAttrOfType<StringAttr>(kDeviceCopyAttrName);
      if (!direction ||
          !llvm::is_contained({kDeviceCopyToDevice, kDeviceCopyToHost,
                               kDeviceCopyDeviceToDevice},
                              direction.getValue())) {
        copy.emitError() << "expected '" << kDeviceCopyAttrName << "' to be \""
                         << kDeviceCopyToDevice << "\", \"" << kDeviceCopyToHost
                         << "\" or \"" << kDeviceCopyDeviceToDevice << "\"";
        return signalPassFailure();
      }
      if (copy.getAsyncToken() || !copy.getAsyncDependencies().empty()) {
        copy.emitError("expected a marked device copy without async tokens");
        return signalPassFailure();
      }
      if (failed(lowerCopy(rewriter, copy, direction.getValue())))
        return signalPassFailure();
    }
  }
};
} // namespace
