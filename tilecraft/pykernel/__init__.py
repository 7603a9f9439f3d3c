"""PyKernel: TT-Metalium kernels written in Python, assembled into ops with ``PyKernelOp``.

The published PyKernel (tt-mlir ``tools/pykernel``, seed 000) on tilecraft: kernel bodies are a
Python subset calling the Metalium 0.81.1 kernel API by name; tilecraft's front end compiles them
into its kernel-level IR (the IR the TT-Lang lowering produces), prints them as C++ with the same
printer, and runs them with ``ttnn.generic_op`` on the kernel emulator. See docs/pykernel.md.

    from tilecraft.pykernel import *          # or, as the seed writes it under `tilecraft run`:
    from pykernel.kernel_ast import *         # decorators
    from pykernel.op import PyKernelOp
    from pykernel.kernel_types import *       # CircularBuffer, CompileTimeValue
"""

from .kernel_ast import (KernelFunction, compute_thread, reader_thread, ttkernel_compile, ttkernel_noc_compile,
                         ttkernel_tensix_compile, writer_thread)
from .kernel_types import CircularBuffer, CompiledValue, CompileTimeValue, Kernel, TensorAccessorConfig
from .op import PyKernelOp

__all__ = ["compute_thread", "reader_thread", "writer_thread", "ttkernel_compile", "ttkernel_tensix_compile",
           "ttkernel_noc_compile", "KernelFunction", "CircularBuffer", "CompileTimeValue", "CompiledValue", "Kernel",
           "TensorAccessorConfig", "PyKernelOp"]
