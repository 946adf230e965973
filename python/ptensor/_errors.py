"""Exceptions raised by the ptensor Python frontend.

Every failure is a Python exception, never a crash of the process: the meta
step (broadcast shape, result dtype, placement) runs in Python before any
compiled code is called, with the same messages as the compiler's type
inference (docs/Semantics.md), and the compiler's own diagnostics are kept
verbatim in `CompileError`.
"""


class PTensorError(Exception):
    """Base class of every ptensor exception."""


class CompileError(PTensorError, RuntimeError):
    """ptensor-compile rejected the generated IR, or no compiler (and no
    cached kernel) is available.

    Attributes:
      stderr: the compiler's diagnostics ("" when it could not run).
      ir: the IR text that was compiled.
      command: the command line, or None.
    """

    def __init__(self, message, stderr="", ir="", command=None):
        super().__init__(message)
        self.stderr = stderr
        self.ir = ir
        self.command = command


class DTypeError(PTensorError, TypeError):
    """An operand dtype the operation rejects, or dtypes that do not
    promote (e.g. ui64 with a signed dtype)."""


class BroadcastError(PTensorError, ValueError):
    """Shapes that do not broadcast, or an out= operand of the wrong shape."""


class DeviceError(PTensorError, ValueError):
    """Operands on different devices, or a GPU operand without a GPU runtime."""


class OverlapError(PTensorError, ValueError):
    """An out= operand that partially overlaps an input or itself."""


class TraceError(PTensorError, TypeError):
    """A `@ptensor.pointwise` function used something that cannot be traced
    into scalar IR (Python control flow on traced values, unknown objects)."""


class CheckError(PTensorError, ValueError):
    """A run-time check of compiled code failed (e.g. an empty axis of max
    with a dynamic size), or a value the runtime cannot take reached it (a
    negative dynamic size)."""


class ExecutionError(PTensorError, RuntimeError):
    """Compiled code failed on the GPU (a CUDA call, a launch); the process
    goes on."""


class OutOfMemoryError(ExecutionError, MemoryError):
    """A device allocation of compiled code failed: the message names the
    bytes asked for and the device's free memory."""


class RuntimeUnavailableError(PTensorError, RuntimeError):
    """libptensor_runtime.so (needed for GPU operands) could not be loaded."""
