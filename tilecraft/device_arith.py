"""The Tensix matrix unit's and packer's arithmetic, as exact float64 arithmetic on values.

Written from the ISA documentation's functional models (tt-isa-documentation, WormholeB0: MVMUL and
ELWMUL with SrcAFidelityBits / SrcBFidelityBits, ELWADD, Packers/FormatConversion) and the
accumulation facts stated in docs/numerics.md section 8, as exact float64 arithmetic on values
(pieces of operands, rounding to grids), not as the Tensix machine's integer bit manipulation
(emu/tensix/fpu_lanes.cpp), so that a mistake in one does not repeat in the other: the emulator's
tests (tests/emu/test_device_arithmetic.py, tests/emu/tensix/test_fpu.py) hold the machine to this
model, and the language-level simulator's ``--numerics device`` (:mod:`tilecraft.sim.device_math`)
computes with it, so the two levels agree bit for bit where both model the same instructions. Everything is vectorised over leading dims.
"""

from __future__ import annotations

import numpy as np
import torch


def _f32(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float32)


def _exp_field(x: np.ndarray) -> np.ndarray:
    return ((_f32(x).view(np.uint32) >> 23) & 0xFF).astype(np.int64)


def _value(x: np.ndarray) -> np.ndarray:
    """fp32 data as the matrix unit reads it, in float64: exponent 255 is a number like the others
    (1.m * 2^128; the unit has no infinity or NaN), so an infinity or a NaN in a sum or product
    gives a result of 2^128 or more, which DST holds as infinity (:func:`_finish`), and inf - inf is 0."""
    x = _f32(x)
    v = x.astype(np.float64)
    big = _exp_field(x) == 255
    if big.any():
        mantissa = (x.view(np.uint32) & np.uint32(0x7FFFFF)).astype(np.float64)
        v = np.where(big, np.where(np.signbit(x), -1.0, 1.0) * (1.0 + mantissa / 2.0 ** 23) * 2.0 ** 128, v)
    return v


def _masked(x: np.ndarray, mask: int) -> np.ndarray:
    return _value((_f32(x).view(np.uint32) & np.uint32(mask)).view(np.float32))


def src_a_piece(x: np.ndarray, phase: int) -> np.ndarray:
    """SrcAFidelityBits: the implicit one and four mantissa bits (even phases), or the next five."""
    x = _f32(x)
    return _masked(x, 0xFFF80000) if phase % 2 == 0 else _value(x) - _masked(x, 0xFFF83FFF)


def src_b_piece(x: np.ndarray, phase: int) -> np.ndarray:
    """SrcBFidelityBits: the implicit one and six mantissa bits (phases 0, 1), or the next four."""
    x = _f32(x)
    return _masked(x, 0xFFFE0000) if phase < 2 else _value(x) - _masked(x, 0xFFFE1FFF)


def _product_exponent(a: np.ndarray, b: np.ndarray, phase: int) -> np.ndarray:
    """The biased exponent that scales a product's 12-bit significand (0 for a zero operand)."""
    ea, eb = _exp_field(a), _exp_field(b)
    e = ea + eb - 127 - (5 if phase % 2 else 0) - (7 if phase >= 2 else 0)
    return np.where((ea == 0) | (eb == 0), 0, e)


def _round_away(v: np.ndarray) -> np.ndarray:
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def _round_up(v: np.ndarray) -> np.ndarray:
    return np.floor(v + 0.5)


def _finish(terms: list[tuple[np.ndarray, np.ndarray]], dst: np.ndarray, fp32_dst: bool) -> np.ndarray:
    """Sum of terms (value, biased exponent) and DST, aligned to the largest exponent's 24-bit grid
    (terms' ties toward +inf, DST's away from zero; a 16-bit DST first drops 13 more bits), rounded
    once to DST's precision with ties away from zero."""
    dst = _f32(dst)
    ed = _exp_field(dst)
    dval = np.where(ed == 0, 0.0, _value(dst))
    top = ed.copy()
    for _, e in terms:
        top = np.maximum(top, e)
    unit = np.exp2((top - 150).astype(np.float64))
    grid = 1.0 if fp32_dst else 8192.0
    total = _round_away(_round_away(dval / unit) / grid) * grid
    for v, _ in terms:
        total = total + _round_up(_round_up(v / unit) / grid) * grid
    keep = 24 if fp32_dst else 8
    mag = np.abs(total)
    lead = np.floor(np.log2(np.where(mag == 0, 1.0, mag)))
    q = np.exp2(lead - keep + 1)
    r = np.sign(total) * np.floor(mag / q + 0.5) * q * unit
    r = np.where((top <= 0) | (np.abs(r) < 2.0 ** -126), 0.0, r)
    r = np.where(np.abs(r) >= 2.0 ** 128, np.copysign(np.inf, r), r)
    return r.astype(np.float32)


