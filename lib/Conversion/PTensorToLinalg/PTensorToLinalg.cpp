//===- PTensorToLinalg.cpp - the convert-ptensor-to-linalg pass -----------===//

#include "ptensor/Conversion/PTensorToLinalg/PTensorToLinalg.h"
#include "PatternsInternal.h"
#include "ReservedNames.h"
#include "ScalarOps.h"

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/Utils/DeviceFunction.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_CONVERTPTENSORTOLINALG
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

PTensorToTensorTypeConverter::PTensorToTensorTypeConverter() {
  addConversion([](Type t) { return t; });
  addConversion([](PTensorType t) -> Type {
    return RankedTensorType::get(t.getShape(),
                                 getStorageType(t.getElementType()));
  });
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs).getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}

void mlir::ptensor::populatePTensorToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  populateElementwiseToLinalgPatterns(converter, patterns);
  populateReductionsToLinalgPatterns(converter, patterns);
  populateContractionsToLinalgPatterns(converter, patterns);
  populateCreationToLinalgPatterns(converter, patterns);
  populateManipulationToLinalgPatterns(converter, patterns);
  populateCompactionToLinalgPatterns(converter, patterns);
  populateReshapeToMemRefPatterns(converter, patterns);
  populateSetsToLinalgPatterns(converter, patterns);
  populateSearchingToLinalgPatterns(converter, patterns);
  populateIndexingToLinalgPatterns(converter, patterns);
  populateSortingToLinalgPatterns(converter, patterns);
  populateTeamsToRuntimePatterns(converter, patterns);
  populateViewsToMemRefPatterns(converter, patterns);
  populateWriteToLinalgPatterns(converter, patterns);
  populateDeleteToBufferPatterns(converter, patterns);
}

