// The vector math calls keep their vectors in registers or in aligned stack
// slots (HostOptimizer.cpp, prepareMathCallers). The vector function ABI
// saves no vector register across a call, so:
//  * a loop that calls one is not interleaved: one call per iteration of
//    the vector body (interleaved 4 times, three of the four vectors were
//    spilled around every call);
//  * its function keeps a frame pointer and realigns its stack, so what
//    stays live across the call (here x of x * exp(x)) goes to an aligned
//    slot (a slot across two cache lines made the call up to 2.5x slower);
//    the guarded form's second call likewise;
//  * the guarded form's fast path is one compare (|x| <= 708) and a branch:
//    the domain's compares are made only past it.
// Compiled for AVX2 (4 doubles: libmvec's _ZGVdN4v_exp; float exp is
// ptensor's own inlined code, vector-math-inline.test) on any x86 CPU.
// REQUIRES: libmvec
// RUN: ptensor-compile --target=cpu --cpu=x86-64-v3 %s -o %t.so --print-after=lower-emutls 2>&1 | FileCheck %s --check-prefix=IR
// RUN: llvm-objdump -d --no-show-raw-insn %t.so | FileCheck %s --check-prefix=ASM

// IR-LABEL: define {{.*}} @f(
// IR: vector.body{{[0-9]*}}:
// IR: call <4 x double> @ptensor.vector_math.guarded._ZGVdN4v_exp
// IR-NOT: call
// IR: br i1
// IR-LABEL: define internal void @f..omp_par
// IR: vector.body{{[0-9]*}}:
// IR: call <4 x double> @ptensor.vector_math.guarded._ZGVdN4v_exp
// IR-NOT: call
// IR: br i1

// ASM-LABEL: <f>:
// ASM: andq $-0x20, %rsp
// ASM: vmovapd %ymm0, {{.*}}(%rsp)
// ASM-LABEL: <f..omp_par{{.*}}>:
// ASM: andq $-0x20, %rsp
// ASM: vmovapd %ymm0, {{.*}}(%rsp)
// ASM-LABEL: <ptensor.vector_math.guarded._ZGVdN4v_exp>:
// ASM: vcmplepd
// ASM-NOT: vcmp
// ASM: jb
// ASM: andq $-0x20, %rsp
// ASM-NOT: vmovup{{[sd]}} {{.*}}(%rsp)
// ASM: ret
func.func @f(%x: !ptensor.ptensor<?xf64>) -> !ptensor.ptensor<?xf64> {
  %e = ptensor.elementwise_unary exp %x : (!ptensor.ptensor<?xf64>) -> !ptensor.ptensor<?xf64>
  %y = ptensor.elementwise_binary multiply %e, %x : (!ptensor.ptensor<?xf64>, !ptensor.ptensor<?xf64>) -> !ptensor.ptensor<?xf64>
  return %y : !ptensor.ptensor<?xf64>
}
