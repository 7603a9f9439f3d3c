"""Programs in the published TT-Lang 1.1.6 spelling, with the idioms its users write.

Each script in ``tests/published/`` imports ``ttl`` and ``ttnn`` as a script for the published
simulator does and asserts its own result. Each runs through ``tilecraft run`` in the batched
mode and with ``--exact``; the two must store the same bits in every tensor.
"""

from __future__ import annotations

import typing
import warnings
from pathlib import Path

import pytest

from benchmarks.emit_tools import programs_of
from tests.outputs import assert_same_bits, launch_outputs
from tests.paths import TESTS
from tests.metal.test_headercheck import headers  # noqa: F401 - the fixture (skips without g++-multilib)
from tilecraft.cli import main
from tilecraft.diagnostics import DiagnosticWarning
from tilecraft.metal.check_emitted import check_emitted
from tilecraft.metal.emit import emit_program

PROGRAMS = sorted((TESTS / "published").glob("*.py"))

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_runs_and_fast_equals_exact(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(path, capsys, "--exact"))


def test_block_equality_is_identity_and_warns(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in PROGRAMS if p.stem == "block_identity")
    assert main(["run", str(path)]) == 0
    err = capsys.readouterr().err
    lines = [i for i, text in enumerate(path.read_text().splitlines(), 1) if "x != z" in text or "x == x" in text]
    for line in lines:
        assert f"{path}:{line}:" in err and "warning[W0102]" in err, err
    assert "ttl.math.eq" in err


