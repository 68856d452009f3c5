#include "JitImpl.h"

#include "blk/Compiler/Compiler.h"
#include "blk/Dialect/Blk/IR/Dialect.h"
#include "blk/Frontend/MLIRGen.h"
#include "blk/Frontend/Parser.h"
#include "blk/Interpreter/Interpreter.h"
#include "blk/Jit/DiskCache.h"
#include "blk/Pipeline/Pipeline.h"
#include "blk/Runtime/Driver.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include <cstdlib>
#include <cstring>

namespace blk {

//===----------------------------------------------------------------------===//
// Jit
//===----------------------------------------------------------------------===//

Jit::Jit(Backend backend) : impl(std::make_unique<Impl>(backend)) {}
Jit::~Jit() {
  for (auto &[p, bytes] : impl->hostAllocations)
    std::free(reinterpret_cast<void *>(p));
}
Backend Jit::backend() const { return impl->backend; }
Status Jit::available() const { return impl->availability; }

Status Jit::alloc(size_t bytes, void **out) {
  if (!out)
    return Status::error("alloc: null output");
  if (impl->backend == Backend::CPU) {
    // 256-byte aligned, like cuMemAlloc, so that specialization behaves alike.
    void *p = std::aligned_alloc(256, (std::max<size_t>(bytes, 1) + 255) / 256 * 256);
    if (!p)
      return Status::error("alloc: out of host memory");
    impl->hostAllocations[uintptr_t(p)] = bytes;
    *out = p;
    return {};
  }
  if (!impl->availability.ok())
    return impl->availability;
  return rt::deviceAlloc(bytes, out);
}

Status Jit::free(void *ptr) {
  if (impl->backend == Backend::CPU) {
    auto it = impl->hostAllocations.find(uintptr_t(ptr));
    if (it == impl->hostAllocations.end())
      return Status::error("free: not memory of this Jit");
    std::free(ptr);
    impl->hostAllocations.erase(it);
    return {};
  }
  return rt::deviceFree(ptr);
}

Status Jit::upload(void *dst, const void *src, size_t bytes) {
  if (impl->backend == Backend::CPU) {
    std::memcpy(dst, src, bytes);
    return {};
  }
  return rt::copyToDevice(dst, src, bytes);
}

Status Jit::download(void *dst, const void *src, size_t bytes) {
  if (impl->backend == Backend::CPU) {
    std::memcpy(dst, src, bytes);
    return {};
  }
  return rt::copyToHost(dst, src, bytes);
}

Status Jit::registerHostMemory(void *ptr, size_t bytes) {
  if (impl->backend != Backend::CPU)
    return Status::error("registerHostMemory: host memory is for the CPU backend");
  if (!ptr)
    return Status::error("registerHostMemory: null pointer");
  impl->hostRegistrations[uintptr_t(ptr)] = bytes;
  return {};
}

Status Jit::unregisterHostMemory(void *ptr) {
  if (!impl->hostRegistrations.erase(uintptr_t(ptr)))
    return Status::error("unregisterHostMemory: memory not registered");
  return {};
}

Status Jit::kernelNames(const std::string &source, const std::string &filename, std::vector<std::string> &out) {
  llvm::SourceMgr sourceMgr;
  unsigned id = sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, filename), llvm::SMLoc());
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &impl->ctx, os);
  auto ast = parseFile(impl->ctx, sourceMgr.getMemoryBuffer(id)->getBuffer(), filename);
  if (!ast)
    return Status::error(text.empty() ? "cannot parse " + filename : text);
  out.clear();
  for (auto &[name, fn] : ast->kernels())
    out.push_back(name);
  return {};
}

void Jit::setCacheDirectory(const std::string &dir) { impl->cache = DiskCache(dir); }
std::string Jit::cacheDirectory() const { return impl->cache.directory(); }
Jit::CacheStats Jit::cacheStats() const { return impl->stats; }

