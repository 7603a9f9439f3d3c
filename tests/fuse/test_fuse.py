"""``ttl.fuse``: each supported torch operation against torch, one kernel per call, and every refusal
with its code at the user's line and column (docs/language.md section 16).

Shapes are one or two tiles, so each call is one small kernel (about 0.1 s once compiled); the
unary functions beyond a representative sample run under ``-m slow``.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import textwrap
from pathlib import Path
from typing import Any, Callable

import pytest
import torch
import torch.nn.functional as F

import tilecraft as ttl
import tilecraft.ttnn as ttnn
from tilecraft import session
from tilecraft.diagnostics import KernelError
from tests import paths

torch.manual_seed(11)
X = (torch.randn(32, 64) * 2).to(torch.bfloat16)       # any sign
Y = (torch.randn(32, 64) * 2).to(torch.bfloat16)
POS = (torch.rand(32, 64) * 3 + 0.25).to(torch.bfloat16)  # inside log/sqrt/rsqrt/reciprocal's domain


def check(fn: Callable[..., Any], *args: Any, rtol: float = 2 ** -6, atol: float = 2 ** -6) -> torch.Tensor:
    """``fn`` fused and run on ``args`` equals ``fn`` run by torch (in float64 from the same inputs)."""
    got = ttl.fuse(fn)(*args)
    want = fn(*(a.double() if isinstance(a, torch.Tensor) else a for a in args))
    assert got.shape == want.shape
    assert torch.allclose(got.double(), want.double(), rtol=rtol, atol=atol), (got.double() - want).abs().max()
    return got


UNARY: dict[str, tuple[Callable[[torch.Tensor], torch.Tensor], torch.Tensor]] = {
    "exp": (torch.exp, X), "log": (torch.log, POS), "sqrt": (torch.sqrt, POS), "rsqrt": (lambda x: x.rsqrt(), POS),
    "relu": (torch.relu, X), "gelu": (F.gelu, X), "silu": (F.silu, X), "sigmoid": (torch.sigmoid, X),
    "tanh": (lambda x: x.tanh(), X), "abs": (torch.abs, X), "neg": (lambda x: -x, X),
    "reciprocal": (torch.reciprocal, POS), "square": (torch.square, X), "sin": (torch.sin, X),
    "cos": (torch.cos, X), "exp2": (torch.exp2, X), "expm1": (torch.expm1, X), "log2": (torch.log2, POS),
    "log10": (torch.log10, POS), "log1p": (torch.log1p, POS), "erf": (torch.erf, X), "floor": (torch.floor, X),
    "ceil": (torch.ceil, X), "trunc": (torch.trunc, X), "sign": (torch.sign, X), "relu6": (F.relu6, X),
    "softsign": (F.softsign, X), "hardsigmoid": (F.hardsigmoid, X), "hardswish": (F.hardswish, X),
    "selu": (F.selu, X), "mish": (F.mish, X), "logical_not": (torch.logical_not, torch.relu(X)),
    "isnan": (torch.isnan, torch.log(X.float()).bfloat16()), "isinf": (torch.isinf, 1 / torch.relu(X)),
    "isfinite": (torch.isfinite, 1 / torch.relu(X)),
}
SAMPLE = {"exp", "log", "rsqrt", "gelu", "silu", "sigmoid", "tanh", "neg", "reciprocal", "relu"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in SAMPLE else pytest.mark.slow) for n in UNARY])
def test_a_unary_function_matches_torch(name: str) -> None:
    fn, x = UNARY[name]
    check(lambda x: fn(x), x, rtol=2 ** -5, atol=2 ** -5)


@pytest.mark.parametrize("fn", [
    lambda x, y: x + y, lambda x, y: x - y, lambda x, y: x * y, lambda x, y: x / (y.abs() + 1),
    lambda x, y: torch.maximum(x, y), lambda x, y: torch.minimum(x, y) + torch.max(x, y), lambda x, y: x ** 2 - y,
    lambda x, y: 0.5 * x - y / 4.0, lambda x, y: x.pow(3) + torch.clamp(y, min=-1.0, max=1.0),
], ids=["add", "sub", "mul", "div", "maximum", "minimum", "pow", "scalars", "pow_clamp"])
def test_a_binary_operation_matches_torch(fn: Callable[..., torch.Tensor]) -> None:
    check(fn, X, Y, rtol=2 ** -5, atol=2 ** -4)


def test_operands_broadcast_as_torch_broadcasts_them() -> None:
    row, column = Y[0], Y[:, :1]  # a 1-D row of 64 and a 32x1 column
    check(lambda x, r, c: x * r + c, X, row, column, atol=2 ** -4)


def test_comparisons_and_where_match_torch() -> None:
    check(lambda x, y: torch.where(x > y, x, y * 0.5) + (x <= 0).float() - (x == y).float(), X, Y)
    check(lambda x: torch.where(x < 0, 0.0, x) * 2 - 1, X)
    got = ttl.fuse(lambda x, y: x >= y)(X, Y)
    assert got.dtype == torch.bool and torch.equal(got, X >= Y)


def test_a_cast_sets_the_result_format() -> None:
    got = check(lambda x, y: (x * y).float(), X, Y, atol=2 ** -4)
    assert got.dtype == torch.float32
    assert ttl.fuse(lambda x: x.to(torch.bfloat16) + 1)(X.float()).dtype == torch.bfloat16


@pytest.mark.parametrize("reduce", [
    lambda x: x.sum(dim=-1, keepdim=True), lambda x: x.mean(dim=1, keepdim=True),
    lambda x: x.amax(dim=-1, keepdim=True), lambda x: torch.amin(x, dim=-1, keepdim=True),
    lambda x: x.sum(dim=-2, keepdim=True), lambda x: x.amax(dim=0), lambda x: x - x.mean(dim=-2),
    lambda x: x.sum(dim=-1),
], ids=["sum_rows", "mean_rows", "max_rows", "min_rows", "sum_cols", "max_cols_dropped", "center_cols",
        "sum_rows_dropped"])
def test_a_reduction_matches_torch(reduce: Callable[[torch.Tensor], torch.Tensor]) -> None:
    check(reduce, X, rtol=2 ** -6, atol=2 ** -3)  # sums of 64 bfloat16 values of up to ~8


def test_matmul_with_a_bias_row_matches_torch() -> None:
    w = (torch.randn(64, 32) / 8).to(torch.bfloat16)
    check(lambda x, w, b: torch.relu(x @ w + b), X, w, Y[0, :32], atol=2 ** -5)


@pytest.mark.parametrize("scores", [
    lambda q, k: q @ k.T, lambda q, k: q @ k.mT, lambda q, k: q @ k.t(), lambda q, k: q @ k.transpose(0, 1),
    lambda q, k: q @ torch.transpose(k, -1, -2), lambda q, k: (k @ q.T).T,
], ids=["T", "mT", "t", "transpose_method", "transpose_function", "transposed_result"])
def test_a_transposed_operand_matches_torch(scores: Callable[..., torch.Tensor]) -> None:
    q = torch.randn(64, 32).to(torch.bfloat16)
    k = (torch.randn(96, 32) / 4).to(torch.bfloat16)
    check(scores, q, k, atol=2 ** -5)


def test_attention_is_one_fused_kernel_that_matches_sdpa() -> None:
    """examples/fuse_attention.py: scores through a transposed key, a row softmax, then @ v."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(paths.EXAMPLES / "fuse_attention.py"), run_name="__main__")
    assert out.getvalue().strip() == "fuse_attention: OK"


