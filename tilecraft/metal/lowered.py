"""One launched program's lowering to Metalium, made at most once and read by everything that needs it.

Why an object: a launch has several readers of the lowering — the W3001 warning (and the L1
budget check the lowering makes), ``--level metal`` (the Metalium-level simulator runs the
lowered kernels), ``--level cpp`` and ``tilecraft emit`` (the files printed from it) and
``tilecraft profile --level metal`` (its kernels timed) — and each used to lower the program
again. The driver makes one :class:`LoweredProgram` per launch and hands it to each of them
(``session.LoweringHook`` for the commands); the lowering runs on the first request, and its
result, or the error it stopped with, is what every later request gets.
"""

from __future__ import annotations

from ..diagnostics import KernelError
from ..ir.program_ir import ProgramIR
from .emit import Emitted, render_program
from .kir import MetalProgram
from .lower import lower_program, not_emittable


class LoweredProgram:
    """``program`` lowered for ``arch`` on first use (:meth:`metal`), and its files (:meth:`emitted`)."""

    def __init__(self, program: ProgramIR, arch: str):
        self.program = program
        self.arch = arch
        self._metal: MetalProgram | None = None
        self._error: KernelError | None = None
        self._emitted: Emitted | None = None

    def metal(self) -> MetalProgram:
        """The lowered program; raises the lowering's diagnostic (each time asked, lowering once)."""
        if self._metal is None and self._error is None:
            try:
                self._metal = lower_program(self.program, self.arch)
            except KernelError as exc:
                self._error = exc
        if self._error is not None:
            raise self._error
        assert self._metal is not None
        return self._metal

    def not_emittable(self) -> KernelError | None:
        """The ``E3xxx`` that stops the program from being emitted (``tilecraft run`` still simulates
        it), or None when it lowers; any other lowering error (the program is wrong) is raised."""
        try:
            self.metal()
        except KernelError as exc:
            if not_emittable(exc):
                return exc
            raise
        return None

    def emitted(self) -> Emitted:
        """Every file ``tilecraft emit`` writes for the program, rendered once."""
        if self._emitted is None:
            source = self.program.span.file if self.program.span is not None else None
            self._emitted = render_program(self.metal(), source)
        return self._emitted
