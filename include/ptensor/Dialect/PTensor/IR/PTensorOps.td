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
include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SubsetOpInterface.td"

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
    Applies `kind` to every element. The result has the input's shape,
    device and team; its dtype is inferred:

    - transcendental kinds (`acos` ... `tanh`, `erf`, `exp`, `log`,
      `reciprocal`, `rsqrt`, `sigmoid`, `sqrt`) give `f32` on integer
      inputs (INT_TO_FLOAT) and keep float dtypes;
    - `abs`, `ceil`, `floor`, `negative`, `positive`, `round`, `sign`,
      `square`, `trunc` keep the dtype (DEFAULT);
    - `bitwise_invert` requires an integer or bool input; every other kind
      rejects bool (cast first).

    f16/bf16 inputs are computed in f32 and rounded once at the store.

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
    `isfinite`, `isinf`, `isnan`, `logical_not` and `signbit` of every
    element. The result keeps shape, device and team; its dtype is always
    `i1` (ALWAYS_BOOL).

    ```mlir
    %m = ptensor.elementwise_unary_test isnan %a : (!ptensor.ptensor<?xf16, device = "cuda">) -> !ptensor.ptensor<?xi1, device = "cuda">
    ```
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
    Broadcasts both operands (NumPy rules, right-aligned) and applies
    `kind`. The result dtype is the promotion of the operand dtypes
    (docs/Semantics.md); `atan2`, `copysign`, `divide`, `hypot` and
    `logaddexp` give `f32` on integers (INT_TO_FLOAT). Either operand may be
    a builtin scalar, which is weak in promotion: it only changes the dtype
    when its kind (bool < integer < float) is stronger than the tensor's.
    Bitwise kinds reject floats, shifts reject bool, and the other kinds
    reject two bool operands.

    ```mlir
    %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<5xf16>) -> !ptensor.ptensor<4x5xf32>
    %d = ptensor.elementwise_binary multiply %s, %i : (f64, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xf32>
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
    Broadcasts like `elementwise_binary`, compares (or combines logically)
    in the promoted dtype and gives `i1` (ALWAYS_BOOL). Either operand may
    be a builtin scalar.

    ```mlir
    %m = ptensor.elementwise_binary_test less %a, %s : (!ptensor.ptensor<4x?xi32>, f32) -> !ptensor.ptensor<4x?xi1>
    ```
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
    `condition ? x : y`, with all three operands broadcast together. The
    condition must have dtype `i1`. The result dtype is the promotion of `x`
    and `y` without opmath (NO_OPMATH: f16 stays f16); either may be a weak
    builtin scalar, and two scalars give PyTorch's defaults (`i1`, `i64` or
    `f32`).

    ```mlir
    %r = ptensor.where %c, %x, %s : (!ptensor.ptensor<4x1xi1>, !ptensor.ptensor<5xf16>, f32) -> !ptensor.ptensor<4x5xf16>
    ```
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
    The region is a scalar function applied to every broadcast index, like
    FlagGems' `pointwise_dynamic`: arith/math ops, and the elementwise kinds
    as `ptensor.scalar_*` ops (`ptensor.scalar_binary hypot`), which compile
    to the same code as the elementwise ops. The block has one
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
  let description = [{
    Terminates the body of `ptensor.pointwise` with one scalar per output;
    each is converted to its output's dtype. It may be omitted when the
    pointwise op has no outputs.

    ```mlir
    ptensor.yield %x, %y : f32, i1
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = [{ ($values^ `:` type($values))? attr-dict }];
  let builders = [OpBuilder<(ins), [{ /* empty yield */ }]>];
}

//===----------------------------------------------------------------------===//
// Scalar ops of pointwise bodies
//===----------------------------------------------------------------------===//

/// A scalar of a pointwise body: signless (the semantic dtype, which may be
/// unsigned, is given by the op's `as` type).
def PTensor_BodyScalar : AnyTypeOf<[AnySignlessInteger, AnyFloat],
                                   "signless integer or float scalar">;

class PTensor_ScalarOp<string mnemonic, list<Trait> traits = []>
    : PTensor_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor,
                                     HasParent<"PointwiseOp">]> {
  code scalarDTypeDeclaration = [{
    /// The semantic dtype of the operands: the `as` type, else the
    /// operand's own type (signed for integers).
    Type getOperandDType() {
      return getDtype() ? *getDtype() : getOperation()->getOperand(0).getType();
    }
  }];
}

