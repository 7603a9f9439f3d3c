"""The closed-form ttnn op costs of tilecraft/perf/ttnn_ops.py against the kernel-level model's replay of
the same ttnn 0.81.1 wheel kernels run on the emulator (one core): the op table's "kernel" rows are the
replay's steady state without running the kernels, and these cases hold it to 3% of the replay (measured:
exp 3,445 vs 3,443 cycles on 4 tiles, 10,421 vs 10,419 on 16; add 3,304 vs 3,360 and 11,176 vs 11,456)."""

from __future__ import annotations

from dataclasses import replace

import argparse

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.emu.harness import cb, dram, kernel, output, run
from tests.emu.test_wheel_kernels import sfpu_compute, unary_reader, unary_writer
from tilecraft import session
from tilecraft.arch import ARCHS
from tilecraft.perf import estimate_kernels
from tilecraft.perf.profiler import Profiler
from tilecraft.perf.ttnn_ops import kernel_plan, kernel_time
from tilecraft.ttnn import op_record
from tilecraft.ttnn.op_record import OpCall, PlacedTensor

WORMHOLE = ARCHS["wormhole_b0"]
EXP = {"SFPU_OP_EXP_INCLUDE": "1", "SFPU_OP_CHAIN_0": "exp_tile_init<false>(); exp_tile<false>(0);"}


def replayed(tensors: list, kernels: list, cbs: list) -> float:
    """Cycles the kernel-level model replays for one generic_op program."""
    estimates = []
    with session.using(emulator_hooks=[lambda program, result: estimates.append(
            estimate_kernels(program, result.trace, WORMHOLE))]):
        run(tensors, kernels, cbs)
    (est,) = estimates
    return est.cycles


def on_one_core(name: str, inputs: list, out: ttnn.Tensor) -> float:
    call = OpCall(name, tuple(PlacedTensor.of(t) for t in inputs), PlacedTensor.of(out))
    plan = kernel_plan(call, WORMHOLE)
    assert plan is not None
    return kernel_time(call, replace(plan, max_cores=1), WORMHOLE).cycles


@pytest.mark.parametrize("tiles", [4, 16])
def test_unary_sfpu_op_cost_is_the_replay_of_its_kernels(device, ops, tiles) -> None:
    x = torch.randn(32, 32 * tiles)
    tx, out = dram(device, x), output(device, (32, 32 * tiles))
    cycles = replayed([tx, out], [unary_reader(ops, tx, tiles), sfpu_compute(ops, "unary", tiles, EXP),
                                  unary_writer(ops, out, 2, tiles)], [cb(0), cb(2)])
    assert on_one_core("exp", [tx], out) == pytest.approx(cycles, rel=0.03)


@pytest.mark.parametrize("tiles", [4, 16])
def test_binary_op_cost_is_the_replay_of_its_kernels(device, ops, tiles) -> None:
    a, b = torch.randn(32, 32 * tiles), torch.randn(32, 32 * tiles)
    ta, tb, out = dram(device, a), dram(device, b), output(device, (32, 32 * tiles))
    reader = kernel(ops / "eltwise/binary/device/kernels/dataflow/reader_binary_interleaved_start_id.cpp",
                    ttnn.ReaderConfigDescriptor(), rt=[ta.buffer_address(), tb.buffer_address(), tiles, 0, 0, 0, 0],
                    ct=[0, *ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                        *ttnn.TensorAccessorArgs(tb).get_compile_time_args()])
    compute = kernel(ops / "eltwise/binary/device/kernels/compute/eltwise_binary_kernel.cpp",
                     ttnn.ComputeConfigDescriptor(), rt=[tiles, 1],
                     defines=[("ELTWISE_OP", "add_tiles"), ("ELTWISE_OP_TYPE", "EltwiseBinaryType::ELWADD")])
    cycles = replayed([ta, tb, out], [reader, compute, unary_writer(ops, out, 2, tiles)], [cb(0), cb(1), cb(2)])
    assert on_one_core("add", [ta, tb], out) == pytest.approx(cycles, rel=0.03)


def test_an_op_that_runs_its_wheel_kernels_is_timed_by_their_replay(device, ops) -> None:
    """An op implemented by its 0.81.1 kernels (as ``--level cpp`` runs ttnn ops): the profiler's row for
    it is the replay of the program it ran, once, and that program is not a row of its own."""
    tiles = 4
    tx, out = dram(device, torch.randn(32, 32 * tiles)), output(device, (32, 32 * tiles))
    profiler = Profiler(argparse.Namespace(arch="wormhole_b0", script="model.py", trace=None, level="cpp"))
    with session.using(op_hooks=[profiler.ttnn_op], emulator_hooks=[profiler.emulated]):
        with op_record.recording("exp", (tx,), {}, 1) as result:
            run([tx, out], [unary_reader(ops, tx, tiles), sfpu_compute(ops, "unary", tiles, EXP),
                            unary_writer(ops, out, 2, tiles)], [cb(0), cb(2)])
            result.append(out)
    (row,) = profiler.timeline
    assert (row.op, row.model, row.shape) == ("exp", "kernel-level replay", (32, 32 * tiles))
    assert row.cycles == pytest.approx(on_one_core("exp", [tx], out), rel=0.03)
    assert profiler.estimates == []
