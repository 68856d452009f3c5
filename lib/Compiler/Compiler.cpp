#include "blk/Compiler/Compiler.h"

#include "blk/Analysis/LayoutReport.h"
#include "blk/Dialect/Blk/IR/Dialect.h"
#include "blk/Frontend/Parser.h"
#include "blk/Pipeline/Pipeline.h"
#include "blk/Support/InternalErrors.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace mlir;

namespace blk {

bool parseStage(llvm::StringRef name, Stage &out) {
  static const std::pair<const char *, Stage> stages[] = {{"ast", Stage::AST},   {"blk", Stage::Blk},
                                                          {"gpu", Stage::GPU},   {"layouts", Stage::Layouts}, {"llvm", Stage::LLVM},
                                                          {"ptx", Stage::PTX},   {"cubin", Stage::Cubin},
                                                          {"header", Stage::Header}};
  for (auto &[n, s] : stages)
    if (name == n) {
      out = s;
      return true;
    }
  return false;
}

namespace {

struct Timer {
  std::vector<PhaseTime> &phases;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  void lap(const char *name) {
    auto now = std::chrono::steady_clock::now();
    phases.push_back({name, std::chrono::duration<double, std::milli>(now - start).count()});
    start = now;
  }
};

std::string argTypeName(Type t) {
  if (isa<PointerType>(t))
    return "ptr";
  if (t.isBF16())
    return "bf16";
  if (auto f = dyn_cast<FloatType>(t))
    return "f" + std::to_string(f.getWidth());
  return "i" + std::to_string(t.getIntOrFloatBitWidth());
}

/// The hidden tensor-map parameters of `f` (blk-lower-tensor-descriptors),
/// in the signature line's notation.
std::vector<std::string> tensorMaps(func::FuncOp f) {
  std::vector<std::string> maps;
  auto source = [](int64_t v) { return v >= 0 ? "a" + std::to_string(v) : "c" + std::to_string(-v); };
  auto list = [&](ArrayRef<int64_t> values, bool isSource) {
    std::vector<std::string> items;
    for (int64_t v : values)
      items.push_back(isSource ? source(v) : std::to_string(v));
    return llvm::join(items, "|");
  };
  for (unsigned i = 0; i < f.getNumArguments(); ++i) {
    auto base = f.getArgAttrOfType<IntegerAttr>(i, kTmaBaseAttr);
    if (!base)
      continue;
    auto desc = cast<TensorDescType>(f.getArgument(i).getType());
    TmaBox box = tmaBox(desc);
    // TMA copies bytes: 8-bit floats travel as u8 (the runtime's i8).
    Type elem = desc.getElementType();
    std::string elemName = isFloat8(elem) ? "i8" : argTypeName(elem);
    maps.push_back(elemName + ":" + source(base.getInt()) + ":" +
                   list(f.getArgAttrOfType<DenseI64ArrayAttr>(i, kTmaShapeAttr).asArrayRef(), true) + ":" +
                   list(f.getArgAttrOfType<DenseI64ArrayAttr>(i, kTmaStridesAttr).asArrayRef(), true) + ":" +
                   list(box.shape, false) + ":" + std::to_string(box.swizzleBytes));
  }
  return maps;
}

/// A pass that fails as a compiler bug would, for the tests of how such
/// failures reach the user (CompileOptions::injectInternalError).
struct InjectedFailurePass : PassWrapper<InjectedFailurePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InjectedFailurePass)
  StringRef getArgument() const override { return "blk-injected-failure"; }
  void runOnOperation() override {
    for (auto f : getOperation().getOps<func::FuncOp>())
      f.emitOpError("failed as asked by --inject-internal-error");
    signalPassFailure();
  }
};

void addInjectedFailure(PassManager &pm, const CompileOptions &options, StringRef phase) {
  if (options.injectInternalError == phase)
    pm.addPass(std::make_unique<InjectedFailurePass>());
}

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

} // namespace

