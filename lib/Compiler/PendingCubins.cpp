//===- PendingCubins.cpp - ptxas beside the host compile ------------------===//

#include "ptensor/Compiler/PendingCubins.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace ptensor::compiler {

/// The name of the global the translation embeds gpu.binary @NAME's object
/// in (MLIR's SelectObjectAttr).
static std::string binaryGlobalName(llvm::StringRef binaryName) {
  return (binaryName + "_binary").str();
}

llvm::Expected<std::string>
PendingCubins::findPtxas(llvm::StringRef cudaPath) {
  std::string inToolkit = (cudaPath + "/bin/ptxas").str();
  if (llvm::sys::fs::can_execute(inToolkit))
    return inToolkit;
  llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas");
  if (!onPath)
    return llvm::createStringError("ptxas is neither in " + cudaPath +
                                   "/bin nor on PATH; set CUDA_HOME to "
                                   "the CUDA toolkit");
  return *onPath;
}

llvm::Expected<std::unique_ptr<PendingCubins>>
PendingCubins::start(ModuleOp module, llvm::StringRef cudaPath) {
  std::unique_ptr<PendingCubins> pending(new PendingCubins);
  llvm::Expected<std::string> ptxas = findPtxas(cudaPath);
  if (!ptxas)
    return ptxas.takeError();
  pending->ptxas = std::move(*ptxas);
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    auto job = std::make_unique<Job>();
    job->binaryName = binary.getName().str();
    gpu::ObjectAttr object;
    for (Attribute part : binary.getObjectsAttr()) {
      auto partObject = dyn_cast<gpu::ObjectAttr>(part);
      if (!partObject || !isa<NVVM::NVVMTargetAttr>(partObject.getTarget()) ||
          partObject.getFormat() != gpu::CompilationTarget::Assembly ||
          (object && partObject.getTarget() != object.getTarget()))
        return llvm::createStringError(
            "gpu.binary @" + job->binaryName +
            " does not hold NVVM objects in PTX of one target: ptxas "
            "cannot assemble it");
      object = object ? object : partObject;
      job->ptx.push_back(partObject.getObject().getValue().str());
    }
    if (!object)
      return llvm::createStringError("gpu.binary @" + job->binaryName +
                                     " holds no object for ptxas");
    auto target = cast<NVVM::NVVMTargetAttr>(object.getTarget());
    job->placeholder = "ptensor: the cubin of " + job->binaryName +
                       " is being assembled";
    // As gpu-module-to-binary calls ptxas (MLIR 22's NVVM target), so a
    // binary of one part gets the same cubin byte for byte, and one of
    // several parts the same kernels' code
    // (test/Tools/compile-cuda-pending-cubins.mlir).
    job->ptxasArgs = {"ptxas", "-arch", target.getChip().str(), "--opt-level",
                      std::to_string(target.getO())};
    if (target.hasCmdOptions())
      if (auto flags = dyn_cast<ArrayAttr>(target.getCmdOptions()->getValue()))
        for (Attribute flag : flags)
          if (auto text = dyn_cast<StringAttr>(flag))
            job->ptxasArgs.push_back(text.str());
    binary.setObjectsAttr(ArrayAttr::get(
        module.getContext(),
        {gpu::ObjectAttr::get(
            module.getContext(), target, gpu::CompilationTarget::Binary,
            StringAttr::get(module.getContext(), job->placeholder),
            object.getProperties(), object.getKernels())}));
    pending->jobs.push_back(std::move(job));
  }
  for (auto &job : pending->jobs)
    pending->threads.emplace_back(assemble, pending->ptxas, std::ref(*job));
  return pending;
}

