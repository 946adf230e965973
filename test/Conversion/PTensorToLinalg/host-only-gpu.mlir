// RUN: ptensor-opt %s --convert-ptensor-to-linalg -split-input-file -verify-diagnostics

// The count and compaction of extract_mask, nonzero and unique run on the host; a GPU
// tensor is an error that says so (the CUB-based device lowering is future
// work).

func.func @on_gpu(%a: !ptensor.ptensor<?xf32, device = "cuda:0">, %m: !ptensor.ptensor<?xi1, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  // expected-error @below {{extract_mask of a GPU tensor (on "cuda:0") is not lowered yet: its count and compaction run on the host; copy the operands to the host (ptensor.copy) first}}
  %r = ptensor.extract_mask %a, %m : (!ptensor.ptensor<?xf32, device = "cuda:0">, !ptensor.ptensor<?xi1, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %r : !ptensor.ptensor<?xf32, device = "cuda:0">
}

// -----

func.func @nonzero_on_gpu(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xi64, device = "cuda:0"> {
  // expected-error @below {{nonzero of a GPU tensor (on "cuda:0") is not lowered yet: its count and compaction run on the host; copy the operands to the host (ptensor.copy) first}}
  %r = ptensor.nonzero %a : !ptensor.ptensor<?xf32, device = "cuda:0"> -> (!ptensor.ptensor<?xi64, device = "cuda:0">)
  return %r : !ptensor.ptensor<?xi64, device = "cuda:0">
}

// -----

func.func @unique_on_gpu(%a: !ptensor.ptensor<?x?xi32, device = "cuda:0">) -> !ptensor.ptensor<?xi32, device = "cuda:0"> {
  // expected-error @below {{unique of a GPU tensor (on "cuda:0") is not lowered yet: its count and compaction run on the host; copy the operands to the host (ptensor.copy) first}}
  %r = ptensor.unique values %a : !ptensor.ptensor<?x?xi32, device = "cuda:0"> -> (!ptensor.ptensor<?xi32, device = "cuda:0">)
  return %r : !ptensor.ptensor<?xi32, device = "cuda:0">
}
