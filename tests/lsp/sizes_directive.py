"""A script whose real size is too big for the editor: the sizes comment shrinks TILES for the
language server's runs (docs/lsp.md), and the script refuses to run big in the editor."""

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILES = 4096
# tilecraft: sizes TILES=2

assert TILES <= 8, "the editor ran the full size"  # FULL-SIZE


@ttl.kernel(grid=(1, 1))
def copy_rows(x, y):
    cb = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        for i in range(TILES):
            with cb.reserve() as blk:
                ttl.copy(x[i, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        for i in range(TILES):
            with cb.wait() as blk:
                ttl.copy(blk, y[i, 0]).wait()

    return ttl.Program(reader, writer)(x, y)


x = ttnn.ones((32 * TILES, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32 * TILES, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
copy_rows(x, y)
