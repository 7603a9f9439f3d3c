"""Kernels the performance model is checked and quoted on (tests/perf/test_perf_*.py, docs/performance-model.md).

Each factory returns a ``@ttl.operation`` specialised to its arguments (block sizes, buffer
factors, grid), so a test can sweep one parameter. The programs are ordinary TT-Lang: every
one also runs in the simulator at small sizes (tests/perf/test_perf_kernels_run.py checks values).

* :func:`matmul_k`: one core, ``y[1x1] = a[1xK] @ b[Kx1]`` as a single block product.
* :func:`column_reader`: cores read blocks that all live in DRAM bank 0 (a bank-bound copy).
* :func:`unary_pipeline`: reader -> ``fn`` on blocks -> writer, on one core.
* :func:`eltwise_stream`: ``y = a + b`` streamed from DRAM over a grid (the elementwise roofline).
* :func:`matmul_mcast`: the multicast-reuse matmul of hand-written Metalium: node (0, r) reads
  the A blocks of grid row r and multicasts them along the row, node (c, 0) reads the B blocks
  of column c and multicasts them down the column; each node accumulates its output sub-blocks.
"""

from __future__ import annotations

from typing import Any

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32


def matmul_k(k_tiles: int) -> Any:
    @ttl.operation(grid=(1, 1))
    def matmul_k_tiles(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
        a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, k_tiles), block_count=1)
        b_dfb = ttl.make_dataflow_buffer_like(b, shape=(k_tiles, 1), block_count=1)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=1)

        @ttl.datamovement()
        def load():
            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                a_xf = ttl.copy(a[0:1, 0:k_tiles], a_blk)
                b_xf = ttl.copy(b[0:k_tiles, 0:1], b_blk)
                a_xf.wait()
                b_xf.wait()

        @ttl.compute()
        def mac():
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                y_blk.store(a_blk @ b_blk)

        @ttl.datamovement()
        def save():
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[0:1, 0:1]).wait()

    return matmul_k_tiles


def column_reader(cores: int, blocks: int, rows: int) -> Any:
    """Each core reads ``blocks`` blocks of ``rows x 1`` tiles from column 0 of a tensor 12
    tiles wide: with 12 DRAM banks every one of those tiles is in bank 0."""

    @ttl.operation(grid=(cores, 1))
    def bank0_reader(a: ttnn.Tensor):
        a_dfb = ttl.make_dataflow_buffer_like(a, shape=(rows, 1), block_count=2)

        @ttl.datamovement()
        def load():
            i = ttl.node(dims=1)
            for j in range(blocks):
                r0 = (i * blocks + j) * rows
                with a_dfb.reserve() as blk:
                    ttl.copy(a[r0:r0 + rows, 0:1], blk).wait()

        @ttl.datamovement()
        def drain():
            for _ in range(blocks):
                with a_dfb.wait():
                    pass

    return bank0_reader


def bank_readers(cores: int, rows: int, in_flight: int = 2) -> Any:
    """One reader per DRAM bank, as the DRAM-bandwidth reports measure it: the tensor is ``cores``
    tiles wide, so (with as many banks as cores) column i lies wholly in bank i, and core i reads
    column i in blocks of ``rows x 1`` tiles and discards them. With ``in_flight=2`` both
    data-movement threads read, alternate blocks each, so a request is outstanding while the other
    waits (the reports' double buffering with transaction ids); with 1 one thread reads every block
    and waits for each (the reports' single buffer). The compute thread frees the slots."""

    @ttl.operation(grid=(cores, 1))
    def per_bank_reader(a: ttnn.Tensor):
        pairs = a.shape[0] // TILE // rows // 2
        even = ttl.make_dataflow_buffer_like(a, shape=(rows, 1), block_count=2)
        odd = ttl.make_dataflow_buffer_like(a, shape=(rows, 1), block_count=2)

        def reader(dfb: Any, first: int) -> None:
            i = ttl.node(dims=1)
            for j in range(pairs):
                r0 = (2 * j + first) * rows
                with dfb.reserve() as blk:
                    ttl.copy(a[r0:r0 + rows, i:i + 1], blk).wait()

        @ttl.datamovement()
        def read_even():
            reader(even, 0)
            if in_flight == 1:
                reader(odd, 1)

        @ttl.datamovement()
        def read_odd():
            if in_flight == 2:
                reader(odd, 1)

        @ttl.compute()
        def drain():
            if in_flight == 2:
                for _ in range(pairs):
                    with even.wait(), odd.wait():
                        pass
            else:
                for _ in range(pairs):
                    with even.wait():
                        pass
                for _ in range(pairs):
                    with odd.wait():
                        pass

    return per_bank_reader