def dot(a: np.ndarray, b: np.ndarray, dst: np.ndarray, phases: int, fp32_dst: bool) -> np.ndarray:
    """MVMUL on the last axis (a multiple of 16): a are SrcA's operands, b SrcB's; for each phase,
    each 16-long chunk: two groups of eight products, each aligned to its largest exponent with
    ties away from zero, then added to DST."""
    out = _f32(dst)
    for phase in range(phases):
        for k0 in range(0, a.shape[-1], 16):
            terms = []
            for g in (k0, k0 + 8):
                x, y = a[..., g:g + 8], b[..., g:g + 8]
                e = _product_exponent(x, y, phase)
                p = np.where((_exp_field(x) == 0) | (_exp_field(y) == 0), 0.0,  # a denormal operand is zero
                             src_a_piece(x, phase) * src_b_piece(y, phase))
                top = e.max(axis=-1)
                unit = np.exp2((top - 137).astype(np.float64))[..., None]
                s = _round_away(p / unit).sum(axis=-1) * unit[..., 0]
                terms.append((np.where(top <= 0, 0.0, s), np.where(top <= 0, 0, top)))
            out = _finish(terms, out, fp32_dst)
    return out


def matmul(a: torch.Tensor, b: torch.Tensor, phases: int, fp32_dst: bool) -> torch.Tensor:
    """One tile product in0 @ in1 (in0 through SrcB, in1 through SrcA) onto a zero DST."""
    x, y = a.float().numpy(), b.float().numpy()
    sa = np.broadcast_to(y.T[None, :, :], (x.shape[0], y.shape[1], x.shape[1]))
    sb = np.broadcast_to(x[:, None, :], (x.shape[0], y.shape[1], x.shape[1]))
    return torch.from_numpy(dot(sa, sb, np.zeros((x.shape[0], y.shape[1]), np.float32), phases, fp32_dst))


def eltwise(op: str, a: torch.Tensor, b: torch.Tensor, phases: int, fp32_dst: bool) -> torch.Tensor:
    """ELWADD / ELWSUB (onto zero) or ELWMUL once per phase onto a zero DST."""
    x, y = a.float().numpy(), b.float().numpy()
    if op == "sub":
        y = -y
    if op == "mul":
        out = np.zeros(x.shape, np.float32)
        for phase in range(phases):
            p = src_a_piece(x, phase) * src_b_piece(y, phase)
            e = _product_exponent(x, y, phase)
            out = _finish([(np.where(e <= 0, 0.0, p), np.where(e <= 0, 0, e))], out, fp32_dst)
        return torch.from_numpy(out)
    ex, ey = _exp_field(x), _exp_field(y)
    xv = np.where(ex == 0, 0.0, _value(x))
    yv = np.where(ey == 0, 0.0, _value(y))
    big = np.where(np.abs(xv) >= np.abs(yv), xv, yv)
    small = np.where(np.abs(xv) >= np.abs(yv), yv, xv)
    top = np.where(np.abs(xv) >= np.abs(yv), np.where(ex == 0, 0, ex), np.where(ey == 0, 0, ey))
    unit = np.exp2((top - 137).astype(np.float64))  # the larger operand's 11-bit significand grid
    s = big + _round_away(small / unit) * unit
    return torch.from_numpy(_finish([(s, top)], np.zeros(x.shape, np.float32), fp32_dst))


def pack_bf16(x: torch.Tensor) -> torch.Tensor:
    """Packer fp32 -> bfloat16: NaN to inf, nearest with ties away from zero, denormals to +0."""
    v = x.double().numpy()
    v = np.where(np.isnan(v), np.copysign(np.inf, v), v)
    mag = np.abs(v)
    finite = np.isfinite(mag) & (mag > 0)
    q = np.exp2(np.floor(np.log2(np.where(finite, mag, 1.0))) - 7)
    r = np.where(finite, np.sign(v) * np.floor(mag / q + 0.5) * q, v)
    r = np.where(np.abs(r) < 2.0 ** -126, 0.0, r)
    r = np.where(np.abs(r) >= 2.0 ** 128, np.copysign(np.inf, r), r)
    return torch.from_numpy(r.astype(np.float32)).to(torch.bfloat16)


