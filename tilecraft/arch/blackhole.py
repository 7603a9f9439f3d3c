"""Blackhole (p100/p150). Figures: reference/hardware.md (tt-metal tech reports)."""

from dataclasses import replace

from .base import Arch, CostFigures

BLACKHOLE = Arch(
    name="blackhole",
    compute_grid=(13, 10),
    # MEM_L1_SIZE in tt-metal's hw/inc/internal/tt-1xx/blackhole/dev_mem_map.h
    l1_bytes=1536 * 1024,
    l1_reserved_bytes=100 * 1024,
    clock_hz=1.35e9,
    dram_bytes=32 * 2**30,  # p150's 32 GiB GDDR6 (the p100 has 28 GiB, below)
    circular_buffers=64,
    costs=CostFigures(
        # p150: 8 GDDR6 banks, 512 GB/s (hardware.md): 64 GB/s = 47.4 B/cycle per bank at 1.35 GHz
        dram_banks=8,
        dram_bytes_per_s=512e9,
        # Assumption, as for Wormhole: ~400 ns request to first byte = 540 cycles at 1.35 GHz
        dram_latency_cycles=540,
        # 512-bit links (hardware.md); hop latency not published for Blackhole: assumed equal to
        # Wormhole's ~9 cycles (same router design generation)
        noc_link_bytes_per_cycle=64,
        noc_hop_cycles=9,
        # same matrix unit as Wormhole (hardware.md): 16 cycles per fidelity phase
        matmul_cycles_per_phase=16,
    ),
)

#: p150: 13x10 compute grid, 32 GiB in 8 banks, 512 GB/s (hardware.md)
P150 = replace(BLACKHOLE, board="p150")
#: p100: 120 cores (11x10 grid) and 28 GiB; derived: 28 GiB is 7 of the p150's 8 banks of 4 GiB,
#: so 7 banks and 7/8 of the p150's bandwidth (448 GB/s)
P100 = replace(BLACKHOLE, board="p100", compute_grid=(11, 10), dram_bytes=28 * 2**30,
               costs=replace(BLACKHOLE.costs, dram_banks=7, dram_bytes_per_s=448e9))
