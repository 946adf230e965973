//===- ContractionsToLibrary.cpp - matrix products as library calls -------===//
//
// See Passes.td (convert-ptensor-contractions-to-library). The match reads
// the roles of the loops from the output: its dims are (batch?, i, j) in
// the order convert-ptensor-to-linalg gives them (a matmul's result is
// batch..., rows, cols); the reduction loops are k (one, or a tensordot's
// several, which the call sees as one loop of their product where each
// operand's strides nest them: checked at run time). Each operand's
// strides along (batch, i, k), (batch, k, j) and (batch, i, j) are the sums
// of its memref strides over the dims each loop indexes, read at run time.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Conversion/ContractionsToLibrary/ContractionsToLibrary.h"

#include "Epilogues.h"

#include "ptensor/Conversion/LinalgToGPU/LinalgToGPU.h"
#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"
#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_CONVERTPTENSORCONTRACTIONSTOLIBRARY
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;
using namespace mlir::ptensor::gemm;

namespace {

/// `v` with an extension to f32 looked through: `arith.extf`, or the bit
/// form convertScalar gives bf16 (bitcast to i16, extui to i32, shli 16,
/// bitcast to f32).
Value throughExtension(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  auto toFloat = v.getDefiningOp<arith::BitcastOp>();
  auto shift = toFloat ? toFloat.getIn().getDefiningOp<arith::ShLIOp>() : nullptr;
  auto widen = shift ? shift.getLhs().getDefiningOp<arith::ExtUIOp>() : nullptr;
  auto toBits = widen ? widen.getIn().getDefiningOp<arith::BitcastOp>() : nullptr;
  APInt amount;
  if (!toBits || !toBits.getIn().getType().isBF16() ||
      !matchPattern(shift.getRhs(), m_ConstantInt(&amount)) || amount != 16)
    return v;
  return toBits.getIn();
}

/// Whether the body of `g` is `yield(out + a * b)` with a and b its inputs
/// (possibly extended), the addition marked with the sum combiner.
bool isProductSum(linalg::GenericOp g) {
  Block &body = g.getRegion().front();
  Operation *yield = body.getTerminator();
  if (getMarkedCombiner(yield) != Combiner::AddF)
    return false;
  auto add = yield->getOperand(0).getDefiningOp<arith::AddFOp>();
  Value out = body.getArgument(2);
  Value product = add.getLhs() == out   ? add.getRhs()
                  : add.getRhs() == out ? add.getLhs()
                                        : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  Value x = throughExtension(mul.getLhs()), y = throughExtension(mul.getRhs());
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (x == a && y == b) || (x == b && y == a);
}

/// Whether every result of `map` is a loop dim, each at most once, or the
/// constant 0 (a stretched size-1 dim).
bool isPlainMap(AffineMap map) {
  llvm::SmallBitVector seen(map.getNumDims());
  for (AffineExpr e : map.getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      if (c.getValue() != 0)
        return false;
      continue;
    }
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || seen.test(d.getPosition()))
      return false;
    seen.set(d.getPosition());
  }
  return true;
}

bool indexes(AffineMap map, unsigned loop) {
  return map.isFunctionOfDim(loop);
}

