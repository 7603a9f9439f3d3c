"""Relative buffer sizes: ``block_count="max"`` / ``"25%"`` and ``shape=(1, "10%")``, resolved per
architecture by the compiler (the arithmetic is in the comments), shown by show-ir, and leaving
room for what the Metalium lowering adds so that the emitted program fits L1 too."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import KernelError
from tilecraft.frontend.build_program import build_program
from tilecraft.ir.parser import parse_program
from tilecraft.ir.printer import print_program
from tilecraft.frontend import l1_budget
from tilecraft.ir.l1 import Added
from tilecraft.metal.lower import lower_program, program_l1_need

WH_L1 = 1464 * 1024 - 100 * 1024  # 1,396,736 B available on wormhole_b0
BH_L1 = 1536 * 1024 - 100 * 1024  # 1,470,464 B on blackhole
TILE_BYTES = 2048  # bfloat16


def tile_tensor(rows: int, cols: int, values: bool = False) -> ttnn.Tensor:
    data = torch.randn(rows, cols) if values else torch.zeros(rows, cols)
    return ttnn.from_torch(data, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)


def copy_kernel(in_count, out_count, shape=(1, 4), out_shape=None):
    """``y = x * 2`` over one row of tiles, with the given block counts and shapes."""

    @ttl.operation(grid=(1, 1))
    def doubled(x, y):
        x_dfb = ttl.make_dataflow_buffer_like(x, shape=shape, block_count=in_count)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=out_shape or x_dfb.shape, block_count=out_count)
        w = x_dfb.shape[1]
        blocks = x.shape[1] // 32 // w

        @ttl.datamovement()
        def load():
            for c in range(blocks):
                with x_dfb.reserve() as blk:
                    ttl.copy(x[0:1, c * w:(c + 1) * w], blk).wait()

        @ttl.compute()
        def work():
            for _ in range(blocks):
                with x_dfb.wait() as a, y_dfb.reserve() as b:
                    b.store(a * 2.0)

        @ttl.datamovement()
        def save():
            for c in range(blocks):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[0:1, c * w:(c + 1) * w]).wait()

    return doubled


def build(kernel, x, y, arch: str = "wormhole_b0"):
    return build_program(kernel, (x, y), {}, (1, 1), arch)[0]


def test_max_takes_what_the_fixed_buffers_leave() -> None:
    program = build(copy_kernel(2, "max"), tile_tensor(32, 256), tile_tensor(32, 256))
    x_cb, y_cb = program.cbs
    assert program_l1_need(program, "wormhole_b0").added == ()  # a scalar product needs no intermediate
    # fixed: 2 blocks of 1x4 tiles = 16,384 B; (1,396,736 - 16,384) // 8,192 = 168 blocks
    assert (x_cb.buffer_factor, y_cb.buffer_factor) == (2, 168)
    assert y_cb.sizing == "block_count=max" and x_cb.sizing is None


def test_max_reads_the_l1_need_registered_by_the_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lowering's figure reaches the front end through one registration point, which the driver
    sets at import; whatever is registered there sizes a "max" buffer."""
    monkeypatch.setattr(l1_budget, "_program_l1_need", l1_budget._program_l1_need)
    assert l1_budget._program_l1_need is program_l1_need
    l1_budget.set_program_l1_need(lambda program, arch: SimpleNamespace(added_bytes=8 * TILE_BYTES))
    program = build(copy_kernel(2, "max"), tile_tensor(32, 256), tile_tensor(32, 256))
    # (1,396,736 - 16,384 - 8 x 2,048) // 8,192 = 166 blocks: two fewer than with nothing added
    assert program.cbs[1].buffer_factor == 166


def test_two_max_buffers_split_the_rest_equally() -> None:
    program = build(copy_kernel("max", "max"), tile_tensor(32, 256), tile_tensor(32, 256))
    # 1,396,736 // 2 = 698,368 B each; // 8,192 = 85 blocks
    assert [cb.buffer_factor for cb in program.cbs] == [85, 85]


def test_a_share_of_l1_per_architecture() -> None:
    kernel = copy_kernel("25%", 2)
    wh = build(kernel, tile_tensor(32, 256), tile_tensor(32, 256), "wormhole_b0")
    bh = build(kernel, tile_tensor(32, 256), tile_tensor(32, 256), "blackhole")
    assert wh.cbs[0].buffer_factor == int(0.25 * WH_L1) // (4 * TILE_BYTES) == 42
    assert bh.cbs[0].buffer_factor == int(0.25 * BH_L1) // (4 * TILE_BYTES) == 44


def test_a_relative_extent_is_the_largest_divisor_that_fits() -> None:
    # 70 tile columns; 2 blocks of 1 x e tiles must fit 10% of L1:
    # wormhole 139,673 B -> e <= 34, the largest divisor of 70 is 14; blackhole 147,046 B -> e <= 35: 35
    kernel = copy_kernel(2, 2, shape=(1, "10%"))
    x, y = tile_tensor(32, 70 * 32), tile_tensor(32, 70 * 32)
    assert build(kernel, x, y, "wormhole_b0").cbs[0].shape == (1, 14)
    assert build(kernel, x, y, "blackhole").cbs[0].shape == (1, 35)
    assert build(kernel, x, y, "blackhole").cbs[0].sizing == "shape=1x10%"


