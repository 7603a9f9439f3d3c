"""The Tensix unpackers (tilecraft/emu/tensix/unpack.cpp, format_decode.cpp) against torch.

One C++ program (unpack_unit_main.cpp) runs every scenario on an L1 image built here with torch:
it configures the unpackers field by field as the LLK's configure_unpack_AB / _llk_unpack_A_init_ /
_llk_unpack_tilize_init_ do, issues the LLK's UNPACR / UNPACR_NOP / ADC words and prints SrcA,
SrcB and Dst. The register layouts are decoded here from the ISA documentation's description
(SrcASrcB.md, Dst.md) and compared with the tile's values, face by face and row by row.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

MAIN = Path(__file__).with_name("unpack_unit_main.cpp")
FACES = 4


def faces_of(tile: torch.Tensor) -> torch.Tensor:
    """A 32x32 tile as its four 16x16 faces in tile order (0: top-left, 1: top-right, ...)."""
    return tile.reshape(2, 16, 2, 16).permute(0, 2, 1, 3).reshape(FACES, 16, 16)


def _bits(t: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    return t.contiguous().view(dtype).to(torch.int64)


def _bfp8b_tile(gen: torch.Generator) -> tuple[bytes, torch.Tensor]:
    """A Bfp8_b tile in L1 (64 shared exponents, one per 16 datums, then 1024 sign-magnitude
    mantissas, both in face order) and its values as faces: mantissa / 64 * 2 ** (exponent - 127)."""
    exps = torch.randint(110, 140, (64,), generator=gen)
    mants = torch.randint(0, 256, (1024,), generator=gen)
    mants[mants == 0x80] = 0x81
    mants[5] = 0x80  # a negative zero mantissa: the ISA decodes it as -inf
    mag = (mants & 0x7F).double()
    sign = torch.where(mants & 0x80 != 0, -1.0, 1.0).double()
    vals = sign * mag / 64 * torch.pow(2.0, exps.repeat_interleave(16).double() - 127)
    vals[5] = float("-inf")
    return bytes(exps.tolist()) + bytes(mants.tolist()), vals.reshape(FACES, 16, 16)


def _l1_image() -> tuple[bytes, dict[str, int], dict[str, torch.Tensor]]:
    gen = torch.Generator().manual_seed(21)
    tile = torch.randn(32, 32, generator=gen) * 4
    tile[0, 1] = 1.0e-39  # an fp32 denormal: flushed to zero on the way to Float16_b
    tile[0, 2] = -3.0e-42
    bf16 = tile.to(torch.bfloat16)
    fp16 = tile.to(torch.float16)
    int8 = torch.randint(0, 256, (32, 32), generator=gen, dtype=torch.int64)
    bfp8_raw, bfp8_faces = _bfp8b_tile(gen)
    blobs = {
        "kBf16Tile": faces_of(bf16).contiguous().view(torch.int16).numpy().tobytes(),
        "kFp32Tile": faces_of(tile).contiguous().numpy().tobytes(),
        "kFp16Tile": faces_of(fp16).contiguous().view(torch.int16).numpy().tobytes(),
        "kInt8Tile": bytes(faces_of(int8).reshape(-1).tolist()),
        "kBfp8Tile": bfp8_raw,
        "kRowMajorBf16": bf16.contiguous().view(torch.int16).numpy().tobytes(),
    }
    image, offsets = bytearray(256), {}
    for name, blob in blobs.items():
        offsets[name] = len(image)
        image += blob + bytes(-len(blob) % 64)
    goldens = {"tile": tile, "bf16": bf16, "fp16": fp16, "int8": int8, "bfp8": bfp8_faces}
    return bytes(image), offsets, goldens


def _program() -> tuple[str, dict[str, torch.Tensor]]:
    image, offsets, goldens = _l1_image()
    header = "#include <cstdint>\n" + "".join(f"constexpr uint32_t {k} = {v};\n" for k, v in offsets.items())
    header += "const unsigned char kL1[] = {" + ",".join(map(str, image)) + "};\n"
    return header + MAIN.read_text(), goldens


@pytest.fixture(scope="module")
def unpacked(tensix_unit_test):
    source, goldens = _program()
    out = tensix_unit_test(source)
    regs: dict[str, torch.Tensor] = {}
    lines: dict[str, list[str]] = {}
    rows: dict[str, dict[tuple[int, int], list[int]]] = {}
    for line in out.splitlines():
        tag, _, rest = line.partition(" ")
        parts = rest.split()
        if len(parts) == 18 and all(re.fullmatch(r"[0-9a-f]+", p) for p in parts):
            rows.setdefault(tag, {})[(int(parts[0]), int(parts[1]))] = [int(p, 16) for p in parts[2:]]
        else:
            lines.setdefault(tag, []).append(rest)
    for tag, by_pos in rows.items():
        n_idx = max(i for i, _ in by_pos) + 1
        n_rows = max(r for _, r in by_pos) + 1
        regs[tag] = torch.tensor([[by_pos[(i, r)] for r in range(n_rows)] for i in range(n_idx)], dtype=torch.int64)
    return regs, lines, goldens


# --- the register layouts of the ISA documentation, undone ---------------------------------------

def src_to_fp32(v: torch.Tensor) -> torch.Tensor:
    """SrcA/SrcB TF32/BF16 datums (Sign | Man10 | Exp8) as float32."""
    bits = ((v >> 18) & 1) << 31 | (v & 0xFF) << 23 | ((v >> 8) & 0x3FF) << 13
    return bits.to(torch.int32).view(torch.float32)


def src_to_fp16(v: torch.Tensor) -> torch.Tensor:
    """SrcA/SrcB FP16 datums (Sign | Man10 | Exp, exponent's top 3 bits zero) as float16."""
    assert torch.all((v & 0xE0) == 0)
    bits = ((v >> 18) & 1) << 15 | (v & 0x1F) << 10 | ((v >> 8) & 0x3FF)
    return bits.to(torch.int16).view(torch.float16)


def src_int8(v: torch.Tensor) -> torch.Tensor:
    """Integer "8" in Src: FP16 overlay with raw exponent 16 (0 for magnitude 0), sign-magnitude."""
    mag = (v >> 8) & 0x3FF
    assert torch.all(torch.where(mag == 0, v & 0x1F, (v & 0x1F) - 16) == 0)
    return torch.where((v >> 18) & 1 == 1, -mag, mag)


def dst32_to_fp32(v: torch.Tensor) -> torch.Tensor:
    """Dst32b FP32 datums (the high half Sign | Man7 | Exp8, low 16 mantissa bits) as float32."""
    hi = v >> 16
    bits = ((hi >> 15) & 1) << 31 | (hi & 0xFF) << 23 | ((hi >> 8) & 0x7F) << 16 | (v & 0xFFFF)
    return bits.to(torch.int32).view(torch.float32)


# --- tests ------------------------------------------------------------------------------------------

def test_bf16_tile_lands_face_by_face_in_srca(unpacked):
    regs, lines, g = unpacked
    assert "bf16" not in lines  # every face set dvalid on SrcA and SrcB
    assert torch.equal(src_to_fp32(regs["bf16"]), faces_of(g["bf16"].float()))


def test_fp32_to_tf32_truncates_the_low_mantissa(unpacked):
    regs, _, g = unpacked
    want = (_bits(faces_of(g["tile"]), torch.int32) & ~0x1FFF).to(torch.int32).view(torch.float32)
    assert torch.equal(src_to_fp32(regs["tf32"]), want)


def test_fp32_to_bf16_truncates_and_flushes_denormals(unpacked):
    regs, _, g = unpacked
    tile = g["tile"].clone()
    tile[tile.abs() < torch.finfo(torch.float32).tiny] = 0.0
    want = (_bits(faces_of(tile), torch.int32) & ~0xFFFF).to(torch.int32).view(torch.float32)
    got = src_to_fp32(regs["fp32_bf16"])
    assert torch.equal(got, want)
    assert got[0, 0, 1] == 0.0 and got[0, 0, 2] == 0.0


def test_fp16_tile(unpacked):
    regs, _, g = unpacked
    assert torch.equal(src_to_fp16(regs["fp16"]), faces_of(g["fp16"]))


def test_fp32_to_fp16_truncates_and_flushes_underflow(unpacked):
    regs, _, g = unpacked
    bits = _bits(faces_of(g["tile"]), torch.int32)
    exp = ((bits >> 23) & 0xFF) - 112  # the unpacker's rebias; mantissa truncated, underflow to signed zero
    want = ((bits >> 16) & 0x8000) | torch.where(exp < 0, 0, exp << 10 | ((bits >> 13) & 0x3FF))
    assert torch.all(exp <= 31)
    assert torch.equal(src_to_fp16(regs["fp32_fp16"]), want.to(torch.int16).view(torch.float16))


def test_bfp8b_tile_with_shared_exponents(unpacked):
    regs, _, g = unpacked
    got = src_to_fp32(regs["bfp8b"]).double()
    assert torch.equal(got, g["bfp8"])
    assert got[0, 0, 5] == float("-inf")


def test_int8_sign_magnitude_and_unsigned(unpacked):
    regs, _, g = unpacked
    raw = faces_of(g["int8"])
    assert torch.equal(src_int8(regs["int8"]), torch.where(raw >= 128, -(raw - 128), raw))
    assert torch.equal(src_int8(regs["uint8"]), raw)


def test_haloize_transposes_each_face(unpacked):
    regs, _, g = unpacked
    assert torch.equal(src_to_fp32(regs["transpose"]), faces_of(g["bf16"].float()).transpose(1, 2))


def test_unpack_to_dest_fp32_fills_dst32_rows(unpacked):
    regs, _, g = unpacked
    got = dst32_to_fp32(regs["dest_fp32"][0]).reshape(FACES, 16, 16)
    assert torch.equal(got, faces_of(g["tile"]))


def test_tilize_reads_row_major_rows_into_faces(unpacked):
    regs, _, g = unpacked
    assert torch.equal(src_to_fp32(regs["tilize"]), faces_of(g["bf16"].float()))


def test_srcb_in_config_context_1(unpacked):
    regs, _, g = unpacked
    assert torch.equal(src_to_fp32(regs["srcb_ctx1"]), faces_of(g["bf16"].float()))


def test_unpacr_nop_fills_the_unpackers_bank(unpacked):
    _, lines, _ = unpacked
    # ZEROSRC cleared SrcB before each SET_DVALID (unpack_A_tile prints if not); NEGINFSRC fills
    # SrcA with sign 1, exponent 255 and an all-ones mantissa, -inf to the matrix unit.
    for tag in ("bf16", "tf32", "fp32_bf16", "fp16", "fp32_fp16", "bfp8b", "int8", "uint8", "transpose"):
        assert tag not in lines, lines.get(tag)  # no "SrcB not zeroed" / "dvalid not set"
    assert lines["neginf"] == ["7ffff 7ffff"]


def test_misuse_and_unmodelled_modes_fail_by_name(unpacked):
    _, lines, _ = unpacked
    assert "SrcA bank released by the matrix unit" in lines["err_wait"][0]
    assert "opcode 0x42 UNPACR" in lines["err_rowsearch"][0] and "RowSearch is not modelled" in lines["err_rowsearch"][0]
    assert "UNPACR_NOP flavour 0x0 is not modelled" in lines["err_nop_pop"][0]
    assert "unpacks Float16_b to Float32 in SrcA/SrcB" in lines["err_format"][0]
    assert "SrcA row 64 is out of range" in lines["err_row"][0]
    assert lines["zero_wrap"] == ["0"]  # the same address with AllDatumsAreZero wraps to row 0
    assert "built for Wormhole B0, not Blackhole" in lines["err_other_arch"][0]


def test_adc_instructions_follow_the_isa_models(unpacked):
    _, lines, _ = unpacked
    # unpacker 0 ch0: x y z w y_cr | unpacker 1 ch1: x y z w | packers ch0: x z | math thread's unpacker 0 ch0: x z
    want = {
        "setxy": "1 5 0 0 5 2 3 0 0 1 0 0 0",
        "setzw": "1 5 2 0 5 2 3 6 0 1 0 0 0",
        "incxy": "5 8 2 0 5 2 3 6 0 1 0 0 0",
        "addrcrxy": "5 7 2 0 7 2 3 6 0 1 0 0 0",
        "zw": "5 7 7 1 7 2 3 7 1 1 1 0 0",
        "xx": "5 7 7 1 7 511 3 7 1 1 1 0 9",
    }
    got = {line.split()[0]: " ".join(line.split()[1:]) for line in lines["adc"]}
    assert got == want