def test_a_matmul_of_two_inputs_loops_over_k_blocks() -> None:
    """x @ w with K = 4 tiles loads two K blocks of 2 tiles of each (buffers of 1x2 and 2x1 tiles);
    when x is also read elsewhere it is loaded whole (1x4), as before."""
    x = torch.randn(32, 128).to(torch.bfloat16)
    w = (torch.randn(128, 32) / 8).to(torch.bfloat16)
    shapes = {}
    for name, fn in (("looped", lambda x, w: x @ w), ("whole", lambda x, w: x @ w + x.sum(-1, keepdim=True))):
        programs: list = []
        with session.using(program_hooks=[programs.append]):
            check(fn, x, w, atol=2 ** -4)
        shapes[name] = [cb.shape for cb in programs[0].cbs]
    assert shapes == {"looped": [(1, 2), (2, 1), (1, 1)], "whole": [(1, 4), (4, 1), (1, 1)]}


def test_a_whole_function_is_one_kernel_with_three_threads() -> None:
    programs: list = []
    softmax = ttl.fuse(lambda x: torch.exp(x - x.amax(-1, keepdim=True)) / torch.exp(
        x - x.amax(-1, keepdim=True)).sum(-1, keepdim=True))
    with session.using(program_hooks=[programs.append]):
        got = softmax(X)
    assert torch.allclose(got.float(), torch.softmax(X.float(), -1), atol=2 ** -8, rtol=2 ** -6)
    assert len(programs) == 1
    assert [t.name for t in programs[0].threads] == ["reader", "compute", "writer"]


