"""Metal 2.0's named kernel arguments (0.81.1 experimental/kernel_args.h) on the emulator: a
reader that names its runtime, common runtime and compile-time arguments through RtaArg, CrtaArg
and CtaVal accessors reads each core's own tiles, and a read past the args the host set is
reported at the kernel's line. Needs no wheel."""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import KernelError
from tests.emu.harness import KERNELS, cb, cores, dram, kernel, line_of, output, run, writer

GRID = cores(0, 0, 1, 0)


def _reader(src: ttnn.Tensor, common: list[int]) -> ttnn.KernelDescriptor:
    return kernel(KERNELS / "reader_named_args.cpp", ttnn.ReaderConfigDescriptor(), GRID,
                  rt={(0, 0): [src.buffer_address(), 0], (1, 0): [src.buffer_address(), 2]},
                  common=common, named=[("cb", 3)], ct=ttnn.TensorAccessorArgs(src).get_compile_time_args())


def _writers(out: ttnn.Tensor) -> list[ttnn.KernelDescriptor]:
    return [writer(out, 3, 2, first, core_ranges=cores(x, 0, x, 0)) for x, first in ((0, 0), (1, 2))]


def test_named_runtime_common_and_compile_time_args_select_each_cores_tiles(device) -> None:
    """Core (0, 0) copies tiles 0-1 and core (1, 0) tiles 2-3: the per-core RtaArg, the shared
    CrtaArg and the CtaVal CB index all reach the kernel, so the copy is exact."""
    x = torch.randn(64, 64)
    src, out = dram(device, x), output(device, (64, 64))
    run([src, out], [_reader(src, common=[2]), *_writers(out)], [cb(3, core_ranges=GRID)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(src))


def test_a_named_arg_past_the_hosts_args_is_reported_at_its_line(device) -> None:
    """A CrtaArg the host did not set (no common runtime args) is E5103 at the kernel line that
    reads it, never a silent zero."""
    src, out = dram(device, torch.randn(64, 64)), output(device, (64, 64))
    with pytest.raises(KernelError) as info:
        run([src, out], [_reader(src, common=[]), *_writers(out)], [cb(3, core_ranges=GRID)])
    d = info.value.diagnostic
    source = KERNELS / "reader_named_args.cpp"
    assert d.code == "E5103" and d.span.line == line_of(source), d
    assert "common runtime args" in d.message, d
