"""How blk.ops registers its operators: each is a torch.library custom op in
the namespace `blk` (torch.ops.blk.NAME) with a fake implementation (shapes
for torch.compile and meta tensors) and an autograd formula, so that
torch.compile graphs keep it whole. The autograd.Function of each op (Liger's
shape: XFunction.apply) runs the same custom op, setup_context and backward:
one implementation, two entry points."""
import torch

NAMESPACE = "blk"


def custom_op(name, mutates_args=()):
    """torch.library.custom_op("blk::name", ...) as a decorator."""
    return torch.library.custom_op("%s::%s" % (NAMESPACE, name), mutates_args=mutates_args)


def is_tracing():
    """Whether torch.compile (Dynamo or AOTAutograd's tracing) is tracing the caller."""
    compiler = getattr(torch, "compiler", None)
    if compiler is not None and hasattr(compiler, "is_compiling") and compiler.is_compiling():
        return True
    try:
        from torch._subclasses.functional_tensor import FunctionalTensorMode
        from torch.utils._python_dispatch import _get_current_dispatch_mode_stack
    except ImportError:
        return False
    return any(isinstance(m, FunctionalTensorMode) for m in _get_current_dispatch_mode_stack())


def scale_gradient(grad, upstream):
    """grad * upstream for a gradient that the forward computed for an
    upstream gradient of 1 (the losses, as Liger's do). Eager scales the saved
    gradient in place, so that no second copy of it exists (a second backward
    through the same graph then fails autograd's in-place check); traced code
    multiplies out of place."""
    if is_tracing():
        return grad * upstream
    return grad.mul_(upstream)


def autograd_function(name, op, setup_context, backward, keep=1):
    """An autograd.Function over the custom op `op`: forward runs op and its
    setup_context and returns its first `keep` results (the others are what
    the backward needs); backward is the op's backward. Call it as Liger's
    are called: NameFunction.apply(*inputs), positional arguments only."""
    returns = len(op._opoverload._schema.returns)

    def forward(ctx, *inputs):
        result = op(*inputs)
        setup_context(ctx, inputs, result)
        results = result if isinstance(result, tuple) else (result,)
        return results[0] if keep == 1 else results[:keep]

    def backward_(ctx, *grads):
        return backward(ctx, *grads, *([None] * (returns - keep)))

    return type(name, (torch.autograd.Function,), {
        "__doc__": "autograd.Function over torch.ops.%s: the custom op's implementation and formula." %
                   op._opoverload._schema.name.replace("::", "."),
        "forward": staticmethod(forward),
        "backward": staticmethod(backward_),
    })