def PTensor_ScalarUnaryOp : PTensor_ScalarOp<"scalar_unary"> {
  let summary = "one elementwise unary kind on a scalar of a pointwise body";
  let description = [{
    `kind` applied to a scalar inside a `ptensor.pointwise` body, with the
    same code (NumPy's semantics) as `ptensor.elementwise_unary`: a body
    computes with the compiler's own definitions instead of spelling them
    in arith/math ops. The operand must already be in the dtype the kind
    computes in (the result type of `elementwise_unary` on it, e.g. `f32`
    for `exp` of an integer: convert first with `ptensor.scalar_cast`).
    `as` gives the semantic dtype when it is not the operand's type
    (unsigned integers are signless in the body). The result has the
    operand's type.

    ```mlir
    %h = ptensor.scalar_unary exp %x : f32
    %a = ptensor.scalar_unary abs %i as ui8 : i8
    ```
  }];
  let arguments = (ins PTensor_UnaryOpKind:$kind, PTensor_BodyScalar:$input,
                       OptionalAttr<TypeAttr>:$dtype);
  let results = (outs PTensor_BodyScalar:$result);
  let assemblyFormat = [{
    $kind $input (`as` $dtype^)? attr-dict `:` type($input)
  }];
  let extraClassDeclaration = scalarDTypeDeclaration;
}

def PTensor_ScalarUnaryTestOp : PTensor_ScalarOp<"scalar_unary_test"> {
  let summary = "one elementwise unary predicate on a scalar of a pointwise body";
  let description = [{
    Like `ptensor.elementwise_unary_test` on one scalar of a
    `ptensor.pointwise` body; the result is `i1`.

    ```mlir
    %n = ptensor.scalar_unary_test isnan %x : f32
    ```
  }];
  let arguments = (ins PTensor_UnaryTestKind:$kind, PTensor_BodyScalar:$input,
                       OptionalAttr<TypeAttr>:$dtype);
  let results = (outs PTensor_BodyScalar:$result);
  let assemblyFormat = [{
    $kind $input (`as` $dtype^)? attr-dict `:` type($input)
  }];
  let extraClassDeclaration = scalarDTypeDeclaration;
}

def PTensor_ScalarBinaryOp : PTensor_ScalarOp<"scalar_binary", [
    AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "one elementwise binary kind on scalars of a pointwise body";
  let description = [{
    Like `ptensor.elementwise_binary` on two scalars of one dtype inside a
    `ptensor.pointwise` body (NumPy's integer division, remainder and shift
    results, overflow-free `hypot` ...). Both operands must already be in
    the dtype the kind computes in; the result has their type.

    ```mlir
    %h = ptensor.scalar_binary hypot %x, %y : f32
    %q = ptensor.scalar_binary floor_divide %i, %j as ui32 : i32
    ```
  }];
  let arguments = (ins PTensor_BinaryOpKind:$kind, PTensor_BodyScalar:$lhs,
                       PTensor_BodyScalar:$rhs, OptionalAttr<TypeAttr>:$dtype);
  let results = (outs PTensor_BodyScalar:$result);
  let assemblyFormat = [{
    $kind $lhs `,` $rhs (`as` $dtype^)? attr-dict `:` type($lhs)
  }];
  let extraClassDeclaration = scalarDTypeDeclaration;
}

def PTensor_ScalarBinaryTestOp : PTensor_ScalarOp<"scalar_binary_test", [
    AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "one comparison or logical op on scalars of a pointwise body";
  let description = [{
    Like `ptensor.elementwise_binary_test` on two scalars of one dtype
    inside a `ptensor.pointwise` body; the result is `i1`.

    ```mlir
    %lt = ptensor.scalar_binary_test less %i, %j as ui64 : i64
    ```
  }];
  let arguments = (ins PTensor_BinaryTestKind:$kind, PTensor_BodyScalar:$lhs,
                       PTensor_BodyScalar:$rhs, OptionalAttr<TypeAttr>:$dtype);
  let results = (outs PTensor_BodyScalar:$result);
  let assemblyFormat = [{
    $kind $lhs `,` $rhs (`as` $dtype^)? attr-dict `:` type($lhs)
  }];
  let extraClassDeclaration = scalarDTypeDeclaration;
}

def PTensor_ScalarCastOp : PTensor_ScalarOp<"scalar_cast"> {
  let summary = "converts a scalar of a pointwise body to another dtype";
  let description = [{
    The conversion `ptensor.cast` does for each element, on one scalar of
    a `ptensor.pointwise` body: from the operand's semantic dtype (its `as`
    type, else its type) to `to`. The result has `to`'s storage type
    (signless for unsigned dtypes). Floats to integers truncate toward zero
    (NaN and out-of-range values as the target's `fptosi`/`fptoui`);
    anything to `i1` is `!= 0`; f32 to bf16 rounds to nearest even.

    ```mlir
    %f = ptensor.scalar_cast %i as ui8 to f32 : i8
    %h = ptensor.scalar_cast %x to bf16 : f32
    ```
  }];
  let arguments = (ins PTensor_BodyScalar:$input, TypeAttr:$to,
                       OptionalAttr<TypeAttr>:$dtype);
  let results = (outs PTensor_BodyScalar:$result);
  let assemblyFormat = [{
    $input (`as` $dtype^)? `to` $to attr-dict `:` type($input)
  }];
  let extraClassDeclaration = scalarDTypeDeclaration;
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
    `arange`); `start`, `stop` and `step` have one builtin scalar type, and
    the values are converted to the result dtype. A static result size must
    match at run time.

    ```mlir
    %r = ptensor.arange %start, %stop, %step : index -> !ptensor.ptensor<?xi64>
    ```
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
    NumPy's `linspace`: `num` values from `start` to `stop`; `endpoint`
    (default true) says whether `stop` is the last value. The length comes
    from the result type when static, from `num` otherwise. The result must
    be 1-D.

    ```mlir
    %r = ptensor.linspace %lo, %hi, %n {endpoint = false} : f64 -> !ptensor.ptensor<?xf32>
    ```
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
  let description = [{
    Views a builtin ranked tensor or strided memref as a host ptensor with
    the same (compatible) shape and dtype. Builtin signless integers stand
    for the unsigned ptensor dtype of the same width (`i32` for `ui32`).

    ```mlir
    %p = ptensor.from_ranked %t : tensor<4x?xf32> -> !ptensor.ptensor<4x?xf32>
    %u = ptensor.from_ranked %m : memref<8xi8> -> !ptensor.ptensor<8xui8>
    ```
  }];
  let arguments = (ins PTensor_Ranked:$source);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) `->` qualified(type($result)) }];
  let hasVerifier = 1;
}

