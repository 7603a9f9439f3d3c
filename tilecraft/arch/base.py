"""The record every architecture description fills in."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CostFigures:
    """The figures the performance model (``tilecraft/perf``) derives every cost from.

    Cycles are core clock cycles. Each generation module cites where each figure comes from;
    figures that no public source states are marked there as assumptions.
    """

    #: DRAM: interleaved banks (one page = one tile or one row-major row, round-robin over banks)
    dram_banks: int
    dram_bytes_per_s: float
    #: cycles from a read request leaving the core to its first byte returning (assumption)
    dram_latency_cycles: int
    #: NoC: bytes one link moves per cycle, cycles per router hop, NoCs per chip
    noc_link_bytes_per_cycle: int
    noc_hop_cycles: int
    nocs: int = 2
    #: cycles a data-movement core spends issuing one NoC transaction (one page) (assumption)
    noc_issue_cycles: int = 16
    #: FPU cycles of one 32x32x32 tile matmul per fidelity phase (LoFi 1 phase .. HiFi4 4)
    matmul_cycles_per_phase: int = 16
    #: FPU cycles of one elementwise 32x32 tile operation per fidelity phase (8x16 per cycle)
    eltwise_cycles_per_phase: int = 8
    #: SFPU: lanes (one instruction per cycle); a 32x32 tile is 1024 / lanes instruction rows
    sfpu_lanes: int = 32
    #: unpacker/packer: bytes per cycle each moves between L1 and the source/DST registers
    unpack_bytes_per_cycle: float = 64
    pack_bytes_per_cycle: int = 64
    #: cycles of a circular-buffer call (reserve/push/wait/pop: pointer and semaphore updates)
    cb_call_cycles: int = 8
    #: cycles of one scalar RISC-V operation (loop counters, index arithmetic)
    scalar_op_cycles: int = 1
    #: bytes per cycle of a core-local L1-to-L1 copy (16 banks x 16 B, half for read + write)
    l1_copy_bytes_per_cycle: int = 128

    def matmul_flops_per_cycle(self, phases: int) -> float:
        """One core's matrix-unit peak at a fidelity of ``phases``: a 32x32x32 tile product (2 * 32^3
        FLOPs) every ``matmul_cycles_per_phase * phases`` cycles. The profile's roofline point and the
        ttnn ops' rooflines both read it."""
        return 2 * 32 ** 3 / (self.matmul_cycles_per_phase * phases)


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
    #: DRAM of one chip (reference/hardware.md): the largest tensor a device can hold
    dram_bytes: int
    #: what the performance model reads (None: the generation has no cost figures yet)
    costs: CostFigures | None = field(default=None)
    #: the board this description is for, when it narrows a generation (n150, p150, ...)
    board: str | None = None
    #: DST register file in 32x32 tiles at 16 bits (reference/hardware.md)
    dst_tiles: int = 16
    #: circular buffers per core (NUM_CIRCULAR_BUFFERS): the length of per-buffer tables such as
    #: ComputeConfig's unpack_to_dest_mode
    circular_buffers: int = 32

    def dst_tiles_per_phase(self, fp32_acc: bool) -> int:
        """Tiles a kernel may hold in DST between acquire and release: half of DST per half-sync
        phase, halved again when DST holds fp32 (8 and 4 on Wormhole and Blackhole). The lowering
        plans with it, the cost model sizes matmul sub-blocks with it, the interpreters check it."""
        return max(1, self.dst_tiles // (4 if fp32_acc else 2))

    @property
    def l1_available(self) -> int:
        return self.l1_bytes - self.l1_reserved_bytes