std::string signatureLines(const std::vector<KernelInfo> &kernels) {
  std::string lines;
  for (const KernelInfo &k : kernels)
    lines += "// blk.kernel " + k.name + " num_warps=" + std::to_string(k.numWarps) +
             (k.producerWarps ? " producer_warps=" + std::to_string(k.producerWarps) : "") +
             " shared=" + std::to_string(k.sharedMemory) + " args=" +
             llvm::join(k.argTypes, ",") + " constants=" + llvm::join(k.constants, ",") +
             " spec=" + llvm::join(k.specialization, ",") +
             (k.tensorMaps.empty() ? "" : " tma=" + llvm::join(k.tensorMaps, ";")) + "\n";
  return lines;
}

static constexpr llvm::StringLiteral kInjectionPhases[] = {"frontend", "blk-passes", "lowering"};

std::string invalidOptions(const CompileOptions &options) {
  if (!isSupportedArch(options.target.arch))
    return "unsupported --arch '" + options.target.arch + "' (sm_80, sm_86, sm_89, sm_90 or sm_90a)";
  if (options.numWarps < 1 || options.numWarps > 32 || (options.numWarps & (options.numWarps - 1)))
    return "--num-warps must be a power of two from 1 to 32, got " + std::to_string(options.numWarps);
  if (options.numStages < 1 || options.numStages > 8)
    return "--num-stages must be from 1 to 8, got " + std::to_string(options.numStages);
  if (!options.injectInternalError.empty() && !llvm::is_contained(kInjectionPhases, options.injectInternalError))
    return "--inject-internal-error takes frontend, blk-passes or lowering, got '" + options.injectInternalError + "'";
  return "";
}

static FailureOr<CompileResult> compilePhases(MLIRContext &ctx, llvm::SourceMgr &sourceMgr, unsigned bufferId,
                                              const CompileOptions &options);

FailureOr<CompileResult> compile(MLIRContext &ctx, llvm::SourceMgr &sourceMgr, unsigned bufferId,
                                 const CompileOptions &options) {
  // Any error fails the compile, also one a pass reported without failing
  // (a rewrite pattern that lost to another): its output is not trusted.
  unsigned errors = 0;
  ScopedDiagnosticHandler counter(&ctx, [&](Diagnostic &d) {
    errors += d.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // on to the caller's handler, which prints it
  });
  FailureOr<CompileResult> result = compilePhases(ctx, sourceMgr, bufferId, options);
  if (errors)
    return failure();
  return result;
}

