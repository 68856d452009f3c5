"""The exceptions of blk: compiler and launch errors carry the C API's message
(`file:line:col: error: ...` with the source line and a caret)."""


class BlkError(RuntimeError):
    """An error reported by blk's JIT."""


class CompileError(BlkError):
    """The kernel did not compile (syntax, types, bindings, an unknown kernel)."""


class LaunchError(BlkError):
    """A launch was refused or failed (arguments, grid, out-of-bounds access on
    the interpreter, a driver error)."""
