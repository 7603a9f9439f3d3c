"""A lowered program in the IR's text form: the metal dialect as ``tilecraft opt --to metal`` prints it.

Why: the lowering's patterns (which ``metal.*`` calls a block operation becomes, in which order,
with which compile-time args) are easiest to pin down one level above the C++ printer, where a
FileCheck test does not depend on the printer's spelling. The text is a complete program that
``parse_program`` reads back: the source program's declarations, one thread per kernel (its body
is the kernel-level IR), and ``//`` comment lines naming each kernel's processor and the circular
buffers the lowering added.
"""

from __future__ import annotations

from dataclasses import replace

from ..ir.printer import print_program
from ..ir.program_ir import ProgramIR, ThreadIR
from .kir import MetalProgram


def print_metal_program(program: ProgramIR, metal: MetalProgram) -> str:
    """``program`` with its threads replaced by the kernels ``metal`` lowered them to."""
    threads = [ThreadIR(k.name, k.thread_kind, k.body)
               for k in metal.kernels]
    notes = [f"// kernel @{k.name} runs on {k.processor.value} ({k.processor.description})" for k in metal.kernels]
    notes += [f"// buffer #{cb.index} '{cb.name}' added by the lowering: "
              + (f"{cb.pages} x {cb.page_bytes} B" if cb.shares is None else f"the pages of buffer #{cb.shares}")
              for cb in metal.cbs if cb.internal]
    return "\n".join([*notes, print_program(replace(program, threads=threads))])