def pack_block_float(x: torch.Tensor, mantissa_bits: int, precise: bool = False) -> torch.Tensor:
    """Packer fp32 DST -> Bfp8_b (7) / Bfp4_b (3), groups of 16 along the last axis of face rows:
    truncate to bfloat16, (unless precise) round to 7 significant bits with ties away, then align
    to the group's largest exponent with ties away into 7 bits (saturating); Bfp4_b then drops the
    low four of those bits. Finite inputs only."""
    v = x.double().numpy().reshape(-1, 16)
    mag = np.abs(v)
    nz = mag >= 2.0 ** -126
    lead = np.floor(np.log2(np.where(nz, mag, 1.0)))
    h = np.trunc(mag / np.exp2(lead - 7)) * np.exp2(lead - 7)  # bfloat16 by truncation
    if not precise:
        h = np.floor(h / np.exp2(lead - 6) + 0.5) * np.exp2(lead - 6)
    h = np.where(nz, h, 0.0)
    lead = np.floor(np.log2(np.where(h > 0, h, 1.0)))
    shared = np.where(h > 0, lead, -np.inf).max(axis=1, keepdims=True)
    nonzero = np.isfinite(shared)  # a group of zeros (and flushed denormals) has no exponent
    unit = np.exp2(np.where(nonzero, shared, 0.0) - 6)
    m = np.minimum(np.floor(h / unit + 0.5), 127)
    if mantissa_bits == 3:
        m = np.floor(m / 16) * 16
    r = np.where(nonzero, np.sign(v) * m * unit, 0.0)
    return torch.from_numpy(r.reshape(x.shape).astype(np.float32))


def matmul_tiles(a: torch.Tensor, b: torch.Tensor, phases: int, fp32_dst: bool) -> torch.Tensor:
    """a @ b as matmul_tiles computes it: one call per 32-wide k tile, accumulating in DST."""
    x, y = a.float().numpy(), b.float().numpy()
    sa = np.broadcast_to(y.T[None, :, :], (x.shape[0], y.shape[1], x.shape[1]))
    sb = np.broadcast_to(x[:, None, :], (x.shape[0], y.shape[1], x.shape[1]))
    out = np.zeros((x.shape[0], y.shape[1]), np.float32)
    for k0 in range(0, x.shape[1], 32):
        out = dot(sa[..., k0:k0 + 32], sb[..., k0:k0 + 32], out, phases, fp32_dst)
    return torch.from_numpy(out)


def blocked_matmul_onto(a: torch.Tensor, b: torch.Tensor, dst: torch.Tensor) -> torch.Tensor:
    """a @ b accumulated onto a bfloat16 DST holding ``dst``, one 32-wide k tile at a time (HiFi4)."""
    x, y = a.float().numpy(), b.float().numpy()
    sa = np.broadcast_to(y.T[None, :, :], (x.shape[0], y.shape[1], x.shape[1]))
    sb = np.broadcast_to(x[:, None, :], (x.shape[0], y.shape[1], x.shape[1]))
    out = dst.float().numpy()
    for k in range(0, x.shape[1], 32):
        out = dot(sa[..., k:k + 32], sb[..., k:k + 32], out, 4, False)
    return torch.from_numpy(out)


def blocked_matmul(a: torch.Tensor, b: torch.Tensor, block_k: int) -> torch.Tensor:
    """a @ b as ttnn's blocked matmul kernels compute it (HiFi4, bfloat16 DST, bfloat16 partials):
    matmul_tiles/matmul_block accumulate one k block of ``block_k`` columns in DST, the partial is
    packed to the bfloat16 intermediate CB and copied back into DST before the next block."""
    out = torch.zeros(a.shape[0], b.shape[1])
    for k0 in range(0, a.shape[1], block_k):
        if k0:
            out = pack_bf16(out).float()
        out = blocked_matmul_onto(a[:, k0:k0 + block_k], b[k0:k0 + block_k], out)
    return pack_bf16(out)