def PTensor_ToRankedOp : PTensor_Op<"to_ranked", [Pure]> {
  let summary = "a ptensor as a builtin ranked tensor or memref";
  let description = [{
    The inverse of `from_ranked`: a ptensor as a builtin ranked tensor or
    memref of a compatible shape and the same dtype.

    ```mlir
    %t = ptensor.to_ranked %p : !ptensor.ptensor<4x?xf32> -> tensor<4x?xf32>
    ```
  }];
  let arguments = (ins PTensor:$source);
  let results = (outs PTensor_Ranked:$result);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) `->` qualified(type($result)) }];
  let hasVerifier = 1;
}

def PTensor_CopyOp : PTensor_Op<"copy", [Pure]> {
  let summary = "copy to another device or team";
  let description = [{
    Copies a ptensor to the device and team of the result type (host when
    absent). Shape and dtype are kept; use `ptensor.cast` to change the
    dtype.

    ```mlir
    %g = ptensor.copy %a : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x?xf32, device = "cuda:0">
    ```
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
    Elementwise conversion to the result dtype with C/NumPy semantics
    (float to integer truncates toward zero; to bool means `!= 0`). Shape,
    device and team are kept; use `ptensor.copy` to move data.

    ```mlir
    %h = ptensor.cast %a : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x?xbf16>
    ```
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
    Broadcasts `source` to the result shape by NumPy's rules (right-aligned;
    a source size of 1 stretches), keeping dtype, device and team. There is
    one index operand per dynamic result dimension; a dynamic source size is
    checked at run time.

    ```mlir
    %b = ptensor.broadcast %a to (%n) : !ptensor.ptensor<4x1xf32> -> !ptensor.ptensor<?x4x7xf32>
    ```
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
  let description = [{
    The size of dimension `dim` (0 <= dim < rank) as an `index`. Static
    sizes fold to constants.

    ```mlir
    %n = ptensor.dim %a, 1 : !ptensor.ptensor<4x?xf32>
    ```
  }];
  let arguments = (ins PTensor:$source, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = [{ $source `,` $dim attr-dict `:` qualified(type($source)) }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def PTensor_WriteOp : PTensor_Op<"write", [
    MemoryEffects<[MemWrite]>, AllTypesMatch<["value", "dest"]>]> {
  let summary = "writes a value into an existing ptensor (out= and in-place)";
  let description = [{
    Stores every element of `value` into `dest`, which keeps its own strides:
    the out= and in-place variants of structured kernels. When `dest` is a
    function argument the caller sees the result in its buffer; the runtime
    rejects a `dest` that partially overlaps another argument (an exact alias,
    as in `a = a + b`, is allowed).

    Writes are ordered with reads in program order, as in PyTorch (`a.add_(s)`,
    `torch.add(x, y, out=a)`): every use after the write of `dest`, of the
    tensor `dest` is a view of, or of another view of that tensor sees the
    new values; uses before it see the old ones. `value` is computed
    completely before it is stored, so it may read `dest` (`a = flip(a) + b`
    is right; the lowering keeps a temporary exactly when an input of
    `value` overlaps `dest` other than element for element). `dest`, or the
    tensor it is a view of, must be defined in the block of the write (not,
    e.g., outside a loop that writes it). Passes on ptensor IR must not move
    or merge reads of a written tensor across the write (the elementwise ops
    are `Pure`: they read their operands where they are).

    ```mlir
    %s = ptensor.elementwise_binary add %a, %b : (...) -> !ptensor.ptensor<?xf32>
    ptensor.write %s into %a : !ptensor.ptensor<?xf32>
    ```
  }];
  let arguments = (ins PTensor:$value, PTensor:$dest);
  let assemblyFormat = [{ $value `into` $dest attr-dict `:` type($dest) }];
}

def PTensor_DeleteOp : PTensor_Op<"delete", [MemoryEffects<[MemFree]>]> {
  let summary = "releases a tensor's storage before the end of its block";
  let description = [{
    Ends the life of `source` (the RFC's `delete`): its storage is released
    here rather than at the end of the block, which lowers the peak memory of
    a function whose temporaries are large. `source` must be defined in the
    delete's block. Using `source` after the delete, in its block or in a
    later block, is an error, and so is using a tensor that may share its
    storage: a view op, `reshape`, `broadcast`, `meshgrid`, `to_ranked`,
    `team_block`, the result of a region op that yields it, or a value that
    folds to it (a copy to the same type). A second delete is an error too.

    The storage is freed at the delete when the tensor owns it and nothing
    that shares its buffer is used later (after bufferization a later op may
    still write into it in place: then it is freed where it would have been
    anyway, at the end of the block). A function argument's storage belongs to
    the caller: deleting one only ends its use. On a team each process
    releases its block (and the gathered copies of it the compiler made).

    ```mlir
    %t = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
    %s = ptensor.reduce sum %t : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<f32>
    ptensor.delete %t : !ptensor.ptensor<?xf32>
    ```
  }];
  let arguments = (ins Arg<PTensor, "the tensor released", [MemFree]>:$source);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) }];
  let hasVerifier = 1;
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
  let description = [{
    Result dimension `i` is source dimension `axes[i]`; `axes` is a
    permutation of all dimensions (negative axes count from the end). The
    result type is inferred.

    ```mlir
    %t = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<?x4xf32>
    ```
  }];
  let arguments = (ins PTensor:$source, DenseI64ArrayAttr:$axes);
  let assemblyFormat = [{
    $source $axes attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasFolder = 1;
}

def PTensor_FlipOp : PTensor_ViewOp<"flip"> {
  let summary = "reverses the order along the given axes (negative strides)";
  let description = [{
    Reverses the element order along each of the distinct `axes` (negative
    axes count from the end); a view with negative strides. The type is
    unchanged.

    ```mlir
    %f = ptensor.flip %a [0, -1] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x?xf32>
    ```
  }];
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
    `offsets[d] + i * steps[d]` of the source. There is one offset, size and
    step per dimension; steps are non-zero and may be negative; `sizes` are
    the result sizes, static or `index` operands known at run time (a
    dynamic result dim), and every element read must be in bounds (checked
    statically where the source size and the slice's size are static, at
    run time otherwise, naming the dimension and the sizes). Where a size is
    given at run time its offset must be >= 0 (a verifier error otherwise),
    so the run-time check cannot overflow.

    ```mlir
    %v = ptensor.extract_slice %a [0, 7] [4, 4] [1, -2]
        : !ptensor.ptensor<4x8xf32> -> !ptensor.ptensor<4x4xf32>
    %w = ptensor.extract_slice %b [0, 1] [%n, 2] [1, 1]
        : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x2xf32>
    ```
  }];
  let arguments = (ins PTensor:$source, Variadic<Index>:$dynamic_sizes,
                       DenseI64ArrayAttr:$offsets, DenseI64ArrayAttr:$sizes,
                       DenseI64ArrayAttr:$steps);
  let assemblyFormat = [{
    $source $offsets custom<DynamicIndexList>($dynamic_sizes, $sizes) $steps attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PTensor_ExpandDimsOp : PTensor_ViewOp<"expand_dims"> {
  let summary = "inserts a size-1 dimension at `axis`";
  let description = [{
    Inserts a size-1 dimension so that it becomes dimension `axis` of the
    result (-rank-1 <= axis <= rank).

    ```mlir
    %e = ptensor.expand_dims %a 1 : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x1x?xf32>
    ```
  }];
  let arguments = (ins PTensor:$source, I64Attr:$axis);
  let assemblyFormat = [{
    $source $axis attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PTensor_SqueezeOp : PTensor_ViewOp<"squeeze"> {
  let summary = "removes the given size-1 dimensions";
  let description = [{
    Removes the distinct `axes` (negative axes count from the end); each must
    have static size 1.

    ```mlir
    %s = ptensor.squeeze %a [0, -1] : !ptensor.ptensor<1x5x1xi8> -> !ptensor.ptensor<5xi8>
    ```
  }];
  let arguments = (ins PTensor:$source, DenseI64ArrayAttr:$axes);
  let assemblyFormat = [{
    $source $axes attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Lowering-internal ops on builtin tensors
//===----------------------------------------------------------------------===//

def PTensor_StridedViewOp : PTensor_Op<"strided_view", [
    Pure, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<BufferizableOpInterface, [
      "bufferizesToMemoryRead", "bufferizesToMemoryWrite",
      "getAliasingValues", "bufferize", "getBufferType"]>]> {
  let summary = "a builtin tensor viewed with explicit offset and strides";
  let description = [{
    The lowering of the ptensor views (convert-ptensor-to-linalg): the
    result reads the buffer of `source` (its base, as
    `memref.reinterpret_cast` does) with the given offset and strides, in
    elements, which may be zero or negative. `sizes` has one value per
    dynamic result dimension and `strides` one per result dimension.

    One-shot bufferization sees the result as an alias of `source` (like
    `tensor.extract_slice`), so it never writes in place into a buffer that
    a live view still reads; the op bufferizes to a
    `memref.reinterpret_cast` of the source's buffer, without a copy.

    ```mlir
    %v = ptensor.strided_view %t to offset: %o, sizes: [], strides: [%s1, %s0]
        : tensor<5x6xf32> to tensor<6x5xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, Index:$offset,
                       Variadic<Index>:$sizes, Variadic<Index>:$strides);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `to` `offset` `` `:` $offset `,` `sizes` `` `:` `[` $sizes `]` `,`
    `strides` `` `:` `[` $strides `]` attr-dict `:` type($source) `to` type($result)
  }];
  let extraClassDeclaration = [{
    /// One size per result dimension: static ones as attributes.
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedSizes();
  }];
  let hasVerifier = 1;
}

def PTensor_StridedWriteOp : PTensor_Op<"strided_write", [
    MemoryEffects<[MemWrite]>, AttrSizedOperandSegments,
    AllTypesMatch<["dest", "result"]>, DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<SubsetOpInterface>,
    DeclareOpInterfaceMethods<SubsetInsertionOpInterface, [
      "getSourceOperand", "isEquivalentSubset", "buildSubsetExtraction",
      "getValuesNeededToBuildSubsetExtraction"]>,
    DeclareOpInterfaceMethods<BufferizableOpInterface, [
      "bufferizesToMemoryRead", "bufferizesToMemoryWrite",
      "bufferizesToElementwiseAccess", "mustBufferizeInPlace",
      "getAliasingValues", "bufferize"]>]> {
  let summary = "stores a builtin tensor into another one's buffer, in place";
  let description = [{
    The lowering of `ptensor.write` (convert-ptensor-to-linalg): `result` is
    `dest` with `value` stored into all of it or, with `offset`, `sizes` (one
    per dynamic dimension of `value`) and `strides` (as in
    `ptensor.strided_view`: in elements, from the base of `dest`'s buffer),
    into that view of it. The lowering makes later reads of the written
    tensor read `result`, which orders them after the write.

    The store happens in `dest`'s own buffer (the caller of a function whose
    argument is written sees it): `dest` always bufferizes in place, so IR
    that still reads the old `dest` after the write reads the new contents.
    The op is a subset insertion for empty-tensor elimination: the op
    computing `value` then writes directly into `dest` (or into a
    `ptensor.strided_view` of it) and the store is a no-op, and one-shot
    bufferize keeps a temporary only where an input of that op overlaps the
    destination other than element for element. The memory effect keeps a
    store whose result is not read (e.g. into a function argument).

    ```mlir
    %a1 = ptensor.strided_write %s into %a : tensor<?xf32> into tensor<?xf32>
    %a2 = ptensor.strided_write %v into %a1 to offset: %o, sizes: [%n], strides: [%c2]
        : tensor<?xf32> into tensor<?xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value, AnyRankedTensor:$dest,
                       Optional<Index>:$offset, Variadic<Index>:$sizes,
                       Variadic<Index>:$strides);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $value `into` $dest (`to` `offset` `` `:` $offset^ `,` `sizes` `` `:` `[`
    $sizes `]` `,` `strides` `` `:` `[` $strides `]`)? attr-dict `:`
    type($value) `into` type($dest)
  }];
  let extraClassDeclaration = [{
    /// Whether the store goes to a strided view of `dest` (else all of it).
    bool hasView() { return getOffset() != nullptr; }
    /// One size per dimension of `value` (static ones as attributes).
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedSizes();
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getDestMutable();
    }
  }];
  let hasVerifier = 1;
}

def PTensor_ReleaseBufferOp : PTensor_Op<"release_buffer", [
    DeclareOpInterfaceMethods<BufferizableOpInterface, [
      "bufferizesToMemoryRead", "bufferizesToMemoryWrite",
      "getAliasingValues", "bufferize"]>]> {
  let summary = "marks where a buffer may be freed (the lowering of delete)";
  let description = [{
    The lowering of `ptensor.delete` (convert-ptensor-to-linalg): on a builtin
    tensor it bufferizes to the same op on the tensor's buffer (it reads it,
    so nothing is written in place into that buffer before it), and
    `ptensor-release-deleted`, after the deallocation pipeline, moves the
    buffer's deallocation from the end of the block up to it, when that is
    sound, and erases it. A release of a tensor that only it uses and that a
    side-effect-free op makes (an elementwise producer fused into its
    consumers) becomes a release of that op's tensor operands: the tensor
    itself is then never materialized.

    ```mlir
    ptensor.release_buffer %t : tensor<?xf32>
    ```
  }];
  // The write effect keeps it (no result, and a read alone would be dead).
  let arguments = (ins Arg<PTensor_Ranked, "the value released",
                           [MemRead, MemWrite]>:$source);
  let assemblyFormat = [{ $source attr-dict `:` type($source) }];
  let hasCanonicalizer = 1;
}

include "ptensor/Dialect/PTensor/IR/PTensorReductionOps.td"
include "ptensor/Dialect/PTensor/IR/PTensorLinalgOps.td"
include "ptensor/Dialect/PTensor/IR/PTensorManipulationOps.td"
include "ptensor/Dialect/PTensor/IR/PTensorSortingOps.td"
include "ptensor/Dialect/PTensor/IR/PTensorSetOps.td"
include "ptensor/Dialect/PTensor/IR/PTensorCompactionOps.td"
include "ptensor/Dialect/PTensor/IR/PTensorTeamOps.td"

#endif // PTENSOR_OPS_TD
