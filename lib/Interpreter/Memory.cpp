// The interpreter's global memory ops: loads, stores and atomics, each
// access checked against the kernel's buffers. Programs run one at a time,
// so an atomic is a read and a write with nothing in between.
#include "Executor.h"

#include "blk/Support/FloatBits.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace blk::interp {

void readElement(Type elem, const void *p, Tensor &out, size_t j) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (elem.isF32()) {
    float v;
    std::memcpy(&v, p, 4);
    out.f[j] = v;
  } else if (elem.isF64()) {
    std::memcpy(&out.f[j], p, 8);
  } else if (elem.isF16() || elem.isBF16()) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    out.f[j] = elem.isF16() ? fromF16(h) : fromBF16(h);
  } else if (isFloat8(elem)) {
    out.f[j] = fromF8(*static_cast<const uint8_t *>(p), float8Format(elem));
  } else {
    int64_t v = 0;
    std::memcpy(&v, p, std::max(1u, bits / 8)); // little-endian
    out.i[j] = bits == 1 ? int64_t(v != 0) : wrapInt(bits, v);
  }
}

void writeElement(Type elem, void *p, const Tensor &value, size_t j) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (elem.isF32()) {
    float v = float(value.f[j]);
    std::memcpy(p, &v, 4);
  } else if (elem.isF64()) {
    std::memcpy(p, &value.f[j], 8);
  } else if (elem.isF16() || elem.isBF16()) {
    uint16_t h = elem.isF16() ? toF16(float(value.f[j])) : toBF16(float(value.f[j]));
    std::memcpy(p, &h, 2);
  } else if (isFloat8(elem)) {
    *static_cast<uint8_t *>(p) = toF8(float(value.f[j]), float8Format(elem));
  } else {
    int64_t v = bits == 1 ? (value.i[j] & 1) : value.i[j];
    std::memcpy(p, &v, std::max(1u, bits / 8));
  }
}

namespace {

bool maskedOff(const Tensor *mask, size_t j) { return mask && !(mask->i[mask->i.size() == 1 ? 0 : j] & 1); }

/// `old kind value` as memory ends up holding it.
void combine(AtomicRMWKind kind, Type elem, const Tensor &old, const Tensor &value, size_t j, Tensor &out) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (old.isFloat()) {
    double a = old.f[j], b = value.f[j];
    double r = kind == AtomicRMWKind::Add ? a + b : kind == AtomicRMWKind::Max ? std::max(a, b)
             : kind == AtomicRMWKind::Min ? std::min(a, b) : b; // xchg
    out.f[j] = roundTo(elem, r);
    return;
  }
  int64_t a = old.i[j], b = value.i[j];
  uint64_t ua = uint64_t(a) & (bits == 64 ? ~0ull : (1ull << bits) - 1);
  uint64_t ub = uint64_t(b) & (bits == 64 ? ~0ull : (1ull << bits) - 1);
  int64_t r = 0;
  switch (kind) {
  case AtomicRMWKind::Add: r = int64_t(uint64_t(a) + uint64_t(b)); break;
  case AtomicRMWKind::Max: r = std::max(a, b); break;
  case AtomicRMWKind::Min: r = std::min(a, b); break;
  case AtomicRMWKind::UMax: r = int64_t(std::max(ua, ub)); break;
  case AtomicRMWKind::UMin: r = int64_t(std::min(ua, ub)); break;
  case AtomicRMWKind::Xchg: r = b; break;
  case AtomicRMWKind::And: r = a & b; break;
  case AtomicRMWKind::Or: r = a | b; break;
  case AtomicRMWKind::Xor: r = a ^ b; break;
  }
  out.i[j] = wrapInt(bits, r);
}

} // namespace

LogicalResult Executor::checkAccess(Operation *op, const char *what, const Tensor &ptr, size_t j, size_t bytes) {
  if (inBounds(ptr.i[j], bytes))
    return success();
  return op->emitError() << "out-of-bounds " << what << " in " << programText() << indexText(ptr, j)
                         << ": address 0x" << llvm::utohexstr(uint64_t(ptr.i[j]))
                         << " is outside every buffer of the kernel";
}

// Programs run one at a time, so an atomic load or store is a plain one;
// the orderings concern only the GPU.
LogicalResult Executor::loadThrough(Operation *op, const char *what, Value ptrValue, Value maskValue,
                                    Value otherValue, Value result) {
  const Tensor &ptr = get(ptrValue);
  const Tensor *mask = maskValue ? &get(maskValue) : nullptr;
  const Tensor *other = otherValue ? &get(otherValue) : nullptr;
  Tensor out = Tensor::like(result.getType(), ptr.size());
  size_t bytes = std::max(1u, out.elem.getIntOrFloatBitWidth() / 8);
  for (size_t j = 0; j < ptr.size(); ++j) {
    if (maskedOff(mask, j)) {
      if (other) // else 0, as `like` made it
        out.copyElement(j, *other, other->size() == 1 ? 0 : j);
      continue;
    }
    if (failed(checkAccess(op, what, ptr, j, bytes)))
      return failure();
    readElement(out.elem, reinterpret_cast<const void *>(uintptr_t(ptr.i[j])), out, j);
  }
  set(result, std::move(out));
  return success();
}