def pool_scalar(t: np.ndarray, acc: np.ndarray, phases: int, fp32_dst: bool, tf32_src: bool = False) -> np.ndarray:
    """REDUCE_SCALAR's two pools (llk_math_reduce.h) of tiles ``t`` [..., 32, 32] with a scaler of
    ones onto ``acc`` [...]: the four faces in order onto one row of 16 column sums (GAPOOL, the
    data through SrcA), that row to SrcB, transposed and pooled again. MOVD2B (MOVD2B.md) truncates
    an fp32 DST by SrcA's format: to TF32 when SrcA holds TF32 (``tf32_src``: Float32 data with an
    fp32 DST), else to bfloat16 (bfloat16 and block-float data). With a scaler s the device applies
    it twice (s^2), hence ttnn's sqrt for HW."""
    ones = np.ones(16, np.float32)
    partial = np.zeros((*t.shape[:-2], 16), np.float32)
    for r0 in (0, 16):
        for c0 in (0, 16):
            partial = dot(np.swapaxes(t[..., r0:r0 + 16, c0:c0 + 16], -1, -2), ones, partial, phases, fp32_dst)
    if fp32_dst:
        partial = (partial.view(np.uint32) & np.uint32(0xFFFFE000 if tf32_src else 0xFFFF0000)).view(np.float32)
    return dot(partial, ones, np.asarray(acc, np.float32), phases, fp32_dst)


def pool_faces(a: np.ndarray, b: np.ndarray, dst: np.ndarray, phases: int, fp32_dst: bool) -> np.ndarray:
    """REDUCE_COL's sums as llk_math_reduce.h issues them: one GAPOOL per 16-long face, each face's
    fidelity phases before the next face's, so a 16-bit DST rounds between faces. REDUCE_ROW's
    sums are MVMULs inside the fidelity loop (phase-major, :func:`dot`)."""
    out = _f32(dst)
    for k0 in range(0, a.shape[-1], 16):
        out = dot(a[..., k0:k0 + 16], b[..., k0:k0 + 16], out, phases, fp32_dst)
    return out


def reduce_sum(tiles: list[torch.Tensor], dim: str, phases: int, fp32_dst: bool, tf32_src: bool = False) -> torch.Tensor:
    """reduce_tile<SUM> with a scaler of ones over `tiles` in order into one DST tile, masked as
    the packer leaves it: REDUCE_ROW sums rows into column 0 (data through SrcB), REDUCE_COL
    columns into row 0 (face by face, :func:`pool_faces`), REDUCE_SCALAR everything into [0][0] in two pools (:func:`pool_scalar`)."""
    out = np.zeros((32, 32), np.float32)
    ones = np.ones((32, 32), np.float32)
    for t in tiles:
        x = t.float().numpy()
        if dim == "REDUCE_ROW":
            out[:, 0] = dot(ones, x, out[:, 0], phases, fp32_dst)
        elif dim == "REDUCE_COL":
            out[0, :] = pool_faces(x.T.copy(), ones, out[0, :], phases, fp32_dst)
        else:
            out[0, 0] = pool_scalar(x, out[0, 0], phases, fp32_dst, tf32_src)
    return torch.from_numpy(out)


def _lut16_entry(entry: float) -> int:
    """A table constant as SFPI stores it for SFPLUTFP32 (``vLut16ss``/``vLut16ii``,
    ``sLut<FP16>::convert``): the mantissa rounded to 10 bits half away from zero, the exponent
    rebased by 112; below that range (0.0 included) the table's zero, exponent 31 (SFPLUTFP32.md
    reads it as +-0); above it the largest entry."""
    bits = int(np.array(entry, np.float32).view(np.uint32))
    sign, exp, man = bits >> 31, (bits >> 23) & 0xFF, (bits & 0x7FFFFF) + (1 << 12)
    if man >> 23:
        exp, man = exp + 1, 0
    exp -= 112
    return (sign << 15) | (0x7C00 if exp < 0 else 0x7BFF if exp >= 31 else (exp << 10) | (man >> 13))


def _lut16(entry: float) -> float:
    """SFPLUTFP32's Lut16ToFp32 of a table constant as SFPI stores it (:func:`_lut16_entry`)."""
    h = _lut16_entry(entry)
    sign, exp, man = h >> 15, (h >> 10) & 0x1F, h & 0x3FF
    bits = (sign << 31) | ((0 if exp == 0x1F else 112 + exp) << 23) | (man << 13)
    return float(np.array(bits, np.uint32).view(np.float32))


#: gelu_init<true>'s table (0.81.1 ckernel_sfpu_gelu.h): (upper bound of |x|, slope, intercept)
GELU_TABLE = [(0.5, 0.1928, -0.00010443), (1.0, 0.4939, -0.1604), (1.5, 0.6188, -0.2796),
              (2.0, 0.6099, -0.2635), (3.0, 0.5402, -0.1194), (np.inf, 0.5, 0.0)]