Status Jit::synchronize() {
  if (impl->backend == Backend::CPU)
    return {};
  return rt::synchronizeDevice("kernel");
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

namespace {
struct Param {
  std::string name;
  enum Kind { Pointer, Int, Float } kind;
  unsigned width = 64;
  /// Pointers and integers, unless KernelOptions::doNotSpecialize names them.
  bool specializable = false;
  /// The block shape of the tensor descriptor parameter this pointer is the
  /// base of (its sizes and strides follow it), else empty.
  std::vector<int64_t> descriptorBlock;
};

struct Variant {
  std::unique_ptr<rt::Module> module; // CUDA
  rt::Kernel kernel;
  mlir::OwningOpRef<mlir::ModuleOp> ir; // CPU
};
} // namespace

struct Kernel::Impl {
  Jit::Impl *jit = nullptr;
  std::string name;
  KernelOptions options;
  llvm::SourceMgr sourceMgr;
  unsigned bufferId = 0;
  /// SHA-256 of the source: the disk cache keys name the source through it.
  std::string sourceDigest;
  std::unique_ptr<ast::File> ast;
  std::vector<Param> params;
  std::map<std::string, std::string> constants;
  std::map<std::string, Variant> variants;

  /// Runs `fn` with diagnostics rendered as text (file:line:col, source line, caret).
  template <typename Fn> Status withDiagnostics(Fn fn) {
    std::string text;
    llvm::raw_string_ostream os(text);
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &jit->ctx, os);
    if (mlir::succeeded(fn()))
      return {};
    return Status::error(text.empty() ? "compilation failed" : text);
  }

  GenOptions genOptions(const std::string &spec) const {
    GenOptions gen;
    gen.defines = options.constants;
    gen.kernels = {name};
    gen.computeCapability = computeCapability(options.arch); // the CPU backend's too
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(spec).split(items, ',', -1, false);
    for (llvm::StringRef item : items) {
      auto [param, value] = item.split(':');
      if (value == "1")
        gen.equalsOne.push_back(param.str());
      else
        gen.divisibility[param.str()] = 16;
    }
    return gen;
  }

  /// The syntax tree; parsed lazily when the kernel's description came from the disk cache.
  Status ensureParsed() {
    if (ast)
      return {};
    return withDiagnostics([&]() -> mlir::LogicalResult {
      auto *buf = sourceMgr.getMemoryBuffer(bufferId);
      ast = parseFile(jit->ctx, buf->getBuffer(), buf->getBufferIdentifier());
      return mlir::success(bool(ast));
    });
  }

  void markSpecializable() {
    for (Param &p : params)
      p.specializable = p.kind != Param::Float && !llvm::is_contained(options.doNotSpecialize, p.name);
  }

  /// The kernel's parameters and bound constants as the disk cache keeps them.
  std::string describe() const {
    std::string text;
    for (const Param &p : params) {
      text += "p " + p.name + " " + std::to_string(int(p.kind)) + " " + std::to_string(p.width) + "\n";
      if (!p.descriptorBlock.empty()) {
        text += "b";
        for (int64_t d : p.descriptorBlock)
          text += " " + std::to_string(d);
        text += "\n";
      }
    }
    for (const auto &[k, v] : constants)
      text += "c " + k + " " + v + "\n";
    return text;
  }
  bool readDescription(llvm::StringRef text) {
    llvm::SmallVector<llvm::StringRef> lines;
    text.split(lines, '\n', -1, false);
    for (llvm::StringRef line : lines) {
      llvm::SmallVector<llvm::StringRef> f;
      if (line.starts_with("b ") && !params.empty()) { // the block shape of the parameter before
        line.drop_front(2).split(f, ' ', -1, false);
        for (llvm::StringRef d : f)
          if (d.getAsInteger(10, params.back().descriptorBlock.emplace_back()))
            return false;
        continue;
      }
      line.split(f, ' ', 3, false);
      unsigned kind, width;
      if (f.size() == 4 && f[0] == "p" && !f[2].getAsInteger(10, kind) && !f[3].getAsInteger(10, width) && kind <= 2)
        params.push_back(Param{f[1].str(), Param::Kind(kind), width});
      else if (f.size() >= 3 && f[0] == "c")
        constants[f[1].str()] = line.split(' ').second.split(' ').second.str();
      else
        return false;
    }
    return true;
  }

  Status compileVariant(const std::string &spec, Variant &out) {
    if (jit->backend == Backend::CPU) {
      if (Status s = ensureParsed(); !s.ok())
        return s;
      ++jit->stats.compiles;
      return withDiagnostics([&]() -> mlir::LogicalResult {
        out.ir = generateModule(jit->ctx, *ast, genOptions(spec));
        return mlir::success(bool(out.ir));
      });
    }
    // Everything the image depends on, and the compiler that made it.
    // (A disk hit parses nothing: the source enters through its digest.)
    std::vector<std::string> keyParts{BLK_VERSION, LLVM_VERSION_STRING, "image-v4", name, options.arch,
                                      std::to_string(options.numWarps), "stages=" + std::to_string(options.numStages),
                                      options.releaseSlots ? "release-slots" : "barriers", options.pingPong ? "ping-pong" : "no-turns",
                                      options.warpSpecialize ? "warp-specialize" : "one-role",
                                      spec, sourceDigest};
    for (const auto &[k, v] : options.constants) // std::map: sorted
      keyParts.push_back(k + "=" + v);
    std::string key = DiskCache::key(keyParts);
    std::string image;
    if (auto cached = jit->cache.lookup(key)) {
      image = std::move(*cached);
      ++jit->stats.diskHits;
    } else {
      // The cubin (with its signature lines) when ptxas is at hand, so that
      // loading skips the driver's PTX compilation; else the PTX.
      CompileOptions co;
      co.gen = genOptions(spec);
      co.target.arch = options.arch;
      co.numWarps = options.numWarps;
      co.numStages = options.numStages;
      co.releaseSlots = options.releaseSlots;
      co.pingPong = options.pingPong;
      co.warpSpecialize = options.warpSpecialize;
      bool cubin = llvm::sys::fs::can_execute(ptxasPath(co.target));
      co.emit = cubin ? Stage::Cubin : Stage::PTX;
      Status s = withDiagnostics([&]() -> mlir::LogicalResult {
        auto r = compile(jit->ctx, sourceMgr, bufferId, co);
        if (mlir::failed(r))
          return mlir::failure();
        if (cubin) {
          std::string signatures = signatureLines(r->kernels);
          image = "cubin\n" + std::to_string(signatures.size()) + "\n" + signatures + r->output;
        } else {
          image = "ptx\n" + r->output;
        }
        return mlir::success();
      });
      if (!s.ok())
        return s;
      ++jit->stats.compiles;
      jit->cache.store(key, image); // a cache that cannot be written only costs time
    }
    if (!jit->availability.ok())
      return jit->availability;
    Status s = loadImage(image, out.module);
    if (s.ok())
      s = out.module->kernel(name, out.kernel);
    return s;
  }

  /// Loads a cached image:
  ///   "cubin\n<signature bytes>\n<signature lines><cubin>"  or  "ptx\n<ptx>"
  static Status loadImage(const std::string &image, std::unique_ptr<rt::Module> &out) {
    llvm::StringRef rest(image);
    if (rest.consume_front("ptx\n"))
      return rt::Module::load(rest.str(), out);
    size_t sigBytes;
    if (!rest.consume_front("cubin\n") || rest.consumeInteger(10, sigBytes) || !rest.consume_front("\n") ||
        rest.size() < sigBytes)
      return Status::error("malformed kernel image");
    return rt::Module::load(rest.drop_front(sigBytes).str(), out,
                            rt::parseSignatures(rest.take_front(sigBytes).str()));
  }
};