LogicalResult Executor::storeThrough(Operation *op, const char *what, Value ptrValue, Value valueValue,
                                     Value maskValue) {
  const Tensor &ptr = get(ptrValue), &value = get(valueValue);
  const Tensor *mask = maskValue ? &get(maskValue) : nullptr;
  size_t bytes = std::max(1u, value.elem.getIntOrFloatBitWidth() / 8);
  for (size_t j = 0; j < ptr.size(); ++j) {
    if (maskedOff(mask, j))
      continue;
    if (failed(checkAccess(op, what, ptr, j, bytes)))
      return failure();
    writeElement(value.elem, reinterpret_cast<void *>(uintptr_t(ptr.i[j])), value, j);
  }
  return success();
}

LogicalResult Executor::checkVectors(Operation *op, const char *what, const Tensor &ptr, const Tensor *mask,
                                     unsigned vec, unsigned dim, size_t bytes) {
  if (vec <= 1 || ptr.shape.empty())
    return success();
  int64_t inner = 1; // flat distance between neighbours along `dim`
  for (size_t d = dim + 1; d < ptr.shape.size(); ++d)
    inner *= ptr.shape[d];
  for (size_t j = 0; j < ptr.size(); ++j) {
    if ((int64_t(j) / inner) % ptr.shape[dim] % vec)
      continue; // not the first element of a run
    bool on = !maskedOff(mask, j);
    for (unsigned k = 1; k < vec; ++k) {
      size_t e = j + size_t(k * inner);
      auto fail = [&](const std::string &why) {
        return op->emitError() << "vectorized " << what << " of " << vec << " elements in " << programText()
                               << indexText(ptr, j) << ": " << why;
      };
      if (!maskedOff(mask, e) != on)
        return fail("the mask differs within the run (at element " + coordText(ptr, e) + ")");
      if (on && ptr.i[e] != ptr.i[j] + int64_t(k * bytes))
        return fail("the addresses are not contiguous (at element " + coordText(ptr, e) + ")");
    }
    if (on && uint64_t(ptr.i[j]) % (vec * bytes))
      return op->emitError() << "misaligned vectorized " << what << " of " << vec << " elements in "
                             << programText() << indexText(ptr, j) << ": address 0x"
                             << llvm::utohexstr(uint64_t(ptr.i[j])) << " is not a multiple of " << vec * bytes
                             << " bytes";
  }
  return success();
}

LogicalResult Executor::execLoad(LoadOp op) {
  const Tensor *mask = op.getMask() ? &get(op.getMask()) : nullptr;
  size_t bytes = std::max(1u, getElementTypeOrSelf(op.getType()).getIntOrFloatBitWidth() / 8);
  if (failed(checkVectors(op, "load", get(op.getPtr()), mask, op.getVec(), op.getAccessDim(), bytes)))
    return failure();
  return loadThrough(op, "load", op.getPtr(), op.getMask(), op.getOther(), op.getResult());
}

LogicalResult Executor::execStore(StoreOp op) {
  const Tensor *mask = op.getMask() ? &get(op.getMask()) : nullptr;
  size_t bytes = std::max(1u, getElementTypeOrSelf(op.getValue().getType()).getIntOrFloatBitWidth() / 8);
  if (failed(checkVectors(op, "store", get(op.getPtr()), mask, op.getVec(), op.getAccessDim(), bytes)))
    return failure();
  return storeThrough(op, "store", op.getPtr(), op.getValue(), op.getMask());
}

LogicalResult Executor::execAtomicLoad(AtomicLoadOp op) {
  return loadThrough(op, "atomic", op.getPtr(), op.getMask(), Value(), op.getResult());
}

LogicalResult Executor::execAtomicStore(AtomicStoreOp op) {
  return storeThrough(op, "atomic", op.getPtr(), op.getValue(), op.getMask());
}

// A descriptor is held as its base address, sizes and strides, in that order.
LogicalResult Executor::execMakeTensorDescriptor(MakeTensorDescriptorOp op) {
  Tensor desc;
  desc.elem = op.getType();
  desc.i.push_back(get(op.getBase()).i[0]);
  for (Value v : op.getShape())
    desc.i.push_back(get(v).i[0]);
  for (Value v : op.getStrides())
    desc.i.push_back(get(v).i[0]);
  set(op.getResult(), std::move(desc));
  return success();
}

