//===- Semantics.cpp - the semantic rules, for C callers ------------------===//
//
// include/ptensor-c/Semantics.h over the semantics library.
//
//===----------------------------------------------------------------------===//

#include "ptensor-c/Semantics.h"

#include "CAPIUtils.h"
#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/OpKinds.h"

#include <string_view>

using namespace ptensor;
using namespace ptensor::capi;
namespace sem = ptensor::semantics;

static_assert(PTENSOR_DYNAMIC_SIZE == sem::kDynamicSize);
static_assert(PTENSOR_DTYPE_F64 + 1 == kNumDTypes);

/// The status of a broken rule.
static PTensorStatus statusOf(const sem::Error &error) {
  switch (error.kind) {
  case sem::ErrorKind::DType:
    return PTENSOR_STATUS_DTYPE_ERROR;
  case sem::ErrorKind::Broadcast:
    return PTENSOR_STATUS_BROADCAST_ERROR;
  case sem::ErrorKind::Device:
    return PTENSOR_STATUS_DEVICE_ERROR;
  case sem::ErrorKind::Overlap:
  case sem::ErrorKind::Value:
    return PTENSOR_STATUS_INVALID_ARGUMENT;
  }
  return PTENSOR_STATUS_INVALID_ARGUMENT;
}

static bool isValidDType(PTensorDType dtype) {
  return static_cast<unsigned>(dtype) < kNumDTypes;
}

/// Converts C operands; false (with the message set) for an invalid dtype.
static bool toOperands(const PTensorPromotionOperand *operands, size_t n,
                       std::vector<sem::PromotionOperand> &out,
                       char **errorMessage) {
  if (n && !operands) {
    fail(PTENSOR_STATUS_INVALID_ARGUMENT, "operands is NULL", errorMessage);
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    if (!isValidDType(operands[i].dtype)) {
      fail(PTENSOR_STATUS_INVALID_ARGUMENT,
           "operand #" + std::to_string(i) + " has dtype value " +
               std::to_string(static_cast<int>(operands[i].dtype)) +
               ", expected 0 to " + std::to_string(kNumDTypes - 1),
           errorMessage);
      return false;
    }
    out.push_back({static_cast<DType>(operands[i].dtype), operands[i].isWeak});
  }
  return true;
}

/// Stores a dtype result or fails with its error.
static PTensorStatus finish(const sem::Result<DType> &r, PTensorDType *result,
                            char **errorMessage) {
  if (!r)
    return fail(statusOf(r.getError()), r.getError().message, errorMessage);
  *result = static_cast<PTensorDType>(*r);
  return PTENSOR_STATUS_OK;
}

const char *ptensorDTypeGetName(PTensorDType dtype) {
  return isValidDType(dtype) ? dtypeName(static_cast<DType>(dtype)) : nullptr;
}

PTensorStatus ptensorDTypeFromName(const char *name, PTensorDType *dtype) {
  if (!name || !dtype)
    return PTENSOR_STATUS_INVALID_ARGUMENT;
  std::optional<DType> d = parseDTypeName(name);
  if (!d)
    return PTENSOR_STATUS_INVALID_ARGUMENT;
  *dtype = static_cast<PTensorDType>(*d);
  return PTENSOR_STATUS_OK;
}

PTensorStatus ptensorPromoteDTypes(const PTensorPromotionOperand *operands,
                                   size_t numOperands, PTensorDType *result,
                                   char **errorMessage) {
  clearError(errorMessage);
  std::vector<sem::PromotionOperand> ops;
  if (!result)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT, "result is NULL",
                errorMessage);
  if (!toOperands(operands, numOperands, ops, errorMessage))
    return PTENSOR_STATUS_INVALID_ARGUMENT;
  return finish(sem::promoteDTypes(ops), result, errorMessage);
}

PTensorStatus ptensorElementwiseResultDType(
    const char *opName, const char *kind,
    const PTensorPromotionOperand *operands, size_t numOperands,
    PTensorDType *result, char **errorMessage) {
  clearError(errorMessage);
  if (!opName || !kind || !result)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "opName, kind and result must not be NULL", errorMessage);
  sem::Result<sem::OpClass> opClass = sem::parseOpClass(opName);
  if (!opClass)
    return fail(statusOf(opClass.getError()), opClass.getError().message,
                errorMessage);
  sem::Result<sem::OpKind> row = sem::lookupOpKind(*opClass, kind);
  if (!row)
    return fail(statusOf(row.getError()), row.getError().message,
                errorMessage);
  std::vector<sem::PromotionOperand> ops;
  if (!toOperands(operands, numOperands, ops, errorMessage))
    return PTENSOR_STATUS_INVALID_ARGUMENT;
  return finish(sem::inferElementwiseDType(*row, ops), result, errorMessage);
}

PTensorStatus ptensorBroadcastShapes(const int64_t *const *shapes,
                                     const size_t *ranks, size_t numShapes,
                                     int64_t *result, size_t resultCapacity,
                                     size_t *resultRank, char **errorMessage) {
  clearError(errorMessage);
  if ((numShapes && (!shapes || !ranks)) || !resultRank)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "shapes, ranks and resultRank must not be NULL",
                errorMessage);
  std::vector<sem::Shape> in;
  for (size_t i = 0; i < numShapes; ++i) {
    if (ranks[i] && !shapes[i])
      return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                  "shape #" + std::to_string(i) + " is NULL", errorMessage);
    in.emplace_back(shapes[i], shapes[i] + ranks[i]);
  }
  sem::Result<sem::Shape> r = sem::broadcastShapes(in);
  if (!r)
    return fail(statusOf(r.getError()), r.getError().message, errorMessage);
  *resultRank = r->size();
  if (r->size() > resultCapacity || (r->size() && !result))
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "the result has rank " + std::to_string(r->size()) +
                    " but resultCapacity is " + std::to_string(resultCapacity),
                errorMessage);
  std::copy(r->begin(), r->end(), result);
  return PTENSOR_STATUS_OK;
}
