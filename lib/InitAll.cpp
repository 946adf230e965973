//===- InitAll.cpp - register everything ptensor provides -----------------===//

#include "ptensor/InitAll.h"

#include "ptensor/Conversion/Passes.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/Transforms/Passes.h"
#include "ptensor/Pipelines/Pipelines.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::ptensor::registerAllPTensorDialects(DialectRegistry &registry) {
  registerPTensorDialect(registry);
  registry.insert<bufferization::BufferizationDialect, func::FuncDialect,
                  linalg::LinalgDialect, memref::MemRefDialect,
                  tensor::TensorDialect>();
}

void mlir::ptensor::registerAllPTensorPasses() {
  registerPTensorPasses();
  registerPTensorConversionPasses();
  registerPTensorPipelines();
}