void PendingCubins::assemble(const std::string &ptxas, Job &job) {
  llvm::SmallString<128> cubinFile, logFile;
  std::vector<llvm::SmallString<128>> ptxFiles(job.ptx.size());
  std::vector<llvm::SmallString<128> *> files = {&cubinFile, &logFile};
  for (llvm::SmallString<128> &ptxFile : ptxFiles)
    files.push_back(&ptxFile);
  std::error_code created;
  for (llvm::SmallString<128> *file : files) {
    llvm::StringRef suffix = file == &cubinFile ? "cubin"
                             : file == &logFile ? "log"
                                                : "ptx";
    if (!created)
      created = llvm::sys::fs::createTemporaryFile("ptensor-kernels", suffix,
                                                   *file);
  }
  // Whatever was created goes at the end.
  llvm::scope_exit removeFiles([&] {
    for (llvm::SmallString<128> *file : files)
      if (!file->empty())
        llvm::sys::fs::remove(*file);
  });
  if (created) {
    job.error = "cannot create a temporary file for ptxas: " +
                created.message();
    return;
  }
  for (auto [ptxFile, ptx] : llvm::zip_equal(ptxFiles, job.ptx)) {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxFile, ec);
    if (!ec)
      os << ptx;
    if (ec || os.has_error()) {
      job.error = "cannot write the PTX to " + ptxFile.str().str();
      return;
    }
  }
  llvm::SmallVector<llvm::StringRef> args(job.ptxasArgs.begin(),
                                          job.ptxasArgs.end());
  args.append({"-o", cubinFile});
  for (const llvm::SmallString<128> &ptxFile : ptxFiles)
    args.push_back(ptxFile);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logFile.str(),
                                                logFile.str()};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         0, 0, &message);
  if (status != 0) {
    auto log = llvm::MemoryBuffer::getFile(logFile);
    job.error = "ptxas failed on the kernels of " + job.binaryName + ": " +
                (log && (*log)->getBufferSize()
                     ? (*log)->getBuffer().rtrim().str()
                     : message.empty() ? "exit status " + std::to_string(status)
                                       : message);
    return;
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin) {
    job.error = "cannot read ptxas's output " + cubinFile.str().str() + ": " +
                cubin.getError().message();
    return;
  }
  job.cubin = (*cubin)->getBuffer().str();
}

void PendingCubins::join() {
  for (std::thread &thread : threads)
    if (thread.joinable())
      thread.join();
}

PendingCubins::~PendingCubins() { join(); }

namespace {
/// The placeholder global of a gpu.binary in the translated host code and
/// the one mgpuModuleLoad(global, size) call of its load constructor.
struct Placeholder {
  llvm::GlobalVariable *global;
  llvm::CallInst *load;
};
} // namespace

/// Finds the placeholder `placeholderText` of gpu.binary `binaryName` in
/// `module`, as the translation leaves it; fails naming what differs.
static llvm::Expected<Placeholder>
findPlaceholder(llvm::Module &module, llvm::StringRef binaryName,
                llvm::StringRef placeholderText) {
  auto fail = [&](const llvm::Twine &what) {
    return llvm::createStringError(
        "cannot embed the cubin of " + binaryName + ": " + what +
        " (the translation of gpu.binary changed?)");
  };
  std::string name = binaryGlobalName(binaryName);
  llvm::GlobalVariable *placeholder =
      module.getGlobalVariable(name, /*AllowInternal=*/true);
  auto *text = placeholder && placeholder->hasInitializer()
                   ? dyn_cast<llvm::ConstantDataArray>(
                         placeholder->getInitializer())
                   : nullptr;
  if (!text || text->getRawDataValues() != placeholderText)
    return fail("no global " + name + " holding the placeholder");
  llvm::CallInst *load = nullptr;
  for (llvm::User *user : placeholder->users()) {
    auto *call = dyn_cast<llvm::CallInst>(user);
    llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
    if (!callee || callee->getName() != "mgpuModuleLoad" ||
        call->arg_size() != 2 || call->getArgOperand(0) != placeholder ||
        load)
      return fail("the uses of " + name +
                  " are not one mgpuModuleLoad(" + name + ", size) call");
    load = call;
  }
  auto *size = load ? dyn_cast<llvm::ConstantInt>(load->getArgOperand(1))
                    : nullptr;
  if (!size || !size->getType()->isIntegerTy(64) ||
      size->getZExtValue() != placeholderText.size())
    return fail("no mgpuModuleLoad(" + name + ", i64 " +
                llvm::Twine(placeholderText.size()) + ") call");
  return Placeholder{placeholder, load};
}

