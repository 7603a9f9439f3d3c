"""The per-CB tables the JIT generates for a compute kernel (tt-metal's ``chlkc_descriptors.h``).

A compute kernel may read, indexed by CB: the format the unpacker reads from L1
(``unpack_src_format``) and writes to its source registers (``unpack_dst_format``), the format the
packer reads from DST (``pack_src_format``) and writes to L1 (``pack_dst_format``), and each CB's
tile geometry (``unpack_tile_r_dim``, ``pack_tile_num_faces``, ...). ttnn's kernels use them in
constant expressions (``static_cast<DataFormat>(unpack_src_format[dfb::in0])``). The formats follow
tt-metal's rules for the compute configuration (data_format.cpp, restated here for the formats
the emulator stores: float32, bfloat16, the bfp formats and the integers):

* unpack source and pack destination: the CB's own format;
* unpack destination: float32 stays float32 when the CB unpacks to DST in fp32
  (``UnpackToDestFp32``), else it becomes the "conditional" format (tf32 with an fp32 DST, else
  bfloat16); a bfp format becomes bfp8 of its exponent width; anything else stays;
* pack source: with an fp32 DST, a bfp CB packs from bfp8 (from float32 with
  ``bfp8_pack_precise``), other formats from themselves (float16 from bfloat16); without, float32
  packs from the conditional format, a bfp CB from bfp8 (bfloat16 with ``bfp8_pack_precise``),
  anything else from itself.

CBs the program does not configure are ``Invalid`` (255) with a 32x32 tile, as the JIT leaves them.
"""

from __future__ import annotations

from typing import Mapping, Protocol, Sequence

FLOAT32, FLOAT16, BFP8, BFP4, TF32, FLOAT16_B, BFP8_B, BFP4_B = 0, 1, 2, 3, 4, 5, 6, 7
BFP2, BFP2_B, INVALID = 11, 15, 255
_BFP = {BFP8, BFP4, BFP2, BFP8_B, BFP4_B, BFP2_B}
_EXP_A = {FLOAT16, BFP8, BFP4, BFP2}
CBS = 64  # table length: the largest NUM_CIRCULAR_BUFFERS (Blackhole)


class CBShape(Protocol):
    tile_bytes: int
    format: int
    rows: int
    cols: int


def _bfp8_of(fmt: int) -> int:
    return BFP8 if fmt in _EXP_A else BFP8_B


def unpack_dst_format(fmt: int, fp32_dest_acc: bool, to_dest_fp32: bool) -> int:
    if fmt == FLOAT32:
        return FLOAT32 if to_dest_fp32 else (TF32 if fp32_dest_acc else FLOAT16_B)
    return _bfp8_of(fmt) if fmt in _BFP else fmt


def pack_src_format(fmt: int, fp32_dest_acc: bool, bfp8_pack_precise: bool) -> int:
    if fmt in _BFP:
        if bfp8_pack_precise:
            return FLOAT32 if fp32_dest_acc else (FLOAT16 if fmt in _EXP_A else FLOAT16_B)
        return _bfp8_of(fmt)
    if fp32_dest_acc:
        return FLOAT16_B if fmt == FLOAT16 else fmt
    return FLOAT16_B if fmt == FLOAT32 else fmt


def descriptor_tables(cbs: Mapping[int, CBShape], fp32_dest_acc: bool, unpack_to_dest_fp32: Sequence[bool],
                      bfp8_pack_precise: bool) -> str:
    """C++ definitions of the tables for the CBs ``cbs`` (index -> tile shape and format)."""
    def column(attr: str, absent: int | None) -> list:
        return [getattr(cbs[i], attr) if i in cbs else absent for i in range(CBS)]

    fmt = column("format", None)
    rows, cols = column("rows", 32), column("cols", 32)
    to_dest = [i < len(unpack_to_dest_fp32) and unpack_to_dest_fp32[i] for i in range(CBS)]
    formats = {
        "unpack_src_format": [INVALID if f is None else f for f in fmt],
        "unpack_dst_format": [INVALID if f is None else unpack_dst_format(f, fp32_dest_acc, to_dest[i])
                              for i, f in enumerate(fmt)],
        "pack_src_format": [INVALID if f is None else pack_src_format(f, fp32_dest_acc, bfp8_pack_precise)
                            for f in fmt],
        "pack_dst_format": [INVALID if f is None else f for f in fmt],
    }
    face_r = [min(r, 16) for r in rows]
    faces_r = [max(1, r // 16) for r in rows]
    faces_c = [max(1, c // 16) for c in cols]
    geometry = {
        "tile_r_dim": rows, "tile_c_dim": cols, "tile_face_r_dim": face_r, "num_faces_r_dim": faces_r,
        "num_faces_c_dim": faces_c, "tile_num_faces": [a * b for a, b in zip(faces_r, faces_c)],
        "partial_face": [int(r < 16) for r in rows], "narrow_tile": [int(c < 32) for c in cols],
    }
    sizes = column("tile_bytes", 0)
    lines = ["// the JIT's chlkc_descriptors.h: per-CB formats and tile geometry"]
    # typed as 0.81.1's JIT writes them: the unpack side's formats as int32, the pack side's as bytes
    lines += [f"constexpr {'std::int32_t' if name.startswith('unpack') else 'unsigned char'} {name}[{CBS}] = "
              f"{{{', '.join(map(str, v))}}};" for name, v in formats.items()]
    for side in ("unpack", "pack"):
        lines += [f"constexpr std::uint8_t {side}_{name}[{CBS}] = {{{', '.join(map(str, v))}}};"
                  for name, v in geometry.items()]
        lines.append(f"constexpr std::uint32_t {side}_tile_size[{CBS}] = {{{', '.join(map(str, sizes))}}};")
    return "\n".join(lines) + "\n"
