// blk-run: run a kernel on the CPU interpreter, on random or given inputs,
// and print or save its buffers.
#include "blk/Frontend/MLIRGen.h"
#include "blk/Frontend/Parser.h"
#include "blk/Interpreter/AfterPasses.h"
#include "blk/Interpreter/Interpreter.h"
#include "blk/Pipeline/Pipeline.h"
#include "blk/Support/FloatBits.h"

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "blk/Support/CommandLine.h"
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fstream>
#include <random>

static const char *kExample = R"(
Arguments name the kernel's parameters. A pointer takes N (N zeros), random:N
(uniform in [-1, 1)), range:N (0, 1, 2, ...) or file:PATH (raw elements); a
scalar takes its value.

--after-passes runs the IR `blkc --emit=gpu` prints for the same --arch,
--num-warps, --num-stages and --spec: shared-memory rings, cp.async and TMA
copies that land at their waits, asynchronous wgmma. A .mlir file is run as
it is; its parameters are named by position (--arg 0=..., --arg 1=...).

Example:
  blk-run kernels/vector_add.blk -D T=f32 --grid 4 --arg X=random:4000 --arg Y=range:4000 \
      --arg Out=4000 --arg n=4000 --print Out
  blk-run kernels/matmul.blk -D T=bf16 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 --after-passes \
      --arch sm_80 --num-stages 3 ...
)";

namespace {
struct Buffer {
  std::string name;
  mlir::Type elem;
  std::vector<uint8_t> bytes;
};

size_t elemBytes(mlir::Type t) { return std::max(1u, t.getIntOrFloatBitWidth() / 8); }

void setElement(Buffer &b, size_t i, double v) {
  uint8_t *p = b.bytes.data() + i * elemBytes(b.elem);
  if (b.elem.isF32()) {
    float f = float(v);
    std::memcpy(p, &f, 4);
  } else if (b.elem.isF64()) {
    std::memcpy(p, &v, 8);
  } else if (b.elem.isF16() || b.elem.isBF16()) {
    uint16_t h = b.elem.isF16() ? blk::toF16(float(v)) : blk::toBF16(float(v));
    std::memcpy(p, &h, 2);
  } else if (blk::isFloat8(b.elem)) {
    *p = blk::toF8(float(v), blk::float8Format(b.elem));
  } else {
    int64_t x = int64_t(v);
    std::memcpy(p, &x, elemBytes(b.elem));
  }
}

std::string elementText(const Buffer &b, size_t i) {
  const uint8_t *p = b.bytes.data() + i * elemBytes(b.elem);
  if (b.elem.isF32()) {
    float f;
    std::memcpy(&f, p, 4);
    return fmt::format("{}", f);
  }
  if (b.elem.isF64()) {
    double d;
    std::memcpy(&d, p, 8);
    return fmt::format("{}", d);
  }
  if (b.elem.isF16() || b.elem.isBF16()) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return fmt::format("{}", b.elem.isF16() ? blk::fromF16(h) : blk::fromBF16(h));
  }
  if (blk::isFloat8(b.elem))
    return fmt::format("{}", blk::fromF8(*p, blk::float8Format(b.elem)));
  int64_t x = 0;
  std::memcpy(&x, p, elemBytes(b.elem));
  unsigned bits = b.elem.getIntOrFloatBitWidth();
  if (bits < 64 && bits > 1 && (x >> (bits - 1)) & 1)
    x |= ~((int64_t(1) << bits) - 1);
  return fmt::format("{}", x);
}
} // namespace

