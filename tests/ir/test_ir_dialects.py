"""How the IR knows its operations: each operation class states its own fields' kinds
(``ir/fieldkinds.py`` names no operation), and dialects are registered explicitly
(``ir/dialects.py``), so a metal-level text parses whatever the process imported before."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from typing import ClassVar

import pytest

from tests.paths import ROOT
from tilecraft.ir import dialects
from tilecraft.ir import ops as ir
from tilecraft.ir.fieldkinds import CALL_ARGS, TEMPLATE, kind_of
from tilecraft.ir.parser import IRSyntaxError, parse_program
from tilecraft.ir.printer import print_program
from tilecraft.metal import kir



@dataclass(eq=False, kw_only=True)
class Invoke(kir.Call):
    """``metal.call`` under another name: its fields keep their kinds."""

    name: ClassVar[str] = "metal.invoke"


def test_a_renamed_operation_keeps_its_field_kinds() -> None:
    assert (kind_of(Invoke, "args"), kind_of(Invoke, "template")) == (CALL_ARGS, TEMPLATE)
    assert (kind_of(kir.Aggregate, "args"), kind_of(kir.Aggregate, "template")) == (CALL_ARGS, TEMPLATE)


#: a data-movement kernel as the lowering makes it, in the IR's text form
METAL_TEXT = """\
program @reader grid=1x1 {
  tensor %a #0 : bfloat16[32x64]
  buffer @a_dfb #0 : block<1x2, bfloat16> x 2  (8192 B)
  datamovement @reader {
    %cb_a_dfb = metal.arg source=ct, index=0, label="buffer 'a_dfb'" : uint32_t
    %a_addr = metal.arg source=common, index=0, label=a_addr : uint32_t
    %a_acc = metal.accessor tensor=%a, ct_offset=0, %a_addr, page_bytes=2048 : auto
    metal.call fn=cb_reserve_back, args=[%cb_a_dfb, 2]
    %at = metal.call fn=get_write_ptr, args=[%cb_a_dfb] : uint32_t
    metal.comment text='copy %a[0+:1, 0+:2] -> block'
    scf.for %j = 0 to 2 step 1 {
      %l1 = arith.binary op=mul, %j, 2048 : uint32_t
      metal.call fn=noc_async_read_page, args=[%j, %a_acc, %l1]
    }
    metal.call fn=noc_async_read_barrier, args=[]
    metal.call fn=cb_push_back, args=[%cb_a_dfb, 2]
  }
}"""


def test_a_fresh_process_parses_metal_ir_text() -> None:
    """The parser finds the metal dialect through the dialect table, not through whatever the
    process happened to import before."""
    script = ("import sys\nfrom tilecraft.ir.parser import parse_program\nfrom tilecraft.ir.printer import print_program\n"
              "text = sys.stdin.read()\nassert print_program(parse_program(text)) == text\nprint('parsed')\n")
    done = subprocess.run([sys.executable, "-c", script], input=METAL_TEXT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "parsed\n"


def test_the_metal_dialect_is_registered_from_its_module_when_first_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dialects, "_REGISTERED", {d.name: d for d in ir.DIALECTS})
    assert "metal" not in dialects._REGISTERED
    program = parse_program(METAL_TEXT)
    assert dialects.dialect("metal") is kir.DIALECT
    calls = [op for op in ir.walk(program.threads[0].body) if isinstance(op, kir.Call)]
    assert [c.fn for c in calls] == ["cb_reserve_back", "get_write_ptr", "noc_async_read_page",
                                     "noc_async_read_barrier", "cb_push_back"]
    accessor = next(op for op in program.threads[0].body if isinstance(op, kir.Accessor))
    assert accessor.tensor is program.tensors[0] and accessor.result.type is kir.ACCESSOR


def test_a_register_type_of_a_dialect_defined_above_reads_before_any_of_its_operations(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel whose first use of the metal dialect is a register type (``uint32_t`` on an
    ``arith`` operation, as PyKernel's kernels start) parses as well as one that starts with a
    ``metal.call``."""
    monkeypatch.setattr(dialects, "_REGISTERED", {d.name: d for d in ir.DIALECTS})
    text = ("program @k grid=1x1 {\n  datamovement @k {\n    %n = arith.assign 2 : uint32_t\n"
            "    metal.call fn=noc_async_read_barrier, args=[]\n  }\n}")
    program = parse_program(text)
    assert program.threads[0].body[0].result.type is kir.U32
    assert print_program(program) == text


def test_every_operation_is_in_one_dialect() -> None:
    defined = {c for c in vars(ir).values() if isinstance(c, type) and issubclass(c, ir.Op) and c is not ir.Op}
    defined |= {c for c in vars(kir).values() if isinstance(c, type) and issubclass(c, ir.Op) and c is not ir.Op}
    registered = [op for d in (*ir.DIALECTS, kir.DIALECT) for op in d.ops]
    assert len(registered) == len(set(registered))
    assert set(registered) == defined


def test_an_unknown_dialect_or_operation_is_a_syntax_error() -> None:
    with pytest.raises(IRSyntaxError, match="unknown operation 'metal.invoke'"):
        parse_program(METAL_TEXT.replace("metal.comment", "metal.invoke"))
    with pytest.raises(IRSyntaxError, match="unknown operation 'gpu.launch'"):
        parse_program(METAL_TEXT.replace("metal.comment", "gpu.launch"))


def test_a_semaphore_address_reads_back_as_one() -> None:
    """The metal dialect's constant forms (``get_semaphore(i)``, a semaphore's L1 address) print as
    themselves and read back as what they were, not as the number ``i``."""
    text = ("program @k grid=1x1 {\n  semaphore @go #0 = 0\n  datamovement @k {\n"
            "    %ptr = metal.call fn='reinterpret_cast<volatile tt_l1_ptr uint32_t*>', args=[get_semaphore(0)]"
            " : volatile tt_l1_ptr uint32_t*\n"
            "    metal.call fn=noc_semaphore_set, args=[%ptr, 1]\n  }\n}")
    program = parse_program(text)
    address = program.threads[0].body[0].args[0]
    assert type(address) is kir.SemAddr and address.value == 0
    assert print_program(program) == text