/// The gemm of `g`, or nullopt.
std::optional<Gemm> matchGemm(linalg::GenericOp g) {
  if (!g.hasPureBufferSemantics() || g.getNumDpsInputs() != 2 ||
      g.getNumDpsInits() != 1 || !isProductSum(g))
    return std::nullopt;
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  if (!llvm::all_of(maps, isPlainMap))
    return std::nullopt;
  AffineMap a = maps[0], b = maps[1], c = maps[2];
  if (!hasLibraryShape(c.getNumResults(), g.getNumReductionLoops()) ||
      !c.isProjectedPermutation())
    return std::nullopt;
  Gemm m;
  SmallVector<unsigned> reductions;
  g.getReductionDims(reductions);
  // The contracted loops in the order of the lhs's dims.
  for (AffineExpr e : a.getResults())
    if (auto d = dyn_cast<AffineDimExpr>(e);
        d && llvm::is_contained(reductions, d.getPosition()))
      m.k.push_back(d.getPosition());
  unsigned numOut = c.getNumResults();
  if (numOut == 3)
    m.batch = c.getDimPosition(0);
  m.i = c.getDimPosition(numOut - 2);
  m.j = c.getDimPosition(numOut - 1);
  // Every loop is one of the roles; i does not index the rhs, j not the
  // lhs, each k both.
  if (m.k.size() != reductions.size() ||
      g.getNumLoops() != numOut + m.k.size() || indexes(b, m.i) ||
      indexes(a, m.j) || !indexes(a, m.i) || !indexes(b, m.j) ||
      !llvm::all_of(m.k,
                    [&](unsigned k) { return indexes(a, k) && indexes(b, k); }))
    return std::nullopt;
  auto elementType = [&](unsigned operand) {
    return cast<MemRefType>(g->getOperand(operand).getType()).getElementType();
  };
  std::optional<GemmType> ta = gemmType(elementType(0));
  std::optional<GemmType> tb = gemmType(elementType(1));
  std::optional<GemmType> tc = gemmType(elementType(2));
  if (!ta || ta != tb || !tc)
    return std::nullopt;
  bool widened = (ta == GemmType::F16 || ta == GemmType::BF16) &&
                 tc == GemmType::F32;
  if (ta != tc && !widened)
    return std::nullopt;
  m.abType = *ta;
  m.cType = *tc;
  return m;
}

/// Whether the library of this function takes the gemm's types: the host
/// BLAS f32 and f64, cuBLASLt also f16/bf16 operands.
bool takes(const Gemm &m, bool device) {
  return device || (m.abType == m.cType &&
                    (m.abType == GemmType::F32 || m.abType == GemmType::F64));
}

/// The declaration of the runtime function `name` (Gemm.h's signature; with
/// `epilogue`, ptensor_rt_gpu_gemm_epilogue's five more arguments).
func::FuncOp getGemmFunction(OpBuilder &b, ModuleOp module, StringRef name,
                             bool epilogue) {
  Type i64 = b.getI64Type(), index = b.getIndexType();
  SmallVector<Type> inputs(6, i64);
  for (int operand = 0; operand < 3; ++operand) {
    inputs.push_back(index);
    inputs.append(4, i64);
  }
  if (epilogue)
    inputs.append({i64, b.getF64Type(), index, i64, i64});
  return getOrDeclareRuntimeFunction(b, module, name, inputs,
                                     b.getI1Type());
}

/// Whether `sumsView` (Epilogue::sumsView) addresses the elements of `out`
/// as `out` does at run time (same offset and sizes, same strides where a
/// size is not 1), that is, the epilogue's consumer reads the sums neither
/// broadcast nor permuted.
Value isViewOfOutput(OpBuilder &b, Location loc, Value out, Value sumsView) {
  IndexMath im(b, loc);
  auto viewMeta = memref::ExtractStridedMetadataOp::create(b, loc, sumsView);
  auto outMeta = memref::ExtractStridedMetadataOp::create(b, loc, out);
  Value same = im.eq(viewMeta.getOffset(), outMeta.getOffset());
  for (auto [viewSize, outSize, viewStride, outStride] :
       llvm::zip_equal(viewMeta.getSizes(), outMeta.getSizes(),
                       viewMeta.getStrides(), outMeta.getStrides())) {
    Value unit = im.eq(outSize, im.index(1));
    Value sameStride = im.orI(unit, im.eq(viewStride, outStride));
    same = im.andI(same, im.andI(im.eq(viewSize, outSize), sameStride));
  }
  return same;
}

/// Calls `callee` with `args` and gives its result (whether the library
/// took the call). With a `condition` the call is made only where it holds
/// at run time; elsewhere the result is false (declined: the generated
/// loops run).
Value callWhere(OpBuilder &b, Location loc, func::FuncOp callee,
                ValueRange args, Value condition) {
  if (!condition)
    return func::CallOp::create(b, loc, callee, args).getResult(0);
  auto ifOk = scf::IfOp::create(b, loc, b.getI1Type(), condition,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOk.thenBlock());
  Value taken = func::CallOp::create(b, loc, callee, args).getResult(0);
  scf::YieldOp::create(b, loc, taken);
  b.setInsertionPointToStart(ifOk.elseBlock());
  Value declined = IndexMath(b, loc).boolean(false);
  scf::YieldOp::create(b, loc, declined);
  return ifOk.getResult(0);
}

