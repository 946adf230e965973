//===- Support.cpp - status strings and error messages of the C API -------===//

#include "CAPIUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;

const char *ptensorStatusGetString(PTensorStatus status) {
  switch (status) {
  case PTENSOR_STATUS_OK:
    return "OK";
  case PTENSOR_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case PTENSOR_STATUS_NOT_FOUND:
    return "NOT_FOUND";
  case PTENSOR_STATUS_UNSUPPORTED:
    return "UNSUPPORTED";
  case PTENSOR_STATUS_PARSE_ERROR:
    return "PARSE_ERROR";
  case PTENSOR_STATUS_VERIFY_ERROR:
    return "VERIFY_ERROR";
  case PTENSOR_STATUS_PASS_FAILURE:
    return "PASS_FAILURE";
  case PTENSOR_STATUS_COMPILE_ERROR:
    return "COMPILE_ERROR";
  case PTENSOR_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  case PTENSOR_STATUS_DTYPE_ERROR:
    return "DTYPE_ERROR";
  case PTENSOR_STATUS_BROADCAST_ERROR:
    return "BROADCAST_ERROR";
  case PTENSOR_STATUS_DEVICE_ERROR:
    return "DEVICE_ERROR";
  case PTENSOR_STATUS_CHECK_FAILED:
    return "CHECK_FAILED";
  }
  return "UNKNOWN_STATUS";
}

void ptensorFreeString(char *string) { std::free(string); }

char *ptensor::capi::copyToMallocString(llvm::StringRef text) {
  auto *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (!copy)
    return nullptr;
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  return copy;
}

void ptensor::capi::clearError(char **errorMessage) {
  if (errorMessage)
    *errorMessage = nullptr;
}

PTensorStatus ptensor::capi::fail(PTensorStatus status,
                                  llvm::StringRef message,
                                  char **errorMessage) {
  if (errorMessage)
    *errorMessage = copyToMallocString(message);
  return status;
}

PTensorStatus ptensor::capi::fail(PTensorStatus status, llvm::Error error,
                                  char **errorMessage) {
  return fail(status, llvm::toString(std::move(error)), errorMessage);
}

/// "file:line:col" of the first file location in `loc`, else its printed
/// form.
static void printLocation(Location loc, llvm::raw_ostream &os) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>()) {
    os << fileLoc.getFilename().getValue() << ':' << fileLoc.getLine() << ':'
       << fileLoc.getColumn();
    return;
  }
  os << loc;
}

static llvm::StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

std::string ptensor::capi::formatDiagnostic(const Diagnostic &diag) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printLocation(diag.getLocation(), os);
  os << ": " << severityName(diag.getSeverity()) << ": " << diag.str();
  for (const Diagnostic &note : diag.getNotes()) {
    os << '\n';
    printLocation(note.getLocation(), os);
    os << ": note: " << note.str();
  }
  return text;
}

ptensor::capi::ErrorCollector::ErrorCollector(MLIRContext *context)
    : context(context) {
  id = context->getDiagEngine().registerHandler(
      [this](Diagnostic &diag) -> LogicalResult {
        if (diag.getSeverity() != DiagnosticSeverity::Error)
          return failure(); // not handled: goes on to the other handlers
        if (!text.empty())
          text += '\n';
        text += formatDiagnostic(diag);
        return success();
      });
}

ptensor::capi::ErrorCollector::~ErrorCollector() {
  context->getDiagEngine().eraseHandler(id);
}

std::string ptensor::capi::ErrorCollector::message(
    llvm::StringRef fallback) const {
  return text.empty() ? fallback.str() : text;
}
