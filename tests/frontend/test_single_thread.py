"""Single-threaded operations (docs/language.md section 15): the compiler writes the threads.

What is checked: the generated program is ordinary IR (three threads, buffers sized from the
slices, every span in the user's file); ``tilecraft show-threads`` prints a program that runs
unchanged with the same bits; the schedules and relative block counts; and every construct the
compiler cannot pipeline is refused with its code at its line and column (E0820-E0826), as are
mistakes the explicit-thread front end and the simulator find in the generated threads.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import textwrap
from pathlib import Path

import pytest

from tests import paths
from tests.outputs import assert_same_bits, launch_outputs, show_threads
from tilecraft import session
from tilecraft.cli import main
from tilecraft.diagnostics import KernelError
from tilecraft.ir import ops as ir_ops
from tilecraft.ir.program_ir import COMPUTE, DATAMOVEMENT

pytestmark = pytest.mark.usefixtures("fresh_process_state")

HEAD = '''\
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn

torch.manual_seed(0)


def t(rows, cols):
    return ttnn.from_torch(torch.randn(rows * 32, cols * 32).to(torch.bfloat16), dtype=ttnn.bfloat16,
                           layout=ttnn.TILE_LAYOUT)

'''


def script(tmp_path: Path, body: str, name: str = "op") -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(HEAD + textwrap.dedent(body))
    return path


def diagnostic_of(path: Path) -> tuple[str, int, int]:
    """The code, line and column of the error the script raises in-process."""
    with pytest.raises(KernelError) as info, contextlib.redirect_stdout(io.StringIO()):
        runpy.run_path(str(path), run_name="__main__")
    d = info.value.diagnostic
    assert d.span is not None and d.span.file == str(path)
    return d.code, d.span.line, d.span.col


def marked(path: Path, at: str) -> tuple[int, int]:
    """The line marked ``# HERE`` and the column where ``at`` starts on it."""
    lines = path.read_text().splitlines()
    line = next(i for i, text in enumerate(lines, start=1) if text.rstrip().endswith("# HERE"))
    return line, lines[line - 1].index(at) + 1


