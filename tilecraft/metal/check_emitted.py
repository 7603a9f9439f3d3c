"""Header-check every kernel of an emission against the real tt-metal 0.81.1 headers.

Compile-time arguments are those the host would pass: each interleaved DRAM tensor's
``TensorAccessorArgs`` are two words (flags, page size); buffer formats and the compute
configuration come from the lowered program. The kernels are checked at the same time (each
g++ pass is its own process), which is what keeps ``tilecraft emit`` of a program within seconds.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from ..diagnostics import Note, Span, error
from .emit import Emitted
from .headercheck import CheckResult, check_kernel
from .hosts import kernel_file
from .jit_generated import ComputeOptions
from .kir import METAL_VERSION

#: TensorAccessorArgs of an interleaved DRAM buffer: ArgConfig flags (IsDram) and the page size
_DRAM_INTERLEAVED = 2


def check_emitted(emitted: Emitted, arch: str | None = None, jobs: int = 3) -> list[tuple[str, CheckResult]]:
    """Every kernel's check result, in the program's kernel order; ``jobs`` g++ passes per kernel
    at a time (a compute kernel has three)."""
    program = emitted.program
    formats = {cb.index: cb.fmt.metal_name for cb in program.cbs}
    compute = ComputeOptions(math_fidelity=program.math_fidelity, fp32_dest_acc_en=program.fp32_dest_acc_en)

    def check(kernel) -> tuple[str, CheckResult]:
        ct_args: list[int] = list(kernel.compile_args)
        for tensor, _ in kernel.accessors:
            page = tensor.fmt.tile_bytes if tensor.unit.tiled else tensor.shape[-1] * tensor.fmt.element_bits // 8
            ct_args += [_DRAM_INTERLEAVED, page]
        name = kernel_file(kernel)
        return name, check_kernel(emitted.files[name], kernel.processor.role, arch or program.arch,
                                  compile_time_args=ct_args, cb_formats=formats, name=name, compute=compute,
                                  jobs=jobs)

    with ThreadPoolExecutor(max_workers=max(1, len(program.kernels))) as pool:
        return list(pool.map(check, program.kernels))


def require_compiles(emitted: Emitted, where: str, span: Span | None) -> None:
    """Raise ``E3004`` at the program's ``span`` when a kernel ``tilecraft emit`` wrote (into
    ``where``) fails the header check: the emitter wrote C++ that tt-metal would not compile,
    which is a tilecraft bug. ToolchainUnavailable / HeadersUnavailable propagate: the caller
    says the check could not run."""
    failed = [(name, result) for name, result in check_emitted(emitted) if not result.ok]
    if failed:
        notes = [Note(f"{where}/{name}: " + "\n".join(result.diagnostics.splitlines()[:12])) for name, result in failed]
        raise error("E3004", f"the emitted kernel{'s' if len(failed) > 1 else ''} "
                    f"{', '.join(name for name, _ in failed)} of program '{emitted.program.name}' do"
                    f"{'' if len(failed) > 1 else 'es'} not compile against the tt-metal {METAL_VERSION} headers",
                    span, notes=notes, hint="this is a bug in tilecraft's emitter: please report it with the program")
