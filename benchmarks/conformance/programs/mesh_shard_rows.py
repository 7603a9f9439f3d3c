"""A kernel launched on a 1x2 mesh: ``a`` sharded by rows, ``b`` replicated, ``y`` sharded by rows,
gathered back with ``ConcatMeshToTensor``. The kernel sizes its loops from the tensors it gets:
the published simulator launches it once on the whole tensors, tilecraft once per device on its
shards (as ttnn does); a kernel written this way computes the same either way.

Also ``GetNumAvailableDevices``, ``set_fabric_config``, ``open_mesh_device`` /
``close_mesh_device``.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(1, 1))
def scale_rows(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    rows = a.shape[0] // 32
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def multiply():
        for _ in range(rows):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                y_blk.store(a_blk * b_blk)

    @ttl.datamovement()
    def read():
        for r in range(rows):
            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                ttl.copy(a[r, 0], a_blk).wait()
                ttl.copy(b[0, 0], b_blk).wait()

    @ttl.datamovement()
    def write():
        for r in range(rows):
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[r, 0]).wait()


assert ttnn.GetNumAvailableDevices() >= 2
ttnn.set_fabric_config(ttnn.FabricConfig.FABRIC_1D)
mesh = ttnn.open_mesh_device(ttnn.MeshShape(1, 2))
a_host = bf16_exact((128, 32), seed=43, step=0.25)
b_host = bf16_exact((32, 32), seed=44, step=0.25)


def to_mesh(t, mapper):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=mesh, mesh_mapper=mapper)


a = to_mesh(a_host, ttnn.ShardTensorToMesh(mesh, dim=0))
b = to_mesh(b_host, ttnn.ReplicateTensorToMesh(mesh))
y = to_mesh(torch.zeros(128, 32), ttnn.ShardTensorToMesh(mesh, dim=0))
scale_rows(a, b, y)
result = ttnn.to_torch(y, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=0))
assert torch.equal(result.float(), a_host * b_host.repeat(4, 1))
save_outputs(y=y, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=0))
ttnn.close_mesh_device(mesh)
