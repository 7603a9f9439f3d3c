"""The executable meaning of every block math operation (docs/numerics.md states each one).

Block compute expressions are evaluated on tensors shaped ``[*batch, H, W]``: ``H`` and ``W``
are the block's extent in elements (tiles are 32x32, so both are multiples of 32 for tiled
blocks) and any leading dims are a batch of blocks evaluated at once (iterations of a loop,
cores running in lock-step). Higher-rank blocks put their outer tile-grid dims just before
``H, W``. Values are fp32 (integer formats compute in int64, see ``numerics.to_compute``); the
caller rounds results into the destination block's format on store.

Operations are plain tables keyed by the name the IR uses, so the simulator, the emitter and the
cost model look up the same names and no code branches on an op name. Where the published TT-Lang
simulator and the hardware disagree (broadcast and reduce placement), we follow the hardware, so
that the simulator never computes something other than what the emitted kernel would;
``threshold`` follows the TT-Lang specification, which the lowering builds from the hardware's
mirror-image operation. Results may be views of their inputs (broadcast, transpose): never write into them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch
import torch.nn.functional as F

from tilecraft.dtypes import TILE_COLS, TILE_ROWS

Tensor = torch.Tensor


def _flag(predicate: Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
    """A unary test as numbers (1 where true, 0 elsewhere) in the input's dtype: tiles hold no booleans."""

    def flag(x: Tensor) -> Tensor:
        return predicate(x).to(x.dtype)

    return flag


def _compare(predicate: Callable[[Tensor, Tensor], Tensor]) -> Callable[[Tensor, Tensor], Tensor]:
    """A comparison as numbers (1.0 / 0.0) in the operands' common dtype, as the SFPU writes it."""

    def compare(a: Tensor, b: Tensor) -> Tensor:
        return predicate(a, b).to(torch.result_type(a, b))

    return compare


