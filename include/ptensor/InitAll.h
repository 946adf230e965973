//===- InitAll.h - register everything ptensor provides ----------*- C++ -*-===//
//
// Entry points in the style of upstream's InitAllDialects.h/InitAllPasses.h
// for tools that embed ptensor.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_INITALL_H
#define PTENSOR_INITALL_H

namespace mlir {
class DialectRegistry;
namespace ptensor {

/// Registers the ptensor dialect and the dialects its passes produce.
void registerAllPTensorDialects(DialectRegistry &registry);

/// Registers every ptensor pass and named pipeline with the global registry
/// (`registerPTensorPasses()`, `registerPTensorConversionPasses()`,
/// `registerPTensorPipelines()`).
void registerAllPTensorPasses();

} // namespace ptensor
} // namespace mlir

#endif // PTENSOR_INITALL_H
