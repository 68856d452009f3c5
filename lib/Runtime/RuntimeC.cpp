#include "blk/Runtime/blk_runtime.h"
#include "blk/Runtime/Runtime.h"
#include "blk/Runtime/CErrors.h"


static_assert(int(blk::rt::ArgType::Ptr) == BLK_ARG_PTR && int(blk::rt::ArgType::I32) == BLK_ARG_I32 &&
                  int(blk::rt::ArgType::BF16) == BLK_ARG_BF16 && int(blk::rt::ArgType::F64) == BLK_ARG_F64,
              "the C enum mirrors blk::rt::ArgType");

struct blk_module {
  std::unique_ptr<blk::rt::Module> module;
};
struct blk_kernel {
  blk::rt::Kernel kernel;
};

namespace {
using blk::rt::checkInto;
using blk::rt::failInto;
} // namespace

extern "C" {

int blk_init(int device, char *error, size_t error_size) {
  return checkInto(blk::rt::initDevice(device), error, error_size);
}

int blk_module_load_file(const char *path, blk_module **out, char *error, size_t error_size) {
  if (!path || !out)
    return failInto("blk_module_load_file: null argument", error, error_size);
  auto m = std::make_unique<blk_module>();
  if (checkInto(blk::rt::Module::loadFile(path, m->module), error, error_size))
    return -1;
  *out = m.release();
  return 0;
}

void blk_module_free(blk_module *module) { delete module; }

int blk_module_kernel(blk_module *module, const char *name, blk_kernel **out, char *error, size_t error_size) {
  if (!module || !name || !out)
    return failInto("blk_module_kernel: null argument", error, error_size);
  auto k = std::make_unique<blk_kernel>();
  if (checkInto(module->module->kernel(name, k->kernel), error, error_size))
    return -1;
  *out = k.release();
  return 0;
}

void blk_kernel_free(blk_kernel *kernel) { delete kernel; }

int blk_kernel_num_args(const blk_kernel *kernel) { return int(kernel->kernel.signature().args.size()); }
int blk_kernel_arg_type(const blk_kernel *kernel, int index) {
  const auto &args = kernel->kernel.signature().args;
  return index >= 0 && size_t(index) < args.size() ? int(args[size_t(index)]) : -1;
}
unsigned blk_kernel_num_warps(const blk_kernel *kernel) { return kernel->kernel.signature().numWarps; }

const char *blk_kernel_constant(const blk_kernel *kernel, const char *name) {
  for (const auto &[k, v] : kernel->kernel.signature().constants)
    if (k == name)
      return v.c_str();
  return nullptr;
}

int blk_kernel_launch(const blk_kernel *kernel, unsigned grid_x, unsigned grid_y, unsigned grid_z, void *stream,
                      const uint64_t *values, const int *types, int num_args, char *error, size_t error_size) {
  if (!kernel || (num_args > 0 && (!values || !types)) || num_args < 0)
    return failInto("blk_kernel_launch: null or negative argument", error, error_size);
  std::vector<blk::rt::Arg> args(size_t(num_args), blk::rt::Arg{blk::rt::ArgType::Ptr});
  for (int i = 0; i < num_args; ++i) {
    if (types[i] < BLK_ARG_PTR || types[i] > BLK_ARG_F64)
      return failInto("blk_kernel_launch: unknown type of argument " + std::to_string(i), error, error_size);
    args[size_t(i)] = blk::rt::Arg{blk::rt::ArgType(types[i]), values[i]};
  }
  return checkInto(kernel->kernel.launch(blk::rt::Grid{grid_x, grid_y, grid_z}, static_cast<CUstream>(stream), args),
               error, error_size);
}

} // extern "C"
