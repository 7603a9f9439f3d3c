"""Every ``ttl.math`` function, and binaries with a number on either side, lower to Metalium calls
that pass the real 0.81.1 headers and compute, call by call, the same bits as the language level
(``tilecraft run`` accepts nothing that ``tilecraft emit`` rejects)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.emit_tools import programs_of
from tests.outputs import assert_same_bits, launch_outputs
from tests.metal.test_headercheck import headers  # noqa: F401 - the fixture (skips without g++-multilib)
from tilecraft import cli
from tilecraft.ir import mathops
from tilecraft.metal.check_emitted import check_emitted
from tilecraft.metal.emit import emit_program

pytestmark = pytest.mark.usefixtures("fresh_process_state")

#: parameters for the functions that take some (within their domain for the sample below)
PARAMS = {"relu_max": "2.0", "relu_min": "0.5", "leaky_relu": "0.1", "elu": "0.5", "celu": "2.0", "prelu": "0.25",
          "softplus": "2.0", "hardtanh": "-1.0, 2.0", "clamp": "-0.5, 1.5", "threshold": "0.5, -7.0",
          "round": "1", "rsub": "3.0", "power": "3"}
EXPRESSIONS = (
    [f"ttl.math.{fn}(x)" for fn in mathops.UNARY]
    + [f"ttl.math.{fn}(x, {args})" for fn, args in PARAMS.items()]
    + ["2.0 - x", "x ** 2.5", "ttl.math.max(x, 0.25)", "ttl.math.min(0.5, x)", "x > 0.0", "1.0 / x",
       "ttl.math.where(x > 0.0, x, 0.5)",
       # the 1.1.6 block functions: selection on a 0/1 block, and % (Python's remainder)
       "ttl.block.where(x > 0.5, x, -x)", "ttl.block.mask(x, x > 0.5)", "ttl.block.mask_posinf(x, x > 0.5)",
       "x % 0.125", "(x * 3.0) % (x + 0.25)",
       # threshold at values equal to the threshold (its lowering compares with the next fp32 below -t)
       "ttl.math.threshold(ttl.math.floor(x * 8.0) / 8.0, 0.5, -7.0)"]
)

SCRIPT = """\
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        with a_dfb.wait() as x, y_dfb.reserve() as out:
            out.store({expr})

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


torch.manual_seed(0)
a = ttnn.from_torch(torch.rand(32, 32) * 0.9 + 0.05, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
kern(a, ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT))
"""


def script(tmp_path: Path, expr: str) -> Path:
    path = tmp_path / "math.py"
    path.write_text(SCRIPT.format(expr=expr))
    return path


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_both_levels_agree(expr: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = script(tmp_path, expr)
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(path, capsys, "--level", "metal"))


def test_every_function_is_covered() -> None:
    assert set(mathops.UNARY) | set(PARAMS) == set(mathops.UNARY) | set(mathops.UNARY_PARAM)


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_emitted_compute_kernel_passes_the_headers(expr: str, tmp_path: Path, headers: Path) -> None:  # noqa: F811
    (program,) = programs_of(script(tmp_path, expr))
    for name, result in check_emitted(emit_program(program)):
        if name.startswith("compute"):
            assert result.ok, f"{expr}:\n{result.diagnostics}"


def integer_script(tmp_path: Path, expr: str, fmt: str = "int32") -> Path:
    """SCRIPT on a block of ``fmt`` holding negatives (Int32) or values past 2**31 (UInt32)."""
    values = "torch.randint(-9, 9, (32, 32))" if fmt == "int32" else "torch.randint(2**31 - 9, 2**31 + 9, (32, 32))"
    path = tmp_path / "math.py"
    path.write_text(SCRIPT.format(expr=expr).replace("torch.rand(32, 32) * 0.9 + 0.05", values)
                    .replace("torch.zeros(32, 32)", "torch.zeros(32, 32, dtype=torch.int64)")
                    .replace("dtype=ttnn.float32", f"dtype=ttnn.{fmt}"))
    return path


#: integer block math with an integer call in 0.81.1, per format (Int32 has the unary forms too)
INTEGER_EXPRESSIONS = {
    "int32": ["x - 3", "x * x + 5", "-7 - x", "ttl.math.max(x, 2)", "ttl.math.min(x, -2)", "(x < 1) + (x >= -1) * 2",
              "ttl.math.eq(x, 1) + ttl.math.ne(x, 2)", "(x > 0) + (x <= 3)", "ttl.math.where(x > 0, x, -4)",
              "ttl.math.abs(x) + ttl.math.neg(x) * 3 + ttl.math.relu(x)", "ttl.math.square(x)",
              "ttl.math.rsub(x, 5.0)"],
    "uint32": ["x + 3", "x * 2", "x - 2147483639", "ttl.math.max(x, 2147483648)", "ttl.math.min(x, 2147483648)",
               "(x < 2147483648) + (x >= 2147483650) * 2 + ttl.math.eq(x, 2147483648) * 4",
               "ttl.math.where(x > 2147483648, x, 7)"],
}
INTEGER_CASES = [(fmt, expr) for fmt, exprs in INTEGER_EXPRESSIONS.items() for expr in exprs]


@pytest.mark.parametrize("fmt, expr", INTEGER_CASES)
def test_integer_math_agrees_at_both_levels(fmt: str, expr: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Block math on Int32/UInt32 blocks takes 0.81.1's integer SFPU calls (add_int_tile,
    binary_max_uint32_tile, lt_int_tile<DataFormat::UInt32>, fill_tile_int, ...), which the
    Metalium level computes as integers: the same bits as the language level (no value leaves the
    format's range here; tests/emu/test_defects.py runs them on the Tensix machine)."""
    path = integer_script(tmp_path, expr, fmt)
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(path, capsys, "--level", "metal"))


@pytest.mark.parametrize("fmt, expr", [INTEGER_CASES[0], INTEGER_CASES[9], INTEGER_CASES[-1], INTEGER_CASES[-2]])
def test_integer_compute_kernel_passes_the_headers(fmt: str, expr: str, tmp_path: Path, headers: Path) -> None:  # noqa: F811
    """The integer calls' names and template arguments are those of the real 0.81.1 headers."""
    (program,) = programs_of(integer_script(tmp_path, expr, fmt))
    for name, result in check_emitted(emit_program(program)):
        if name.startswith("compute"):
            assert result.ok, f"{expr}:\n{result.diagnostics}"


@pytest.mark.parametrize("fmt, expr, what, missing", [
    ("int32", "x / x", "block math ('div') on Int32 blocks", "no int32 SFPU call for 'div'"),
    ("int32", "ttl.math.sign(x)", "block math ('sign') on Int32 blocks", "no int32 form of 'sign'"),
    ("uint32", "ttl.math.abs(x)", "block math ('abs') on UInt32 blocks", "no uint32 form of 'abs'"),
    ("int32", "x * 0.5", "block math ('mul') on Int32 blocks with the number 0.5", "take int32 numbers"),
    ("int32", "x + ttl.math.transpose(x)", "a transpose of Int32 blocks in block math", "cannot hold 32-bit integers"),
])
def test_integer_math_without_an_integer_call_is_refused(fmt: str, expr: str, what: str, missing: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """What 0.81.1 has no integer call for stops at the store (E3001), naming what is missing:
    the float calls would compute on the integers' bit patterns as floats."""
    path = integer_script(tmp_path, expr, fmt)
    assert cli.main(["run", str(path), "--level", "metal"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:14:13: error[E3001]: {what} cannot be emitted" in err, err
    assert missing in err, err
