// Triton's target_info queries, without the module prefix: is_cuda(),
// is_hip(), is_hip_cdna3(), is_hip_cdna4() and cuda_capability_geq(major,
// minor=0), compile-time booleans for the target blk compiles for (always
// CUDA; its compute capability from --arch).
#include "Generator.h"

namespace blk {

bool isTargetQuery(const std::string &name) {
  return llvm::is_contained({"is_cuda", "is_hip", "is_hip_cdna3", "is_hip_cdna4", "cuda_capability_geq"}, name);
}

TV Generator::genTargetQuery(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  if (name != "cuda_capability_geq")
    return TV::makeBool(name == "is_cuda");
  int64_t version[2] = {0, 0};
  for (size_t i = 0; i < 2; ++i) {
    if (args[i].kind == TV::None)
      continue; // minor defaults to 0
    if (args[i].kind != TV::Int || args[i].i < 0)
      return error(builtinArgLoc(call, name, i), std::string("cuda_capability_geq's ") + (i ? "minor" : "major") +
                                                     " must be a non-negative compile-time integer, got " +
                                                     describe(args[i]));
    version[i] = args[i].i;
  }
  return TV::makeBool(int64_t(options.computeCapability) >= version[0] * 10 + version[1]);
}

} // namespace blk
