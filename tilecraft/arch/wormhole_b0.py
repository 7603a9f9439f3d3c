"""Wormhole B0 (n150/n300). Figures: reference/hardware.md (tt-metal tech reports)."""

from .base import Arch

WORMHOLE_B0 = Arch(
    name="wormhole_b0",
    compute_grid=(8, 8),
    l1_bytes=1464 * 1024,
    # tt-metal places circular buffers above the firmware/kernel-config region; ~100 KiB is the
    # base address of the first CB on 0.81 (L1 unreserved base), taken as the reserved part.
    l1_reserved_bytes=100 * 1024,
    clock_hz=1.0e9,
)
