//===- PTensorOps.td - ptensor operations ------------------*- tablegen -*-===//

#ifndef PTENSOR_OPS_TD
#define PTENSOR_OPS_TD

include "ptensor/Dialect/PTensor/IR/PTensorDialect.td"
include "ptensor/Dialect/PTensor/IR/PTensorTypes.td"
include "ptensor/Dialect/PTensor/IR/PTensorAttrs.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def PTensor : Type<CPred<"::llvm::isa<::mlir::ptensor::PTensorType>($_self)">,
                   "ptensor", "::mlir::ptensor::PTensorType">;

/// A builtin scalar operand: weak in type promotion.
def PTensor_Scalar : AnyTypeOf<[AnySignlessInteger, AnyUnsignedInteger,
                                Index, AnyFloat]>;

def PTensor_PTensorOrScalar : AnyTypeOf<[PTensor, PTensor_Scalar],
                                         "ptensor or builtin scalar">;

def PTensor_Ranked : AnyTypeOf<[AnyRankedTensor, AnyStridedMemRef],
                               "ranked tensor or strided memref">;

//===----------------------------------------------------------------------===//
// Elementwise operations (the RFC's classification)
//===----------------------------------------------------------------------===//

class PTensor_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : PTensor_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor]>;

def PTensor_ElementwiseUnaryOp : PTensor_ElementwiseOp<"elementwise_unary"> {
  let summary = "elementwise unary arithmetic or math function";
  let description = [{
    Applies `kind` to every element. Integer and bool inputs of
    transcendental kinds (`exp`, `sin`, `sqrt`, ...) give `f32`
    (INT_TO_FLOAT); `bitwise_invert` requires integers or bool; arithmetic
    kinds on bool are rejected. f16/bf16 compute in f32.

    ```mlir
    %r = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xf32>
    ```
  }];
  let arguments = (ins PTensor_UnaryOpKind:$kind, PTensor:$input);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $kind $input attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def PTensor_ElementwiseUnaryTestOp
    : PTensor_ElementwiseOp<"elementwise_unary_test"> {
  let summary = "elementwise unary predicate giving i1";
  let description = [{
    `isfinite`, `isinf`, `isnan`, `logical_not`, `signbit`; the result dtype
    is always `i1` (ALWAYS_BOOL).
  }];
  let arguments = (ins PTensor_UnaryTestKind:$kind, PTensor:$input);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $kind $input attr-dict `:` functional-type(operands, results)
  }];
}

def PTensor_ElementwiseBinaryOp : PTensor_ElementwiseOp<"elementwise_binary"> {
  let summary = "elementwise binary arithmetic with broadcasting";
  let description = [{
    Broadcasts both operands (NumPy rules) and applies `kind`. Either operand
    may be a builtin scalar, which is weak in type promotion.

    ```mlir
    %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<5xf16>) -> !ptensor.ptensor<4x5xf32>
    ```
  }];
  let arguments = (ins PTensor_BinaryOpKind:$kind,
                       PTensor_PTensorOrScalar:$lhs,
                       PTensor_PTensorOrScalar:$rhs);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $kind $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def PTensor_ElementwiseBinaryTestOp
    : PTensor_ElementwiseOp<"elementwise_binary_test"> {
  let summary = "elementwise comparison or logical op giving i1";
  let description = [{
    Broadcasts like `elementwise_binary`, compares in the promoted dtype and
    gives `i1` (ALWAYS_BOOL).
  }];
  let arguments = (ins PTensor_BinaryTestKind:$kind,
                       PTensor_PTensorOrScalar:$lhs,
                       PTensor_PTensorOrScalar:$rhs);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $kind $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def PTensor_WhereOp : PTensor_ElementwiseOp<"where"> {
  let summary = "elementwise select (NO_OPMATH)";
  let description = [{
    `condition ? x : y` with broadcasting of all three operands. The result
    dtype is the promotion of `x` and `y`, computed without opmath.
  }];
  let arguments = (ins PTensor:$condition, PTensor_PTensorOrScalar:$x,
                       PTensor_PTensorOrScalar:$y);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)
  }];
}