/// Replaces `placeholder.global` by `replacement` (which takes its name)
/// in every use, and erases it.
static void replaceGlobal(Placeholder placeholder,
                          llvm::GlobalVariable *replacement) {
  replacement->takeName(placeholder.global);
  placeholder.global->replaceAllUsesWith(replacement);
  placeholder.global->eraseFromParent();
}

/// The cubin `cubin` as a constant of `context`.
static llvm::Constant *cubinData(llvm::LLVMContext &context,
                                 llvm::StringRef cubin) {
  return llvm::ConstantDataArray::getString(context, cubin, /*AddNull=*/false);
}

llvm::Error PendingCubins::wait() {
  join();
  for (const auto &job : jobs)
    if (!job->error.empty())
      return llvm::createStringError(job->error);
  return llvm::Error::success();
}

llvm::Error PendingCubins::embed(llvm::Module &module) {
  if (llvm::Error e = wait())
    return e;
  for (const auto &job : jobs) {
    auto placeholder =
        findPlaceholder(module, job->binaryName, job->placeholder);
    if (!placeholder)
      return placeholder.takeError();
    llvm::Constant *data = cubinData(module.getContext(), job->cubin);
    auto *global = new llvm::GlobalVariable(
        module, data->getType(), /*isConstant=*/true,
        placeholder->global->getLinkage(), data, "", placeholder->global);
    global->copyAttributesFrom(placeholder->global);
    placeholder->load->setArgOperand(
        1, llvm::ConstantInt::get(llvm::Type::getInt64Ty(module.getContext()),
                                  job->cubin.size()));
    replaceGlobal(*placeholder, global);
  }
  return llvm::Error::success();
}

/// A hidden constant global `name` of type `type` in `module`: defined by
/// `initializer`, or (when null) declared, defined in the object of the
/// cubins that is linked into the same library.
static llvm::GlobalVariable *hiddenGlobal(llvm::Module &module,
                                          llvm::Type *type,
                                          const llvm::Twine &name,
                                          llvm::Constant *initializer) {
  auto *global = new llvm::GlobalVariable(
      module, type, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
      initializer, name);
  global->setVisibility(llvm::GlobalValue::HiddenVisibility);
  return global;
}

llvm::Error PendingCubins::referenceExternally(llvm::Module &module) {
  for (const auto &job : jobs) {
    auto placeholder =
        findPlaceholder(module, job->binaryName, job->placeholder);
    if (!placeholder)
      return placeholder.takeError();
    llvm::IRBuilder<> builder(placeholder->load);
    llvm::Type *sizeType = builder.getInt64Ty();
    llvm::GlobalVariable *size =
        hiddenGlobal(module, sizeType,
                     binaryGlobalName(job->binaryName) + "_size", nullptr);
    placeholder->load->setArgOperand(1, builder.CreateLoad(sizeType, size));
    llvm::GlobalVariable *cubin = hiddenGlobal(
        module, llvm::ArrayType::get(builder.getInt8Ty(), 0), "", nullptr);
    // cubinModule gives the definition the placeholder's alignment.
    cubin->setAlignment(placeholder->global->getAlign());
    replaceGlobal(*placeholder, cubin);
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<llvm::Module>>
PendingCubins::cubinModule(const llvm::Module &host) {
  if (llvm::Error e = wait())
    return std::move(e);
  auto module = std::make_unique<llvm::Module>("ptensor-cubins",
                                               host.getContext());
  module->setTargetTriple(host.getTargetTriple());
  module->setDataLayout(host.getDataLayout());
  llvm::Type *sizeType = llvm::Type::getInt64Ty(host.getContext());
  for (const auto &job : jobs) {
    std::string name = binaryGlobalName(job->binaryName);
    llvm::GlobalVariable *declaration = host.getGlobalVariable(name);
    if (!declaration)
      return llvm::createStringError(
          "cannot define the cubin of " + job->binaryName + ": the host code "
          "declares no " + name + " (was referenceExternally called?)");
    llvm::Constant *data = cubinData(host.getContext(), job->cubin);
    hiddenGlobal(*module, data->getType(), name, data)
        ->setAlignment(declaration->getAlign());
    hiddenGlobal(*module, sizeType, name + "_size",
                 llvm::ConstantInt::get(sizeType, job->cubin.size()));
  }
  return module;
}

} // namespace ptensor::compiler
