"""Small generic_op programs for the kernel-emulator tests.

Kernels are real files (tests/emu/kernels, tests/emu/sanitizer, or written into a test's tmp
directory), so diagnostics carry their lines; a test finds the line it expects by a marker comment
(``// FINDING-HERE``) rather than by number. Hosts are written as for ttnn 0.81.1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.emu import launch
from tilecraft.emu.program_spec import ProgramSpec
from tilecraft.ttnn.wheel_ops.program import ONE, cb, kernel, run  # noqa: F401 (the tests' helpers)

HERE = Path(__file__).parent
KERNELS = HERE / "kernels"
SANITIZER = HERE / "sanitizer"


def cores(x0: int, y0: int, x1: int, y1: int) -> ttnn.CoreRangeSet:
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(x0, y0), ttnn.CoreCoord(x1, y1))])


def line_of(path: Path, marker: str = "FINDING-HERE") -> int:
    """The 1-based line carrying ``// MARKER`` (exactly one in the file)."""
    lines = [i + 1 for i, text in enumerate(path.read_text().splitlines()) if f"// {marker}" in text]
    assert len(lines) == 1, f"{path.name}: {len(lines)} lines carry // {marker}"
    return lines[0]


def write_kernel(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text)
    return path


def dram(device, values: torch.Tensor, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
         memory_config=ttnn.DRAM_MEMORY_CONFIG) -> ttnn.Tensor:
    return ttnn.from_torch(values, dtype=dtype, layout=layout, device=device, memory_config=memory_config)


def output(device, shape: Sequence[int], dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
           memory_config=ttnn.DRAM_MEMORY_CONFIG) -> ttnn.Tensor:
    return ttnn.allocate_tensor_on_device(ttnn.Shape(list(shape)), dtype, layout, device, memory_config)


def reader(tensor: ttnn.Tensor, cb_index: int, count: int, first: int = 0,
           core_ranges: ttnn.CoreRangeSet = ONE) -> ttnn.KernelDescriptor:
    return kernel(KERNELS / "reader_tiles.cpp", ttnn.ReaderConfigDescriptor(), core_ranges,
                  rt=[tensor.buffer_address(), count, first],
                  ct=[cb_index, *ttnn.TensorAccessorArgs(tensor).get_compile_time_args()])


def writer(tensor: ttnn.Tensor, cb_index: int, count: int, first: int = 0,
           core_ranges: ttnn.CoreRangeSet = ONE) -> ttnn.KernelDescriptor:
    return kernel(KERNELS / "writer_tiles.cpp", ttnn.WriterConfigDescriptor(), core_ranges,
                  rt=[tensor.buffer_address(), count, first],
                  ct=[cb_index, *ttnn.TensorAccessorArgs(tensor).get_compile_time_args()])


def compute(path: Path, core_ranges: ttnn.CoreRangeSet = ONE, rt: dict | list | None = None,
            fp32: bool = False, unpack_to_dest: Sequence[int] = (), defines: Iterable[tuple[str, str]] = (),
            ct: Iterable[int] = (), fidelity: ttnn.MathFidelity = ttnn.MathFidelity.HiFi4,
            bfp8_pack_precise: bool = False) -> ttnn.KernelDescriptor:
    modes = [ttnn.UnpackToDestMode.Default] * 32
    for index in unpack_to_dest:
        modes[index] = ttnn.UnpackToDestMode.UnpackToDestFp32
    config = ttnn.ComputeConfigDescriptor(math_fidelity=fidelity, fp32_dest_acc_en=fp32,
                                          unpack_to_dest_mode=modes, bfp8_pack_precise=bfp8_pack_precise)
    return kernel(path, config, core_ranges, rt=rt, defines=defines, ct=ct)


def arch_cases(cases: Sequence[tuple], blackhole_default: Iterable[int]) -> list:
    """Each case on Wormhole B0 and on Blackhole's Tensix machine (the
    ``device`` fixture, indirect): on Blackhole only the cases at the indices ``blackhole_default``
    run by default, the rest are slow (each new kernel variant costs three TRISC compiles cold)."""
    sample = set(blackhole_default)
    return [pytest.param(arch, *case, marks=[pytest.mark.slow] if arch == "blackhole" and i not in sample else [])
            for arch in ("wormhole_b0", "blackhole") for i, case in enumerate(cases)]


def run_spec(program: ProgramSpec, stop_at_first_error: bool = True) -> launch.EmulationResult:
    return launch.run(program, stop_at_first_error)


def script_values(script: Path, *args: str) -> tuple[int, list[torch.Tensor], str]:
    """``tilecraft run SCRIPT ARGS`` in this process: the exit code, the logical values of every
    tensor of the script's one launch (empty if it did not launch), and what it wrote to stderr."""
    import contextlib
    import io

    from tilecraft import session
    from tilecraft.cli import main

    seen: list[list[torch.Tensor]] = []
    err = io.StringIO()
    with session.using(result_hooks=[lambda program, tensors: seen.append([t.to_torch() for t in tensors])]), \
            contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["run", str(script), *args])
    assert len(seen) <= 1, f"{len(seen)} launches"
    return code, seen[0] if seen else [], err.getvalue()
