"""A PyKernel program: what ``PyKernelOp.create_program`` returns, how it runs and how it is emitted.

It is a ``ttnn.ProgramDescriptor`` (so ``generic_op`` takes it as it is) that also remembers how
it was made: the compiled kernels (kernel-level IR, C++, C++ -> Python line map) and each
kernel's arguments with buffer addresses kept symbolic. That lets a cached program run on new
tensors (:meth:`PyKernelProgram.bind`), turns emulator diagnostics into diagnostics at the
kernels' Python lines (:func:`run`), and gives ``tilecraft emit`` / ``show-ir`` the kernel-level
program (:meth:`PyKernelProgram.metal`), the same record the TT-Lang lowering produces.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from .. import session, ttnn
from ..diagnostics import KernelError, Span, error
from ..emu.cache import digest, emu_cache
from ..emu.cache_budget import mark_used
from ..emu.launch import kernel_display
from ..ir.printer import print_op
from ..ir.types import SCALAR_UNIT, TILE_UNIT, TensorDecl
from ..ir.grid import all_cores
from ..metal import kir
from ..ttnn.descriptors import KernelDescriptor, ProgramDescriptor
from ..ttnn.layout import Layout
from .binding import KernelArgs, resolve
from .cpp_lines import Origins, remap_error, rewarn
from .kernel_ast import CompiledKernel
from .kernel_types import CircularBuffer, Kernel

_CONFIGS: dict[str, Callable[[], Any]] = {
    "compute_thread": ttnn.ComputeConfigDescriptor, "reader_thread": ttnn.ReaderConfigDescriptor,
    "writer_thread": ttnn.WriterConfigDescriptor}


@dataclass
class OpCircularBuffer:
    """A circular buffer of the op (the published ``OpCircularBuffer`` fields)."""

    cb_type: CircularBuffer
    cb_format: ttnn.CBFormatDescriptor
    cb_descriptor: ttnn.CBDescriptor


@dataclass
class OpKernel:
    """A kernel of the op: the published ``kernel_type`` / ``kernel_descriptor``, and how it was made."""

    kernel_type: Kernel
    kernel_descriptor: KernelDescriptor
    compiled: CompiledKernel
    args: KernelArgs
    thread: str
    path: Path
    core_ranges: ttnn.CoreRangeSet
    span: Span | None = None


def kernel_path(name: str, text: str) -> Path:
    """The generated C++ in the emulator's cache, by content (the emulator compiles files)."""
    path = emu_cache() / "pykernels" / f"{name}-{digest(text)[:16]}.cpp"
    if not mark_used(path):  # not written yet, or removed by the cache's bound
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".pykernel-")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    return path


def kernel_descriptor(kernel: OpKernel, tensors: Sequence[Any]) -> KernelDescriptor:
    """The KernelDescriptor of ``kernel`` with its arguments resolved for ``tensors``."""
    args = kernel.args
    compile_args = list(args.cb_ids)
    for index in args.accessor_tensors:
        compile_args += ttnn.TensorAccessorArgs(tensors[index]).get_compile_time_args()
    runtime = [(ttnn.CoreCoord(x, y), [resolve(v, tensors) for v in values])
               for (x, y), values in args.per_core.items()]
    return KernelDescriptor(kernel_source=str(kernel.path), source_type=KernelDescriptor.SourceType.FILE_PATH,
                            core_ranges=kernel.core_ranges, compile_time_args=compile_args, runtime_args=runtime,
                            common_runtime_args=[resolve(v, tensors) for _, v in args.common],
                            config=_CONFIGS[kernel.thread]())


