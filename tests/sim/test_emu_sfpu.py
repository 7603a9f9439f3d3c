"""One table between the lowering's SFPU functions and the emulator's SFPU operations
(tilecraft/sim/emu_sfpu.py): it covers the lowering's tables, each entry is the operation the Tensix
machine reports to the trace for that call (tilecraft/emu/tensix_call_events.py), and both levels of
the cost model charge a function the same body."""

from __future__ import annotations

from enum import Enum

import pytest

from tilecraft.emu import codes, tensix_call_events
from tilecraft.emu.codes import Ev
from tilecraft.metal import optable
from tilecraft.perf import kernel_costs
from tilecraft.perf.compute_cost import SFPU_BODY, SFPU_DEFAULT_BODY
from tilecraft.sim import emu_sfpu

#: calls the lowering emits whose operation has no code of its own (the machine reports one past the
#: last), and why the table names another
UNIMPLEMENTED = {"prelu_tile"}  # leaky_relu_tile computes it


def entries() -> list[tuple[str, str, Enum]]:
    rows = [(name, s.call, emu_sfpu.UNARY[name]) for name, s in optable.UNARY.items()]
    rows += [(name, s.call, emu_sfpu.BINARY[name]) for name, s in optable.SFPU_BINARY.items()]
    rows += [(name, s.call, emu_sfpu.SCALAR[name]) for name, s in optable.SCALAR_BINARY.items()]
    return rows + [("fill", optable.FILL.call, emu_sfpu.FILL), ("where", optable.WHERE[1], emu_sfpu.WHERE)]


def test_the_table_covers_the_lowerings_sfpu_functions():
    assert emu_sfpu.UNARY.keys() == optable.UNARY.keys()
    assert emu_sfpu.BINARY.keys() == optable.SFPU_BINARY.keys()
    assert emu_sfpu.SCALAR.keys() == optable.SCALAR_BINARY.keys()


@pytest.mark.parametrize("name, call, op", entries(), ids=lambda v: v if isinstance(v, str) else None)
def test_each_entry_is_what_the_machine_reports_for_the_call(name, call, op: Enum):
    code = tensix_call_events.operation_code(call, type(op))
    assert code == (len(type(op)) if call in UNIMPLEMENTED else op.value)


@pytest.mark.parametrize("name, call, op", entries(), ids=lambda v: v if isinstance(v, str) else None)
def test_both_levels_charge_a_function_one_body(name, call, op):
    language = {lowered: lang for lang, (lowered, _) in optable.MIRRORED_UNARY.items()}.get(name, name)
    kind = {codes.SfpuUnary: Ev.SFPU_UNARY, codes.SfpuBinary: Ev.SFPU_BINARY,
            codes.SfpuTernary: Ev.SFPU_TERNARY}[type(op)]
    assert kernel_costs._sfpu_body(kind, op.value) == SFPU_BODY.get(language, SFPU_DEFAULT_BODY)


def test_every_emulator_operation_has_a_cost_entry():
    names = kernel_costs.cost_names()
    for ops in (codes.SfpuUnary, codes.SfpuBinary, codes.SfpuTernary):
        assert [op for op in ops if names.get(op) not in SFPU_BODY] == []