def gelu_table(x: torch.Tensor) -> torch.Tensor:
    """gelu_tile's default: 0.5 x + (a |x| + c) by SFPLUTFP32's 6-entry FP16 table (cut at 3),
    evaluated in float64 and rounded once per multiply-add to fp32."""
    v = x.double().numpy()
    b = np.abs(v)
    out = np.zeros_like(v)
    lower = 0.0
    for upper, slope, intercept in GELU_TABLE:
        seg = (b >= lower) & (b < upper)
        d = (_lut16(slope) * b + _lut16(intercept)).astype(np.float32).astype(np.float64)
        out = np.where(seg, (0.5 * v + d).astype(np.float32), out)
        lower = upper
    return torch.from_numpy(out.astype(np.float32))


#: fidelity phases per math fidelity (``ComputeConfigDescriptor.math_fidelity``)
FIDELITY_PHASES: dict[str, int] = {"LoFi": 1, "HiFi2": 2, "HiFi3": 3, "HiFi4": 4}


def _np(x: torch.Tensor) -> np.ndarray:
    return x.detach().to("cpu", torch.float32).numpy()


def block_matmul(a: torch.Tensor, b: torch.Tensor, acc: torch.Tensor | None, phases: int,
                 fp32_dst: bool) -> torch.Tensor:
    """``[*, M, K] @ [*, K, N]`` (sides multiples of 32) as ``matmul_tiles`` computes it into DST:
    one call per 32-wide K tile in K order, each running every fidelity phase over its two MVMULs,
    onto ``acc`` (the value copied into DST first; zero when None). Returns DST's fp32 values."""
    x, y = _np(a), _np(b)
    m, n = x.shape[-2], y.shape[-1]
    shape = np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) + (m, n)
    out = np.zeros(shape, np.float32) if acc is None else np.ascontiguousarray(np.broadcast_to(_np(acc), shape))
    sa = np.swapaxes(y, -1, -2)[..., None, :, :]  # [*, 1, N, K]: in1 through SrcA
    sb = x[..., :, None, :]  # [*, M, 1, K]: in0 through SrcB
    for k0 in range(0, x.shape[-1], 32):
        out = dot(sa[..., k0:k0 + 32], sb[..., k0:k0 + 32], out, phases, fp32_dst)
    return torch.from_numpy(out).to(a.device)


def fpu_eltwise(op: str, a: torch.Tensor, b: torch.Tensor, phases: int, fp32_dst: bool) -> torch.Tensor:
    """``add_tiles`` / ``sub_tiles`` / ``mul_tiles`` (and their broadcast forms, ``b`` already
    broadcast) onto a zero DST: :func:`eltwise` over broadcast operands."""
    x, y = np.broadcast_arrays(_np(a), _np(b))
    return eltwise(op, torch.from_numpy(np.ascontiguousarray(x)), torch.from_numpy(np.ascontiguousarray(y)),
                   phases, fp32_dst).to(a.device)


def reduce_sum_tiles(x: torch.Tensor, dims: tuple[int, ...], phases: int, fp32_dst: bool) -> torch.Tensor:
    """``reduce_tile<SUM>`` with a scaler of ones over every tile of ``[*, H, W]`` along ``dims``
    (negative: -1 columns, -2 rows, both), tile by tile in row-major order into one DST tile per
    kept row or column of tiles, masked as the packer leaves it (:func:`reduce_sum`'s placement)."""
    v = _np(x)
    *lead, h, w = v.shape
    rows, cols = h // 32, w // 32
    tiles = v.reshape(*lead, rows, 32, cols, 32)
    out_rows = 1 if -2 in dims else rows
    out_cols = 1 if -1 in dims else cols
    out = np.zeros((*lead, out_rows, 32, out_cols, 32), np.float32)
    ones = np.ones(32, np.float32)
    for r in range(rows):
        for c in range(cols):
            t = tiles[..., r, :, c, :]
            o = out[..., 0 if -2 in dims else r, :, 0 if -1 in dims else c, :]
            if dims == (-1,):  # REDUCE_ROW: row sums into column 0, the data through SrcB
                o[..., :, 0] = dot(ones, t, o[..., :, 0], phases, fp32_dst)
            elif dims == (-2,):  # REDUCE_COL: column sums into row 0, the data through SrcA
                o[..., 0, :] = pool_faces(np.swapaxes(t, -1, -2), ones, o[..., 0, :], phases, fp32_dst)
            else:  # REDUCE_SCALAR: everything into [0][0], the data through SrcA
                # the language level's data is Float32: SrcA holds TF32 with an fp32 DST
                o[..., 0, 0] = pool_scalar(t, o[..., 0, 0], phases, fp32_dst, tf32_src=True)
    return torch.from_numpy(out.reshape(*lead, out_rows * 32, out_cols * 32)).to(x.device)


