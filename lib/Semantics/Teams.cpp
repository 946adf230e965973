//===- Teams.cpp - how a team tensor is split over processes --------------===//

#include "ptensor/Semantics/Teams.h"

#include <algorithm>

using namespace ptensor::semantics;

TeamBlock ptensor::semantics::teamBlock(int64_t rows, int64_t rank,
                                        int64_t processes) {
  int64_t base = rows / processes, rest = rows % processes;
  return {rank * base + std::min(rank, rest), base + (rank < rest ? 1 : 0)};
}
