// RUN: ptensor-opt --help | FileCheck %s
// RUN: ptensor-opt --help | FileCheck %s --check-prefix=OPTS

// Every ptensor pass and both named pipelines are registered with
// ptensor-opt, with their summaries and options.

// CHECK-DAG: --convert-ptensor-linalg-to-gpu {{.*}}Turns the fused loops of device functions into GPU kernels
// CHECK-DAG: --convert-ptensor-to-linalg {{.*}}Lowers ptensor ops to linalg.generic on builtin tensors
// CHECK-DAG: --ptensor-broadcast {{.*}}Makes implicit broadcasting explicit
// CHECK-DAG: --ptensor-copies-to-linalg {{.*}}Turns memref.copy into an elementwise linalg.generic
// CHECK-DAG: --ptensor-gpu-module-to-binary {{.*}}gpu-module-to-binary, failing when serialization reports an error
// CHECK-DAG: --ptensor-fuse-elementwise {{.*}}Fuses chains of elementwise linalg.generic ops
// CHECK-DAG: --ptensor-layout {{.*}}TensorIterator layout decisions
// CHECK-DAG: --ptensor-promote-types {{.*}}Inserts explicit casts to every op's computation dtype
// CHECK-DAG: --ptensor-to-cpu-pipeline {{.*}}Lowers ptensor ops on host data to the LLVM dialect
// CHECK-DAG: --ptensor-to-nvvm-pipeline {{.*}}Lowers ptensor ops to LLVM host code with embedded CUDA kernels

// Pass and pipeline options, each under its pass.
// OPTS:      --convert-ptensor-linalg-to-gpu
// OPTS-NEXT:   --block-size=<uint>
// OPTS-NEXT:   --math-max-blocks=<uint>
// OPTS-NEXT:   --max-blocks=<uint>
// OPTS:      --ptensor-fuse-elementwise
// OPTS-NEXT:   --max-recompute-ops=<uint>
// OPTS:      --ptensor-to-cpu-pipeline
// OPTS-NEXT:   --inner-block=<long>
// OPTS-NEXT:   --max-recompute-ops=<uint>
// OPTS:      --ptensor-to-nvvm-pipeline
// OPTS-NEXT:   --block-size=<uint>
// OPTS-NEXT:   --chip=<string>
// OPTS-NEXT:   --cuda-path=<string>
// OPTS-NEXT:   --features=<string>
// OPTS-NEXT:   --format=<string>
// OPTS-NEXT:   --math-max-blocks=<uint>
// OPTS-NEXT:   --max-blocks=<uint>
// OPTS-NEXT:   --max-recompute-ops=<uint>
// OPTS-NEXT:   --opt-level=<uint>

// The ptensor dialect itself is registered.
// RUN: ptensor-opt --show-dialects | FileCheck %s --check-prefix=DIALECT
// DIALECT: ptensor
