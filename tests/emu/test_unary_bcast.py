"""``unary_bcast`` (BroadcastType ROW, COL, SCALAR) on the Tensix machine against torch: the tile
moved into DST with row 0, column 0 or element [0, 0] everywhere (tests/emu/kernels/
compute_unary_bcast.cpp). A 16-bit tile goes through SrcB (ROW: MOVB2D, COL and SCALAR: ELWADD
onto zeros); a Float32 tile in ``UnpackToDestFp32`` mode goes to DST whole by the LLK's 32-bit
path. The binary broadcast forms (``*_tiles_bcast_rows/cols/scalar``) are test_compute.py's.

One combination is wrong on the device, and the Tensix machine shows it: ROW of a 16-bit tile into
a Float32 DST on Wormhole. The LLK moves the row with MOVB2D, which writes 16-bit DST rows
(MOVB2D.md: ``Dst16b`` unless SrcA's format is TF32), while the packer reads DST as 32-bit rows
(Dst.md: ``Dst32b[r]`` joins ``DstBits[r']`` and ``DstBits[r' + 8]``, r' = ((r & 0x1f8) << 1) |
(r & 7)), so rows 0-7 of face 0 hold the row (low bits from the next 16-bit row: within one
bfloat16 ulp), rows 8-15 face 1's row, and faces 2-3 (rows 16-31) read DST rows nothing wrote. The
LLK's own test skips it ("Row broadcast with dest_acc=Yes broken on Wormhole for Float16_b/Bfp8_b",
tt-llk tests/python_tests/test_bcast.py); the emitter does that row broadcast on the FPU instead
(metal/lower_compute.py, ``row_bcast_is_broken``).

Cost (2026-11-29, 2 loaded CPUs): per case one compute kernel, about 1.5 s CPU cold on the
machine (three TRISC compiles), under 1 s warm.
"""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.emu.harness import KERNELS, cb, compute, dram, output, reader, run, writer

#: (input dtype, fp32 DST): bfloat16 into a 16-bit DST, Float32 unpacked to a 32-bit DST, bfloat16
#: into a 32-bit DST (ROW wrong on Wormhole)
CASES = [(ttnn.bfloat16, False), (ttnn.float32, True), (ttnn.bfloat16, True)]


def broadcasts(tile: torch.Tensor) -> list[torch.Tensor]:
    """ROW, COL and SCALAR of one 32x32 tile, in the kernel's order."""
    return [tile[:1, :].expand(32, 32), tile[:, :1].expand(32, 32), tile[:1, :1].expand(32, 32)]


@pytest.mark.parametrize("dtype,fp32_dst", CASES)
def test_unary_bcast_row_col_scalar(device, dtype, fp32_dst) -> None:
    torch.manual_seed(41)
    n = 2
    x = dram(device, torch.randn(32 * n, 32), dtype=dtype)
    out = output(device, (3 * 32 * n, 32), dtype)
    kern = compute(KERNELS / "compute_unary_bcast.cpp", rt=[n], fp32=fp32_dst,
                   unpack_to_dest=[0] if dtype == ttnn.float32 else [])
    run([x, out], [reader(x, 0, n), kern, writer(out, 16, 3 * n)], [cb(0, dtype), cb(16, dtype, 3)])
    tiles = ttnn.to_torch(x).float().reshape(n, 32, 32)
    got = ttnn.to_torch(out).float().reshape(n, 3, 32, 32)
    broken_row = dtype == ttnn.bfloat16 and fp32_dst
    for t in range(n):
        for kind, want in enumerate(broadcasts(tiles[t])):
            if kind == 0 and broken_row:
                continue
            assert torch.equal(got[t, kind], want), (t, ["ROW", "COL", "SCALAR"][kind])
    if broken_row:  # the Wormhole defect, as the ISA's MOVB2D and Dst32b views predict it
        row, tile = tiles[:, 0, :], got[:, 0]
        assert torch.equal(tile[:, 16:], torch.zeros(n, 16, 32))
        assert torch.allclose(tile[:, :8, :16], row[:, None, :16].expand(n, 8, 16), rtol=2 ** -7, atol=0)
        assert torch.allclose(tile[:, 8:16, :16], row[:, None, 16:].expand(n, 8, 16), rtol=2 ** -7, atol=0)
