//===- Epilogues.cpp - consumers of a matrix product the library applies --===//
//
// See Epilogues.h. The consumer is matched on its body, after fusion: the
// sums' block argument, optionally scaled by a constant (`mulf`), plus the
// bias element (`addf`), then optionally ReLU (`maximumf` with 0, what
// `ptensor.elementwise_binary maximum` gives; cuBLASLt's ReLU keeps a NaN
// too), in either order of the commutative operands. Nothing else may be in
// the body. Each is exact: cuBLASLt computes the same f32 operations (a
// scale before a bias only by a power of two, where rounding once or twice
// agree). With dynamic sizes the consumer reads the sums and the bias
// through the broadcast pass's views (reinterpret_casts that may broadcast
// at run time), with the size checks between the product and it: the call
// is then made only where the sums' view is the sums
// (ContractionsToLibrary.cpp, isViewOfOutput).
//
// GELU is not matched although cuBLASLt has it: its GELU is less accurate
// than the generated code's tanh form (the GPU smoke test measures up to 25
// times what an f32 evaluation of the formula may lose), so `gelu(x @ w +
// b)` in f32 is the product and one fused pass.
//
//===----------------------------------------------------------------------===//

#include "Epilogues.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ptensor;
using namespace mlir::ptensor::gemm;

namespace {

/// Whether `r` (a generic reading `out`) only rounds it to the f16/bf16
/// result: the generic convert-ptensor-to-linalg marked, unchanged by
/// fusion, whose element type is the operands'.
bool isRounding(linalg::GenericOp r, Value out, const Gemm &m) {
  return (m.abType == GemmType::F16 || m.abType == GemmType::BF16) &&
         r->hasAttr(kRoundsContractionAttrName) && r.getNumDpsInputs() == 1 &&
         r.getDpsInputs()[0] == out &&
         llvm::all_of(r.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); }) &&
         gemmType(cast<MemRefType>(r.getDpsInits()[0].getType())
                      .getElementType()) == m.abType;
}

/// The ops of an epilogue body matched so far.
using Matched = llvm::SmallPtrSet<Operation *, 16>;

/// The float constant `v` is, if it is one.
std::optional<double> constantOf(Value v) {
  APFloat value(0.0);
  if (!matchPattern(v, m_ConstantFloat(&value)))
    return std::nullopt;
  bool lost = false;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble();
}

/// Whether `w` is ReLU of `x`: `maximumf` of `x` and 0, either order.
bool isRelu(Value w, Value x, Matched &matched) {
  auto max = w.getDefiningOp<arith::MaximumFOp>();
  if (!max)
    return false;
  Value zero = max.getLhs() == x ? max.getRhs() : max.getLhs();
  std::optional<double> c = constantOf(zero);
  // +0 only: max(-4, -0.0) is -0.0, cuBLASLt's ReLU gives +0.
  if ((max.getLhs() != x && max.getRhs() != x) || !c || *c != 0.0 ||
      std::signbit(*c))
    return false;
  matched.insert(max);
  return true;
}

/// The user of `v` if it is its only one, an `OpT` of `body`.
template <typename OpT> OpT onlyUser(Value v, Block *body) {
  if (!v.hasOneUse())
    return nullptr;
  auto op = dyn_cast<OpT>(*v.getUsers().begin());
  return op && op->getBlock() == body ? op : nullptr;
}

/// The view of `out` that `input` is, if it is a `memref.reinterpret_cast`
/// of it of the same rank: how the broadcast pass reads a dynamically
/// broadcast operand.
memref::ReinterpretCastOp viewOf(Value input, Value out) {
  auto view = input.getDefiningOp<memref::ReinterpretCastOp>();
  return view && view.getSource() == out &&
                 view.getType().getRank() ==
                     cast<MemRefType>(out.getType()).getRank()
             ? view
             : nullptr;
}

/// Whether `input` reads `out`: it is `out` or a view of it (viewOf).
bool readsOutput(Value input, Value out) {
  return input == out || viewOf(input, out);
}

