"""The record every architecture description fills in."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Arch:
    name: str
    #: the compute grid benchmarks use (columns, rows)
    compute_grid: tuple[int, int]
    #: L1 SRAM per Tensix core
    l1_bytes: int
    #: L1 kept by firmware, kernel binaries and runtime structures before buffers are placed
    l1_reserved_bytes: int
    clock_hz: float

    @property
    def l1_available(self) -> int:
        return self.l1_bytes - self.l1_reserved_bytes