def test_ttnn_tensors_in_give_a_ttnn_tensor_out() -> None:
    fused = ttl.fuse(grid=(1, 1), block=(1, 1))(lambda x, y: torch.sigmoid(x) * y)
    xt, yt = (ttnn.from_torch(t, layout=ttnn.TILE_LAYOUT) for t in (X, Y))
    got = fused(xt, yt)
    assert isinstance(got, ttnn.Tensor) and tuple(got.shape) == (32, 64)
    assert torch.equal(ttnn.to_torch(got), fused(X, Y))
    row_major = fused(ttnn.from_torch(X, layout=ttnn.ROW_MAJOR_LAYOUT), yt)  # tilized on the way in
    assert torch.equal(ttnn.to_torch(row_major), fused(X, Y))


def test_grid_block_and_schedule_are_overridable() -> None:
    big = torch.randn(64, 128).to(torch.bfloat16)
    want = ttl.fuse(lambda x: torch.tanh(x) * 2)(big)
    for options in ({"grid": (2, 2), "block": (1, 2)}, {"grid": (3, 1), "schedule": "strided"},
                    {"grid": (1, 1), "block": (2, None), "block_count": 1}):
        assert torch.equal(ttl.fuse(**options)(lambda x: torch.tanh(x) * 2)(big), want), options


HEAD = "import torch\nimport tilecraft as ttl\n"


def diagnostic_at(tmp_path: Path, body: str) -> tuple[str, int, int, int, int]:
    """The error's code, line and column, and the line and column of the text after ``# HERE:``."""
    path = tmp_path / "fused.py"
    path.write_text(HEAD + textwrap.dedent(body))
    lines = path.read_text().splitlines()
    number, line = next((i + 1, s) for i, s in enumerate(lines) if "# HERE:" in s)
    at = line.split("# HERE:")[1].strip()
    with pytest.raises(KernelError) as info, contextlib.redirect_stdout(io.StringIO()):
        runpy.run_path(str(path), run_name="__main__")
    d = info.value.diagnostic
    assert d.span is not None and d.span.file == str(path)
    return d.code, d.span.line, d.span.col, number, line.index(at) + 1


REFUSED = [
    ("unsupported", "E0830", """
        @ttl.fuse
        def f(x):
            return torch.softmax(x, dim=-1) + 1  # HERE: torch.softmax
        f(torch.ones(32, 32))
    """),
    ("rank_3", "E0831", """
        @ttl.fuse
        def f(x):
            return x.unsqueeze(0) * 2  # HERE: x.unsqueeze
        f(torch.ones(32, 32))
    """),
    ("integer_cast", "E0832", """
        @ttl.fuse
        def f(x):
            y = x * 2
            return y.to(torch.int32)  # HERE: y.to
        f(torch.ones(32, 32))
    """),
    ("reduction_over_everything", "E0833", """
        @ttl.fuse
        def f(x):
            return x - x.sum()  # HERE: x.sum
        f(torch.ones(32, 32))
    """),
    ("max_with_indices", "E0831", """
        @ttl.fuse
        def f(x):
            return x - x.max(dim=-1, keepdim=True)[0]  # HERE: x.max
        f(torch.ones(32, 32))
    """),
    ("max_over_everything", "E0833", """
        @ttl.fuse
        def f(x):
            return x - x.max()  # HERE: x.max
        f(torch.ones(32, 32))
    """),
    ("two_results", "E0831", """
        @ttl.fuse  # HERE: @ttl.fuse
        def f(x):
            return x + 1, x - 1
        f(torch.ones(32, 32))
    """),
    ("control_flow_on_values", "E0830", """
        @ttl.fuse  # HERE: @ttl.fuse
        def f(x):
            if x.sum() > 0:
                return x
            return -x
        f(torch.ones(32, 32))
    """),
    ("integer_argument", "E0832", """
        @ttl.fuse  # HERE: @ttl.fuse
        def f(x):
            return x + 1
        f(torch.ones(32, 32, dtype=torch.int32))
    """),
    ("partial_tiles", "E0834", """
        @ttl.fuse
        def f(x):
            return x.amax(dim=-1, keepdim=True)  # HERE: x.amax
        f(torch.ones(32, 40))
    """),
    ("shapes_do_not_broadcast", "E0835", """
        @ttl.fuse
        def f(x, y):
            return x + y  # HERE: x + y
        f(torch.ones(32, 64), torch.ones(32, 32))
    """),
    ("block_splits_a_reduction", "E0836", """
        @ttl.fuse(block=(1, 1))
        def f(x):
            return x / x.sum(dim=-1, keepdim=True)  # HERE: x.sum
        f(torch.ones(32, 64))
    """),
    ("row_sum_used_later", "E0833", """
        @ttl.fuse
        def f(x):
            s = x.sum(dim=-1)  # HERE: x.sum
            return x * s
        f(torch.ones(32, 32))
    """),
]