namespace {
struct ConvertPTensorToLinalgPass
    : public ptensor::impl::ConvertPTensorToLinalgBase<ConvertPTensorToLinalgPass> {
  using Base::Base;
  /// Marks the functions whose ptensors live on a GPU with
  /// `ptensor.device`: the types that say so are gone after conversion.
  /// Marks functions on GPU tensors `ptensor.device`; with host-only, such
  /// a function is an error naming it and its device.
  LogicalResult markDeviceFunctions() {
    WalkResult result = getOperation().walk([&](func::FuncOp f) {
      StringAttr device;
      auto visit = [&](Type t) {
        if (auto pt = dyn_cast<PTensorType>(t); pt && pt.isOnGPU())
          device = pt.getDevice();
      };
      llvm::for_each(f.getArgumentTypes(), visit);
      llvm::for_each(f.getResultTypes(), visit);
      f.walk([&](Operation *op) {
        llvm::for_each(op->getResultTypes(), visit);
      });
      if (!device)
        return WalkResult::advance();
      if (hostOnly) {
        f.emitError() << "function @" << f.getSymName() << " works on "
                      << device
                      << " tensors, but this lowering compiles host code "
                         "only (host-only, as in ptensor-to-cpu-pipeline); "
                         "compile it with ptensor-to-nvvm-pipeline "
                         "(ptensor-compile --target=cuda)";
        return WalkResult::interrupt();
      }
      if (failed(checkNoHostWork(f, device)))
        return WalkResult::interrupt();
      f->setAttr(kDeviceAttrName, device);
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  /// Whether `op`, in a function on GPU tensors, may have a host ptensor
  /// result: copies and calls (a host function's result, as team staging
  /// makes them) move data; ops that share their operand's storage (views,
  /// broadcasts: LifetimeOps.cpp's one list) only describe memory. Any
  /// other op would compute its host result in a GPU kernel; so may a
  /// reshape (it copies when the strides do not allow a view), and
  /// meshgrid stays refused as it was.
  static bool mayMakeHostTensorOnGPU(Operation *op) {
    return isa<CopyOp, func::CallOp>(op) ||
           (mayShareOperandStorage(op) && !isa<ReshapeOp, MeshgridOp>(op));
  }

  /// A function on `device` tensors runs its tensor work as GPU kernels: an
  /// op there that computes a host tensor, or writes into one, is an error
  /// naming the op and what to do instead (the kernel would write device
  /// memory that the caller reads as host memory).
  static LogicalResult checkNoHostWork(func::FuncOp f, StringAttr device) {
    auto isHost = [](Type t) {
      auto pt = dyn_cast<PTensorType>(t);
      return pt && !pt.isOnGPU();
    };
    WalkResult result = f.walk([&](Operation *op) {
      bool makesHost = !mayMakeHostTensorOnGPU(op) &&
                       llvm::any_of(op->getResultTypes(), isHost);
      auto write = dyn_cast<WriteOp>(op);
      if (!makesHost && !(write && isHost(write.getDest().getType())))
        return WalkResult::advance();
      op->emitOpError() << (write ? "writes into" : "makes")
                        << " a host tensor in @" << f.getSymName()
                        << ", a function on " << device
                        << " tensors, whose tensor work runs as GPU kernels; "
                           "compute it on "
                        << device
                        << " and ptensor.copy it to the host, or in a "
                           "function on host tensors";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }

  /// A function whose name compiled code reserves (ReservedNames.h) is an
  /// error naming what reserves it.
  LogicalResult checkFunctionNames() {
    WalkResult result = getOperation().walk([](func::FuncOp f) {
      if (f.isExternal())
        return WalkResult::advance();
      std::optional<std::string> owner = whyNameIsReserved(f.getSymName());
      if (!owner)
        return WalkResult::advance();
      f.emitError() << "function @" << f.getSymName()
                    << " has a name compiled code reserves (" << *owner
                    << "); rename it";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }

  /// Without device-copies, a copy to or from a GPU is an error that says
  /// which pipeline lowers it.
  LogicalResult checkNoDeviceCopies() {
    WalkResult result = getOperation().walk([](CopyOp op) {
      if (getDeviceCopyDirection(op).empty())
        return WalkResult::advance();
      auto name = [](PTensorType t) {
        return t.isOnGPU() ? ("\"" + t.getDeviceName() + "\"").str()
                           : std::string("the host");
      };
      op.emitError() << "a copy from " << name(op.getSource().getType())
                     << " to " << name(op.getType())
                     << " needs ptensor-to-nvvm-pipeline (device code); this "
                        "lowering compiles host code only "
                        "(convert-ptensor-to-linalg{device-copies=true} "
                        "lowers it)";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (!deviceCopies && failed(checkNoDeviceCopies()))
      return signalPassFailure();
    if (failed(prepareWrites(getOperation())))
      return signalPassFailure();
    if (failed(checkFunctionNames()) || failed(markDeviceFunctions()))
      return signalPassFailure();
    PTensorToTensorTypeConverter converter;
    ConversionTarget target(*ctx);
    target.addIllegalDialect<PTensorDialect>();
    // The lowering of the views, writes, deletes, sorts and compaction steps (builtin
    // tensors only).
    target.addLegalOp<StridedViewOp, StridedWriteOp, ReleaseBufferOp, SortAlongOp,
                      CountTrueOp, SelectTrueOp, ScatterRunsOp>();
    target.addLegalDialect<arith::ArithDialect, bufferization::BufferizationDialect,
                           cf::ControlFlowDialect, linalg::LinalgDialect,
                           math::MathDialect, memref::MemRefDialect,
                           scf::SCFDialect, tensor::TensorDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });

    RewritePatternSet patterns(ctx);
    populatePTensorToLinalgPatterns(converter, patterns);
    if (deviceCopies)
      populateDeviceCopyToMemcpyPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                  converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    // Writes already in the input are not this pass's to order.
    DenseSet<Operation *> existing;
    getOperation().walk([&](StridedWriteOp op) { existing.insert(op); });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    SmallVector<StridedWriteOp> writes;
    getOperation().walk([&](StridedWriteOp op) {
      if (!existing.contains(op))
        writes.push_back(op);
    });
    orderReadsAfterWrites(writes);
    computeTeamBlocksOnly(getOperation());
    // The team steps named their team's grid; lowered, nothing does.
    for (auto grid : llvm::make_early_inc_range(
             getOperation()->getRegion(0).getOps<shard::GridOp>()))
      if (SymbolTable::symbolKnownUseEmpty(grid, getOperation()))
        grid.erase();
  }
};
} // namespace
