"""``ttnn.all_gather`` on a 1x2 mesh after a kernel: ``ShardTensorToMesh`` by columns, each
device's kernel adds one to its shard, the gathered result is read back with
``ConcatMeshToTensor``.

(A 2-D mesh cannot be compared: 1.1.6 keeps one whole tensor for a mesh tensor and ignores the
composer, and has no ``ConcatMesh2dToTensor``.)

Format: bfloat16; the published simulator's all_gather returns tensors declared float32
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


@ttl.operation(grid=(1, 1))
def increment(a: ttnn.Tensor, y: ttnn.Tensor):
    rows, cols = a.shape[0] // 32, a.shape[1] // 32  # per device in tilecraft, whole in tt-lang-sim
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def plus_one():
        for _ in range(rows * cols):
            with a_dfb.wait() as a_blk, y_dfb.reserve() as y_blk:
                y_blk.store(1.0 + a_blk)

    @ttl.datamovement()
    def read():
        for r in range(rows):
            for c in range(cols):
                with a_dfb.reserve() as blk:
                    ttl.copy(a[r, c], blk).wait()

    @ttl.datamovement()
    def write():
        for r in range(rows):
            for c in range(cols):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[r, c]).wait()


ttnn.set_fabric_config(ttnn.FabricConfig.FABRIC_1D)
mesh = ttnn.open_mesh_device(ttnn.MeshShape(1, 2))
mapper = ttnn.ShardTensorToMesh(mesh, dim=1)
a_host = bf16_exact((64, 128), seed=56, step=0.25)


def to_mesh(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=mesh, mesh_mapper=mapper)


a, y = to_mesh(a_host), to_mesh(torch.zeros(64, 128))
increment(a, y)
gathered = ttnn.all_gather(y, dim=1)
save_outputs(y=gathered, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=1))
ttnn.close_mesh_device(mesh)