def test_a_tensor_made_without_a_layout_is_tile_and_says_so_once(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "default_layout.py"
    script.write_text(
        "import torch, ttl, ttnn\n"
        "@ttl.operation(grid=(1, 1))\n"
        "def copy(a, y):\n"
        "    dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)\n"
        "    @ttl.datamovement()\n"
        "    def mover():\n"
        "        with dfb.reserve() as blk:\n"
        "            ttl.copy(a[0, 0], blk).wait()\n"
        "        with dfb.wait() as blk:\n"
        "            ttl.copy(blk, y[0, 0]).wait()\n"
        "a = ttnn.from_torch(torch.ones(32, 32))\n"
        "y = ttnn.empty((32, 32), layout=ttnn.TILE_LAYOUT)\n"
        "copy(a, y)\n"
        "copy(a, y)\n"
        "assert ttnn.to_torch(y).sum() == 1024\n")
    assert main(["run", str(script)]) == 0
    err = capsys.readouterr().err
    assert err.count("warning[W0501]") == 1 and f"{script}:11:5: warning[W0501]: tensor 'a'" in err, err


def test_a_block_value_never_stored_warns_at_the_expression(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """1.1.6 rejects a program whose block value never reaches a store (tt-lang's test_missing_pop);
    here the value is dropped with W0103 at the expression; a reduce folded into the broadcast
    around it, whose own result nothing reads, is not reported."""
    script = tmp_path / "dropped.py"
    script.write_text(
        "import torch, ttl, ttnn\n"
        "@ttl.operation(grid=(1, 1))\n"
        "def op(a, y):\n"
        "    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 2), block_count=2)\n"
        "    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=2)\n"
        "    @ttl.compute()\n"
        "    def compute():\n"
        "        with a_dfb.wait() as x, y_dfb.reserve() as out:\n"
        "            unused = ttl.math.exp(x) + x\n"
        "            out.store(ttl.block.broadcast(ttl.math.reduce_max(x, dims=[1], shape=(1, 1)), dims=[1], shape=(1, 2)))\n"
        "    @ttl.datamovement()\n"
        "    def reader():\n"
        "        with a_dfb.reserve() as x:\n"
        "            ttl.copy(a[0:1, 0:2], x).wait()\n"
        "    @ttl.datamovement()\n"
        "    def writer():\n"
        "        with y_dfb.wait() as out:\n"
        "            ttl.copy(out, y[0:1, 0:2]).wait()\n"
        "a = ttnn.from_torch(torch.ones(32, 64), layout=ttnn.TILE_LAYOUT)\n"
        "y = ttnn.from_torch(torch.zeros(32, 64), layout=ttnn.TILE_LAYOUT)\n"
        "op(a, y)\n")
    assert main(["run", str(script)]) == 0
    err = capsys.readouterr().err
    assert err.count("warning[W0103]") == 1 and f"{script}:9:22: warning[W0103]" in err, err


def test_a_program_that_writes_nothing_warns(tmp_path: Path) -> None:
    script = tmp_path / "empty_share.py"
    script.write_text(
        "import torch\nimport tilecraft as ttl\nimport tilecraft.ttnn as ttnn\n"
        "@ttl.operation(grid=(1, 1))\n"
        "def copy(a, y):\n"
        "    n = a.shape[0] // 64\n"
        "    dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)\n"
        "    @ttl.datamovement()\n"
        "    def mover():\n"
        "        for i in range(n):\n"
        "            with dfb.reserve() as blk:\n"
        "                ttl.copy(a[i, 0], blk).wait()\n"
        "            with dfb.wait() as blk:\n"
        "                ttl.copy(blk, y[i, 0]).wait()\n"
        "a = ttnn.from_torch(torch.ones(32, 32), layout=ttnn.TILE_LAYOUT)\n"
        "copy(a, a)\n")
    import runpy
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runpy.run_path(str(script), run_name="__main__")
    (warning,) = [w.message for w in caught if isinstance(w.message, DiagnosticWarning)]
    assert warning.diagnostic.code == "W1201" and "copies into 'y' ran zero times" in warning.diagnostic.message


def line_of(path: Path, text: str) -> int:
    """The 1-based line of ``path`` that contains ``text`` (exactly one does)."""
    (line,) = [i for i, source in enumerate(path.read_text().splitlines(), 1) if text in source]
    return line


def test_blocks_pushed_and_never_consumed_warn_at_the_push(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in PROGRAMS if p.stem == "unconsumed_pushed_blocks")
    assert main(["run", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.count("warning[W1105]") == 1, err
    assert f"{path}:{line_of(path, '# W1105')}:" in err and "'dfb' on core (0, 0)" in err, err


#: the programs above whose every construct tilecraft emits: both simulation levels must agree and
#: every emitted kernel must pass the real 0.81.1 headers
EMITTED = ("early_return", "held_blocks_released", "block_selection", "pipe_endpoints", "buffer_members",
           "unwritten_push", "self_pipe_receive_started_first", "loop_carried_values", "integer_division")


@pytest.mark.parametrize("name", EMITTED)
def test_metal_level_agrees(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in PROGRAMS if p.stem == name)
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(path, capsys, "--level", "metal"))


@pytest.mark.parametrize("name", EMITTED)
def test_emitted_kernels_pass_the_headers(name: str, headers: Path) -> None:  # noqa: F811
    path = next(p for p in PROGRAMS if p.stem == name)
    for program in programs_of(path):
        for kernel, result in check_emitted(emit_program(program)):
            assert result.ok, f"{name} {kernel}:\n{result.diagnostics}"


def test_print_shows_blocks_and_buffers_in_thread_order(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in PROGRAMS if p.stem == "print_objects")
    assert main(["run", str(path)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0] == ("before: <DataflowBuffer 'x_dfb' shape=(1, 1) float32 block_count=2 capacity=2 tiles> "
                        "head=0 pushed=0 reserved=0 free=2"), lines
    assert lines[1].startswith("after: <DataflowBuffer 'x_dfb'") and "pushed=1 reserved=0 free=1" in lines[1]
    assert lines[2] == "negated: <Block shape=(1, 1) float32>"
    assert lines[3].startswith("  first 64 of 1024 values: [-0.0, -1.0, -2.0,") and lines[3].endswith("-63.0]")
    # the device cannot print a block: run says so where emit would stop
    line = line_of(path, 'print("negated:"')
    assert f"{path}:{line}:" in captured.err and "W3001" in captured.err


def test_print_in_a_thread_takes_sep_and_the_default_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "print_sep.py"
    script.write_text(
        "import torch, ttl, ttnn\n"
        "@ttl.operation(grid=(1, 1))\n"
        "def op(a):\n"
        "    @ttl.datamovement()\n"
        "    def talk():\n"
        "        n = ttl.node(dims=1)\n"
        "        print('node', n, f'of {ttl.grid_size(dims=1)}', sep=':', flush=True)\n"
        "        print('x', n + 1, sep='', end='\\n')\n"
        "        print('a', 'b')\n"
        "        print('no newline', end='')\n"
        "op(ttnn.from_torch(torch.zeros(32, 32), layout=ttnn.TILE_LAYOUT))\n")
    assert main(["run", str(script)]) == 1
    captured = capsys.readouterr()
    assert f"{script}:10:33: error[E0104]: print() in a thread takes sep=" in captured.err, captured.err
    script.write_text(script.read_text().replace("        print('no newline', end='')\n", ""))
    assert main(["run", str(script)]) == 0
    assert capsys.readouterr().out.splitlines() == ["node:0:of 1", "x1", "a b"]


def test_program_with_grid_returned_from_an_operation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tt-lang's own simulator tests end an operation with ``return ttl.Program(compute, dm0, dm1,
    grid=grid)()``; 1.1.6 runs it. The grid must be the decorator's (E0201 at the call otherwise)."""
    script = tmp_path / "program_grid.py"
    body = (
        "import torch, ttl, ttnn\n"
        "grid = (1, 1)\n"
        "@ttl.operation(grid=grid)\n"
        "def double(a, out):\n"
        "    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)\n"
        "    o_dfb = ttl.make_dataflow_buffer_like(out, shape=(1, 1), block_count=2)\n"
        "    @ttl.compute()\n"
        "    def compute():\n"
        "        with a_dfb.wait() as x, o_dfb.reserve() as o:\n"
        "            o.store(x + x)\n"
        "    @ttl.datamovement()\n"
        "    def dm0():\n"
        "        with a_dfb.reserve() as x:\n"
        "            ttl.copy(a[0, 0], x).wait()\n"
        "    @ttl.datamovement()\n"
        "    def dm1():\n"
        "        with o_dfb.wait() as o:\n"
        "            ttl.copy(o, out[0, 0]).wait()\n"
        "    return ttl.Program(compute, dm0, dm1, grid=GRID)()\n"
        "a = ttnn.from_torch(torch.full((32, 32), 3.0), layout=ttnn.TILE_LAYOUT)\n"
        "out = ttnn.from_torch(torch.zeros(32, 32), layout=ttnn.TILE_LAYOUT)\n"
        "double(a, out)\n"
        "assert torch.equal(ttnn.to_torch(out), torch.full((32, 32), 6.0))\n")
    script.write_text(body.replace("GRID", "grid"))
    assert main(["run", str(script)]) == 0, capsys.readouterr().err
    script.write_text(body.replace("GRID", "(2, 1)"))
    assert main(["run", str(script)]) == 1
    err = capsys.readouterr().err
    assert f"{script}:19:12: error[E0201]: ttl.Program(grid=(2, 1)) differs" in err, err


def test_f_strings_format_constants_and_say_when_they_cannot(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "fstrings.py"
    script.write_text(
        "import torch, ttl, ttnn\n"
        "PI = 3.14159\n"
        "@ttl.operation(grid=(2, 1))\n"
        "def op(a):\n"
        "    @ttl.datamovement()\n"
        "    def talk():\n"
        "        n = ttl.node(dims=1)\n"
        "        w = 6\n"
        "        if n == 0:\n"
        "            print(f\"pi={PI:.2f} {'x'!r} {PI:{w}.1f}|\")\n"
        "            print(f\"n={n:3d}\")\n"
        "op(ttnn.from_torch(torch.zeros(32, 32), layout=ttnn.TILE_LAYOUT))\n")
    assert main(["run", str(script)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["pi=3.14 'x'    3.1|", "n=0"], captured.out
    assert f"{script}:11:19: warning[W0104]" in captured.err, captured.err


def test_an_unwritten_block_pushed_only_warns(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in PROGRAMS if p.stem == "unwritten_push")
    assert main(["run", str(path)]) == 0
    err = capsys.readouterr().err
    assert f"{path}:{line_of(path, '# W1108')}:" in err and "warning[W1108]" in err and "core (1, 0)" in err, err


def test_the_published_type_names_and_layout_constants_exist() -> None:
    import tilecraft as ttl
    import tilecraft.ttnn as ttnn

    def send(pipe: ttl.SrcPipeIdentity[ttl.NodeRange], node: ttl.NodeCoord, shape: ttl.Shape,
             size: ttl.Size) -> ttl.DstT: ...

    # a program's annotations are evaluated when its function is defined (here postponed: resolve them)
    assert typing.get_type_hints(send, localns={"ttl": ttl})["size"] is int
    assert ttl.TILE_LAYOUT is ttnn.TILE_LAYOUT and ttl.ROW_MAJOR_LAYOUT is ttnn.ROW_MAJOR_LAYOUT
    with pytest.raises(Exception, match="E0302.*PipeNet.if_src"):
        ttl.SrcPipeIdentity()


def test_a_linear_pipe_endpoint_outside_the_grid_names_the_numbering(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "linear_pipe.py"
    script.write_text(
        "import torch, ttl, ttnn\n"
        "@ttl.operation(grid=(2, 2))\n"
        "def kern(a):\n"
        "    net = ttl.PipeNet([ttl.Pipe((0,), (slice(1, 5),))])\n"
        "    @ttl.datamovement()\n"
        "    def mover():\n"
        "        pass\n"
        "kern(ttnn.from_torch(torch.zeros(32, 32), layout=ttnn.TILE_LAYOUT))\n")
    assert main(["run", str(script)]) == 1
    err = capsys.readouterr().err
    assert f"{script}:4:24: error[E0203]: pipe core (4,) (dst) is outside the grid (2, 2) numbered in 1 " \
           "dimension (4,)" in err, err


def test_a_bare_slice_is_a_range_of_linear_nodes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``ttl.Pipe(0, slice(1, 4))``: linear node 0 multicasts to linear nodes 1 to 3 (a 1-D range
    written without its tuple; the front end used to fail on it with an internal TypeError)."""
    script = tmp_path / "bare_slice_pipe.py"
    script.write_text(
        "import torch, ttl, ttnn\n"
        "@ttl.operation(grid=(2, 2))\n"
        "def kern(a, y):\n"
        "    net = ttl.PipeNet([ttl.Pipe(0, slice(1, 4))])\n"
        "    dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)\n"
        "    @ttl.datamovement()\n"
        "    def mover():\n"
        "        node = ttl.node(dims=1)\n"
        "        with dfb.reserve() as blk:\n"
        "            def send(pipe):\n"
        "                ttl.copy(a[0, 0], blk).wait()\n"
        "                ttl.copy(blk, pipe).wait()\n"
        "            def receive(pipe):\n"
        "                ttl.copy(pipe, blk).wait()\n"
        "            net.if_src(send)\n"
        "            net.if_dst(receive)\n"
        "        with dfb.wait() as blk:\n"
        "            ttl.copy(blk, y[0, node]).wait()\n"
        "a = ttnn.from_torch(torch.full((32, 32), 5.0), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)\n"
        "y = ttnn.from_torch(torch.zeros(32, 128), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)\n"
        "kern(a, y)\n"
        "assert (ttnn.to_torch(y) == 5).all()\n")
    assert main(["run", str(script)]) == 0, capsys.readouterr().err


def test_a_pipe_built_at_module_scope_is_checked_against_the_launch_grid(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22, defect 5a: a net built outside the operation is captured (the conformance program
    ``pipe_net_outside_operation`` runs one); its pipes are checked against the grid that uses them."""
    script = tmp_path / "module_pipe.py"
    script.write_text(
        "import torch, ttl, ttnn\n"
        "net = ttl.PipeNet([ttl.Pipe(src=(0, 0), dst=(2, 0))])\n"
        "@ttl.operation(grid=(2, 1))\n"
        "def kern(a):\n"
        "    @ttl.datamovement()\n"
        "    def mover():\n"
        "        assert net.is_active()\n"
        "kern(ttnn.from_torch(torch.zeros(32, 32), layout=ttnn.TILE_LAYOUT))\n")
    assert main(["run", str(script)]) == 1
    err = capsys.readouterr().err
    assert f"{script}:2:20: error[E0203]: pipe core (2, 0) (dst) is outside the grid (2, 1)" in err, err
    script.write_text(script.read_text().replace("dst=(2, 0)", "dst=(1, 0)"))
    assert main(["run", str(script)]) == 0, capsys.readouterr().err


def test_l1_overflow_from_compiler_added_buffers_names_them(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22, defect 5e: a 1.1.6-style temporary accumulator (a local block) fits the user's
    count of L1 but not with the float32 buffer the compiler keeps it in, even rotating through one
    block and one DST chunk: E0401 says which buffers the compiler added and why. (The multicast
    matmul in ``tests/published/multicast_temporary_accumulator.py``, which the rotation makes fit,
    runs at every level.)"""
    script = tmp_path / "local_accumulator.py"
    script.write_text(
        "import torch, ttl, ttnn\n"
        "@ttl.operation(grid=(1, 1))\n"
        "def mm(a, b, y):\n"
        "    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(8, 8), block_count=2)\n"
        "    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(8, 8), block_count=2)\n"
        "    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(8, 8), block_count=2)\n"
        "    @ttl.compute()\n"
        "    def mac():\n"
        "        acc = ttl.block.fill(0.0, shape=(8, 8))\n"
        "        for _ in range(2):\n"
        "            with a_dfb.wait() as x, b_dfb.wait() as w:\n"
        "                acc = acc + x @ w\n"
        "        with y_dfb.reserve() as out:\n"
        "            out.store(acc)\n"
        "    @ttl.datamovement()\n"
        "    def load():\n"
        "        for k in range(2):\n"
        "            with a_dfb.reserve() as x, b_dfb.reserve() as w:\n"
        "                ttl.copy(a[0:8, k * 8:(k + 1) * 8], x).wait()\n"
        "                ttl.copy(b[k * 8:(k + 1) * 8, 0:8], w).wait()\n"
        "    @ttl.datamovement()\n"
        "    def save():\n"
        "        with y_dfb.wait() as out:\n"
        "            ttl.copy(out, y[0:8, 0:8]).wait()\n"
        "a = ttnn.from_torch(torch.ones(256, 512), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)\n"
        "b = ttnn.from_torch(torch.ones(512, 256), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)\n"
        "y = ttnn.from_torch(torch.zeros(256, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)\n"
        "mm(a, b, y)\n")
    assert main(["run", str(script)]) == 1
    err = capsys.readouterr().err
    assert (f"{script}:2:1: error[E0401]: the buffers of program 'mm' need 1589248 B of L1 per core but "
            "wormhole_b0 has 1396736 B available: its own buffers take 1310720 B and the compiler adds 278528 B "
            "(acc.1_local: the value of local block 'acc')") in err, err
    assert "buffer 'acc.1_local' (added by the compiler: the value of local block 'acc'): 1 x 262144 B + one DST " \
           "chunk of 16384 B = 278528 B (block (8, 8), float32)" in err, err


@pytest.mark.parametrize("level", ["metal", "cpp"])
@pytest.mark.parametrize("form", ["product", "bias"])
def test_batched_matmul_is_emitted(form: str, level: str, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22, defect 5c: the conformance program ``matmul_batched`` (3-D blocks, which the
    published simulator runs) gives the same bits from the Metalium lowering and from its emitted
    C++ on the kernel emulator as at the language level: each batch's right block is read."""
    from benchmarks.conformance import catalogue
    (program,) = catalogue.select([f"matmul_batched.{form}"])
    monkeypatch.syspath_prepend(str(catalogue.SUPPORT))
    args = program.simulator_args()
    assert_same_bits(launch_outputs(program.path, capsys, *args),
                     launch_outputs(program.path, capsys, *args, "--level", level))