int main(int argc, char **argv) {
  CLI::App app{"blk-run: run a blk kernel on the CPU interpreter"};
  app.footer(kExample);
  std::string input, kernel, gridText = "1";
  std::vector<std::string> defines, argSpecs, prints, saves;
  int64_t shuffleSeed = -1;
  app.add_option("file", input, "The .blk source file")->required();
  app.add_option("--kernel", kernel, "The kernel (default: the only @kernel)");
  app.add_option("-D,--define", defines, "Bind a constexpr or dtype parameter: NAME=VALUE");
  app.add_option("--grid", gridText, "Programs: X[,Y[,Z]]")->capture_default_str();
  app.add_option("--arg", argSpecs, "NAME=SPEC for each runtime parameter (see below)");
  app.add_option("--print", prints, "Print this pointer argument's buffer after the run");
  app.add_option("--save", saves, "NAME=PATH: write this buffer's raw elements after the run");
  app.add_option("--shuffle", shuffleSeed, "Run the programs in a shuffled order with this seed");
  bool afterPasses = false, alignPointers = false;
  blk::interp::PassTarget target;
  std::vector<std::string> specializations;
  app.add_flag("--after-passes", afterPasses, "Run the kernel as the blk passes leave it (blkc --emit=gpu)");
  app.add_option("--arch", target.arch, "With --after-passes: the target, as blkc's")->capture_default_str();
  app.add_option("--num-warps", target.numWarps, "With --after-passes: warps per program")->capture_default_str();
  app.add_option("--num-stages", target.numStages, "With --after-passes: loads in flight per loop load")
      ->capture_default_str();
  app.add_option("--spec", specializations, "With --after-passes: specialize a runtime parameter as blkc's --spec: NAME=16 or NAME=1");
  app.add_flag("--align-pointers", alignPointers, "With --after-passes: specialize every pointer as 16-byte aligned");
  app.add_flag("--warp-specialize", target.warpSpecialize,
               "With --after-passes: a producer warpgroup issues the TMA copies of every loop that allows it, as "
               "blkc's");
  bool injectInvalidIR = false;
  app.add_flag("--inject-internal-error", injectInvalidIR, "For tests: the frontend generates IR its verifier rejects")
      ->group(""); // hidden from --help
  if (std::optional<int> stop = blk::parseCommandLine(app, argc, argv, "blk-run"))
    return *stop;

  mlir::MLIRContext ctx;
  ctx.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx);
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (!file) {
    fmt::print(stderr, "blk-run: error: cannot read '{}'\n", input);
    return 1;
  }
  llvm::StringRef source = (*file)->getBuffer();
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  bool isMLIR = llvm::StringRef(input).ends_with(".mlir");
  if (!afterPasses && (!specializations.empty() || alignPointers)) {
    fmt::print(stderr, "blk-run: error: --spec and --align-pointers specialize the build of --after-passes\n");
    return 1;
  }
  std::unique_ptr<blk::ast::File> ast;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (isMLIR && (afterPasses || !defines.empty())) {
    fmt::print(stderr, "blk-run: error: a .mlir file runs as it is: -D and --after-passes take a .blk source\n");
    return 1;
  }
  if (isMLIR) {
    mlir::DialectRegistry registry;
    blk::registerBlkDialects(registry);
    ctx.appendDialectRegistry(registry);
    module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &ctx);
    if (!module)
      return 1;
  } else {
    ast = blk::parseFile(ctx, source, input);
    if (!ast)
      return 1;
    blk::GenOptions gen;
    if (std::string error = blk::addCommandLineBindings(gen, defines, specializations); !error.empty()) {
      fmt::print(stderr, "blk-run: error: {}\n", error);
      return 1;
    }
    if (!kernel.empty())
      gen.kernels.push_back(kernel);
    gen.injectInvalidIR = injectInvalidIR;
    gen.alignAllPointers = alignPointers;
    gen.computeCapability = blk::computeCapability(target.arch);
    module = blk::generateModule(ctx, *ast, gen);
    if (!module)
      return 1;
    if (afterPasses && mlir::failed(blk::interp::runBlkPasses(*module, target)))
      return 1;
  }
  mlir::func::FuncOp func;
  for (auto f : module->getOps<mlir::func::FuncOp>())
    if (!func && (kernel.empty() || f.getName() == kernel))
      func = f;
  if (!func) {
    fmt::print(stderr, "blk-run: error: no kernel named '{}'\n", kernel);
    return 1;
  }
  if (kernel.empty() && std::distance(module->getOps<mlir::func::FuncOp>().begin(),
                                      module->getOps<mlir::func::FuncOp>().end()) > 1) {
    fmt::print(stderr, "blk-run: error: the file has several kernels; choose one with --kernel\n");
    return 1;
  }
  std::array<unsigned, 3> grid{1, 1, 1};
  {
    std::stringstream ss(gridText);
    std::string part;
    int d = 0;
    for (; std::getline(ss, part, ','); ++d) {
      char *end = nullptr;
      unsigned long v = std::strtoul(part.c_str(), &end, 10);
      if (d >= 3 || part.empty() || *end != '\0' || v == 0 || v > 0xffffffffUL) {
        fmt::print(stderr, "blk-run: error: --grid expects X[,Y[,Z]] with positive integers, got '{}'\n", gridText);
        return 1;
      }
      grid[d] = unsigned(v);
    }
  }
  // Parameter names: the kernel's runtime parameters, in order.
  // An .mlir file's by position; after the passes, hidden TMA parameters follow.
  std::vector<std::string> names;
  if (ast)
    names = ast->find(func.getName())->runtimeParamNames();
  else
    for (unsigned i = 0; i < func.getNumArguments() && !func.getArgAttr(i, blk::kTmaBaseAttr); ++i)
      names.push_back(std::to_string(i));
  std::map<std::string, std::string> specs;
  for (const std::string &a : argSpecs) {
    size_t eq = a.find('=');
    if (eq == std::string::npos) {
      fmt::print(stderr, "blk-run: error: --arg expects NAME=SPEC, got '{}'\n", a);
      return 1;
    }
    specs[a.substr(0, eq)] = a.substr(eq + 1);
  }
  for (const auto &[name, spec] : specs)
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      fmt::print(stderr, "blk-run: error: kernel '{}' has no runtime parameter '{}'\n", func.getName().str(), name);
      return 1;
    }
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<blk::interp::Arg> args;
  std::mt19937_64 rng(std::random_device{}());
  blk::interp::Interpreter interp(*module);
  for (auto [idx, type] : llvm::enumerate(func.getArgumentTypes().take_front(names.size()))) {
    const std::string &name = names[idx];
    auto it = specs.find(name);
    if (it == specs.end()) {
      fmt::print(stderr, "blk-run: error: missing --arg {}=...\n", name);
      return 1;
    }
    const std::string &spec = it->second;
    try {
      if (auto ptr = mlir::dyn_cast<blk::PointerType>(type)) {
        auto b = std::make_unique<Buffer>();
        b->name = name;
        b->elem = ptr.getPointeeType();
        size_t es = elemBytes(b->elem);
        if (spec.rfind("file:", 0) == 0) {
          std::ifstream in(spec.substr(5), std::ios::binary);
          if (!in) {
            fmt::print(stderr, "blk-run: error: cannot read {}\n", spec.substr(5));
            return 1;
          }
          b->bytes.assign(std::istreambuf_iterator<char>(in), {});
        } else {
          std::string kind = spec.find(':') == std::string::npos ? "zeros" : spec.substr(0, spec.find(':'));
          size_t n = std::stoul(spec.find(':') == std::string::npos ? spec : spec.substr(spec.find(':') + 1));
          b->bytes.assign(n * es, 0);
          std::uniform_real_distribution<double> dist(-1, 1);
          for (size_t i = 0; i < n; ++i)
            setElement(*b, i, kind == "random" ? dist(rng) : kind == "range" ? double(i) : 0.0);
          if (kind != "random" && kind != "range" && kind != "zeros") {
            fmt::print(stderr, "blk-run: error: unknown buffer spec '{}' for {}\n", spec, name);
            return 1;
          }
        }
        interp.addBuffer(b->bytes.data(), b->bytes.size());
        args.push_back(blk::interp::Arg::pointer(b->bytes.data()));
        buffers.push_back(std::move(b));
      } else if (mlir::isa<mlir::FloatType>(type)) {
        args.push_back(blk::interp::Arg::real(std::stod(spec)));
      } else {
        args.push_back(blk::interp::Arg::integer(std::stoll(spec, nullptr, 0)));
      }
    } catch (const std::exception &) {
      fmt::print(stderr, "blk-run: error: cannot parse '{}' for {}\n", spec, name);
      return 1;
    }
  }
  blk::interp::RunOptions options;
  if (shuffleSeed >= 0) {
    options.shuffle = true;
    options.seed = uint64_t(shuffleSeed);
  }
  if (mlir::failed(interp.run(func.getName(), grid, args, options)))
    return 1;
  for (const std::string &p : prints)
    for (auto &b : buffers)
      if (b->name == p) {
        size_t n = b->bytes.size() / elemBytes(b->elem);
        fmt::print("{} =", p);
        for (size_t i = 0; i < n; ++i)
          fmt::print(" {}", elementText(*b, i));
        fmt::print("\n");
      }
  for (const std::string &s : saves) {
    size_t eq = s.find('=');
    for (auto &b : buffers)
      if (eq != std::string::npos && b->name == s.substr(0, eq)) {
        std::ofstream out(s.substr(eq + 1), std::ios::binary);
        out.write(reinterpret_cast<const char *>(b->bytes.data()), std::streamsize(b->bytes.size()));
      }
  }
  return 0;
}