Kernel::Kernel() = default;
Kernel::~Kernel() = default;
Kernel::Kernel(Kernel &&) noexcept = default;
Kernel &Kernel::operator=(Kernel &&) noexcept = default;

size_t Kernel::numVariants() const { return impl ? impl->variants.size() : 0; }

size_t Kernel::paramIndex(const std::string &name) const {
  if (impl)
    for (size_t i = 0; i < impl->params.size(); ++i)
      if (impl->params[i].name == name)
        return i;
  return size_t(-1);
}

std::vector<int64_t> Kernel::descriptorBlock(size_t index) const {
  return impl && index < impl->params.size() ? impl->params[index].descriptorBlock : std::vector<int64_t>();
}

std::string Kernel::constant(const std::string &name) const {
  if (!impl)
    return "";
  auto it = impl->constants.find(name);
  return it == impl->constants.end() ? "" : it->second;
}

/// One character per parameter: '-' (nothing known), 'a' (16-aligned or a
/// multiple of 16), 'o' (equal to 1). Short enough to stay in the string's
/// inline buffer: computed on every launch.
static std::string specKey(const std::vector<Param> &params, const std::vector<KernelArg> &args) {
  std::string key(params.size(), '-');
  for (size_t i = 0; i < args.size() && i < params.size(); ++i) {
    const Param &p = params[i];
    if (!p.specializable)
      continue;
    if (p.kind == Param::Int && args[i].bits == 1)
      key[i] = 'o';
    else if (args[i].bits % 16 == 0)
      key[i] = 'a';
  }
  return key;
}

