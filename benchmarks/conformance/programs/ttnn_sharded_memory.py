"""Sharded memory configs: ``create_sharded_memory_config`` with a ``CoreGrid`` and a
``ShardStrategy`` (height, width, block), or tt-metal's spelling ``MemoryConfig(
TensorMemoryLayout.HEIGHT_SHARDED, BufferType.L1, ShardSpec(CoreRangeSet, shape, orientation))``;
a tensor placed with it is read by a kernel; its ``is_sharded`` and the kernel's result are saved.

Variants: height width block metal_style
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

HOW = sys.argv[1]


@ttl.operation(grid=(1, 1))
def double(a: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(2, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(2, 2), block_count=1)

    @ttl.compute()
    def twice():
        with a_dfb.wait() as a_blk, y_dfb.reserve() as y_blk:
            y_blk.store(a_blk + a_blk)

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0:2, 0:2], blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:2, 0:2]).wait()


device = ttnn.open_device(device_id=0)
if HOW == "metal_style":
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 1))])
    config = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                               ttnn.ShardSpec(cores, (32, 64), ttnn.ShardOrientation.ROW_MAJOR))
else:
    strategy = {"height": ttnn.ShardStrategy.HEIGHT, "width": ttnn.ShardStrategy.WIDTH,
                "block": ttnn.ShardStrategy.BLOCK}[HOW]
    config = ttnn.create_sharded_memory_config((64, 64), core_grid=ttnn.CoreGrid(y=2, x=2), strategy=strategy,
                                               orientation=ttnn.ShardOrientation.ROW_MAJOR)
a_host = bf16_exact((64, 64), seed=57, step=0.25)
a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=config)
y = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
double(a, y)
assert torch.equal(ttnn.to_torch(y).float(), 2 * a_host)
save_outputs(y=y, sharded=ttnn.is_sharded(a), interleaved_output=not ttnn.is_sharded(y))
ttnn.close_device(device)