def tf32(x: torch.Tensor) -> torch.Tensor:
    """What the unpacker leaves of fp32 values in SrcA/SrcB: the low 13 mantissa bits dropped."""
    return (x.float().view(torch.int32) & -8192).view(torch.float32)


def src_to_dst(x: torch.Tensor) -> torch.Tensor:
    """fp32 data moved from a source register into DST (a transpose, ``copy_tile`` of a 16-bit
    buffer, a row max on its way back from SrcB): TF32 (:func:`tf32`), a zero exponent (zeros of
    either sign, denormals) written as +0 and exponent 255 (infinities, NaNs) as an infinity of its
    sign, since the unit has neither denormals nor NaNs."""
    bits = tf32(x).view(torch.int32)
    exponent = (bits >> 23) & 0xFF
    bits = torch.where(exponent == 0, torch.zeros_like(bits), bits)
    bits = torch.where(exponent == 255, (bits & -0x80000000) | 0x7F800000, bits)
    return bits.view(torch.float32)


def pool_order(x: torch.Tensor) -> torch.Tensor:
    """The order of the max pool (GMPOOL) on fp32 data in SrcA, as float64 keys that compare as the
    unit compares its datums: TF32, a zero exponent as +0, then by sign and magnitude, exponent 255
    being a number (a NaN's mantissa orders it above infinity). :func:`from_pool_order` inverts it."""
    bits = tf32(x).view(torch.int32)
    bits = torch.where(((bits >> 23) & 0xFF) == 0, torch.zeros_like(bits), bits)
    magnitude = (bits & 0x7FFFFFFF).double()
    return torch.where(bits < 0, -magnitude, magnitude)


def from_pool_order(key: torch.Tensor) -> torch.Tensor:
    """The fp32 datums of :func:`pool_order`'s keys (a zero key is +0)."""
    magnitude = key.abs().to(torch.int64)
    return torch.where(key < 0, magnitude | 0x80000000, magnitude).to(torch.int32).view(torch.float32)


def movd2b_16bit(x: torch.Tensor) -> torch.Tensor:
    """What MOVD2B leaves of fp32 DST values in SrcB when SrcA's format is Float32 (not TF32): the
    16-bit shuffle, the upper 16 bits (bfloat16 truncated). ``reduce_tile<MAX, REDUCE_ROW>`` moves
    its pooled column this way to transpose it (llk_math_reduce.h, reduce_row_perform_transpose)."""
    return (x.float().view(torch.int32) & -65536).view(torch.float32)


def pack_block_float_any(x: torch.Tensor, mantissa_bits: int) -> torch.Tensor:
    """:func:`pack_block_float` of a ``[*, W]`` tensor of any leading shape (W a multiple of 16)."""
    return pack_block_float(x.detach().cpu(), mantissa_bits).reshape(x.shape).to(x.device)


#: below this magnitude an SFPU fp32 result may differ from IEEE's: the SFPU reads denormal inputs
#: as zero, writes denormal results (and, on Wormhole, every zero) as +0, gives a zero result
#: Blackhole's sign rule, and flushes results that IEEE would round up to 2**-126 from below
SFPU_IEEE_MIN = 2.0 ** -125


def sfpu_ieee(op: str, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``a + b``, ``a - b`` or ``a * b`` of fp32 values (one shape) as the SFPU's ``SFPMAD`` gives
    them, where that is IEEE fp32 with round to nearest even (docs/numerics.md section 8: a plain
    sum or product is): returns the IEEE results and where they hold. They hold where both operands
    are zero or normal and finite, and the result is finite with a magnitude of at least
    :data:`SFPU_IEEE_MIN`; everywhere else (zeros and denormals made, infinities, NaNs, whose bits
    the SFPU sets its own way on each architecture) the caller asks the Tensix machine."""
    x, y = a.float(), b.float()
    out = {"add": torch.add, "sub": torch.sub, "mul": torch.mul}[op](x, y)
    tiny = 2.0 ** -126
    inputs_ok = torch.isfinite(x) & torch.isfinite(y) & ((x == 0) | (x.abs() >= tiny)) & ((y == 0) | (y.abs() >= tiny))
    return out, inputs_ok & torch.isfinite(out) & (out.abs() >= SFPU_IEEE_MIN)
