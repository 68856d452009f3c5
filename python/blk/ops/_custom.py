"""How blk.ops registers its operators: each is a torch.library custom op in
the namespace `blk` (torch.ops.blk.NAME) with a fake implementation (shapes
for torch.compile and meta tensors) and an autograd formula, so that
torch.compile graphs keep it whole. The autograd.Function of each op (Liger's
shape: XFunction.apply) runs the same custom op, setup_context and backward:
one implementation, two entry points (register_autograd)."""
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


def register_autograd(name, op, setup_context, backward, keep=1):
    """Registers the autograd formula of the custom op `op` and returns its
    autograd.Function (Liger's shape: NameFunction.apply(*inputs), positional
    arguments only; forward returns the op's first `keep` results, the others
    being what the backward reads). One formula, two entry points.

    Gradients are not materialized: the results past the first `keep` (saved
    gradients, statistics) have none, and zeros of their size would be
    allocated at the backward's start (a fused linear cross-entropy's dW and
    dX, a cross-entropy's logits gradient). A kept result without a gradient
    gets zeros; when none of them has one the inputs get none."""
    arguments = len(op._opoverload._schema.arguments)

    def setup(ctx, inputs, output):
        ctx.set_materialize_grads(False)
        results = output if isinstance(output, tuple) else (output,)
        ctx.kept_results = [(r.shape, r.dtype, r.device) for r in results[:keep]]
        setup_context(ctx, inputs, output)

    def formula(ctx, *grads):
        kept = grads[:keep]
        if all(g is None for g in kept):
            return (None,) * arguments
        kept = [g if g is not None else torch.zeros(shape, dtype=dtype, device=device)
                for g, (shape, dtype, device) in zip(kept, ctx.kept_results)]
        return backward(ctx, *kept, *grads[keep:])

    op.register_autograd(formula, setup_context=setup)
    return _autograd_function(name, op, setup, formula, keep)


def _autograd_function(name, op, setup_context, backward, keep):
    schema = op._opoverload._schema
    returns = len(schema.returns)

    def forward(ctx, *inputs):
        # Arguments left out take the schema's defaults, as the op's own call does.
        ctx.given = len(inputs)
        inputs += tuple(a.default_value for a in schema.arguments[len(inputs):])
        result = op(*inputs)
        setup_context(ctx, inputs, result)
        results = result if isinstance(result, tuple) else (result,)
        return results[0] if keep == 1 else results[:keep]

    def backward_(ctx, *grads):
        result = backward(ctx, *grads, *([None] * (returns - keep)))
        return result[:ctx.given] if isinstance(result, tuple) else result

    return type(name, (torch.autograd.Function,), {
        "__doc__": "autograd.Function over torch.ops.%s: the custom op's implementation and formula." %
                   op._opoverload._schema.name.replace("::", "."),
        "forward": staticmethod(forward),
        "backward": staticmethod(backward_),
    })
