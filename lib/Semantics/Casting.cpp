//===- Casting.cpp - the array API's can_cast rule ------------------------===//

#include "ptensor/Semantics/Casting.h"
#include "ptensor/Semantics/Promotion.h"

using namespace ptensor;
using namespace ptensor::semantics;

bool semantics::canCastByPromotion(DType from, DType to) {
  bool sameCategory = dtypeKind(from) == dtypeKind(to) ||
                      (isIntDType(from) && isIntDType(to));
  if (!sameCategory)
    return false;
  Result<DType> common = promoteDTypes({{from, false}, {to, false}});
  return common && *common == to;
}