def test_relative_sizes_compute_the_same_values() -> None:
    x, y = tile_tensor(32, 70 * 32, values=True), tile_tensor(32, 70 * 32)
    copy_kernel(2, "max", shape=(1, "10%"))(x, y)
    torch.testing.assert_close(ttnn.to_torch(y).float(), ttnn.to_torch(x).float() * 2)


def test_show_ir_prints_the_resolved_sizes_and_parses_them_back() -> None:
    program = build(copy_kernel(2, "max", shape=(1, "10%")), tile_tensor(32, 70 * 32), tile_tensor(32, 70 * 32))
    text = print_program(program)
    assert "buffer @x_dfb #0 : block<1x14, bfloat16> x 2  (57344 B, sized shape=1x10%)" in text
    assert "buffer @y_dfb #1 : block<1x14, bfloat16> x 46  (1318912 B, sized block_count=max)" in text
    assert print_program(parse_program(text)) == text


MCAST = '''
import tilecraft as ttl


@ttl.operation(grid=(3, 2))
def mcast(a, y):
    gx, gy = ttl.grid_size(dims=2)
    net = ttl.PipeNet([ttl.Pipe(src=(0, r), dst=(slice(0, gx), r)) for r in range(gy)])
    fetch = ttl.make_dataflow_buffer_like(a, shape=(2, 2), block_count=2)
    landed = ttl.make_dataflow_buffer_like(a, shape=(2, 2), block_count="max")
    out = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=2)

    @ttl.datamovement()
    def move():
        nx, ny = ttl.node(dims=2)

        def send(pipe):
            with fetch.reserve() as blk:
                ttl.copy(a[ny * 2:ny * 2 + 2, 0:2], blk).wait()
            with fetch.wait() as blk:
                ttl.copy(blk, pipe).wait()

        def receive(pipe):
            with landed.reserve() as blk:
                ttl.copy(pipe, blk).wait()

        net.if_src(send)
        net.if_dst(receive)

    @ttl.compute()
    def work():
        with landed.wait() as a_blk, out.reserve() as o:
            o.store(a_blk + a_blk)

    @ttl.datamovement()
    def save():
        nx, ny = ttl.node(dims=2)
        with out.wait() as blk:
            ttl.copy(blk, y[ny * 2:ny * 2 + 2, nx * 2:nx * 2 + 2]).wait()
'''


def test_max_leaves_room_for_the_lowering_so_the_emitted_program_fits(tmp_path) -> None:
    import runpy
    path = tmp_path / "mcast.py"
    path.write_text(MCAST)
    kernel = runpy.run_path(str(path))["mcast"]
    a, y = tile_tensor(128, 64), tile_tensor(128, 192)
    program = build_program(kernel, (a, y), {}, (3, 2), "wormhole_b0")[0]
    need = program_l1_need(program, "wormhole_b0")
    internal = need.added_bytes
    # the pipe net's landing slot: its two row multicasts share no destination, so one slot of
    # 4 tiles x 2,048 B (ir/pipe_protocol.py: landing_slots), plus one 16-byte flag word and one
    # 16-byte address word (its one ready counter: metal/lower_pipes.py, landing in place)
    assert [(b.name, b.added, b.nbytes) for b in need.added] == [
        ("pipenet0_landing", Added.PIPE_LANDING, 4 * TILE_BYTES), ("pipenet0_flags", Added.PIPE_FLAGS, 32)]
    block = 4 * TILE_BYTES
    fixed = 2 * block + 2 * block
    assert program.cbs[1].buffer_factor == (WH_L1 - fixed - internal) // block
    lower_program(program, "wormhole_b0")  # the emitter's own L1 check (user + internal buffers) passes


@pytest.mark.parametrize("count, shape, code, message", [
    ("lots", (1, 4), "E0202", "block_count must be a positive integer, \"max\" or a share of L1"),
    ("150%", (1, 4), "E0202", "got '150%'"),
    (2, (1, "10%", "5%"), "E0202", "gives more than one extent as a share of L1"),
    ("max", (1, "10%"), "E0202", "a buffer with a relative shape needs a number of blocks"),
    (2, (64, "1%"), "E0401", "no block of shape 64x1% fits 1% of L1 on wormhole_b0 (13967 B) with 2 blocks"),
])
def test_bad_relative_sizes(count, shape, code, message) -> None:
    with pytest.raises(KernelError) as err:
        build(copy_kernel(count, 2, shape=shape, out_shape=(1, 1)), tile_tensor(64 * 32, 256),
              tile_tensor(64 * 32, 256))
    assert err.value.code == code and message in err.value.diagnostic.message
    assert err.value.diagnostic.span.file == __file__


def test_max_without_room_is_an_l1_error() -> None:
    with pytest.raises(KernelError) as err:
        build(copy_kernel(170, "max", shape=(1, 4)), tile_tensor(32, 256), tile_tensor(32, 256))
    # 170 blocks of 8,192 B = 1,392,640 B leave 4,096 B: not one block
    assert err.value.code == "E0401"
    assert err.value.diagnostic.message == (
        "buffer 'y_dfb' (block_count='max') has room for no block of 8192 B on wormhole_b0: the other buffers "
        "use 1392640 B and the Metalium lowering adds 0 B of 1396736 B")