/// The key as blkc --spec spells it: "X:16,n:1".
static std::string specText(const std::vector<Param> &params, const std::string &key) {
  std::string text;
  for (size_t i = 0; i < key.size(); ++i)
    if (key[i] != '-')
      text += (text.empty() ? "" : ",") + params[i].name + (key[i] == 'o' ? ":1" : ":16");
  return text;
}

std::string Kernel::specialization(const std::vector<KernelArg> &args) const {
  return impl ? specText(impl->params, specKey(impl->params, args)) : std::string();
}

Status Jit::compileSource(const std::string &source, const std::string &kernel, const KernelOptions &options,
                          Kernel &out, const std::string &filename) {
  auto k = std::make_unique<Kernel::Impl>();
  k->jit = impl.get();
  k->name = kernel;
  k->options = options;
  k->bufferId = k->sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, filename), llvm::SMLoc());
  llvm::StringRef text = k->sourceMgr.getMemoryBuffer(k->bufferId)->getBuffer();
  // A kernel compiled before (by any process) is described by the disk cache:
  // no parsing until a variant must be compiled.
  // Once per kernel, not once per key; the files it imports are part of it.
  std::vector<std::string> sources{text.str()};
  for (std::string &imported : importedSources(text, filename))
    sources.push_back(std::move(imported));
  k->sourceDigest = DiskCache::key(sources);
  std::vector<std::string> infoParts{BLK_VERSION, LLVM_VERSION_STRING, "kernel-info-v4", kernel, k->sourceDigest};
  for (const auto &[name, value] : options.constants)
    infoParts.push_back(name + "=" + value);
  std::string infoKey = DiskCache::key(infoParts);
  if (auto info = impl->cache.lookup(infoKey)) {
    if (k->readDescription(*info)) {
      k->markSpecializable();
      ++impl->stats.descriptionHits;
      out.impl = std::move(k);
      return {};
    }
    k->params.clear();
    k->constants.clear();
  }
  // Parse and generate once, unspecialized: errors surface here, and the
  // parameters and bound constants become known.
  mlir::OwningOpRef<mlir::ModuleOp> probe;
  Status s = k->withDiagnostics([&]() -> mlir::LogicalResult {
    k->ast = parseFile(impl->ctx, text, filename);
    if (!k->ast)
      return mlir::failure();
    GenOptions gen = k->genOptions("");
    gen.staticPrint = false; // the variants print as they compile
    probe = generateModule(impl->ctx, *k->ast, gen);
    return mlir::success(bool(probe));
  });
  if (!s.ok())
    return s;
  auto func = probe->lookupSymbol<mlir::func::FuncOp>(kernel);
  const ast::Function *fn = k->ast->find(kernel);
  std::vector<std::string> names = fn->runtimeParamNames();
  for (auto [idx, type] : llvm::enumerate(func.getArgumentTypes())) {
    Param p{names[idx], Param::Int};
    if (mlir::isa<PointerType>(type))
      p.kind = Param::Pointer;
    else if (mlir::isa<mlir::FloatType>(type))
      p.kind = Param::Float, p.width = type.getIntOrFloatBitWidth();
    else
      p.width = type.getIntOrFloatBitWidth();
    // A descriptor parameter's base: the generator makes its descriptor of
    // it and the sizes after it (not a make_tensor_descriptor of the body).
    for (mlir::Operation *user : func.getArgument(idx).getUsers()) {
      auto make = mlir::dyn_cast<MakeTensorDescriptorOp>(user);
      auto isArgument = [&](auto pair) {
        return pair.value() == func.getArgument(idx + 1 + pair.index());
      };
      if (make && make.getBase() == func.getArgument(idx) && idx + make.getShape().size() < func.getNumArguments() &&
          llvm::all_of(llvm::enumerate(make.getShape()), isArgument)) {
        llvm::ArrayRef<int64_t> block = mlir::cast<TensorDescType>(make.getResult().getType()).getBlockShape();
        p.descriptorBlock.assign(block.begin(), block.end());
      }
    }
    k->params.push_back(p);
  }
  for (auto &[name, value] : boundConstants(func))
    k->constants[name] = value;
  k->markSpecializable();
  impl->cache.store(infoKey, k->describe());
  out.impl = std::move(k);
  return {};
}

Status Jit::compileFile(const std::string &path, const std::string &kernel, const KernelOptions &options,
                        Kernel &out) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return Status::error("cannot read " + path + ": " + buffer.getError().message());
  return compileSource((*buffer)->getBuffer().str(), kernel, options, out, path);
}