/// Whether memrefs of `type` hold one vector along their last dim: rank 1,
/// or every other stride a static 0 (a vector broadcast along the rows, as
/// a dynamic broadcast gives).
bool isBroadcastVector(MemRefType type) {
  if (type.getRank() == 1)
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return llvm::all_of(ArrayRef(strides).drop_back(),
                      [](int64_t s) { return s == 0; });
}

/// `r` as relu(alpha * out + bias[j]) into an f32 buffer of C's shape, or
/// nullopt. Its inputs are `out` or a view of it (identity map) and at most
/// one f32 bias vector along C's columns: rank 1 read through the last
/// loop, or a row-broadcast view (isBroadcastVector) read through an
/// identity map.
std::optional<Epilogue> libraryEpilogue(linalg::GenericOp r, Value out) {
  if (r.getNumDpsInits() != 1 || r.getNumDpsInputs() < 1 ||
      r.getNumDpsInputs() > 2)
    return std::nullopt;
  SmallVector<AffineMap> maps = r.getIndexingMapsArray();
  unsigned rank = maps.back().getNumDims();
  auto elementType = [](Value v) {
    return cast<MemRefType>(v.getType()).getElementType();
  };
  if (!maps.back().isIdentity() || !elementType(r.getDpsInits()[0]).isF32())
    return std::nullopt;
  Block *body = &r.getRegion().front();
  Epilogue e;
  e.op = r;
  Value sums, biasElement;
  for (auto [index, input] : llvm::enumerate(r.getDpsInputs())) {
    Value argument = body->getArgument(index);
    if (readsOutput(input, out) && !sums && maps[index].isIdentity()) {
      sums = argument;
      if (input != out)
        e.sumsView = input;
      continue;
    }
    auto type = dyn_cast<MemRefType>(input.getType());
    AffineMap columns =
        AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, r.getContext()));
    if (!type || !type.getElementType().isF32() ||
        !(maps[index] == columns ||
          (maps[index].isIdentity() && isBroadcastVector(type))))
      return std::nullopt;
    e.bias = input;
    biasElement = argument;
  }
  // The output's own element is not read; the output is the sums' buffer
  // or a new one (cuBLASLt's output must not overlap its operands, as an
  // out= into an operand's buffer would).
  Value output = r.getDpsInits()[0];
  if (!sums || !body->getArguments().back().use_empty() ||
      (output != out && !output.getDefiningOp<memref::AllocOp>()))
    return std::nullopt;
  Matched matched;
  Value v = sums;
  if (auto scale = onlyUser<arith::MulFOp>(v, body)) {
    Value factor = scale.getLhs() == v ? scale.getRhs() : scale.getLhs();
    if (std::optional<double> c = constantOf(factor); c && factor != v) {
      e.alpha = *c;
      matched.insert(scale);
      v = scale.getResult();
    }
  }
  // Scales cuBLASLt applies as the program does: finite, not 0 (a BLAS
  // may skip the product then, where 0 * inf is NaN) and, before a bias, a
  // power of two (cuBLASLt may fuse alpha * sum + bias into one rounding;
  // scaling by a power of two is exact, barring overflow and underflow).
  int exponent;
  bool powerOfTwo = std::fabs(std::frexp(e.alpha, &exponent)) == 0.5;
  if (!std::isfinite(e.alpha) || e.alpha == 0.0 ||
      (biasElement && !powerOfTwo))
    return std::nullopt;
  if (biasElement) {
    auto add = onlyUser<arith::AddFOp>(v, body);
    if (!add || (add.getLhs() != biasElement && add.getRhs() != biasElement) ||
        add.getLhs() == add.getRhs())
      return std::nullopt;
    e.flags |= PTENSOR_RT_GEMM_EPILOGUE_BIAS;
    matched.insert(add);
    v = add.getResult();
  }
  Value result = body->getTerminator()->getOperand(0);
  if (result != v) {
    if (!isRelu(result, v, matched))
      return std::nullopt;
    e.flags |= PTENSOR_RT_GEMM_EPILOGUE_RELU;
  }
  bool onlyMatched = llvm::all_of(body->without_terminator(), [&](Operation &op) {
    return matched.contains(&op) || isa<arith::ConstantOp>(op);
  });
  if (!onlyMatched ||
      (e.flags == PTENSOR_RT_GEMM_EPILOGUE_NONE && e.alpha == 1.0))
    return std::nullopt;
  return e;
}

