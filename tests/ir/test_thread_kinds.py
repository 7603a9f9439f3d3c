"""The two kinds of thread (compute, data movement) are one record, ``ir/program_ir.py:
ThreadKind``: the decorators, the front end's IR, the IR parser, the kernel-level IR and PyKernel
all hold its members. Each of them used to spell the kinds as strings of its own."""

from __future__ import annotations

import pytest

from benchmarks.emit_tools import programs_of
from tests.paths import EXAMPLES
from tilecraft.ir.parser import parse_program
from tilecraft.ir.printer import print_program
from tilecraft.ir.program_ir import ThreadKind
from tilecraft.metal.emit import emit_program
from tilecraft.pykernel import api
from tilecraft.pykernel.interface import THREADS


@pytest.mark.usefixtures("fresh_process_state")
def test_every_layer_holds_the_thread_kinds_of_the_record() -> None:
    program = programs_of(EXAMPLES / "matmul_multicore_accumulate.py")[0]
    kinds = [t.kind for t in program.threads]
    assert sorted(kinds) == [ThreadKind.COMPUTE, ThreadKind.DATAMOVEMENT, ThreadKind.DATAMOVEMENT]
    assert all(type(kind) is ThreadKind for kind in kinds)
    parsed = parse_program(print_program(program))
    assert [t.kind for t in parsed.threads] == kinds and all(type(t.kind) is ThreadKind for t in parsed.threads)
    kernels = {k.name: k for k in emit_program(program).program.kernels}
    assert [kernels[t.name].thread_kind for t in program.threads] == kinds
    assert (api.COMPUTE, api.DATAMOVEMENT) == (ThreadKind.COMPUTE, ThreadKind.DATAMOVEMENT)
    assert {type(kind) for kind, _ in THREADS.values()} == {ThreadKind}
