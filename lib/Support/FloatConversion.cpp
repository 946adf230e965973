//===- FloatConversion.cpp - f16 / bf16 <-> wider floats ------------------===//

#include "ptensor/Support/FloatConversion.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <cstring>

using namespace ptensor;

float ptensor::halfBitsToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1fu;
  uint32_t mant = bits & 0x3ffu;
  uint32_t out;
  if (exp == 0x1f) {
    // Inf / NaN: keep the payload.
    out = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    out = sign | ((exp + (127 - 15)) << 23) | (mant << 13);
  } else if (mant == 0) {
    out = sign;
  } else {
    // Subnormal half: value = mant * 2^-24, exactly representable in float.
    float f = static_cast<float>(mant) * (1.0f / 16777216.0f);
    std::memcpy(&out, &f, sizeof(out));
    out |= sign;
  }
  float result;
  std::memcpy(&result, &out, sizeof(result));
  return result;
}

float ptensor::bfloat16BitsToFloat(uint16_t bits) {
  uint32_t out = static_cast<uint32_t>(bits) << 16;
  float result;
  std::memcpy(&result, &out, sizeof(result));
  return result;
}

static uint16_t narrow(double value, const llvm::fltSemantics &sem) {
  llvm::APFloat f(value);
  bool losesInfo = false;
  f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

uint16_t ptensor::doubleToHalfBits(double value) {
  return narrow(value, llvm::APFloat::IEEEhalf());
}

uint16_t ptensor::doubleToBFloat16Bits(double value) {
  return narrow(value, llvm::APFloat::BFloat());
}
