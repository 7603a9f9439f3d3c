"""One launched program's lowering to Metalium, made at most once and read by everything that needs it.

Why an object: a launch has several readers of the lowering — the W3001 warning (and the L1
budget check the lowering makes), ``--level metal`` (the Metalium-level simulator runs the
lowered kernels), ``--level cpp`` and ``tilecraft emit`` (the files printed from it) and
``tilecraft profile --level metal`` (its kernels timed) — and each used to lower the program
again. The driver makes one :class:`LoweredProgram` per launch and hands it to each of them
(``session.LoweringHook`` for the commands); the lowering runs on the first request, and its
result, or the error it stopped with, is what every later request gets. The cost model reads it
too: with fp32 accumulation the language level charges each store the calls the lowering emitted
for it (``store_plan.store_plans``), and the tuner takes a candidate's L1 need from it
(:meth:`LoweredProgram.l1_need`), so a launch or a tuning candidate is lowered once.
"""

from __future__ import annotations

from ..diagnostics import KernelError
from ..ir import ops as ir
from ..ir.l1 import L1Need, l1_need
from ..ir.program_ir import ProgramIR
from .emit import Emitted, render_program
from .kir import MetalProgram
from .lower import ProgramLowering, not_emittable, verify_lowered


class LoweredProgram:
    """``program`` lowered for ``arch`` on first use (:meth:`metal`), and its files (:meth:`emitted`)."""

    def __init__(self, program: ProgramIR, arch: str):
        self.program = program
        self.arch = arch
        self._metal: MetalProgram | None = None
        self._error: KernelError | None = None
        self._emitted: Emitted | None = None
        self._lowering: ProgramLowering | None = None
        self._verified = False

    def metal(self, verify: bool = True) -> MetalProgram:
        """The lowered program; raises the lowering's diagnostic (each time asked, lowering once).
        ``verify`` False: not yet checked by the IR verifier, for readers that neither run nor emit
        it (the cost model's store plans, the tuner's L1 need), since the check costs about as much
        as the lowering; the first reader that asks for it checks it."""
        if self._metal is None and self._error is None:
            self._lowering = ProgramLowering(self.program, self.arch)
            try:
                self._metal = self._lowering.lower()
            except KernelError as exc:
                self._error = exc
        if self._error is not None:
            raise self._error
        assert self._metal is not None
        if verify and not self._verified:
            verify_lowered(self._metal)
            self._verified = True
        return self._metal

    def emitted_for(self) -> dict[int, tuple[ir.Op, ir.Op]]:
        """Each kernel op of :meth:`metal` (by id) -> (that op, the IR op it was emitted for)."""
        self.metal(verify=False)
        assert self._lowering is not None
        return self._lowering.emitted_for

    def l1_need(self) -> L1Need:
        """What one core of the program needs in L1, as ``metal.lower.program_l1_need`` says, from
        this lowering: also when a check after the kernels were lowered stopped it (its L1 need,
        which :meth:`L1Need.check` then reports), and the program's own buffers only when it
        cannot be emitted; any other lowering error (the program is wrong) is raised."""
        stopped = None
        try:
            self.metal(verify=False)
        except KernelError as exc:
            stopped = exc
        assert self._lowering is not None
        if self._lowering.need is not None:
            return self._lowering.need
        assert stopped is not None
        if not not_emittable(stopped):
            raise stopped
        return l1_need(self.program, self.arch, lowered=False)

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
