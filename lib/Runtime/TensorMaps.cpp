// The hidden TMA tensor-map parameters of a launch: parsed from the
// signature line, built from the launch's arguments with
// cuTensorMapEncodeTiled, checked first so that a misaligned tensor gets a
// readable error rather than a driver code.
#include "TensorMaps.h"

#include "blk/Runtime/Driver.h"
#include <sstream>

namespace blk::rt {

namespace {
bool parseSource(const std::string &s, ArgSource &out) {
  if (s.size() < 2 || (s[0] != 'a' && s[0] != 'c'))
    return false;
  out.isArg = s[0] == 'a';
  out.value = std::stoull(s.substr(1));
  return true;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> items;
  std::istringstream in(s);
  std::string item;
  while (std::getline(in, item, sep))
    items.push_back(item);
  return items;
}

unsigned elemBytes(ArgType t) {
  switch (t) {
  case ArgType::I8: return 1;
  case ArgType::I16: case ArgType::F16: case ArgType::BF16: return 2;
  case ArgType::I64: case ArgType::U64: case ArgType::F64: return 8;
  default: return 4;
  }
}

CUtensorMapDataType dataType(ArgType t) {
  switch (t) {
  case ArgType::I8: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case ArgType::I16: return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case ArgType::F16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case ArgType::BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case ArgType::I64: return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case ArgType::F32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case ArgType::F64: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  default: return CU_TENSOR_MAP_DATA_TYPE_INT32;
  }
}
} // namespace

bool parseTensorMapRecipe(const std::string &text, TensorMapRecipe &out) {
  std::vector<std::string> fields = split(text, ':');
  if (fields.size() != 6 || !parseArgType(fields[0], out.elem))
    return false;
  ArgSource base;
  if (!parseSource(fields[1], base) || !base.isArg)
    return false;
  out.base = unsigned(base.value);
  for (auto [field, list] : {std::pair{&fields[2], &out.shape}, std::pair{&fields[3], &out.strides}})
    for (const std::string &item : split(*field, '|')) {
      ArgSource s;
      if (!parseSource(item, s))
        return false;
      list->push_back(s);
    }
  for (const std::string &item : split(fields[4], '|'))
    out.box.push_back(uint32_t(std::stoul(item)));
  out.swizzle = unsigned(std::stoul(fields[5]));
  size_t rank = out.box.size();
  return rank >= 1 && rank <= 5 && out.shape.size() == rank && out.strides.size() == rank &&
         (out.swizzle == 32 || out.swizzle == 64 || out.swizzle == 128);
}

Status tensorMapGeometry(const KernelSignature &sig, const TensorMapRecipe &recipe, const Arg *args, size_t count,
                         TensorMapGeometry &out) {
  auto value = [&](const ArgSource &s) -> uint64_t {
    if (!s.isArg)
      return s.value;
    return s.value < count ? args[s.value].bits : 0;
  };
  auto where = [&](unsigned index) {
    return "argument " + std::to_string(index) + " of kernel '" + sig.name + "' (a TMA tensor's ";
  };
  size_t rank = recipe.box.size();
  uint64_t bytes = elemBytes(recipe.elem);
  out.rank = unsigned(rank);
  out.base = recipe.base < count ? args[recipe.base].bits : 0;
  if (out.base % 16)
    return Status::error(where(recipe.base) + "base) must be 16-byte aligned");
  for (size_t d = 0; d < rank; ++d) {
    size_t r = rank - 1 - d;
    int64_t size = int64_t(int32_t(uint32_t(value(recipe.shape[r]))));
    if (size < 0)
      return Status::error(where(unsigned(recipe.shape[r].value)) + "size) must not be negative, got " +
                           std::to_string(size));
    out.dims[d] = cuuint64_t(std::max<int64_t>(size, 1)); // an empty tensor is never read
    out.box[d] = recipe.box[r];
    if (d == 0)
      continue;
    uint64_t stride = value(recipe.strides[r]) * bytes;
    if (stride % 16 || stride >= (uint64_t(1) << 40))
      return Status::error(where(unsigned(recipe.strides[r].value)) +
                           "row stride) must span a multiple of 16 bytes, got " + std::to_string(stride) + " bytes");
    out.strides[d - 1] = stride;
  }
  return {};
}

Status encodeTensorMap(const KernelSignature &sig, const TensorMapRecipe &recipe, const Arg *args, size_t count,
                       CUtensorMap &out) {
  TensorMapGeometry g;
  if (Status s = tensorMapGeometry(sig, recipe, args, count, g); !s.ok())
    return s;
  cuuint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  CUtensorMapSwizzle swizzle = recipe.swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                               : recipe.swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                                      : CU_TENSOR_MAP_SWIZZLE_32B;
  CUresult r = driver()->cuTensorMapEncodeTiled(&out, dataType(recipe.elem), cuuint32_t(g.rank),
                                                reinterpret_cast<void *>(uintptr_t(g.base)), g.dims, g.strides, g.box,
                                                elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return Status::error("building a TMA tensor map for kernel '" + sig.name + "' failed: " + driverError(r));
  return {};
}

} // namespace blk::rt
