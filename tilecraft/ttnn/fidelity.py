"""Math fidelity: how many passes the matrix unit makes over a multiply.

The matrix unit multiplies slices of the operands' mantissas; each fidelity phase is one more
pass that takes in more mantissa bits, so HiFi4 (4 phases) is the most precise and LoFi (1
phase) is 4x faster (reference/hardware.md: 16 cycles per 32x32x32 tile per phase). The cost
model reads ``phases``; the simulator computes in fp32 whatever the fidelity.
"""

from __future__ import annotations

from enum import Enum


class MathFidelity(Enum):
    LoFi = 1
    HiFi2 = 2
    HiFi3 = 3
    HiFi4 = 4

    @property
    def phases(self) -> int:
        """Passes the FPU makes per multiply (ideal tile-matmul cycles are 16 per phase)."""
        return self.value

    def __repr__(self) -> str:
        return f"MathFidelity.{self.name}"

    __str__ = __repr__