def _rounded_once(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``fn`` evaluated in float64 and rounded once to fp32 (integer inputs too: docs/numerics.md,
    transcendental functions of integers return fp32).

    torch's fp32 kernels of transcendental functions give different last bits for the same value
    depending on the length of the tensor (vectorised and scalar code paths round differently),
    so a value evaluated in a batch would differ from the same value evaluated alone (``--exact``).
    The float64 result rounded once is the same in every path, so the fast and exact modes, and
    both simulation levels, agree bit for bit.
    """

    def rounded(x: Tensor, *params: object) -> Tensor:
        return fn(x.to(torch.float64), *params).to(torch.float32)

    return rounded


def _of_floats(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``fn`` on fp32 values: an integer block is converted first (torch has no integer kernel for
    these functions, and neither does the SFPU: the result is fp32, as for transcendentals)."""

    def on_floats(x: Tensor, *params: object) -> Tensor:
        return fn(x if x.is_floating_point() else x.to(torch.float32), *params)

    return on_floats


def _rounded_once_binary(fn: Callable[[Tensor, Tensor], Tensor]) -> Callable[[Tensor, Tensor], Tensor]:
    """A binary function evaluated as :func:`_rounded_once` does (both operands widened)."""

    def rounded(a: Tensor, b: Tensor) -> Tensor:
        if not (a.is_floating_point() or b.is_floating_point()):
            return fn(a, b)
        return fn(a.to(torch.float64), b.to(torch.float64)).to(torch.float32)

    return rounded


def _gelu_tanh(x: Tensor) -> Tensor:
    """The tanh approximation of GELU, written out (torch's fused kernel is length-dependent
    even in float64): 0.5 x (1 + tanh z), z = sqrt(2/pi) (x + 0.044715 x^3), computed as the
    equal x / (1 + exp(-2z)), which does not cancel to zero for negative x as 1 + tanh z does."""
    return x / (1.0 + torch.exp(-2.0 * 0.7978845608028654 * (x + 0.044715 * x * x * x)))


def _celu(x: Tensor, alpha: float, alpha_recip: float) -> Tensor:
    """x for x > 0, alpha * (exp(x * alpha_recip) - 1) otherwise.

    The hardware takes 1/alpha as a separate parameter (it has no cheap division); we use it as
    given, so a kernel that passes an inconsistent reciprocal gets what the device would compute
    (the default, 1/alpha in fp32, comes from :func:`tilecraft.ir.mathops.full_params`).
    """
    return torch.where(x > 0, x, alpha * torch.expm1(x * alpha_recip))


def _threshold_above(x: Tensor, threshold: float, value: float) -> Tensor:
    """``value`` where ``x > threshold``, else ``x`` (NaN stays NaN)."""
    return torch.where(x > threshold, torch.tensor(value, dtype=x.dtype, device=x.device), x)


def _softplus(x: Tensor, beta: float, beta_reciprocal: float, threshold: float) -> Tensor:
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold (torch's rule).

    The parameter order is the published ``softplus(x, beta, beta_reciprocal, threshold)``; the
    reciprocal is used as given, like the hardware does (defaults: :func:`~tilecraft.ir.mathops.full_params`).
    """
    scaled = x * beta
    return torch.where(scaled > threshold, x, beta_reciprocal * torch.log1p(torch.exp(scaled)))


def _relu_max(x: Tensor, upper_limit: float) -> Tensor:
    """relu(x) capped at upper_limit: min(max(x, 0), upper_limit)."""
    return torch.clamp(torch.relu(x), max=upper_limit)


def _relu_min(x: Tensor, lower_limit: float) -> Tensor:
    """relu(max(x, lower_limit)), the spec's definition (max(x, lower_limit) for lower_limit >= 0)."""
    return torch.relu(torch.clamp(x, min=lower_limit))


def _round(x: Tensor, decimals: int) -> Tensor:
    """Round to ``decimals`` decimal places, halves to even (as torch.round and ttnn.round)."""
    return torch.round(x, decimals=decimals)


def _rsub(x: Tensor, scalar: float) -> Tensor:
    """scalar - x (the operand order of the hardware's rsub_tile)."""
    return scalar - x


#: unary ops with no parameters: name -> f(x). Names are canonical (``log1p``, ``neg``, ``recip``):
#: the IR maps other spellings (the published ``logp1``) to these before anything runs.
UNARY: dict[str, Callable[[Tensor], Tensor]] = {
    "abs": torch.abs,
    "neg": torch.neg,
    "exp": _rounded_once(torch.exp),
    "exp2": _rounded_once(torch.exp2),
    "expm1": _rounded_once(torch.expm1),
    "log": _rounded_once(torch.log),
    "log2": _rounded_once(torch.log2),
    "log10": _rounded_once(torch.log10),
    "log1p": _rounded_once(torch.log1p),
    # rounded once from float64 like the transcendentals: IEEE fp32 roots and reciprocals on the CPU,
    # but torch's CUDA kernels of these are off by an ulp for some values (a GPU gives the CPU's bits)
    "sqrt": _rounded_once(torch.sqrt),
    "rsqrt": _rounded_once(torch.rsqrt),
    "recip": _rounded_once(torch.reciprocal),
    "square": torch.square,
    "sin": _rounded_once(torch.sin),
    "cos": _rounded_once(torch.cos),
    "tan": _rounded_once(torch.tan),
    "asin": _rounded_once(torch.asin),
    "acos": _rounded_once(torch.acos),
    "atan": _rounded_once(torch.atan),
    "sinh": _rounded_once(torch.sinh),
    "cosh": _rounded_once(torch.cosh),
    "tanh": _rounded_once(torch.tanh),
    "asinh": _rounded_once(torch.asinh),
    "acosh": _rounded_once(torch.acosh),
    "atanh": _rounded_once(torch.atanh),
    "erf": _rounded_once(torch.erf),
    "erfc": _rounded_once(torch.erfc),
    "relu": torch.relu,
    "relu6": F.relu6,
    "sigmoid": _rounded_once(torch.sigmoid),
    # tt-metal's gelu_tile defaults to a fast piecewise approximation of GELU; we model it by the
    # tanh formula, which stays within ~1e-3 of exact GELU (see docs/numerics.md)
    "gelu": _rounded_once(_gelu_tanh),
    "silu": _rounded_once(F.silu),
    "softsign": _rounded_once(F.softsign),
    "hardsigmoid": _rounded_once(F.hardsigmoid),
    "hardswish": lambda x: x * UNARY["hardsigmoid"](x),
    "selu": _rounded_once(F.selu),
    "mish": _rounded_once(F.mish),
    "floor": torch.floor,
    "ceil": torch.ceil,
    "trunc": torch.trunc,
    "frac": _of_floats(torch.frac),
    "sign": torch.sign,
    "signbit": _flag(torch.signbit),
    "logical_not": _flag(torch.logical_not),
    "isfinite": _flag(torch.isfinite),
    "isinf": _flag(torch.isinf),
    "isnan": _flag(torch.isnan),
}

#: unary ops with scalar parameters: name -> f(x, *params), parameters in the published order,
#: every one given (:func:`tilecraft.ir.mathops.full_params` fills in the defaults)
UNARY_PARAM: dict[str, Callable[..., Tensor]] = {
    "relu_max": _relu_max,
    "relu_min": _relu_min,
    "leaky_relu": _of_floats(F.leaky_relu),
    # the hardware's prelu_tile takes one scalar slope: the same function as leaky_relu
    "prelu": _of_floats(F.leaky_relu),
    "elu": _rounded_once(F.elu),
    "celu": _rounded_once(_celu),
    "softplus": _rounded_once(_softplus),
    "hardtanh": F.hardtanh,
    "clamp": torch.clamp,
    # the language's threshold (TT-Lang specification, and the published simulator): ``value``
    # where x > threshold; the device's threshold_tile is the mirror image, below
    "threshold": _threshold_above,
    # Metalium's threshold_tile (and torch's threshold): ``value`` where x <= threshold; only the
    # lowering uses it (ttl.math.threshold is -threshold_le(-x, ...), see metal/optable.py)
    "threshold_le": F.threshold,
    "round": _of_floats(_round),
    "rsub": _rsub,
    "power": _rounded_once(torch.pow),
}

#: elementwise binary ops with torch broadcasting: name -> f(a, b). A scalar operand is passed
#: as a 0-d tensor. Comparisons give 1/0 in the operands' common dtype.
BINARY: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "add": torch.add,
    "sub": torch.sub,
    "mul": torch.mul,
    "div": torch.true_divide,
    "floordiv": torch.floor_divide,
    "remainder": torch.remainder,
    "fmod": torch.fmod,
    "pow": _rounded_once_binary(torch.pow),
    "atan2": _rounded_once_binary(torch.atan2),
    "max": torch.maximum,
    "min": torch.minimum,
    "eq": _compare(torch.eq),
    "ne": _compare(torch.ne),
    "lt": _compare(torch.lt),
    "le": _compare(torch.le),
    "gt": _compare(torch.gt),
    "ge": _compare(torch.ge),
}

#: reductions: kind -> f(x, dims) with the reduced dims kept at extent 1
REDUCE: dict[str, Callable[[Tensor, tuple[int, ...]], Tensor]] = {
    "sum": lambda x, dims: x.sum(dim=dims, keepdim=True),
    "max": lambda x, dims: x.amax(dim=dims, keepdim=True),
}


def where(cond: Tensor, a: Tensor, b: Tensor) -> Tensor:
    """``a`` where ``cond`` is non-zero, ``b`` elsewhere (conditions are numbers in tiles)."""
    return torch.where(cond != 0, a, b)


def matmul(a: Tensor, b: Tensor, acc: Tensor | None = None) -> Tensor:
    """``[*, M, K] @ [*, K, N] -> [*, M, N]`` in fp32, accumulated tile by tile as the FPU does.

    Each output tile is ``acc + P0 + P1 + ...`` added in K order in fp32, where ``Pk`` is the tile
    product ``A[i,k] @ B[k,j]`` of one 32x32x32 step: the exact sum of its 32 products (computed in
    float64, where every product of two fp32 values is exact), rounded once to fp32. Because each
    step is rounded once from the exact value, the result does not depend on the order in which a
    GEMM library or the kernel emulator's loops add the 32 products, so every implementation of
    ``matmul_tiles`` agrees bit for bit (docs/numerics.md). ``acc`` is the value already in DST,
    zero by default. Blocks whose sides are not multiples of 32 (row-major) use one exact product.
    """
    *_, m, k = a.shape
    n = b.shape[-1]
    a64, b64 = a.to(torch.float64), b.to(torch.float64)
    if m % 32 or k % 32 or n % 32:
        product = torch.matmul(a64, b64).to(torch.float32)
        return product if acc is None else acc + product
    out = acc
    for k0 in range(0, k, 32):  # one K tile at a time, each rounded once from its exact value
        part = torch.matmul(a64[..., :, k0:k0 + 32], b64[..., k0:k0 + 32, :]).to(torch.float32)
        out = part if out is None else out + part
    return out


def transpose(x: Tensor) -> Tensor:
    """Swap the last two dims: the element-wise transpose of the whole block.

    For a block of (M, N) tiles this is the tile grid transposed and every tile transposed,
    which is what transpose_tile over the block computes.
    """
    return x.transpose(-2, -1)


def regrid(x: Tensor, grid: Sequence[int], new_grid: Sequence[int], tiled: bool = True) -> Tensor:
    """The tiles of a block of tile ``grid`` laid out on ``new_grid`` (the same tiles in row-major
    order of the grid: squeeze and unsqueeze add or remove size-1 grid dims).

    ``x`` is ``[*batch, *outer, R*32, C*32]`` for a tile grid ``(*outer, R, C)``; the result is laid
    out the same way for ``new_grid``. Row-major blocks (``tiled`` False) count elements, so their
    new shape is a plain reshape.
    """
    grid, new_grid = tuple(grid), tuple(new_grid)
    if not tiled:
        return x.reshape(*x.shape[:x.dim() - len(grid)], *new_grid)
    lead = x.shape[:x.dim() - max(len(grid), 2)]
    *outer, rows, cols = (1,) * (2 - len(grid)) + grid
    tiles = x.reshape(*lead, *outer, rows, TILE_ROWS, cols, TILE_COLS).transpose(-3, -2)
    *new_outer, new_rows, new_cols = (1,) * (2 - len(new_grid)) + new_grid
    placed = tiles.reshape(*lead, *new_outer, new_rows, new_cols, TILE_ROWS, TILE_COLS).transpose(-3, -2)
    return placed.reshape(*lead, *new_outer, new_rows * TILE_ROWS, new_cols * TILE_COLS)


def fill(value: float, shape: Sequence[int], dtype: torch.dtype = torch.float32) -> Tensor:
    """A block of ``shape`` elements, every one ``value``."""
    return torch.full(tuple(shape), value, dtype=dtype)


def block_dims(dims: Sequence[int], rank: int) -> tuple[int, ...]:
    """Normalise block dims in Python convention (0 = outermost, -1 = columns) to negative dims.

    The functions here take negative dims only, because leading batch dims make a non-negative
    dim ambiguous; the caller knows the block's rank. Raises ValueError on an empty, repeated or
    out-of-range dim.
    """
    for d in dims:
        if not -rank <= d < rank:
            raise ValueError(f"dim {d} is out of range for a block of rank {rank}")
    return _check_negative_dims([d - rank if d >= 0 else d for d in dims], rank)


def _tile_extent(dim: int) -> int:
    """Elements of one tile along a negative block dim: 32 for rows and columns, 1 for outer grid dims."""
    return {-1: TILE_COLS, -2: TILE_ROWS}.get(dim, 1)


def _check_negative_dims(dims: Sequence[int], rank: int) -> tuple[int, ...]:
    """``dims`` sorted, after checking they are distinct negative dims of a block of ``rank``."""
    if not dims or any(not -rank <= d < 0 for d in dims) or len(set(dims)) != len(dims):
        raise ValueError(f"dims must be distinct negative block dims within rank {rank}; got {list(dims)}")
    return tuple(sorted(dims))


def reduce(
    kind: str, x: Tensor, dims: Sequence[int], scaler: Tensor | float | None = None
) -> Tensor:
    """Reduce ``x`` over the negative block ``dims`` the way the hardware's reduce_tile does.

    The reduction runs over every element of the block along each dim (across tiles too). The
    result has the extent of one tile along each reduced dim (32 elements for rows/columns, 1 for
    an outer grid dim): the reduced values sit at index 0 along it (row 0 for dims=[-2], column 0
    for dims=[-1], element [0, 0] for both) and every other element is 0, as in the tile that
    reduce_tile packs. Padding zeros of a partly filled tile take part (a max over negative values
    in a padded tile is 0), as on the device.

    ``scaler`` is the scaler operand (a block, of which only element [..., 0, 0] is used, or a
    number): the hardware multiplies each input element by it before reducing, so the result is
    ``kind(x * scaler)`` (for max with a negative scaler that is not ``max(x) * scaler``).
    """
    try:
        reduce_fn = REDUCE[kind]
    except KeyError:
        raise ValueError(f"unknown reduction {kind!r}; known: {sorted(REDUCE)}") from None
    dims = _check_negative_dims(dims, x.dim())
    if scaler is not None:
        x = x * (scaler[..., :1, :1] if isinstance(scaler, Tensor) else scaler)
    if set(dims) <= {-2, -1} and x.shape[-1] % TILE_COLS == 0 and x.shape[-2] % TILE_ROWS == 0:
        return _reduce_tiles(kind, reduce_fn, x, dims)
    exact = x.to(torch.float64) if x.is_floating_point() else x  # a sum rounded once, as below
    reduced = reduce_fn(exact, dims).to(x.dtype)
    return _at_origin(reduced, dims)


def _at_origin(reduced: Tensor, dims: Sequence[int]) -> Tensor:
    """A reduced value placed at index 0 of a one-tile extent along each reduced dim, zeros elsewhere."""
    shape = list(reduced.shape)
    for d in dims:
        shape[d] = _tile_extent(d)
    out = reduced.new_zeros(shape)
    origin = out
    for d in dims:
        origin = origin.narrow(d, 0, 1)
    origin.copy_(reduced)
    return out


def _reduce_tiles(kind: str, reduce_fn: Callable, x: Tensor, dims: Sequence[int]) -> Tensor:
    """Tile by tile, as reduce_tile accumulates into DST: the first reduced tile, then
    ``acc = op(acc, r(tile))`` over the others in row-major order (the emitted kernels' order)."""
    *lead, h, w = x.shape
    rows, cols = h // TILE_ROWS, w // TILE_COLS
    tiles = x.reshape(*lead, rows, TILE_ROWS, cols, TILE_COLS)
    combine = torch.add if kind == "sum" else torch.maximum
    acc = None
    for r in range(rows) if -2 in dims else [None]:
        for c in range(cols) if -1 in dims else [None]:
            tile = tiles if r is None else tiles[..., r:r + 1, :, :, :]
            tile = tile if c is None else tile[..., :, :, c:c + 1, :]
            part = _tile_reduce(reduce_fn, tile, dims)
            acc = part if acc is None else combine(acc, part)
    return acc


def _tile_reduce(reduce_fn: Callable, tiles: Tensor, dims: Sequence[int]) -> Tensor:
    """reduce_tile on each tile of ``[*, R, 32, C, 32]`` (R or C is 1 along a reduced dim)."""
    inner = tuple(-3 if d == -2 else -1 for d in dims)
    # a sum is exact in float64 and rounded once, so its value does not depend on the order of
    # the additions (the kernel emulator adds in its own order and gets the same bits)
    exact = tiles.to(torch.float64) if tiles.is_floating_point() else tiles
    reduced = reduce_fn(exact, inner).to(tiles.dtype)  # keepdim: [*, R, 1 or 32, C, 1 or 32]
    *lead, r, h, c, w = reduced.shape
    out = reduced.new_zeros(*lead, r, TILE_ROWS, c, TILE_COLS)
    out[..., :h, :, :w] = reduced
    return out.reshape(*lead, r * TILE_ROWS, c * TILE_COLS)


def broadcast(x: Tensor, dims: Sequence[int], shape: Sequence[int]) -> Tensor:
    """Replicate index 0 of ``x`` along each negative block dim in ``dims`` to fill ``shape``.

    ``shape`` is the target block's extent in elements (its trailing dims; leading batch dims of
    ``x`` are kept). Along a broadcast dim the source must span at most one tile, and what is
    replicated is its element 0 along that dim (the first column for dims=[-1], the first row for
    dims=[-2]), across the whole target extent, other tiles included: the hardware's column/row
    broadcast reads column 0 / row 0 of the source tile, so a (2048, 1) tensor padded to
    (2048, 32) broadcasts its real column, never the zero padding. Other dims must already match.
    """
    shape = tuple(shape)
    rank = len(shape)
    if x.dim() < rank:
        raise ValueError(f"cannot broadcast a {x.dim()}-d value to a block of rank {rank}")
    dims = _check_negative_dims(dims, rank)
    for d in dims:
        if x.shape[d] > _tile_extent(d):
            raise ValueError(
                f"broadcast along dim {d} needs a source of one tile there; got {x.shape[d]} elements"
            )
        x = x.narrow(d, 0, 1)
    for d in range(-rank, 0):
        if d not in dims and x.shape[d] != shape[d]:
            raise ValueError(
                f"broadcast keeps dim {d}: source extent {x.shape[d]} != target extent {shape[d]}"
            )
    return x.expand(*x.shape[:-rank], *shape)