#: (name, code, the text where the span starts on the line marked # HERE, the operation and its launch)
REFUSED = [
    ("store_read_back", "E0820", "y[r, c] + 1", '''
        @ttl.operation(grid=(2, 1))
        def op(a, y):
            r, c = ttl.block_index()
            y[r, c] = a[r, c] * 2
            y[r, c] = y[r, c] + 1  # HERE

        op(t(2, 4), t(2, 4))
    '''),
    ("while_loop", "E0821", "while", '''
        @ttl.operation(grid=(1, 1))
        def op(a, y):
            i = 0
            while i < 3:  # HERE
                y[0, i] = a[0, i]
                i += 1

        op(t(1, 4), t(1, 4))
    '''),
    ("data_dependent_trip_count", "E0821", "x)", '''
        @ttl.operation(grid=(1, 1))
        def op(a, y):
            x = a[0, 0]
            for i in range(x):  # HERE
                y[0, i] = a[0, i]

        op(t(1, 4), t(1, 4))
    '''),
    ("data_dependent_branch", "E0821", "x > 0", '''
        @ttl.operation(grid=(1, 1))
        def op(a, y):
            x = a[0, 0]
            if x > 0:  # HERE
                y[0, 0] = x

        op(t(1, 1), t(1, 1))
    '''),
    ("tensor_update", "E0822", "y[r, c] +=", '''
        @ttl.operation(grid=(2, 2))
        def op(a, y):
            r, c = ttl.block_index()
            y[r, c] += a[r, c]  # HERE

        op(t(2, 4), t(2, 4))
    '''),
    ("reduction_across_blocks", "E0823", "y[0, 0]", '''
        @ttl.operation(grid=(2, 2), over="a")
        def op(a, y):
            r, c = ttl.block_index()
            y[0, 0] = a[r, c]  # HERE

        op(t(2, 4), t(1, 1))
    '''),
    ("accumulator_without_a_start", "E0823", "acc +=", '''
        @ttl.operation(grid=(1, 1))
        def op(a, y):
            for k in range(4):
                acc += a[0, k]  # HERE
            y[0, 0] = acc

        op(t(1, 4), t(1, 1))
    '''),
    ("one_block_on_many_cores", "E0825", "@", '''
        @ttl.operation(grid=(2, 2))  # HERE
        def op(a, y):
            y[0, 0] = a[0, 0]

        op(t(1, 1), t(1, 1))
    '''),
    ("slice_shape_varies", "E0824", "0:i + 1]", '''
        @ttl.operation(grid=(1, 1))
        def op(a, y):
            for i in range(3):
                y[0, 0:i + 1] = a[0, 0:i + 1]  # HERE

        op(t(1, 4), t(1, 4))
    '''),
    ("block_does_not_divide", "E0825", "r, c", '''
        @ttl.operation(grid=(2, 2), block=(3, 1))
        def op(a, y):
            r, c = ttl.block_index()  # HERE
            y[r, c] = a[r, c]

        op(t(2, 4), t(2, 4))
    '''),
    ("block_index_in_a_loop", "E0825", "r, c", '''
        @ttl.operation(grid=(2, 2))
        def op(a, y):
            for i in range(2):
                r, c = ttl.block_index()  # HERE
                y[r, c] = a[r, c]

        op(t(2, 4), t(2, 4))
    '''),
    ("loop_over_a_list", "E0826", "[0, 1]", '''
        @ttl.operation(grid=(1, 1))
        def op(a, y):
            for i in [0, 1]:  # HERE
                y[0, i] = a[0, i]

        op(t(1, 2), t(1, 2))
    '''),
    ("unsupported_statement", "E0826", "try", '''
        @ttl.operation(grid=(1, 1))
        def op(a, y):
            try:  # HERE
                y[0, 0] = a[0, 0]
            finally:
                pass

        op(t(1, 1), t(1, 1))
    '''),
    # found by the explicit-thread front end in the generated compute thread, reported at the user's line
    ("block_shapes_differ", "E0105", "a[r, c] +", '''
        @ttl.operation(grid=(2, 1))
        def op(a, b, y):
            r, c = ttl.block_index()
            y[r, c] = a[r, c] + b[r, c:c + 2]  # HERE

        op(t(2, 4), t(2, 4), t(2, 4))
    '''),
    ("rectangle_on_a_row_of_cores", "E0825", "r = ttl.block_index()", '''
        @ttl.operation(grid=(2,), block=(1, None), schedule="rectangle")
        def op(a, y):
            r = ttl.block_index()  # HERE
            y[r, 0:4] = a[r, 0:4]

        op(t(2, 4), t(2, 4))
    '''),
    ("multicast_not_a_bool", "E0825", "r, c = ttl.block_index()", '''
        @ttl.operation(grid=(2, 2), multicast="rows")
        def op(a, y):
            r, c = ttl.block_index()  # HERE
            y[r, c] = a[r, c]

        op(t(2, 2), t(2, 2))
    '''),
    # found by the simulator while the generated reader runs, reported at the user's slice
    ("load_out_of_bounds", "E1107", "a[r + 1, c]", '''
        @ttl.operation(grid=(2, 1))
        def op(a, y):
            r, c = ttl.block_index()
            y[r, c] = a[r + 1, c]  # HERE

        op(t(2, 4), t(2, 4))
    '''),
]


@pytest.mark.parametrize("name, code, at, body", REFUSED, ids=[c[0] for c in REFUSED])
def test_a_construct_it_cannot_pipeline_is_refused_at_its_line(tmp_path: Path, name: str, code: str, at: str,
                                                                 body: str) -> None:
    path = script(tmp_path, body, name)
    assert diagnostic_of(path) == (code, *marked(path, at))


