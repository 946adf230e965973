//===- PTensorDialect.td - ptensor dialect definition ------*- tablegen -*-===//
//
// The ptensor dialect: parallel tensors whose type carries shape, dtype,
// device and team (compute-follows-data).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_TD
#define PTENSOR_DIALECT_TD

include "mlir/IR/OpBase.td"

def PTensor_Dialect : Dialect {
  let name = "ptensor";
  let cppNamespace = "::mlir::ptensor";
  let summary = "Parallel tensors that follow compute-follows-data";
  let description = [{
    The `ptensor` dialect models tensors whose type says where they live: a
    `device` (host when absent, `"cuda"` or `"cuda:N"` for GPUs) and a `team`
    of processes. Every operation runs where its operands live; operands of
    one operation must agree on device and team.

    Elementwise operations follow NumPy/array-API broadcasting and the
    type-promotion rules of `docs/Semantics.md`; their result types are
    inferred (the *meta* step of structured kernels), so frontends never
    compute them. Views (`permute_dims`, `flip`, `extract_slice`,
    `expand_dims`, `squeeze`) never copy. Reductions (`reduce`, `test`,
    `find_index`) infer theirs from the same semantics library.
  }];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the ptensor types (defined in PTensorTypes.cpp).
    void registerTypes();
  }];
  // Folds to constants (ptensor.dim of a static size) become arith.constant.
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

class PTensor_Op<string mnemonic, list<Trait> traits = []>
    : Op<PTensor_Dialect, mnemonic, traits>;

#endif // PTENSOR_DIALECT_TD
