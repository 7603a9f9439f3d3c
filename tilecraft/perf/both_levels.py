"""The same TT-Lang program timed at both levels: its IR, and the C++ emitted for it.

Why: the two models share figures and blocking rules, so a program's language-level estimate
and the kernel-level estimate of its emitted kernels should agree where the emitted code does
what the language-level model assumes (docs/performance-model.md, "Calibration"); where they
differ, the difference is what the lowering adds or saves. The kernel level runs the emitted C++
on the emulator (``--level cpp``), so values are computed: use problem sizes the emulator runs
in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

from .. import session
from ..arch.base import Arch
from ..metal.lowered import LoweredProgram
from . import estimate, estimate_kernels, resolve_arch
from .result import Estimate


@dataclass
class LevelPair:
    """One launched program: its language-level and its kernel-level estimate."""

    language: Estimate
    kernel: Estimate

    @property
    def ratio(self) -> float:
        """Kernel-level cycles over language-level cycles."""
        return self.kernel.cycles / self.language.cycles if self.language.cycles else float("inf")


def both_levels(run: Callable[[], Any], arch: Union[str, Arch] = "wormhole_b0") -> list[LevelPair]:
    """Call ``run`` (which launches TT-Lang kernels) with every launch run as its emitted C++, and
    time each launch at both levels. The language level uses the fidelity and fp32 accumulation
    the emitted compute kernel was configured with, so both time the same arithmetic."""
    arch_desc = resolve_arch(arch)
    built: list[LoweredProgram] = []
    timed: list[Estimate] = []

    def emulated(program: Any, result: Any) -> None:
        timed.append(estimate_kernels(program, result.trace, arch_desc))

    with session.using(arch=arch_desc.name, level="cpp", simulate=True, lowering_hooks=[built.append],
                       emulator_hooks=[emulated]):
        run()
    if len(built) != len(timed):
        raise RuntimeError(f"{len(built)} programs launched but {len(timed)} ran on the emulator")
    return [LevelPair(estimate(lowered.program, arch_desc, kernel.fidelity, kernel.fp32_acc, lowered=lowered), kernel)
            for lowered, kernel in zip(built, timed)]
