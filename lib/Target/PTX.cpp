#include "blk/Support/InternalErrors.h"
#include "blk/Target/PTX.h"
#include "blk/Support/OccupancyRequests.h"

#include "DistributeConstantOffsets.h"

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#ifndef BLK_DEFAULT_LIBDEVICE
#define BLK_DEFAULT_LIBDEVICE "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
#endif
#ifndef BLK_DEFAULT_PTXAS
#define BLK_DEFAULT_PTXAS "/usr/local/cuda/bin/ptxas"
#endif

using namespace mlir;

namespace blk {

std::string ptxasPath(const TargetOptions &options) {
  return options.ptxas.empty() ? BLK_DEFAULT_PTXAS : options.ptxas;
}

bool isSupportedArch(llvm::StringRef arch) {
  return llvm::is_contained({"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"}, arch);
}

namespace {

std::unique_ptr<llvm::TargetMachine> makeTargetMachine(const TargetOptions &options, int ptxVersion,
                                                       std::string &error) {
  static bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple("nvptx64-nvidia-cuda");
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  // PTX 8.0 is the oldest version with every feature of sm_90a; CUDA 12+
  // drivers take it. Modules that need newer instructions ask for more.
  std::string features = "+ptx" + std::to_string(std::max(ptxVersion, 80));
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, options.arch, features, llvm::TargetOptions(), std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
}

/// Translates, links libdevice where used, and optimizes at O3.
FailureOr<std::unique_ptr<llvm::Module>> buildModule(ModuleOp module, const TargetOptions &options,
                                                     llvm::LLVMContext &llctx, llvm::TargetMachine &tm) {
  MLIRContext *ctx = module.getContext();
  registerBuiltinDialectTranslation(*ctx);
  registerLLVMDialectTranslation(*ctx);
  registerNVVMDialectTranslation(*ctx);
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, llctx, "blk");
  if (!llvmModule)
    return emitError(module.getLoc()) << "translation to LLVM IR failed", failure();
  llvmModule->setTargetTriple(tm.getTargetTriple());
  llvmModule->setDataLayout(tm.createDataLayout());

  bool needsLibdevice = llvm::any_of(*llvmModule, [](llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (needsLibdevice) {
    std::string path = options.libdevice.empty() ? BLK_DEFAULT_LIBDEVICE : options.libdevice;
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      return userFacing(emitError(module.getLoc())) << "cannot read libdevice at " << path, failure();
    // Lazy loading materializes only the functions the kernel calls.
    auto lib = llvm::getLazyBitcodeModule((*buffer)->getMemBufferRef(), llctx);
    if (!lib)
      return userFacing(emitError(module.getLoc())) << "cannot parse libdevice: " << llvm::toString(lib.takeError()), failure();
    (*lib)->setTargetTriple(tm.getTargetTriple());
    (*lib)->setDataLayout(tm.createDataLayout());
    if (llvm::Linker::linkModules(*llvmModule, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded))
      return emitError(module.getLoc()) << "linking libdevice failed", failure();
    llvmModule->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  }
  for (llvm::Function &f : *llvmModule)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager &mpm, llvm::OptimizationLevel, llvm::ThinOrFullLTOPhase) {
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(DistributeConstantOffsetsPass()));
  });
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(*llvmModule, mam);
  return llvmModule;
}

} // namespace

/// The target machine and the optimized LLVM module of `module`, which lives in `llctx`.
struct Translated {
  std::unique_ptr<llvm::TargetMachine> tm;
  std::unique_ptr<llvm::Module> module;
};
static FailureOr<Translated> translate(ModuleOp module, const TargetOptions &options, llvm::LLVMContext &llctx) {
  std::string error;
  Translated t;
  int ptxVersion = 0; // blk.min_ptx_version of the module or a nested one
  module->walk([&](ModuleOp m) {
    if (auto v = m->getAttrOfType<IntegerAttr>(kMinPtxVersionAttr))
      ptxVersion = std::max<int>(ptxVersion, v.getInt());
  });
  t.tm = makeTargetMachine(options, ptxVersion, error);
  if (!t.tm)
    return userFacing(emitError(module.getLoc())) << "NVPTX target unavailable: " << error, failure();
  auto llvmModule = buildModule(module, options, llctx, *t.tm);
  if (failed(llvmModule))
    return failure();
  t.module = std::move(*llvmModule);
  return t;
}

FailureOr<std::string> emitLLVMIR(ModuleOp module, const TargetOptions &options) {
  llvm::LLVMContext llctx;
  auto t = translate(module, options, llctx);
  if (failed(t))
    return failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  t->module->print(os, nullptr);
  return text;
}

