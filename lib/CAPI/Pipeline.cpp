//===- Pipeline.cpp - parse, verify and run pipelines in the C API --------===//

#include "CAPIUtils.h"

#include "ptensor-c/Dialect.h"
#include "ptensor/Compiler/ParserHazards.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace ptensor::capi;

PTensorStatus ptensorModuleParse(MlirContext context, MlirStringRef source,
                                 MlirStringRef sourceName, MlirModule *module,
                                 char **errorMessage) {
  clearError(errorMessage);
  if (!module || mlirContextIsNull(context) || (!source.data && source.length))
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "ptensorModuleParse: null context, source or module pointer",
                errorMessage);
  *module = MlirModule{nullptr};
  MLIRContext *ctx = unwrap(context);
  llvm::StringRef name =
      sourceName.length ? unwrap(sourceName) : llvm::StringRef("<source>");

  // The SourceMgr handler prints each diagnostic with its source line.
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(source), name),
      llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, ctx, os);

  OwningOpRef<ModuleOp> parsed = ptensor::compiler::parseModule(
      sourceMgr, ParserConfig(ctx, /*verifyAfterParse=*/false));
  if (!parsed)
    return fail(PTENSOR_STATUS_PARSE_ERROR,
                diagnostics.empty() ? "cannot parse " + name.str()
                                    : llvm::StringRef(diagnostics).rtrim().str(),
                errorMessage);
  if (failed(verify(*parsed)))
    return fail(PTENSOR_STATUS_VERIFY_ERROR,
                diagnostics.empty() ? name.str() + " does not verify"
                                    : llvm::StringRef(diagnostics).rtrim().str(),
                errorMessage);
  *module = wrap(parsed.release());
  return PTENSOR_STATUS_OK;
}

PTensorStatus ptensorOperationVerify(MlirOperation op, char **errorMessage) {
  clearError(errorMessage);
  if (mlirOperationIsNull(op))
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "ptensorOperationVerify: null operation", errorMessage);
  Operation *operation = unwrap(op);
  ErrorCollector errors(operation->getContext());
  if (failed(verify(operation)))
    return fail(PTENSOR_STATUS_VERIFY_ERROR,
                errors.message("'" + operation->getName().getStringRef().str() +
                               "' does not verify"),
                errorMessage);
  return PTENSOR_STATUS_OK;
}

PTensorStatus ptensorRunPipeline(MlirModule module, const char *pipeline,
                                 char **errorMessage) {
  clearError(errorMessage);
  if (mlirModuleIsNull(module) || !pipeline)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "ptensorRunPipeline: null module or pipeline", errorMessage);
  ModuleOp moduleOp = unwrap(module);
  MLIRContext *ctx = moduleOp.getContext();
  ErrorCollector errors(ctx);

  // "builtin.module(...)" is the anchored form; anything else runs on the
  // module itself.
  llvm::StringRef text = llvm::StringRef(pipeline).trim();
  llvm::StringRef anchor = ModuleOp::getOperationName();
  if (text.starts_with(anchor) &&
      text.drop_front(anchor.size()).ltrim().starts_with("(")) {
    text = text.drop_front(anchor.size()).ltrim().drop_front();
    if (!text.consume_back(")"))
      return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                  "pass pipeline '" + std::string(pipeline) +
                      "' is missing its closing ')'",
                  errorMessage);
  }
  PassManager pm(ctx, anchor);
  std::string parseErrors;
  llvm::raw_string_ostream parseStream(parseErrors);
  if (failed(parsePassPipeline(text, pm, parseStream)))
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "cannot parse pass pipeline '" + std::string(pipeline) +
                    "': " + llvm::StringRef(parseErrors).trim().str(),
                errorMessage);

  if (failed(verify(moduleOp)))
    return fail(PTENSOR_STATUS_VERIFY_ERROR,
                errors.message("the input module does not verify"),
                errorMessage);
  if (failed(pm.run(moduleOp)))
    return fail(PTENSOR_STATUS_PASS_FAILURE,
                errors.message("pass pipeline '" + std::string(pipeline) +
                               "' failed"),
                errorMessage);
  return PTENSOR_STATUS_OK;
}