def unary_pipeline(blocks: int, width: int, fn: str, in_factor: int = 2, out_factor: int = 2) -> Any:
    """``y = fn(x)`` over ``blocks`` blocks of 1 x ``width`` tiles on one core."""
    math_fn = getattr(ttl.math, fn)

    @ttl.operation(grid=(1, 1))
    def unary_stream(x: ttnn.Tensor, y: ttnn.Tensor):
        x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, width), block_count=in_factor)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, width), block_count=out_factor)

        @ttl.datamovement()
        def load():
            for i in range(blocks):
                with x_dfb.reserve() as blk:
                    ttl.copy(x[i:i + 1, 0:width], blk).wait()

        @ttl.compute()
        def apply():
            for _ in range(blocks):
                with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                    y_blk.store(math_fn(x_blk))

        @ttl.datamovement()
        def save():
            for i in range(blocks):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[i:i + 1, 0:width]).wait()

    return unary_stream


def eltwise_stream(grid: tuple[int, int], block: tuple[int, int] = (1, 4), factor: int = 2) -> Any:
    """``y = a + b``; node (x, r) of a grid_x x grid_y grid takes every block whose flat index
    is congruent to its own flat index (round-robin over nodes)."""
    br, bc = block

    @ttl.operation(grid=grid)
    def add_stream(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
        nodes = grid[0] * grid[1]
        col_blocks = a.shape[1] // TILE // bc
        total = a.shape[0] // TILE // br * col_blocks
        per_node = -(-total // nodes)
        a_dfb = ttl.make_dataflow_buffer_like(a, shape=block, block_count=factor)
        b_dfb = ttl.make_dataflow_buffer_like(b, shape=block, block_count=factor)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=block, block_count=factor)

        @ttl.datamovement()
        def load():
            me = ttl.node(dims=1)
            for i in range(per_node):
                n = i * nodes + me
                if n < total:
                    r0 = n // col_blocks * br
                    c0 = n % col_blocks * bc
                    with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                        a_xf = ttl.copy(a[r0:r0 + br, c0:c0 + bc], a_blk)
                        b_xf = ttl.copy(b[r0:r0 + br, c0:c0 + bc], b_blk)
                        a_xf.wait()
                        b_xf.wait()

        @ttl.compute()
        def add():
            me = ttl.node(dims=1)
            for i in range(per_node):
                if i * nodes + me < total:
                    with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                        y_blk.store(a_blk + b_blk)

        @ttl.datamovement()
        def save():
            me = ttl.node(dims=1)
            for i in range(per_node):
                n = i * nodes + me
                if n < total:
                    r0 = n // col_blocks * br
                    c0 = n % col_blocks * bc
                    with y_dfb.wait() as y_blk:
                        ttl.copy(y_blk, y[r0:r0 + br, c0:c0 + bc]).wait()

    return add_stream


def matmul_mcast(grid: tuple[int, int], bm: int, bk: int, bn: int, factor: int = 2) -> Any:
    """``y = a @ b`` with A multicast along grid rows and B down grid columns.

    The output is cut into ``bm x bn``-tile sub-blocks, each summed over ``bk``-wide K blocks;
    grid row r takes ``m_sub`` consecutive block rows and grid column x ``n_sub`` block columns
    (ceiling division; a node past the end repeats the last block, so every node of a row or
    column takes part in every multicast and the time is that of the busiest node). The
    A path (read on node (0, r), multicast to the row) runs on the first data-movement thread,
    the B path (read on node (x, 0), multicast to the column) and the output writes on the
    second, as Metalium's reuse-multicast matmul splits them over its two NoCs.
    """
    gx, gy = grid

    @ttl.operation(grid=grid)
    def matmul_mcast_reuse(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
        m_blocks = a.shape[0] // TILE // bm
        n_blocks = b.shape[1] // TILE // bn
        k_blocks = a.shape[1] // TILE // bk
        m_sub = -(-m_blocks // gy)
        n_sub = -(-n_blocks // gx)
        row_net = ttl.PipeNet([ttl.Pipe(src=(0, r), dst=(slice(0, gx), r)) for r in range(gy)])
        col_net = ttl.PipeNet([ttl.Pipe(src=(c, 0), dst=(c, slice(0, gy))) for c in range(gx)])
        a_fetch = ttl.make_dataflow_buffer_like(a, shape=(bm, bk), block_count=factor)
        b_fetch = ttl.make_dataflow_buffer_like(b, shape=(bk, bn), block_count=factor)
        a_dfb = ttl.make_dataflow_buffer_like(a, shape=(bm, bk), block_count=factor)
        b_dfb = ttl.make_dataflow_buffer_like(b, shape=(bk, bn), block_count=factor)
        y_dfb = ttl.make_dataflow_buffer_like(y, shape=(bm, bn), block_count=2)

        @ttl.datamovement()
        def in0():
            nx, ny = ttl.node(dims=2)
            for mb in range(m_sub):
                m0 = min(ny * m_sub + mb, m_blocks - 1) * bm
                for _ in range(n_sub):
                    for kb in range(k_blocks):
                        k0 = kb * bk

                        def send(pipe):
                            with a_fetch.reserve() as blk:
                                ttl.copy(a[m0:m0 + bm, k0:k0 + bk], blk).wait()
                            with a_fetch.wait() as blk:
                                ttl.copy(blk, pipe).wait()

                        def receive(pipe):
                            with a_dfb.reserve() as blk:
                                ttl.copy(pipe, blk).wait()

                        row_net.if_src(send)
                        row_net.if_dst(receive)

        @ttl.compute()
        def mac():
            for _ in range(m_sub * n_sub):
                with y_dfb.reserve() as y_blk:
                    y_blk.store(ttl.block.fill(0.0, shape=y_blk.shape))
                    for _ in range(k_blocks):
                        with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                            y_blk += a_blk @ b_blk

        @ttl.datamovement()
        def in1_out():
            nx, ny = ttl.node(dims=2)
            for mb in range(m_sub):
                m0 = min(ny * m_sub + mb, m_blocks - 1) * bm
                for nb in range(n_sub):
                    n0 = min(nx * n_sub + nb, n_blocks - 1) * bn
                    for kb in range(k_blocks):
                        k0 = kb * bk

                        def send(pipe):
                            with b_fetch.reserve() as blk:
                                ttl.copy(b[k0:k0 + bk, n0:n0 + bn], blk).wait()
                            with b_fetch.wait() as blk:
                                ttl.copy(blk, pipe).wait()

                        def receive(pipe):
                            with b_dfb.reserve() as blk:
                                ttl.copy(pipe, blk).wait()

                        col_net.if_src(send)
                        col_net.if_dst(receive)
                    with y_dfb.wait() as y_blk:
                        ttl.copy(y_blk, y[m0:m0 + bm, n0:n0 + bn]).wait()

    return matmul_mcast_reuse


def tile_tensor(shape: tuple[int, ...], dtype: Any = None) -> Any:
    """A zero tile-layout DRAM tensor (the timing model needs only its shape and format)."""
    return ttnn.zeros(shape, dtype=dtype or ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
