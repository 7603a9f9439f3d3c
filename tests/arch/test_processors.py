"""The kernel processors (``arch/processors.py``): one record read by the lowering, the hosts, the
header check, the metal-level trace and the simulated ttnn, so their names and NoCs agree."""

from __future__ import annotations

import json

import pytest

from tests.paths import EXAMPLES
from tilecraft.arch.processors import DATA_MOVEMENT_ORDER, Processor, processor_of_role, thread_processors
from tilecraft.metal import headercheck
from tilecraft.metal.hosts import cpp_host, manifest, python_host
from tilecraft.sim.metal_level.metal_trace import SLOTS, slot_of
from tilecraft.ttnn.descriptors import NOC, DataMovementProcessor
from tilecraft.emu.program_spec import BRISC, NCRISC, SLOT_NAMES, TRISC
from benchmarks.emit_tools import programs_of
from tilecraft.metal.emit import emit_program
from tilecraft.perf import estimate

EXAMPLE = EXAMPLES / "matmul_multicore_accumulate.py"


def test_each_processor_has_its_default_noc_role_and_risc() -> None:
    assert [(p.value, p.role, p.risc, p.default_noc) for p in Processor] == [
        ("riscv_0", "writer", "brisc", 0), ("riscv_1", "reader", "ncrisc", 1), ("compute", "compute", "trisc", 0)]
    assert DATA_MOVEMENT_ORDER == (Processor.RISCV_1, Processor.RISCV_0)
    with pytest.raises(ValueError, match="ComputeConfigDescriptor"):
        Processor.COMPUTE.metal_name


@pytest.mark.parametrize("spelling, processor", [("riscv_0", Processor.RISCV_0), ("WRITER", Processor.RISCV_0),
                                                 ("ncrisc", Processor.RISCV_1), ("trisc", Processor.COMPUTE)])
def test_every_spelling_names_one_processor(spelling: str, processor: Processor) -> None:
    assert processor_of_role(spelling) is processor
    assert headercheck.normalize_kind(spelling) == processor.role


def test_the_simulated_ttnn_agrees_with_the_record() -> None:
    """ttnn's ``NOC.RISCV_n_default`` is the record's default NoC of RISCV_n, and the emulator's
    trace slots (its own numbering, as an oracle) are the ones the metal-level trace writes."""
    for processor in (Processor.RISCV_0, Processor.RISCV_1):
        dm = DataMovementProcessor[processor.metal_name]
        assert NOC[processor.default_noc_name].index(dm) == processor.default_noc
    assert SLOTS == {Processor.RISCV_0: BRISC, Processor.RISCV_1: NCRISC, Processor.COMPUTE: TRISC}
    assert SLOT_NAMES[slot_of(Processor.RISCV_1)].startswith(Processor.RISCV_1.metal_name)


@pytest.mark.usefixtures("fresh_process_state")
def test_emitted_kernels_and_hosts_name_each_processor_from_the_record() -> None:
    program = emit_program(programs_of(EXAMPLE)[0]).program
    processors = [k.processor for k in program.kernels]
    assert all(isinstance(p, Processor) for p in processors)
    assert Processor.COMPUTE in processors and Processor.RISCV_1 in processors
    for kernel in program.kernels:
        assert kernel.noc == kernel.processor.default_noc
    host, cpp = python_host(program), cpp_host(program)
    for processor in set(processors) - {Processor.COMPUTE}:
        assert f"ttnn.DataMovementProcessor.{processor.metal_name}, noc=ttnn.NOC.{processor.default_noc_name}" in host
        assert f"DataMovementProcessor::{processor.metal_name}, .noc = NOC::{processor.default_noc_name}" in cpp
    table = json.loads(json.dumps(manifest(program, None)))
    assert [k["processor"] for k in table["kernels"]] == [p.value for p in processors]


@pytest.mark.usefixtures("fresh_process_state")
def test_the_cost_model_times_each_thread_on_the_noc_its_kernel_uses() -> None:
    """Issue 22, "which NoC each processor uses": the language-level timing model sends each
    thread's NoC traffic out on the default NoC of the processor the lowering puts its kernel on
    (the first data-movement thread, the reader, runs on RISCV_1 and NoC 1). It routed the first
    data-movement thread on NoC 0 by a rule of its own."""
    program = programs_of(EXAMPLE)[0]
    kernels = {k.name: k for k in emit_program(program).program.kernels}
    run = estimate(program).run
    assert len(kernels) == len(run.code) == 3
    for thread in run.code:
        noc = kernels[thread.name.removeprefix("timed_")].processor.default_noc
        assert f"PIN, POUT = K.ports[{noc}]" in thread.source, thread.name
    assert [kernels[t.name].processor for t in program.threads] == \
        thread_processors(t.kind == "compute" for t in program.threads)
