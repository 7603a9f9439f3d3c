"""Wormhole B0 (n150/n300). Figures: reference/hardware.md (tt-metal tech reports)."""

from dataclasses import replace

from .base import Arch, CostFigures

WORMHOLE_B0 = Arch(
    name="wormhole_b0",
    compute_grid=(8, 8),
    l1_bytes=1464 * 1024,
    # tt-metal places circular buffers above the firmware/kernel-config region; ~100 KiB is the
    # base address of the first CB on 0.81 (L1 unreserved base), taken as the reserved part.
    l1_reserved_bytes=100 * 1024,
    clock_hz=1.0e9,
    dram_bytes=12 * 2**30,  # 12 GiB GDDR6 per chip (n150; each of the n300's two chips)
    costs=CostFigures(
        # 12 GDDR6 banks, 288 GB/s at 12 GT/s per chip (hardware.md; tt-metal tech report
        # Saturating_DRAM_bandwidth): 24 GB/s = 24 B/cycle per bank at 1 GHz.
        dram_banks=12,
        dram_bytes_per_s=288e9,
        # Assumption (no public figure in hardware.md): ~400 ns from request to first byte,
        # GDDR6 access plus controller plus the NoC trip to and from the DRAM core.
        dram_latency_cycles=400,
        # one 256-bit flit per link per cycle, ~9 cycles per router hop (tt-isa-documentation
        # WormholeB0/NoC)
        noc_link_bytes_per_cycle=32,
        noc_hop_cycles=9,
        # 16 cycles per phase: an 8x16 @ 16x16 multiply per cycle is 2048 MACs; a 32x32x32 tile
        # matmul is 32768 MACs (hardware.md: LoFi 16, HiFi2 32, HiFi3 48, HiFi4 64)
        matmul_cycles_per_phase=16,
        # Not published as a figure; inferred from public measurements of Wormhole (docs/
        # performance-model.md, "Against the hardware"): tt-budabackend's Wormhole op model charges an
        # fp16 add 49.6 cycles per tile (perf_lib/op_model/params/wormhole_b0/params_v3.yaml), i.e.
        # 2048 B per unpacker in ~46 cycles, and the unpack-bound bfloat8_b LoFi GEMM of the GEMM_FLOPS
        # report runs 24.7 cycles per tile product at 8192^3 (1088 B per streamed tile): ~44 B/cycle.
        # Blackhole's GEMMs show no such limit (its bfloat16 HiFi2 GEMMs reach 85-90%).
        unpack_bytes_per_cycle=44.0,
    ),
)

#: n150: one chip with 72 usable Tensix cores (hardware.md); benchmarks use its 8x8 compute grid
N150 = replace(WORMHOLE_B0, board="n150")
#: n300: two chips on one board, each as the n150's chip with 64 usable cores (8x8) and its own
#: 12 GiB / 288 GB/s; one program runs on one chip, so the per-chip figures apply
N300 = replace(WORMHOLE_B0, board="n300")
