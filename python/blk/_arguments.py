"""Turns Python launch arguments into blk_values: tensors (anything with
data_ptr()) and host buffers become pointers, ints and bools integers, floats
floats. Says which backend the pointers live on and which host memory the CPU
interpreter may touch."""
import ctypes
import numbers

from . import _library as L


class PackedArguments:
    def __init__(self, count):
        self.values = (L.Value * max(count, 1))()
        self.count = count
        self.cuda_device = None  # torch's device of the CUDA tensors, if any
        self.host_ranges = {}  # address -> bytes the interpreter may touch
        self.keep_alive = []  # ctypes views of Python buffers, held during the launch
        self.descriptors = []  # (index of the base among the values, block_shape, where it was given)


def _is_cuda(obj):
    device = getattr(obj, "device", None)
    return getattr(obj, "is_cuda", False) is True or getattr(device, "type", None) == "cuda"


def _host_range_of_tensor(obj):
    """The whole storage of a CPU tensor: a strided view may reach all of it."""
    storage = getattr(obj, "untyped_storage", None)
    if storage is not None:
        s = storage()
        return s.data_ptr(), s.nbytes()
    return obj.data_ptr(), obj.numel() * obj.element_size()


def _add_range(packed, address, nbytes):
    packed.host_ranges[address] = max(nbytes, packed.host_ranges.get(address, 0))


def _pack_one(packed, i, value):
    slot = packed.values[i]
    if isinstance(value, numbers.Integral):  # bool, int, numpy's integers
        if not -(1 << 63) <= int(value) < (1 << 64):
            raise OverflowError("argument %d = %d does not fit 64 bits" % (i, value))
        slot.kind, slot.bits = L.VALUE_INT, int(value) & 0xFFFFFFFFFFFFFFFF
        return
    if isinstance(value, numbers.Real):  # float, numpy's floats
        slot.kind, slot.real = L.VALUE_FLOAT, float(value)
        return
    if hasattr(value, "data_ptr"):
        slot.kind, slot.bits = L.VALUE_POINTER, value.data_ptr()
        if _is_cuda(value):
            if packed.cuda_device is None:
                packed.cuda_device = value.device
            elif value.device != packed.cuda_device:
                raise ValueError("argument %d is on %s, others on %s" % (i, value.device, packed.cuda_device))
        else:
            _add_range(packed, *_host_range_of_tensor(value))
        return
    try:
        view = memoryview(value)
    except TypeError:
        raise TypeError("argument %d: %s is not a tensor, a buffer, an int or a float" %
                        (i, type(value).__name__)) from None
    if view.readonly:
        raise TypeError("argument %d: a read-only buffer (%s); kernels may write their pointers' memory" %
                        (i, type(value).__name__))
    if not view.c_contiguous:
        raise TypeError("argument %d: a buffer that is not contiguous" % i)
    raw = (ctypes.c_char * view.nbytes).from_buffer(view)
    packed.keep_alive.append(raw)
    address = ctypes.addressof(raw)
    slot.kind, slot.bits = L.VALUE_POINTER, address
    _add_range(packed, address, view.nbytes)


class TensorDescriptor:
    """A strided tensor that a kernel parameter annotated
    `tensor_descriptor(T, [B0, ...])` reads and writes in blocks, as Triton's
    host-side TensorDescriptor (`triton.tools.tensor_descriptor`), which a
    launch takes as well: `base` (a tensor or buffer), `shape` and `strides`
    in elements, outermost first, the last stride 1. A launch checks that
    `block_shape` is the block shape the kernel's parameter is annotated
    with."""

    def __init__(self, base, shape, strides, block_shape):
        self.base, self.shape, self.strides = base, list(shape), list(strides)
        self.block_shape = list(block_shape)

    @staticmethod
    def from_tensor(tensor, block_shape):
        return TensorDescriptor(tensor, tensor.shape, tensor.stride(), block_shape)


def _is_descriptor(value):
    return all(hasattr(value, a) for a in ("base", "shape", "strides", "block_shape"))


def flatten(args, out=None, where="argument ", descriptors=None):
    """The launch's arguments as the kernel takes them: a tuple's elements in
    order (a parameter annotated `(A, B)`), and a tensor descriptor's base,
    sizes and strides but the last, which must be 1 (rows contiguous, as TMA
    reads them). Each descriptor's (index of its base in the result, block
    shape, where it was given) goes to `descriptors`."""
    out = [] if out is None else out
    for i, value in enumerate(args):
        if isinstance(value, tuple):
            flatten(value, out, "%s%d, element " % (where, i), descriptors)
            continue
        if not _is_descriptor(value):
            out.append(value)
            continue
        shape, strides = [int(v) for v in value.shape], [int(v) for v in value.strides]
        if not shape or len(shape) != len(strides) or len(value.block_shape) != len(shape):
            raise ValueError("%s%d: a tensor descriptor needs as many sizes, strides and block dimensions, "
                             "got %d, %d and %d" % (where, i, len(shape), len(strides), len(value.block_shape)))
        if strides[-1] != 1:
            raise ValueError("%s%d: a tensor descriptor's last stride must be 1, got %d" % (where, i, strides[-1]))
        if descriptors is not None:
            descriptors.append((len(out), [int(b) for b in value.block_shape], "%s%d" % (where, i)))
        out += [value.base] + shape + strides[:-1]
    return out


def check_descriptor_blocks(packed, kernel_block):
    """Raises ValueError where a descriptor's block_shape is not the block
    shape `kernel_block(index)` gives for the parameter its base is passed
    to (None: no descriptor parameter there)."""
    for index, given, where in packed.descriptors:
        want = kernel_block(index)
        if want is None:
            raise ValueError("%s: a tensor descriptor where the kernel takes no tensor descriptor parameter" % where)
        if given != want:
            raise ValueError("%s: the kernel's tensor descriptor parameter reads blocks of %s, the descriptor's "
                             "block_shape is %s" % (where, want, given))


def pack(args):
    descriptors = []
    args = flatten(args, descriptors=descriptors)
    packed = PackedArguments(len(args))
    packed.descriptors = descriptors
    for i, value in enumerate(args):
        _pack_one(packed, i, value)
    if packed.cuda_device is not None and packed.host_ranges:
        raise ValueError("a launch mixes CUDA tensors and host memory")
    return packed
