"""Header-check every kernel of an emission against the real tt-metal 0.81.1 headers.

Compile-time arguments are those the host would pass: each interleaved DRAM tensor's
``TensorAccessorArgs`` are two words (flags, page size); buffer formats and the compute
configuration come from the lowered program.
"""

from __future__ import annotations

from .emit import Emitted
from .headercheck import CheckResult, check_kernel
from .hosts import kernel_file
from .jit_generated import ComputeOptions

_KIND = {"compute": "compute", "riscv_0": "writer", "riscv_1": "reader"}
#: TensorAccessorArgs of an interleaved DRAM buffer: ArgConfig flags (IsDram) and the page size
_DRAM_INTERLEAVED = 2


def check_emitted(emitted: Emitted, arch: str | None = None, jobs: int = 2) -> list[tuple[str, CheckResult]]:
    program = emitted.program
    formats = {cb.index: cb.fmt.metal_name for cb in program.cbs}
    compute = ComputeOptions(math_fidelity=program.math_fidelity, fp32_dest_acc_en=program.fp32_dest_acc_en)
    results = []
    for kernel in program.kernels:
        ct_args: list[int] = list(kernel.compile_args)
        for tensor, _ in kernel.accessors:
            page = tensor.fmt.tile_bytes if tensor.unit.tiled else tensor.shape[-1] * tensor.fmt.element_bits // 8
            ct_args += [_DRAM_INTERLEAVED, page]
        name = kernel_file(kernel)
        result = check_kernel(emitted.files[name], _KIND[kernel.processor], arch or program.arch,
                              compile_time_args=ct_args, cb_formats=formats, name=name, compute=compute, jobs=jobs)
        results.append((name, result))
    return results
