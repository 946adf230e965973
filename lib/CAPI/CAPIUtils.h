//===- CAPIUtils.h - helpers shared by the C API implementation -*- C++ -*-===//
//
// Error messages handed out through `char **errorMessage`, and a scoped
// diagnostic handler that turns error diagnostics into such a message.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CAPI_CAPIUTILS_H
#define PTENSOR_LIB_CAPI_CAPIUTILS_H

#include "ptensor-c/Support.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ptensor::capi {

/// A malloc'd, NUL-terminated copy of `text` (NULL if out of memory).
char *copyToMallocString(llvm::StringRef text);

/// Stores NULL in *errorMessage (if errorMessage is not NULL).
void clearError(char **errorMessage);

/// Stores a malloc'd copy of `message` in *errorMessage (if errorMessage is
/// not NULL) and returns `status`.
PTensorStatus fail(PTensorStatus status, llvm::StringRef message,
                   char **errorMessage);

/// fail() with the message of `error` (consumed).
PTensorStatus fail(PTensorStatus status, llvm::Error error,
                   char **errorMessage);

/// One diagnostic as text: "file:line:col: error: message" followed by its
/// notes, each on its own line.
std::string formatDiagnostic(const mlir::Diagnostic &diag);

/// While alive, collects the error diagnostics of `context` (and their notes)
/// as text and keeps them from the context's other handlers; warnings and
/// remarks pass through.
class ErrorCollector {
public:
  explicit ErrorCollector(mlir::MLIRContext *context);
  ~ErrorCollector();
  ErrorCollector(const ErrorCollector &) = delete;
  ErrorCollector &operator=(const ErrorCollector &) = delete;

  /// The collected messages, one diagnostic per line(s); `fallback` when
  /// none was emitted.
  std::string message(llvm::StringRef fallback) const;

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID id;
  std::string text;
};

} // namespace ptensor::capi

#endif // PTENSOR_LIB_CAPI_CAPIUTILS_H