@pytest.mark.parametrize("name, code, body", REFUSED, ids=[r[0] for r in REFUSED])
def test_what_fuse_cannot_map_is_refused_at_the_users_expression(tmp_path: Path, name: str, code: str,
                                                                 body: str) -> None:
    got_code, line, col, want_line, want_col = diagnostic_at(tmp_path, body)
    assert (got_code, line, col) == (code, want_line, want_col)


def test_a_composite_operation_is_refused_with_how_to_write_it() -> None:
    with pytest.raises(KernelError) as info:
        ttl.fuse(lambda x: torch.softmax(x, dim=-1))(X)
    assert "'softmax' has no block counterpart" in str(info.value) and "x.amax(dim=-1" in str(info.value)
    check(lambda x: torch.exp(x - x.amax(dim=-1, keepdim=True)) / torch.exp(
        x - x.amax(dim=-1, keepdim=True)).sum(dim=-1, keepdim=True), X)  # the hint's spelling runs


def test_show_threads_prints_the_fused_kernel_which_runs_and_gives_the_same_bits(tmp_path: Path) -> None:
    from tilecraft.cli import main

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        assert main(["show-threads", str(paths.EXAMPLES / "fuse_softmax.py")]) == 0
    text = printed.getvalue()
    assert "@ttl.fuse(" not in text and "@ttl.operation(grid=(2, 1))\ndef softmax(x, out):" in text
    kernel = text[:text.index("torch.manual_seed")]  # the script up to its own call of the fused function
    x = (torch.randn(64, 64) * 3).to(torch.bfloat16)
    path = tmp_path / "graduated.py"
    path.write_text(kernel + "import tilecraft.ttnn as ttnn\n"
                    "out = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)\n"
                    "softmax(ttnn.from_torch(X, layout=ttnn.TILE_LAYOUT), out)\n")
    ran = runpy.run_path(str(path), init_globals={"X": x}, run_name="__main__")
    fused = ttl.fuse(grid=(2, 1))(lambda x: torch.exp(x - x.amax(dim=-1, keepdim=True)) / torch.exp(
        x - x.amax(dim=-1, keepdim=True)).sum(dim=-1, keepdim=True))
    assert torch.equal(ttnn.to_torch(ran["out"]), fused(x))


def test_a_number_argument_is_a_constant_of_the_trace_and_a_1d_tensor_keeps_its_shape() -> None:
    scaled = ttl.fuse(lambda x, s: torch.relu(x) * s)
    for s in (3.0, 0.5):  # a new value traces again
        assert torch.equal(scaled(X, s), (torch.relu(X.float()) * s).to(torch.bfloat16))
    assert len(scaled.compiled) == 2
    check(lambda v: v * 2 + 1, Y[0])  # (64,) in, (64,) out


def test_a_call_with_the_wrong_arguments_is_a_usage_error() -> None:
    from tilecraft.diagnostics import UsageTypeError

    @ttl.fuse
    def add(x, y):
        return x + y

    with pytest.raises(UsageTypeError, match=r"fused function add\(\) called with the wrong arguments"):
        add(X)
