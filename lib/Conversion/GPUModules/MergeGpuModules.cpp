//===- MergeGpuModules.cpp - the kernels of a module in one gpu.module ----===//

#include "ptensor/Conversion/GPUModules/GPUModules.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORMERGEGPUMODULES
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

namespace {

/// What two gpu.modules must share to be merged: their targets, offloading
/// handler and other attributes (the name aside).
Attribute mergeKey(gpu::GPUModuleOp module) {
  NamedAttrList attrs(module->getDiscardableAttrDictionary());
  if (ArrayAttr targets = module.getTargetsAttr())
    attrs.set("ptensor.merge.targets", targets);
  if (Attribute handler = module.getOffloadingHandlerAttr())
    attrs.set("ptensor.merge.handler", handler);
  return attrs.getDictionary(module.getContext());
}

/// The op's text: two same-named symbols with the same text (the helper
/// functions that outlining copies into each kernel's module, their
/// declarations) are one.
std::string textOf(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().printGenericOpForm());
  return text;
}

/// Whether `module` holds symbols only (and its terminator, if any): other
/// ops (llvm.module_flags, ...) are the module's own and it stays apart.
bool holdsSymbolsOnly(gpu::GPUModuleOp module) {
  return llvm::all_of(module.getBody()->getOperations(), [](Operation &op) {
    return isa<SymbolOpInterface>(op) || op.hasTrait<OpTrait::IsTerminator>();
  });
}

/// A name for `base` that neither table holds.
StringAttr freshName(StringAttr base, SymbolTable &a, SymbolTable &b) {
  MLIRContext *context = base.getContext();
  for (unsigned i = 0;; ++i) {
    StringAttr name =
        StringAttr::get(context, base.getValue() + "_m" + llvm::Twine(i));
    if (!a.lookup(name) && !b.lookup(name))
      return name;
  }
}

struct MergeGpuModules
    : public mlir::ptensor::impl::PTensorMergeGpuModulesBase<MergeGpuModules> {
  void runOnOperation() override {
    ModuleOp top = getOperation();
    llvm::MapVector<Attribute, SmallVector<gpu::GPUModuleOp>> groups;
    for (gpu::GPUModuleOp module : top.getOps<gpu::GPUModuleOp>())
      if (holdsSymbolsOnly(module))
        groups[mergeKey(module)].push_back(module);
    // Per merged module: its kernels' new references.
    llvm::DenseMap<SymbolRefAttr, SymbolRefAttr> moved;
    for (auto &group : groups) {
      ArrayRef<gpu::GPUModuleOp> modules = group.second;
      gpu::GPUModuleOp into = modules.front();
      SymbolTable intoTable(into);
      for (gpu::GPUModuleOp from : modules.drop_front())
        if (failed(merge(from, into, intoTable, moved)))
          return signalPassFailure();
    }
    if (moved.empty())
      return;
    top.walk([&](gpu::LaunchFuncOp launch) {
      auto it = moved.find(launch.getKernel());
      if (it != moved.end())
        launch.setKernelAttr(it->second);
    });
  }

  /// Moves the symbols of `from` into `into` (a same-named symbol that is
  /// the same is dropped, any other renamed) and erases `from`; `moved`
  /// maps `@from::@k` to `@into::@k'` for every symbol moved. Leaves both
  /// as they are when a declaration of `from` differs from the same-named
  /// one of `into` (it names an outside function: renaming would break the
  /// link).
  LogicalResult merge(gpu::GPUModuleOp from, gpu::GPUModuleOp into,
                      SymbolTable &intoTable,
                      llvm::DenseMap<SymbolRefAttr, SymbolRefAttr> &moved) {
    SymbolTable fromTable(from);
    StringAttr fromName = from.getSymNameAttr();
    StringAttr intoName = into.getSymNameAttr();
    // Symbols whose copy in `into` has the same text.
    llvm::SetVector<StringAttr> same;
    for (Operation &op : from.getBody()->getOperations()) {
      auto symbol = dyn_cast<SymbolOpInterface>(&op);
      if (!symbol)
        continue; // the terminator (holdsSymbolsOnly)
      Operation *existing = intoTable.lookup(symbol.getNameAttr());
      if (!existing)
        continue;
      if (textOf(existing) == textOf(&op))
        same.insert(symbol.getNameAttr());
      else if (symbol.isDeclaration())
        return success();
    }
    // A copy is the same only if what it refers to in `from` is too (else
    // it would call `into`'s different symbol of that name).
    for (bool changed = true; changed;) {
      changed = false;
      for (StringAttr name : llvm::to_vector(same)) {
        std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(fromTable.lookup(name));
        bool keep = uses.has_value(); // not: uses it cannot list
        if (uses)
          for (const SymbolTable::SymbolUse &use : *uses) {
            StringAttr target = use.getSymbolRef().getRootReference();
            if (fromTable.lookup(target) && !same.contains(target))
              keep = false;
          }
        if (!keep) {
          same.remove(name);
          changed = true;
        }
      }
    }
    SmallVector<Operation *> toMove, toDrop;
    llvm::DenseMap<StringAttr, StringAttr> names;
    for (Operation &op : from.getBody()->getOperations()) {
      auto symbol = dyn_cast<SymbolOpInterface>(&op);
      if (!symbol)
        continue;
      StringAttr name = symbol.getNameAttr();
      names[name] = name;
      (same.contains(name) ? toDrop : toMove).push_back(&op);
    }
    // Renamed in `from` first, which updates the uses inside it.
    for (Operation *op : toMove) {
      StringAttr name = SymbolTable::getSymbolName(op);
      if (!intoTable.lookup(name))
        continue;
      // A kernel takes its module's name (unique among the modules, and
      // what the launch said), anything else a suffix.
      auto function = dyn_cast<gpu::GPUFuncOp>(op);
      StringAttr fresh = function && function.isKernel() &&
                                 !intoTable.lookup(fromName) &&
                                 !fromTable.lookup(fromName)
                             ? fromName
                             : freshName(name, intoTable, fromTable);
      if (failed(fromTable.rename(op, fresh)))
        return op->emitOpError("cannot be renamed to ") << fresh;
      names[name] = fresh;
    }
    for (Operation *op : toDrop)
      op->erase();
    for (Operation *op : toMove) {
      op->remove();
      intoTable.insert(op);
    }
    for (auto [name, now] : names)
      moved[SymbolRefAttr::get(fromName, {FlatSymbolRefAttr::get(name)})] =
          SymbolRefAttr::get(intoName, {FlatSymbolRefAttr::get(now)});
    from->erase();
    return success();
  }
};

} // namespace