static FailureOr<CompileResult> compilePhases(MLIRContext &ctx, llvm::SourceMgr &sourceMgr, unsigned bufferId,
                                              const CompileOptions &options) {
  CompileResult result;
  Timer timer{result.phases};
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  auto file = parseFile(ctx, buffer->getBuffer(), buffer->getBufferIdentifier());
  if (!file)
    return failure();
  timer.lap("parse");
  if (options.emit == Stage::AST) {
    llvm::raw_string_ostream os(result.output);
    ast::dump(*file, os);
    return result;
  }
  if (std::string why = invalidOptions(options); !why.empty())
    return emitError(UnknownLoc::get(&ctx)) << why, failure();
  GenOptions gen = options.gen;
  gen.injectInvalidIR = options.injectInternalError == "frontend";
  gen.computeCapability = computeCapability(options.target.arch);
  OwningOpRef<ModuleOp> module = generateModule(ctx, *file, gen);
  if (!module)
    return failure();
  module->walk([&](func::FuncOp f) {
    KernelInfo info{f.getName().str()};
    for (Type t : f.getArgumentTypes())
      info.argTypes.push_back(argTypeName(t));
    if (const ast::Function *fn = file->find(f.getName()))
      info.argNames = fn->runtimeParamNames();
    for (const auto &[name, value] : boundConstants(f))
      info.constants.push_back(name + "=" + value);
    for (unsigned i = 0; i < f.getNumArguments(); ++i)
      if (auto div = f.getArgAttrOfType<IntegerAttr>(i, kDivisibilityAttr))
        info.specialization.push_back(std::to_string(i) + ":" + std::to_string(div.getInt()));
    info.numWarps = options.numWarps;
    result.kernels.push_back(std::move(info));
  });
  timer.lap("frontend");
  if (options.emit == Stage::Blk) {
    result.output = print(*module);
    return result;
  }
  PipelineOptions pipelineOptions;
  pipelineOptions.numWarps = options.numWarps;
  pipelineOptions.numStages = options.numStages;
  pipelineOptions.releaseSlots = options.releaseSlots;
  pipelineOptions.pingPong = options.pingPong;
  pipelineOptions.warpSpecialize = options.warpSpecialize;
  pipelineOptions.arch = options.target.arch;
  // From here on an error is the compiler's unless its emitter marks it as
  // the user's (blk/Support/InternalErrors.h).
  std::string target = " for " + options.target.arch + " with " + std::to_string(options.numWarps) + " warps";
  InternalErrors internal(ctx, "the blk passes" + target);
  internal.setKernels(*module);
  {
    PassManager pm(&ctx);
    addInjectedFailure(pm, options, "blk-passes");
    buildBlkToGPUPipeline(pm, pipelineOptions);
    internal.instrument(pm);
    if (failed(pm.run(*module)))
      return failure();
  }
  for (KernelInfo &k : result.kernels)
    if (auto f = module->lookupSymbol<func::FuncOp>(k.name))
      {
        if (auto bytes = f->getAttrOfType<IntegerAttr>(kSharedBytesAttr))
          k.sharedMemory = bytes.getInt();
        if (auto warps = f->getAttrOfType<IntegerAttr>(kProducerWarpsAttr))
          k.producerWarps = unsigned(warps.getInt());
        k.tensorMaps = tensorMaps(f);
      }
  timer.lap("layouts");
  if (options.emit == Stage::GPU) {
    result.output = print(*module);
    return result;
  }
  if (options.emit == Stage::Layouts) {
    llvm::raw_string_ostream os(result.output);
    printLayoutReport(*module, os);
    return result;
  }
  internal.setPhase("the lowering to LLVM" + target);
  {
    PassManager pm(&ctx);
    addInjectedFailure(pm, options, "lowering");
    buildGPUToLLVMPipeline(pm, pipelineOptions);
    internal.instrument(pm);
    if (failed(pm.run(*module)))
      return failure();
  }
  timer.lap("lowering");
  internal.setPhase("the translation to PTX" + target);
  if (options.emit == Stage::LLVM) {
    auto ir = emitLLVMIR(*module, options.target);
    if (failed(ir))
      return failure();
    result.output = *ir;
    timer.lap("llvm");
    return result;
  }
  auto ptx = emitPTX(*module, options.target, [&](const char *phase) { timer.lap(phase); });
  if (failed(ptx))
    return failure();
  // Signature lines let the runtime check launches of PTX it loads.
  result.output = signatureLines(result.kernels) + *ptx;
  if (options.emit == Stage::Header) {
    result.output = emitAOTHeader(result, buffer->getBufferIdentifier(),
                                  options.headerNamespace.empty() ? "blk_kernels" : options.headerNamespace);
    return result;
  }
  if (options.emit == Stage::PTX && !options.ptxasInfo)
    return result;
  internal.setPhase("ptxas" + target);
  auto cubin = assemblePTX(result.output, options.target, module->getLoc());
  if (failed(cubin))
    return failure();
  timer.lap("ptxas");
  for (KernelInfo &k : result.kernels)
    for (auto &info : cubin->kernels)
      if (info.name == k.name) {
        k.registers = info.registers;
        k.sharedBytes = info.sharedBytes;
        k.spillStores = info.spillStores;
      }
  if (options.emit == Stage::Cubin)
    result.output = std::move(cubin->cubin);
  return result;
}

} // namespace blk