Status Kernel::launch(Grid grid, const std::vector<KernelArg> &args, void *stream) {
  if (!impl)
    return Status::error("launch of a kernel that was not compiled");
  const auto &params = impl->params;
  if (args.size() != params.size())
    return Status::error("kernel '" + impl->name + "' takes " + std::to_string(params.size()) + " arguments, got " +
                         std::to_string(args.size()));
  static const char *kinds[] = {"a pointer", "an integer", "a float"};
  for (size_t i = 0; i < args.size(); ++i) {
    const Param &p = params[i];
    bool ok = args[i].kind == KernelArg::Kind(p.kind) || (p.kind == Param::Float && args[i].kind == KernelArg::Int);
    if (!ok)
      return Status::error("argument " + std::to_string(i) + " ('" + p.name + "') of kernel '" + impl->name +
                           "' must be " + kinds[p.kind] + ", got " + kinds[args[i].kind]);
    if (p.kind == Param::Pointer && args[i].bits == 0)
      return Status::error("argument " + std::to_string(i) + " ('" + p.name + "') of kernel '" + impl->name +
                           "' is a null pointer");
    if (p.kind == Param::Int && p.width < 64) {
      int64_t v = int64_t(args[i].bits);
      int64_t lo = -(int64_t(1) << (p.width - 1)), hi = (int64_t(1) << p.width) - 1; // signed or unsigned range
      if (v < lo || v > hi)
        return Status::error("argument " + std::to_string(i) + " ('" + p.name + "') = " + std::to_string(v) +
                             " does not fit in i" + std::to_string(p.width));
    }
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return Status::error("empty grid");
  std::string key = specKey(params, args);
  auto it = impl->variants.find(key);
  if (it != impl->variants.end())
    ++impl->jit->stats.memoryHits;
  if (it == impl->variants.end()) {
    Variant v;
    Status s = impl->compileVariant(specText(params, key), v);
    if (!s.ok())
      return s;
    it = impl->variants.emplace(key, std::move(v)).first;
  }
  Variant &v = it->second;
  if (impl->jit->backend == Backend::CPU) {
    interp::Interpreter in(*v.ir);
    for (auto &[p, bytes] : impl->jit->hostAllocations)
      in.addBuffer(reinterpret_cast<void *>(p), bytes);
    for (auto &[p, bytes] : impl->jit->hostRegistrations)
      in.addBuffer(reinterpret_cast<void *>(p), bytes);
    std::vector<interp::Arg> iargs;
    for (size_t i = 0; i < args.size(); ++i) {
      if (params[i].kind == Param::Pointer)
        iargs.push_back(interp::Arg::pointer(reinterpret_cast<const void *>(uintptr_t(args[i].bits))));
      else if (params[i].kind == Param::Float)
        iargs.push_back(interp::Arg::real(args[i].kind == KernelArg::Float ? args[i].real : double(int64_t(args[i].bits))));
      else
        iargs.push_back(interp::Arg::integer(int64_t(args[i].bits)));
    }
    return impl->withDiagnostics([&] { return in.run(impl->name, {grid.x, grid.y, grid.z}, iargs); });
  }
  // On the stack: a launch allocates nothing (the runtime refuses more than 64).
  constexpr size_t kMaxArgs = 64;
  if (args.size() > kMaxArgs)
    return Status::error("kernel '" + impl->name + "' has more than 64 arguments");
  rt::Arg rargs[kMaxArgs];
  for (size_t i = 0; i < args.size(); ++i) {
    const Param &p = params[i];
    if (p.kind == Param::Pointer) {
      rargs[i] = rt::Arg::devicePtr(args[i].bits);
    } else if (p.kind == Param::Float) {
      double d = args[i].kind == KernelArg::Float ? args[i].real : double(int64_t(args[i].bits));
      rargs[i] = p.width == 64 ? rt::Arg::f64(d) : rt::Arg::f32(float(d));
    } else {
      rt::ArgType t = p.width == 64 ? rt::ArgType::I64 : p.width == 32 ? rt::ArgType::I32
                      : p.width == 16 ? rt::ArgType::I16 : p.width == 8 ? rt::ArgType::I8 : rt::ArgType::I1;
      rargs[i] = rt::Arg{t, args[i].bits};
    }
  }
  return v.kernel.launch(grid, static_cast<CUstream>(stream), rargs, args.size());
}

} // namespace blk