def PTensor_PointwiseOp : PTensor_Op<"pointwise", [
    Pure, InferTypeOpAdaptor, SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "user-defined elementwise body with several inputs and outputs";
  let description = [{
    The region is a scalar function (arith/math ops) applied to every
    broadcast index, like FlagGems' `pointwise_dynamic`. The block has one
    argument per input, of a scalar type chosen by the frontend (inputs are
    converted to it); `ptensor.yield` gives one scalar per output, converted
    to that output's dtype. The dtype of each output is given by its
    promotion method applied over all inputs.

    ```mlir
    %re, %im = ptensor.pointwise (%abs, %angle) promotion [DEFAULT, DEFAULT]
        : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>)
        -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) {
    ^bb0(%r: f32, %t: f32):
      %c = math.cos %t : f32
      %s = math.sin %t : f32
      %x = arith.mulf %r, %c : f32
      %y = arith.mulf %r, %s : f32
      ptensor.yield %x, %y : f32, f32
    }
    ```
  }];
  let arguments = (ins Variadic<PTensor_PTensorOrScalar>:$inputs,
                       DenseI32ArrayAttr:$promotions);
  let results = (outs Variadic<PTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    ` ` `(` $inputs `)` `promotion` custom<PromotionList>($promotions) attr-dict
    `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The promotion method of output `i`.
    PromotionMethod getPromotion(unsigned i) {
      return static_cast<PromotionMethod>(getPromotions()[i]);
    }
  }];
}

def PTensor_YieldOp : PTensor_Op<"yield", [
    Pure, ReturnLike, Terminator, HasParent<"PointwiseOp">]> {
  let summary = "yields the scalar outputs of a pointwise body";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = [{ ($values^ `:` type($values))? attr-dict }];
  let builders = [OpBuilder<(ins), [{ /* empty yield */ }]>];
}

//===----------------------------------------------------------------------===//
// Creation and movement
//===----------------------------------------------------------------------===//

def PTensor_CreateOp : PTensor_Op<"create", [Pure]> {
  let summary = "a new ptensor filled with a value";
  let description = [{
    The shape and dtype are the result type's; one index operand per dynamic
    dimension. The fill value is a builtin scalar converted to the dtype.

    ```mlir
    %t = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<4x?xf32, device = "cuda">
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamicSizes, PTensor_Scalar:$fill);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    ` ` `(` $dynamicSizes `)` `fill` $fill attr-dict `:` type($fill) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def PTensor_ArangeOp : PTensor_Op<"arange", [Pure, AllTypesMatch<["start", "stop", "step"]>]> {
  let summary = "evenly spaced values in [start, stop) with a step";
  let description = [{
    A 1-D ptensor of `ceil((stop - start) / step)` elements (NumPy's
    `arange`). A static result size must match at run time.
  }];
  let arguments = (ins PTensor_Scalar:$start, PTensor_Scalar:$stop,
                       PTensor_Scalar:$step);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $start `,` $stop `,` $step attr-dict `:` type($start) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def PTensor_LinspaceOp : PTensor_Op<"linspace", [Pure, AllTypesMatch<["start", "stop"]>]> {
  let summary = "`num` evenly spaced values from start to stop";
  let description = [{
    NumPy's `linspace`; `endpoint` (default true) says whether `stop` is the
    last value. The length comes from the result type when static, from
    `num` otherwise.
  }];
  let arguments = (ins AnyFloat:$start, AnyFloat:$stop, Index:$num,
                       DefaultValuedAttr<BoolAttr, "true">:$endpoint);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $start `,` $stop `,` $num attr-dict `:` type($start) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def PTensor_FromRankedOp : PTensor_Op<"from_ranked", [Pure]> {
  let summary = "a builtin ranked tensor or memref as a ptensor";
  let arguments = (ins PTensor_Ranked:$source);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) `->` qualified(type($result)) }];
  let hasVerifier = 1;
}

