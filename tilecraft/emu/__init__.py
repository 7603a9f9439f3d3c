"""The kernel emulator: TT-Metalium 0.81.1 kernels compiled for the host and run on an emulated chip.

``tilecraft.ttnn.generic_op`` is the usual way in (docs/emulator.md); :func:`run` takes a
:class:`~tilecraft.emu.program_spec.ProgramSpec` directly. Layout: ``include/`` holds our emulation
headers (the 0.81.1 kernel API with its real signatures), ``runtime/`` the C++ runtime (fibers,
memories, NoC, circular buffers, semaphores, compute engine, sanitizer); ``build`` compiles and
caches both, ``native`` drives the runtime through ctypes, ``launch`` checks, places and runs a
program.
"""

from .launch import EmulationResult, run
from .program_spec import CBFormat, CBSpec, ComputeSpec, KernelSpec, ProgramSpec, SemaphoreSpec, TensorSpec

__all__ = ["run", "EmulationResult", "ProgramSpec", "KernelSpec", "CBSpec", "CBFormat", "SemaphoreSpec",
           "TensorSpec", "ComputeSpec"]
