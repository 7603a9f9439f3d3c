"""``ttnn.all_reduce`` of per-device partial results on a 1x2 mesh, then a host ``ttnn.relu``.

Each device computes ``a_shard * 2`` with a kernel into a row-sharded output; ``all_reduce``
sums the two devices' shards, and every device holds the sum.

Format: bfloat16; the published simulator's all_reduce and relu return tensors declared float32
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(1, 1))
def double(a: ttnn.Tensor, y: ttnn.Tensor):
    rows = a.shape[0] // 32  # the shard's rows in tilecraft, the whole tensor's in tt-lang-sim
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 2), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 2), block_count=1)

    @ttl.compute()
    def twice():
        for _ in range(rows):
            with a_dfb.wait() as a_blk, y_dfb.reserve() as y_blk:
                y_blk.store(a_blk + a_blk)

    @ttl.datamovement()
    def read():
        for r in range(rows):
            with a_dfb.reserve() as blk:
                ttl.copy(a[r, 0:2], blk).wait()

    @ttl.datamovement()
    def write():
        for r in range(rows):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[r, 0:2]).wait()


ttnn.set_fabric_config(ttnn.FabricConfig.FABRIC_1D)
mesh = ttnn.open_mesh_device(ttnn.MeshShape(1, 2))
a_host = bf16_exact((64, 64), seed=45, step=0.25)


def to_mesh(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=mesh,
                           mesh_mapper=ttnn.ShardTensorToMesh(mesh, dim=0))


a, y = to_mesh(a_host), to_mesh(torch.zeros(64, 64))
double(a, y)
summed = ttnn.relu(ttnn.all_reduce(y))
result = ttnn.to_torch(summed, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=0))
expected = torch.relu(2 * a_host[:32] + 2 * a_host[32:]).repeat(2, 1)
assert torch.equal(result.float(), expected)
save_outputs(y=summed, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=0))
ttnn.close_mesh_device(mesh)
