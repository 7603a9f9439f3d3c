"""Blackhole (p100/p150). Figures: reference/hardware.md (tt-metal tech reports)."""

from .base import Arch

BLACKHOLE = Arch(
    name="blackhole",
    compute_grid=(13, 10),
    # MEM_L1_SIZE in tt-metal's hw/inc/internal/tt-1xx/blackhole/dev_mem_map.h
    l1_bytes=1536 * 1024,
    l1_reserved_bytes=100 * 1024,
    clock_hz=1.35e9,
)