void descriptorBlock(const Tensor &desc, ArrayRef<int64_t> offsets, Tensor &addrs, std::vector<bool> &inside) {
  auto type = cast<TensorDescType>(desc.elem);
  ArrayRef<int64_t> block = type.getBlockShape();
  size_t rank = block.size(), n = type.getBlockType().getNumElements();
  int64_t elemBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  addrs = Tensor::like(RankedTensorType::get(block, IntegerType::get(type.getContext(), 64)), n);
  inside.assign(n, true);
  for (size_t j = 0; j < n; ++j) {
    int64_t rest = int64_t(j), addr = desc.i[0];
    for (size_t d = rank; d-- > 0;) {
      int64_t idx = offsets[d] + rest % block[d];
      rest /= block[d];
      inside[j] = inside[j] && idx >= 0 && idx < desc.i[1 + d];
      addr += idx * desc.i[1 + rank + d] * elemBytes;
    }
    addrs.i[j] = addr;
  }
}

LogicalResult Executor::forEachDescriptorElement(Operation *op, Value desc, ValueRange offsetValues, const char *what,
                                                 llvm::function_ref<void(size_t, void *)> fn) {
  SmallVector<int64_t> offsets;
  for (Value v : offsetValues)
    offsets.push_back(get(v).i[0]);
  return forEachDescriptorElement(op, get(desc), offsets, what, fn);
}

LogicalResult Executor::forEachDescriptorElement(Operation *op, const Tensor &desc, ArrayRef<int64_t> offsets,
                                                 const char *what, llvm::function_ref<void(size_t, void *)> fn) {
  Tensor addrs;
  std::vector<bool> inside;
  descriptorBlock(desc, offsets, addrs, inside);
  size_t bytes = cast<TensorDescType>(desc.elem).getElementType().getIntOrFloatBitWidth() / 8;
  for (size_t j = 0; j < addrs.size(); ++j) {
    if (!inside[j])
      continue;
    if (failed(checkAccess(op, what, addrs, j, bytes)))
      return failure();
    fn(j, reinterpret_cast<void *>(uintptr_t(addrs.i[j])));
  }
  return success();
}

LogicalResult Executor::execDescriptorLoad(DescriptorLoadOp op) {
  Tensor out = Tensor::like(op.getType(), size_t(op.getType().getNumElements())); // zeros outside the tensor
  if (failed(forEachDescriptorElement(op, op.getDesc(), op.getOffsets(), "descriptor load",
                                      [&](size_t j, void *p) { readElement(out.elem, p, out, j); })))
    return failure();
  set(op.getResult(), std::move(out));
  return success();
}

LogicalResult Executor::execDescriptorStore(DescriptorStoreOp op) {
  const Tensor &value = get(op.getValue());
  return forEachDescriptorElement(op, op.getDesc(), op.getOffsets(), "descriptor store",
                                  [&](size_t j, void *p) { writeElement(value.elem, p, value, j); });
}

LogicalResult Executor::execAtomicRMW(AtomicRMWOp op) {
  const Tensor &ptr = get(op.getPtr()), &value = get(op.getValue());
  const Tensor *mask = op.getMask() ? &get(op.getMask()) : nullptr;
  Tensor old = Tensor::like(op.getType(), ptr.size()), next = old;
  size_t bytes = value.elem.getIntOrFloatBitWidth() / 8;
  for (size_t j = 0; j < ptr.size(); ++j) {
    if (maskedOff(mask, j))
      continue; // old stays 0, as on the GPU
    if (failed(checkAccess(op, "atomic", ptr, j, bytes)))
      return failure();
    void *p = reinterpret_cast<void *>(uintptr_t(ptr.i[j]));
    readElement(value.elem, p, old, j);
    combine(op.getKind(), value.elem, old, value, j, next);
    writeElement(value.elem, p, next, j);
  }
  set(op.getResult(), std::move(old));
  return success();
}

LogicalResult Executor::execAtomicCAS(AtomicCASOp op) {
  const Tensor &ptr = get(op.getPtr()), &cmp = get(op.getCmp()), &value = get(op.getValue());
  Tensor old = Tensor::like(op.getType(), ptr.size());
  size_t bytes = value.elem.getIntOrFloatBitWidth() / 8;
  for (size_t j = 0; j < ptr.size(); ++j) {
    if (failed(checkAccess(op, "atomic", ptr, j, bytes)))
      return failure();
    void *p = reinterpret_cast<void *>(uintptr_t(ptr.i[j]));
    readElement(value.elem, p, old, j);
    // Compares bits, as the hardware does (so -0.0 differs from 0.0).
    uint64_t a = 0, b = 0;
    std::memcpy(&a, p, bytes);
    writeElement(cmp.elem, &b, cmp, j);
    if (a == b)
      writeElement(value.elem, p, value, j);
  }
  set(op.getResult(), std::move(old));
  return success();
}

} // namespace blk::interp