namespace {

/// Skips NVPTX's straight-line strength reduction in very large functions.
/// Its time grows much faster than the function: 0.13 s of attention
/// forward's 0.17 s of code generation (2.9k instructions), 14 s for a
/// 65536-wide row on 4 warps (10.8k instructions, 512 values per thread).
/// Functions that large spill anyway, and ptxas strength-reduces addresses
/// itself. The shipped kernels stay below the bound (attention's causal dK/dV,
/// the largest, is about 7k).
class SkipStrengthReductionInLargeFunctions : public llvm::OptPassGate {
public:
  static constexpr unsigned kMaxInstructions = 9000;

  explicit SkipStrengthReductionInLargeFunctions(const llvm::Module &module) {
    for (const llvm::Function &f : module)
      if (f.getInstructionCount() > kMaxInstructions)
        large.push_back("function (" + f.getName().str() + ")");
  }
  bool isEnabled() const override { return !large.empty(); }
  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef unit) const override {
    return pass != "slsr" || !llvm::is_contained(large, unit);
  }

private:
  std::vector<std::string> large; // as the legacy pass manager names its units
};

} // namespace

FailureOr<std::string> emitPTX(ModuleOp module, const TargetOptions &options,
                               llvm::function_ref<void(const char *)> phaseDone) {
  llvm::LLVMContext llctx;
  auto t = translate(module, options, llctx);
  if (failed(t))
    return failure();
  if (phaseDone)
    phaseDone("llvm");
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  SkipStrengthReductionInLargeFunctions gate(*t->module);
  llctx.setOptPassGate(gate);
  llvm::legacy::PassManager pm;
  if (t->tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    return emitError(module.getLoc()) << "the NVPTX backend cannot emit assembly", failure();
  pm.run(*t->module);
  if (phaseDone)
    phaseDone("ptx");
  return std::string(ptx.str());
}

static FailureOr<CubinResult> runPtxas(llvm::StringRef ptx, const TargetOptions &options, Location loc) {
  std::string ptxas = ptxasPath(options);
  llvm::SmallString<128> in, out, log;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("blk", "ptx", fd, in) ||
      llvm::sys::fs::createTemporaryFile("blk", "cubin", out) ||
      llvm::sys::fs::createTemporaryFile("blk", "log", log))
    return userFacing(emitError(loc)) << "cannot create temporary files for ptxas", failure();
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  llvm::SmallVector<llvm::StringRef> args{ptxas, "-v", "--gpu-name", options.arch, "-o", out, in};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &execError);
  CubinResult result;
  if (auto buf = llvm::MemoryBuffer::getFile(log))
    result.log = (*buf)->getBuffer().str();
  if (rc == 0)
    if (auto buf = llvm::MemoryBuffer::getFile(out))
      result.cubin = (*buf)->getBuffer().str();
  llvm::sys::fs::remove(in);
  llvm::sys::fs::remove(out);
  llvm::sys::fs::remove(log);
  if (rc != 0 && !execError.empty()) // ptxas missing or not runnable: the installation's fault
    return userFacing(emitError(loc)) << "cannot run ptxas (" << ptxas << "): " << execError, failure();
  if (rc != 0)
    return emitError(loc) << "ptxas rejected the PTX:\n" << result.log,
           failure();
  // "Compiling entry function 'k' for 'sm_90a'", then "N bytes spill stores",
  // then "Used R registers[, S bytes smem]".
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::Regex used("Used ([0-9]+) registers(.*)");
  llvm::Regex smem("([0-9]+) bytes smem");
  llvm::Regex spill("([0-9]+) bytes spill stores");
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(result.log).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> m;
    if (entry.match(line, &m)) {
      result.kernels.push_back({m[1].str()});
    } else if (!result.kernels.empty() && used.match(line, &m)) {
      result.kernels.back().registers = std::stoi(m[1].str());
      llvm::SmallVector<llvm::StringRef> s;
      if (smem.match(m[2], &s))
        result.kernels.back().sharedBytes = std::stoi(s[1].str());
    } else if (!result.kernels.empty() && spill.match(line, &m)) {
      result.kernels.back().spillStores = std::stoi(m[1].str());
    }
  }
  return result;
}

FailureOr<CubinResult> assemblePTX(llvm::StringRef ptx, const TargetOptions &options, Location loc) {
  FailureOr<CubinResult> result = runPtxas(ptx, options, loc);
  if (failed(result))
    return failure();
  // A kernel that asks for several programs per SM (blk-programs-per-sm)
  // and spills to fit their registers is assembled again without the
  // request, as the runtime loads it.
  std::string text = ptx.str();
  std::vector<OccupancyRequest> spilling;
  for (OccupancyRequest &request : occupancyRequests(text))
    if (llvm::any_of(result->kernels, [&](const CubinResult::KernelInfo &k) {
          return k.name == request.entry && k.spillStores > 0;
        }))
      spilling.push_back(std::move(request));
  if (spilling.empty())
    return result;
  return runPtxas(withoutRequests(text, spilling), options, loc);
}

} // namespace blk