@dataclass
class PyKernelProgram(ProgramDescriptor):
    """A ProgramDescriptor made by a PyKernelOp, with the records it was made from."""

    name: str = "pykernel"
    op_kernels: list[OpKernel] = field(default_factory=list)
    op_cbs: list[OpCircularBuffer] = field(default_factory=list)
    core_ranges: Any = None
    span: Span | None = None
    #: the io tensors' names (the op's ``invoke`` parameters)
    tensor_names: list[str] = field(default_factory=list)

    def bind(self, tensors: Sequence[Any]) -> ProgramDescriptor:
        """The descriptor for these io tensors (their buffer addresses in the runtime arguments)."""
        return ProgramDescriptor(kernels=[kernel_descriptor(k, tensors) for k in self.op_kernels],
                                 semaphores=list(self.semaphores), cbs=list(self.cbs))

    def origins(self) -> Origins:
        return {kernel_display(k.path): k.compiled.origin for k in self.op_kernels}

    def metal(self, tensors: Sequence[Any]) -> kir.MetalProgram:
        """The program as tilecraft's kernel-level IR, for ``tilecraft emit`` and ``show-ir``.

        Its hosts address a grid from core (0, 0): the op must run on one such rectangle."""
        box = self.core_ranges.bounding_box()
        grid = (box.end.x + 1, box.end.y + 1)
        if (box.start.x, box.start.y) != (0, 0) or self.core_ranges.num_cores() != grid[0] * grid[1]:
            raise error("E0626", f"program '{self.name}' runs on {self.core_ranges}: tilecraft emit writes hosts "
                        "for programs on one rectangle of cores from (0, 0)", self.span)
        decls = [TensorDecl(i, name, tuple(t.shape), t.dtype, TILE_UNIT if t.layout is Layout.TILE else SCALAR_UNIT)
                 for i, (t, name) in enumerate(zip(tensors, self.tensor_names))]
        order = all_cores(grid)
        kernels = []
        for k in self.op_kernels:
            args = k.args
            per_core = [tuple(args.per_core[core][i] for core in order) for i in range(len(args.per_core_labels))]
            kernels.append(replace(
                k.compiled.kernel, compile_args=list(args.cb_ids),
                accessors=[(decls[t], n) for n, t in enumerate(args.accessor_tensors)],
                rt_args=[kir.ArgDecl(label, values) for label, values in zip(args.per_core_labels, per_core)],
                common_args=[kir.ArgDecl(label, (value,)) for label, value in args.common]))
        cbs = []
        for cb in self.cbs:
            for f in cb.format_descriptors:
                cbs.append(kir.CBSpec(f.buffer_index, f"cb{f.buffer_index}", f.data_format, f.page_size,
                                      cb.total_size // f.page_size))
        semaphores = [kir.SemSpec(s.id, f"semaphore{s.id}", s.initial_value) for s in self.semaphores]
        compute = next((k.kernel_descriptor.config for k in self.op_kernels if k.thread == "compute_thread"), None)
        fidelity = compute.math_fidelity.name if compute is not None else "HiFi4"
        fp32 = bool(compute.fp32_dest_acc_en) if compute is not None else False
        return kir.MetalProgram(self.name, grid, session.options().arch, kernels, cbs, semaphores, decls, fidelity,
                                fp32)


def run(program: ProgramDescriptor, tensors: Sequence[Any]) -> Any:
    """Run ``program`` on the kernel emulator (``ttnn.generic_op``); diagnostics from PyKernel
    kernels are reported at their Python lines."""
    if not isinstance(program, PyKernelProgram):
        return ttnn.generic_op(list(tensors), program)
    for hook in session.current().kernel_hooks:  # tilecraft emit, show-ir, profile
        hook(program, tensors)
    origins = program.origins()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ttnn.generic_op(list(tensors), program.bind(tensors))
        except KernelError as exc:
            failure: KernelError | None = remap_error(exc, origins)
        else:
            failure = None
    rewarn(caught, origins)
    if failure is not None:
        raise failure
    return result


def ir_text(program: PyKernelProgram) -> str:
    """The kernel-level IR of every kernel of ``program`` (``tilecraft show-ir``)."""
    lines = [f"pykernel program @{program.name} cores={program.core_ranges} {{"]
    for k in program.op_kernels:
        kernel = k.compiled.kernel
        lines.append(f"  kernel @{kernel.name} {kernel.processor} {{")
        for op in kernel.body:
            lines += print_op(op, 2)
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines)