/// Builds the call for `g` (matched as `m`) and moves `g` (and the fill of
/// its output right before it) under an `scf.if` for a declined call. With
/// an `epilogue` (findEpilogue) the library writes the epilogue's output
/// instead, and the call stands where the epilogue stood: the f32 buffer,
/// its fill, `g` and the epilogue are then only the declined call's.
void replaceWithCall(OpBuilder &b, linalg::GenericOp g, const Gemm &m,
                     bool device, std::optional<Epilogue> epilogue) {
  linalg::GenericOp consumer = epilogue ? epilogue->op : nullptr;
  Location loc = g.getLoc();
  // The fill of the output right before the generic is only needed by it.
  Value out = g.getDpsInits()[0];
  auto fill = dyn_cast_or_null<linalg::FillOp>(g->getPrevNode());
  if (fill && fill.getDpsInits()[0] != out)
    fill = nullptr;
  b.setInsertionPoint(consumer ? consumer.getOperation() : g.getOperation());
  Type i64 = b.getI64Type();
  auto toI64 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, v);
  };
  DenseMap<int64_t, Value> constants;
  auto constant = [&](int64_t v) -> Value {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIntOp::create(b, loc, i64, v);
    return c;
  };
  // The buffer the library writes: g's output, or the epilogue's (of the
  // same shape: its output map is an identity).
  SmallVector<Value> operands = {g->getOperand(0), g->getOperand(1),
                                 consumer ? consumer.getDpsInits()[0] : out};
  SmallVector<memref::ExtractStridedMetadataOp> meta;
  for (Value operand : operands)
    meta.push_back(memref::ExtractStridedMetadataOp::create(b, loc, operand));
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  // The size of a loop: that of the first operand dim it indexes.
  auto loopSize = [&](unsigned loop) -> Value {
    for (auto [operand, map] : llvm::enumerate(maps))
      for (auto [d, e] : llvm::enumerate(map.getResults()))
        if (e == b.getAffineDimExpr(loop))
          return toI64(meta[operand].getSizes()[d]);
    llvm_unreachable("every loop indexes an operand");
  };
  // An operand's stride along a loop: the sum over the dims it indexes
  // (made once per operand and loop: the nesting test and the call's
  // arguments both read the innermost contracted loop's).
  DenseMap<std::pair<unsigned, unsigned>, Value> strides;
  auto loopStride = [&](unsigned operand,
                        std::optional<unsigned> loop) -> Value {
    if (!loop)
      return constant(0);
    Value &stride = strides[{operand, *loop}];
    if (stride)
      return stride;
    for (auto [d, e] : llvm::enumerate(maps[operand].getResults())) {
      if (e != b.getAffineDimExpr(*loop))
        continue;
      Value s = toI64(meta[operand].getStrides()[d]);
      stride = stride ? arith::AddIOp::create(b, loc, stride, s) : s;
    }
    if (!stride)
      stride = constant(0);
    return stride;
  };
  bool withRounding = epilogue && epilogue->rounding;
  GemmType cType = withRounding ? m.abType : m.cType;
  SmallVector<Value> args = {constant(int64_t(m.abType)),
                             constant(int64_t(cType))};
  args.push_back(m.batch ? loopSize(*m.batch) : constant(1));
  Value rows = loopSize(m.i);
  Value cols = loopSize(m.j);
  // Several contracted loops are one of their sizes' product, read along
  // the innermost's strides: where each outer loop's stride is the next
  // one's size times its stride, in both operands (else the call is not
  // made).
  Value contracted = loopSize(m.k.front());
  Value nested;
  for (auto [outer, inner] : llvm::zip(m.k, llvm::drop_begin(m.k))) {
    Value innerSize = loopSize(inner);
    contracted = arith::MulIOp::create(b, loc, contracted, innerSize);
    for (unsigned operand : {0u, 1u}) {
      Value innerStride = loopStride(operand, inner);
      Value expected = arith::MulIOp::create(b, loc, innerSize, innerStride);
      Value outerStride = loopStride(operand, outer);
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       outerStride, expected);
      nested = nested ? arith::AndIOp::create(b, loc, nested, ok) : ok;
    }
  }
  args.append({rows, cols, contracted});
  unsigned k = m.k.back();
  std::pair<unsigned, unsigned> rowsCols[3] = {{m.i, k}, {k, m.j}, {m.i, m.j}};
  for (unsigned operand = 0; operand < 3; ++operand) {
    args.push_back(memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, operands[operand]));
    args.push_back(toI64(meta[operand].getOffset()));
    args.push_back(loopStride(operand, m.batch));
    args.push_back(loopStride(operand, rowsCols[operand].first));
    args.push_back(loopStride(operand, rowsCols[operand].second));
  }
  bool withLibraryEpilogue = epilogue && !epilogue->rounding;
  if (withLibraryEpilogue) {
    args.push_back(constant(epilogue->flags));
    args.push_back(arith::ConstantFloatOp::create(
        b, loc, b.getF64Type(), APFloat(epilogue->alpha)));
    if (Value bias = epilogue->bias) {
      auto biasMeta = memref::ExtractStridedMetadataOp::create(b, loc, bias);
      args.push_back(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, bias));
      args.push_back(toI64(biasMeta.getOffset()));
      // Along the columns (a broadcast vector's other strides are 0).
      args.push_back(toI64(biasMeta.getStrides().back()));
    } else {
      args.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      args.push_back(constant(0));
      args.push_back(constant(1));
    }
  }
  func::FuncOp callee = getGemmFunction(
      b, g->getParentOfType<ModuleOp>(),
      withLibraryEpilogue ? "ptensor_rt_gpu_gemm_epilogue"
      : device            ? "ptensor_rt_gpu_gemm"
                          : "ptensor_rt_cpu_gemm",
      withLibraryEpilogue);
  Value condition = nested;
  if (epilogue && epilogue->sumsView) {
    Value same = isViewOfOutput(b, loc, out, epilogue->sumsView);
    condition =
        condition ? arith::AndIOp::create(b, loc, condition, same) : same;
  }
  Value taken = callWhere(b, loc, callee, args, condition);
  Value declined = IndexMath(b, loc).notI(taken);
  auto ifOp = scf::IfOp::create(b, loc, declined, /*withElseRegion=*/false);
  Operation *yield = ifOp.thenBlock()->getTerminator();
  // The f32 buffer too (with its deallocation), when nothing else uses it.
  Operation *alloc = out.getDefiningOp<memref::AllocOp>();
  SmallVector<Operation *> deallocs;
  for (Operation *user : out.getUsers())
    if (isa<memref::DeallocOp>(user))
      deallocs.push_back(user);
  if (!consumer || !alloc || alloc->getBlock() != g->getBlock() ||
      !llvm::all_of(out.getUsers(), [&](Operation *user) {
        return user == fill || user == g || user == consumer ||
               (isa<memref::DeallocOp>(user) &&
                user->getBlock() == g->getBlock());
      })) {
    alloc = nullptr;
    deallocs.clear();
  }
  for (Operation *op : {alloc, fill.getOperation(), g.getOperation(),
                        consumer.getOperation()})
    if (op)
      op->moveBefore(yield);
  for (Operation *op : deallocs)
    op->moveBefore(yield);
}

struct ConvertPTensorContractionsToLibraryPass
    : public mlir::ptensor::impl::ConvertPTensorContractionsToLibraryBase<
          ConvertPTensorContractionsToLibraryPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<
        std::tuple<linalg::GenericOp, Gemm, bool, std::optional<Epilogue>>>
        work;
    getOperation().walk([&](func::FuncOp f) {
      bool device = f->hasAttr(kDeviceAttrName);
      if (device ? !this->device : !host)
        return;
      f.walk([&](linalg::GenericOp g) {
        if (std::optional<Gemm> m = matchGemm(g); m && takes(*m, device))
          work.push_back({g, *m, device, findEpilogue(g, *m, device)});
      });
    });
    OpBuilder b(&getContext());
    for (auto &[g, m, device, epilogue] : work)
      replaceWithCall(b, g, m, device, epilogue);
  }
};

} // namespace
