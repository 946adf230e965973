//===- OpenMPCalls.cpp - OpenMP calls through libptensor_runtime ----------===//
//
// Loading libomp with a kernel library cost 0.4-0.7 ms of a process's first
// host call (the build machine, fresh processes), paid even by calls too
// small to fork. The runtime forwards the few entry points the translation
// of ptensor's parallel loop nests emits and loads libomp on the first fork
// (Compiler.h, forwardOpenMPCallsToRuntime).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"

#include "ptensor/Runtime/PTensorRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

namespace ptensor::compiler {

/// The prefix of OpenMP's runtime calls, and of their forwarders.
static constexpr llvm::StringLiteral kOpenMPPrefix = "__kmpc_";
static constexpr llvm::StringLiteral kForwarderPrefix = "ptensor_rt_omp_";

/// The OpenMP functions libptensor_runtime forwards, without the prefix.
static constexpr llvm::StringLiteral kForwarded[] = {
    "global_thread_num", "push_num_threads",   "fork_call",
    "for_static_init_8u", "for_static_fini",   "barrier"};

/// Whether every call of `forkCall` passes a constant argument count the
/// runtime forwards.
static bool forksAreForwardable(llvm::Function &forkCall) {
  return llvm::all_of(forkCall.users(), [](llvm::User *user) {
    auto *call = llvm::dyn_cast<llvm::CallBase>(user);
    if (!call || call->arg_size() < 3)
      return false;
    auto *count = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
    return count && count->getSExtValue() >= 0 &&
           count->getSExtValue() <= PTENSOR_RT_OMP_MAX_FORK_ARGUMENTS;
  });
}

bool forwardOpenMPCallsToRuntime(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *> openMPCalls;
  for (llvm::Function &f : module.functions()) {
    if (!f.isDeclaration())
      continue;
    llvm::StringRef name = f.getName();
    if (name.consume_front(kOpenMPPrefix)) {
      if (!llvm::is_contained(kForwarded, name) ||
          (name == "fork_call" && !forksAreForwardable(f)))
        return false;
      openMPCalls.push_back(&f);
    } else if (name.starts_with("omp_")) {
      return false; // omp_get_thread_num and the like: not forwarded
    }
  }
  for (llvm::Function *f : openMPCalls)
    f->setName(kForwarderPrefix +
               f->getName().drop_front(kOpenMPPrefix.size()));
  return !openMPCalls.empty();
}

} // namespace ptensor::compiler
