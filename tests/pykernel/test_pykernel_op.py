"""PyKernelOp on the kernel emulator: the published binding rules, the program cache, and kernels
whose integer arithmetic and control flow decide where data goes (so a wrong translation shows
in the numbers)."""

from __future__ import annotations

import shutil

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.pykernel.ops import RowsOp
from tilecraft import session

pytestmark = pytest.mark.skipif(shutil.which("g++") is None,
                                reason="no g++: the kernel emulator compiles kernels with the host C++ compiler")


@pytest.fixture
def device(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(session, "_default", None)
    dev = ttnn.open_device(0)
    yield dev
    ttnn.close_device(dev)


def tensors(device, tiles: int, seed: int):
    torch.manual_seed(seed)
    data = torch.randn(32, 32 * tiles).to(torch.bfloat16)
    x = ttnn.from_torch(data, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                        memory_config=ttnn.DRAM_MEMORY_CONFIG)
    y = ttnn.allocate_tensor_on_device(ttnn.Shape([32, 32 * tiles]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                       ttnn.DRAM_MEMORY_CONFIG)
    return data, x, y


@pytest.mark.parametrize("negate", [True, False])
def test_kernels_compute_on_the_emulator(device, negate):
    data, x, y = tensors(device, 8, 0)
    out = RowsOp(cores=2, negate=negate)(x, y)
    assert out is y
    assert torch.equal(ttnn.to_torch(y), -data if negate else data)  # exact: a copy and a sign flip


def test_the_binding_rules(device):
    _, x, y = tensors(device, 4, 0)
    op = RowsOp(cores=2)
    op(x, y)
    program = next(iter(op.kernel_cache.values()))
    reader, compute, writer = program.op_kernels
    # CB ids are compile-time args in order; accessor args (config, page size) follow them
    assert reader.kernel_descriptor.compile_time_args == [0]
    assert writer.kernel_descriptor.compile_time_args == [1, 2, 2048]
    # an int is a common runtime arg; a list of lists one per-core arg per core
    assert reader.kernel_descriptor.common_runtime_args == [x.buffer_address(), 2]
    per_core = dict(((c.x, c.y), args) for c, args in reader.kernel_descriptor.runtime_args)
    assert per_core == {(0, 0): [0], (1, 0): [2]}
    # a CompileTimeValue is folded into the kernel text, not passed
    assert compute.kernel_descriptor.common_runtime_args == [2] and "negative_tile(0);" in compute.kernel_type.kernel_string
    assert isinstance(compute.kernel_descriptor.config, ttnn.ComputeConfigDescriptor)
    assert isinstance(reader.kernel_descriptor.config, ttnn.ReaderConfigDescriptor)
    assert isinstance(writer.kernel_descriptor.config, ttnn.WriterConfigDescriptor)


def test_the_program_cache_keys_on_tensor_kinds(device):
    op = RowsOp(cores=2)
    first, x1, y1 = tensors(device, 4, 1)
    op(x1, y1)
    second, x2, y2 = tensors(device, 4, 2)  # same kind, new buffers: the cached program, their addresses
    op(x2, y2)
    assert len(op.kernel_cache) == 1
    assert torch.equal(ttnn.to_torch(y1), -first) and torch.equal(ttnn.to_torch(y2), -second)
    third, x3, y3 = tensors(device, 6, 3)  # another shape: another program
    op(x3, y3)
    assert len(op.kernel_cache) == 2 and torch.equal(ttnn.to_torch(y3), -third)


def test_show_ir_prints_the_kernel_level_ir(device, capsys):
    from tilecraft.pykernel import pykernel_program

    _, x, y = tensors(device, 2, 0)
    op = RowsOp(cores=1)
    with session.using(kernel_hooks=[lambda program, io: print(pykernel_program.ir_text(program))]):
        op(x, y)
    out = capsys.readouterr().out
    assert "pykernel program @RowsOp" in out
    assert "kernel @strided_reader riscv_1 {" in out and "kernel @scale compute {" in out
    assert "metal.aggregate" in out and "scf.for" in out and 'fn=noc_async_read_page' in out
