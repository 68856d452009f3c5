#include "blk/Runtime/Driver.h"

#include <dlfcn.h>

namespace blk::rt {

namespace {
#define BLK_STRINGIFY(x) #x
#define BLK_SYMBOL(x) BLK_STRINGIFY(x) // expands cuda.h's versioned aliases first

struct Loaded {
  DriverApi api;
  std::string error;
  bool ok = false;

  Loaded() {
    void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      error = std::string("cannot load the CUDA driver (libcuda.so.1): ") + (why ? why : "not found");
      return;
    }
#define BLK_LOAD(name)                                                                                       \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, BLK_SYMBOL(name)));                          \
  if (!api.name) {                                                                                           \
    error = std::string("the CUDA driver lacks ") + BLK_SYMBOL(name);                                        \
    return;                                                                                                  \
  }
    BLK_DRIVER_FUNCTIONS(BLK_LOAD)
#undef BLK_LOAD
    ok = true;
  }
};
} // namespace

const DriverApi *driver(std::string *error) {
  static const Loaded loaded;
  if (!loaded.ok) {
    if (error)
      *error = loaded.error;
    return nullptr;
  }
  return &loaded.api;
}

} // namespace blk::rt