def PTensor_ToRankedOp : PTensor_Op<"to_ranked", [Pure]> {
  let summary = "a ptensor as a builtin ranked tensor or memref";
  let arguments = (ins PTensor:$source);
  let results = (outs PTensor_Ranked:$result);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) `->` qualified(type($result)) }];
  let hasVerifier = 1;
}

def PTensor_CopyOp : PTensor_Op<"copy", [Pure]> {
  let summary = "copy to another device or team";
  let description = [{
    Same shape and dtype; the result type names the destination device and
    team (host when absent).
  }];
  let arguments = (ins PTensor:$source);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) `->` qualified(type($result)) }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def PTensor_CastOp : PTensor_Op<"cast", [Pure]> {
  let summary = "convert to another dtype";
  let description = [{
    Elementwise conversion with C/NumPy semantics (float to integer
    truncates toward zero; to bool means `!= 0`). Shape, device and team are
    kept.
  }];
  let arguments = (ins PTensor:$source);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) `->` qualified(type($result)) }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def PTensor_BroadcastOp : PTensor_Op<"broadcast", [Pure]> {
  let summary = "explicit broadcast to a shape";
  let description = [{
    Broadcasts `source` to the result shape by NumPy's rules; one index
    operand per dynamic result dimension.
  }];
  let arguments = (ins PTensor:$source, Variadic<Index>:$dynamicSizes);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $source `to` ` ` `(` $dynamicSizes `)` attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def PTensor_DimOp : PTensor_Op<"dim", [Pure]> {
  let summary = "the size of one dimension, as an index";
  let arguments = (ins PTensor:$source, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = [{ $source `,` $dim attr-dict `:` qualified(type($source)) }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Views (no copy)
//===----------------------------------------------------------------------===//

class PTensor_ViewOp<string mnemonic, list<Trait> traits = []>
    : PTensor_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor]> {
  let results = (outs PTensor:$result);
}

def PTensor_PermuteDimsOp : PTensor_ViewOp<"permute_dims"> {
  let summary = "permutes the dimensions (a transposed view)";
  let arguments = (ins PTensor:$source, DenseI64ArrayAttr:$axes);
  let assemblyFormat = [{
    $source $axes attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasFolder = 1;
}

def PTensor_FlipOp : PTensor_ViewOp<"flip"> {
  let summary = "reverses the order along the given axes (negative strides)";
  let arguments = (ins PTensor:$source, DenseI64ArrayAttr:$axes);
  let assemblyFormat = [{
    $source $axes attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasFolder = 1;
}

def PTensor_ExtractSliceOp : PTensor_ViewOp<"extract_slice"> {
  let summary = "a strided slice; steps may be negative";
  let description = [{
    Element `i` along dimension `d` of the result is element
    `offsets[d] + i * steps[d]` of the source. Steps are non-zero and may be
    negative; `sizes` are result sizes.

    ```mlir
    %v = ptensor.extract_slice %a [0, 7] [4, 4] [1, -2]
        : !ptensor.ptensor<4x8xf32> -> !ptensor.ptensor<4x4xf32>
    ```
  }];
  let arguments = (ins PTensor:$source, DenseI64ArrayAttr:$offsets,
                       DenseI64ArrayAttr:$sizes, DenseI64ArrayAttr:$steps);
  let assemblyFormat = [{
    $source $offsets $sizes $steps attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PTensor_ExpandDimsOp : PTensor_ViewOp<"expand_dims"> {
  let summary = "inserts a size-1 dimension at `axis`";
  let arguments = (ins PTensor:$source, I64Attr:$axis);
  let assemblyFormat = [{
    $source $axis attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PTensor_SqueezeOp : PTensor_ViewOp<"squeeze"> {
  let summary = "removes the given size-1 dimensions";
  let arguments = (ins PTensor:$source, DenseI64ArrayAttr:$axes);
  let assemblyFormat = [{
    $source $axes attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

#endif // PTENSOR_OPS_TD