def test_the_cli_reports_a_refused_construct_without_a_traceback(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = script(tmp_path, REFUSED[0][3])
    assert main(["run", str(path)]) == 1
    err = capsys.readouterr().err
    line, col = marked(path, REFUSED[0][2])
    assert f"{path}:{line}:{col}: error[E0820]" in err and "Traceback" not in err
    assert "keep the value in a block" in err


def programs_of(path: Path) -> list:
    seen: list = []
    with session.using(program_hooks=[seen.append]), contextlib.redirect_stdout(io.StringIO()):
        assert main(["run", str(path)]) == 0
    return seen


def test_the_generated_program_is_ordinary_ir_at_the_users_lines() -> None:
    path = paths.EXAMPLES / "single_thread_matmul.py"
    (program,) = programs_of(path)
    assert [(t.name, t.kind) for t in program.threads] == [("reader", DATAMOVEMENT), ("compute", COMPUTE),
                                                          ("writer", DATAMOVEMENT)]
    assert [(cb.name, cb.shape, cb.buffer_factor) for cb in program.cbs] == [
        ("a_in", (2, 2), 2), ("b_in", (2, 1), 2), ("y_out", (2, 1), 2)]
    body = path.read_text().splitlines()
    first = next(i for i, line in enumerate(body, start=1) if line.startswith("def matmul_relu"))
    last = next(i for i, line in enumerate(body, start=1) if line.startswith("    y[m * BM"))
    spans = [op.loc for thread in program.threads for op in ir_ops.walk(thread.body) if op.loc is not None]
    assert spans and all(s.file == str(path) and first <= s.line <= last for s in spans)
    assert program.generated_threads.blocks == (2, 3) and program.generated_threads.over == "y"


@pytest.mark.parametrize("example", ["single_thread_eltwise", "single_thread_matmul"])
def test_show_threads_prints_a_program_that_runs_unchanged_with_the_same_bits(
        example: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = paths.EXAMPLES / f"{example}.py"
    graduated = tmp_path / f"{example}_threads.py"
    text = show_threads(path, graduated)
    assert "= ttl.block_index()" not in text and "@ttl.operation(grid=(2, 2))\n" in text
    assert text.count("@ttl.datamovement()") == 2 and text.count("@ttl.compute()") == 1
    assert ".reserve()" in text and ".wait()" in text
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(graduated, capsys))


SCHEDULED = '''
    @ttl.operation(grid=(3, 1), block=(1, 2), schedule="{schedule}", block_count={count!r})
    def scale(a, y):
        r, c = ttl.block_index()
        y[r:r + 1, 2 * c:2 * c + 2] = a[r:r + 1, 2 * c:2 * c + 2] * 3.0

    torch.manual_seed(0)
    a = t(4, 4)
    y = t(4, 4)
    scale(a, y)
    assert torch.equal(ttnn.to_torch(y), (ttnn.to_torch(a).float() * 3.0).to(torch.bfloat16))
'''


def test_the_schedules_spread_the_blocks_contiguously_or_strided(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    contiguous = script(tmp_path, SCHEDULED.format(schedule="contiguous", count=2), "contiguous")
    strided = script(tmp_path, SCHEDULED.format(schedule="strided", count=2), "strided")
    # 8 blocks on 3 cores: runs of 3 (0-2, 3-5, 6-7), or every third block from the core's own
    assert "for block_id in range(first, min(first + 3, 8)):" in show_threads(contiguous, tmp_path / "c.py")
    assert "for block_id in range(ttl.node(dims=1), 8, 3):" in show_threads(strided, tmp_path / "s.py")
    assert_same_bits(launch_outputs(contiguous, capsys), launch_outputs(strided, capsys))


CONTROL_FLOW = '''
    @ttl.operation(grid=(1, 1))
    def op(a, y, scale):
        acc = ttl.block.fill(0, shape=(1, 1))
        for k in range(4):
            x = a[0, k]
            if k % 2 == 0:
                acc += x * scale
            else:
                acc += x
        y[0, 0] = acc

    a, y = t(1, 4), t(1, 1)
    op(a, y, 2.0)
    tiles = ttnn.to_torch(a).float().split(32, dim=1)
    want = sum(tile * (2.0 if k % 2 == 0 else 1.0) for k, tile in enumerate(tiles))
    assert torch.allclose(ttnn.to_torch(y).float(), want, rtol=2e-2, atol=2e-2)
'''


def test_scalar_branches_and_scalar_arguments_reach_every_thread(tmp_path: Path) -> None:
    """A named load in a loop (held until the next wait), an if on the loop variable, a float argument."""
    (program,) = programs_of(script(tmp_path, CONTROL_FLOW))
    assert [t.name for t in program.threads] == ["reader", "compute", "writer"]


def test_block_counts_may_be_relative(tmp_path: Path) -> None:
    (program,) = programs_of(script(tmp_path, SCHEDULED.format(schedule="contiguous", count="max")))
    assert all(cb.sizing == "block_count=max" and cb.buffer_factor > 2 for cb in program.cbs), program.cbs


def test_an_operation_with_neither_threads_nor_slices_still_needs_threads(tmp_path: Path) -> None:
    path = script(tmp_path, '''
        @ttl.operation(grid=(1, 1))  # HERE
        def op(a):
            pass

        op(t(1, 1))
    ''')
    assert diagnostic_of(path) == ("E0204", *marked(path, "@"))


def test_block_index_outside_a_single_threaded_operation(tmp_path: Path) -> None:
    path = script(tmp_path, '''
        r, c = ttl.block_index()  # HERE
    ''')
    assert diagnostic_of(path) == ("E0825", *marked(path, "ttl.block_index"))


def test_metadata_may_name_parameters_that_autotune_searches(tmp_path: Path) -> None:
    path = script(tmp_path, '''
        @ttl.autotune(configs=ttl.SearchSpace(BR=[1, 2], BC=[1, 4]), key=["a"])
        @ttl.operation(grid=(2, 1), block=("BR", "BC"), block_count="COUNT")
        def double(a, y, *, BR: int, BC: int, COUNT: int = 3):
            r, c = ttl.block_index()
            y[r * BR:(r + 1) * BR, c * BC:(c + 1) * BC] = a[r * BR:(r + 1) * BR, c * BC:(c + 1) * BC] * 2.0

        a, y = t(2, 4), t(2, 4)
        double(a, y)
        assert torch.equal(ttnn.to_torch(y), (ttnn.to_torch(a).float() * 2.0).to(torch.bfloat16))
    ''')
    (program,) = programs_of(path)
    shapes = {cb.shape for cb in program.cbs}
    assert len(shapes) == 1 and shapes <= {(1, 1), (1, 4), (2, 1), (2, 4)}
    assert {cb.buffer_factor for cb in program.cbs} == {3}


def test_the_generated_threads_use_the_scripts_name_for_the_language(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "alias.py"
    path.write_text(HEAD.replace("import tilecraft as ttl", "import tilecraft as tl") + textwrap.dedent('''
        @tl.operation(grid=(2, 1))
        def op(a, y):
            r, c = tl.block_index()
            y[r, c] = tl.math.exp(a[r, c])

        op(t(2, 2), t(2, 2))
    '''))
    graduated = tmp_path / "alias_threads.py"
    text = show_threads(path, graduated)
    assert "@tl.operation(grid=(2, 1))" in text and "tl.copy(" in text and "ttl." not in text
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(graduated, capsys))


def test_row_major_tensors_are_sliced_in_elements(tmp_path: Path) -> None:
    """``block=`` and the slices count the tensor's units: elements for a row-major tensor."""
    (program,) = programs_of(script(tmp_path, '''
        @ttl.operation(grid=(2, 1), block=(4, 32))
        def double(x, y):
            r, c = ttl.block_index()
            y[r * 4:(r + 1) * 4, c * 32:(c + 1) * 32] = x[r * 4:(r + 1) * 4, c * 32:(c + 1) * 32] * 2.0

        def rows(t):
            return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT)

        x, y = rows(torch.randn(8, 64).to(torch.bfloat16)), rows(torch.zeros(8, 64).to(torch.bfloat16))
        double(x, y)
        assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(x) * 2)
    '''))
    assert program.generated_threads.blocks == (2, 2)
    assert {cb.shape for cb in program.cbs} == {(4, 32)}


GEMM = '''
    @ttl.operation(grid=(2, 2), block=(1, 1), multicast={multicast})
    def matmul(a, b, y):
        m, n = ttl.block_index()
        acc = ttl.block.fill(0, shape=(1, 1))
        for k in range(a.shape[1] // 32):
            acc += a[m, k] @ b[k, n]
        y[m, n] = acc

    a, b, y = t(2, 2), t(2, 2), t(2, 2)
    matmul(a, b, y)
    want = ttnn.to_torch(a).float() @ ttnn.to_torch(b).float()
    assert (ttnn.to_torch(y).float() - want).abs().max() <= 2e-2 * want.abs().max()
'''


def test_loads_a_grid_row_or_column_shares_are_multicast_with_the_same_bits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GEMM on a 2x2 grid: a's row panel goes along the grid rows from node (0, y), b's column panel
    down the columns from node (x, 0); the printed program runs with the same bits as the plain reads."""
    shared = script(tmp_path, GEMM.format(multicast=True), "shared")
    plain = script(tmp_path, GEMM.format(multicast=False), "plain")
    (program,) = programs_of(shared)
    assert len(program.pipenets) == 2 and [cb.name for cb in program.cbs] == [
        "a_in", "b_in", "y_out", "a_fetch", "b_fetch"]
    assert not programs_of(plain)[0].pipenets
    graduated = tmp_path / "threads.py"
    text = show_threads(shared, graduated)
    assert "a_net = ttl.PipeNet([ttl.Pipe(src=(0, i), dst=(slice(0, 2), i)) for i in range(2)])" in text
    assert "b_net = ttl.PipeNet([ttl.Pipe(src=(i2, 0), dst=(i2, slice(0, 2))) for i2 in range(2)])" in text
    reader, writer = text.split("def reader():")[1].split("def compute():")[0], text.split("def writer():")[1]
    assert "a_net.if_src(send_a)" in reader and "b_net" not in reader  # one multicast per thread
    assert "b_net.if_src(send_b)" in writer and "a_net" not in writer
    want = launch_outputs(plain, capsys)
    assert_same_bits(launch_outputs(shared, capsys), want)
    assert_same_bits(launch_outputs(graduated, capsys), want)


def test_a_load_under_a_loop_that_varies_along_the_row_is_not_shared(tmp_path: Path) -> None:
    """a[r, k] does not name the block column c, but its loop's trip count does: the cores of a grid
    row read different numbers of blocks, so only w (the same on every core) is multicast."""
    path = script(tmp_path, '''
        @ttl.operation(grid=(2, 2), block=(1, 1), multicast=True)
        def op(a, w, y):
            r, c = ttl.block_index()
            acc = ttl.block.fill(0, shape=(1, 1))
            last = c + 1
            for k in range(last):
                acc += a[r, k]
            y[r, c] = acc * w[0, 0]

        a, w, y = t(2, 2), t(1, 1), t(2, 2)
        op(a, w, y)
        tiles, scale = ttnn.to_torch(a).float().split(32, dim=1), ttnn.to_torch(w).float()
        want = torch.cat([torch.cat([sum(tiles[:c + 1])[32 * r:32 * r + 32] for c in range(2)], 1)
                          for r in range(2)]) * scale.repeat(2, 2)
        assert torch.allclose(ttnn.to_torch(y).float(), want, rtol=2e-2, atol=2e-2)
    ''')
    text = show_threads(path, tmp_path / "threads.py")
    assert "a_net" not in text and "w_net = ttl.PipeNet([ttl.Pipe(src=(0, i), dst=(slice(0, 2), i))" in text


def test_multicast_with_nothing_to_share_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """2x3 blocks do not divide over a 2x2 grid: the cores of a row do not step together, so the
    loads stay plain reads, and W0827 says so at the block_index line."""
    body = GEMM.format(multicast=True).replace("t(2, 2), t(2, 2), t(2, 2)", "t(2, 2), t(2, 3), t(2, 3)")
    path = script(tmp_path, body.replace("m, n = ttl.block_index()", "m, n = ttl.block_index()  # HERE"))
    assert main(["run", str(path)]) == 0
    line, col = marked(path, "m, n = ttl.block_index()")
    err = capsys.readouterr().err
    assert f"{path}:{line}:{col}: warning[W0827]: multicast=True, but every load stays a plain read" in err
    assert "with the (2, 3) blocks dividing evenly over the (2, 2) grid" in err


@pytest.mark.slow
@pytest.mark.parametrize("level", ["metal", "cpp"])
def test_the_multicast_program_lowers_and_runs_on_the_emulator(tmp_path: Path, level: str) -> None:
    """The generated pipes lower like hand-written ones: the Metalium calls and the emitted C++
    (kernel emulator) give the product within the script's tolerance."""
    path = script(tmp_path, GEMM.format(multicast=True))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["run", str(path), "--level", level]) == 0