/// Whether `op` deallocates an allocation that neither the product nor its
/// consumer reads or writes (a temporary freed early by ptensor.delete):
/// the fused call may then run on either side of it.
static bool freesOtherBuffer(Operation *op, linalg::GenericOp g,
                             linalg::GenericOp consumer) {
  auto dealloc = dyn_cast<memref::DeallocOp>(op);
  if (!dealloc)
    return false;
  Value freed = memref::skipViewLikeOps(dealloc.getMemref());
  if (!freed.getDefiningOp<memref::AllocOp>())
    return false;
  // Every buffer operand must trace to an allocation or an argument
  // (through view ops): one reached through another op (a select, a call
  // result) may be the freed buffer without the roots showing it.
  auto touches = [&](linalg::GenericOp r) {
    return llvm::any_of(r->getOperands(), [&](Value v) {
      auto buffer = dyn_cast<MemrefValue>(v);
      if (!buffer)
        return false;
      Value root = memref::skipViewLikeOps(buffer);
      return root == freed || !(isa<BlockArgument>(root) ||
                                root.getDefiningOp<memref::AllocOp>());
    });
  };
  return !touches(g) && !touches(consumer);
}

} // namespace

std::optional<Epilogue> mlir::ptensor::gemm::findEpilogue(linalg::GenericOp g,
                                                          const Gemm &m,
                                                          bool device) {
  if (!device || m.cType != GemmType::F32)
    return std::nullopt;
  Value out = g.getDpsInits()[0];
  // The first generic after g reading the output is the candidate.
  linalg::GenericOp consumer;
  for (Operation *op = g->getNextNode(); op && !consumer; op = op->getNextNode())
    if (auto r = dyn_cast<linalg::GenericOp>(op);
        r && llvm::any_of(r.getDpsInputs(),
                          [&](Value v) { return readsOutput(v, out); }))
      consumer = r;
  if (!consumer)
    return std::nullopt;
  // Nothing else reads the sums; when the consumer writes its result in
  // place, that result may be read after it. The consumer may read them
  // through one view that only it reads, and the sizes of the output may be
  // read (for that view and its checks).
  bool inPlace = consumer.getDpsInits()[0] == out;
  auto onlyConsumerReads = [&](Operation *view) {
    return llvm::all_of(view->getUsers(), [&](Operation *user) {
      return user == consumer.getOperation() ||
             isa<memref::ExtractStridedMetadataOp, memref::DimOp>(user);
    });
  };
  for (Operation *user : out.getUsers()) {
    bool sameBlock = user->getBlock() == g->getBlock();
    bool before = sameBlock && user->isBeforeInBlock(g);
    bool after = sameBlock && consumer->isBeforeInBlock(user);
    bool allowed =
        user == g.getOperation() || user == consumer.getOperation() ||
        (isa<linalg::FillOp>(user) && before) ||
        (isa<memref::DeallocOp>(user) && after) || (inPlace && after) ||
        isa<memref::ExtractStridedMetadataOp, memref::DimOp>(user) ||
        (user->getNumResults() == 1 && viewOf(user->getResult(0), out) &&
         onlyConsumerReads(user));
    if (!allowed)
      return std::nullopt;
  }
  for (Operation *op = g->getNextNode(); op != consumer; op = op->getNextNode())
    if (!isa<memref::AllocOp, cf::AssertOp>(op) && !isMemoryEffectFree(op) &&
        !isRunTimeCheck(op) && !freesOtherBuffer(op, g, consumer))
      return std::nullopt;
  if (isRounding(consumer, out, m)) {
    Epilogue e;
    e.op = consumer;
    e.rounding = true;
    return e;
  }
  return libraryEpilogue(consumer, out);
}
