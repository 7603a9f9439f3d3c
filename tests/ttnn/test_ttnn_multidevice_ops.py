"""The multi-device surface models use: asynchronous collectives (all_gather_async,
reduce_scatter_minimal_async) with global semaphores, fast_reduce_nc after a gather, mesh mappers
from placements (create_mesh_mapper, distribute), and ttnn.cluster.get_cluster_type."""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn

torch.manual_seed(0)
X = torch.randn(1, 1, 32, 128)


@pytest.fixture
def mesh():
    ttnn.set_fabric_config(ttnn.FabricConfig.FABRIC_1D)
    opened = ttnn.open_mesh_device(ttnn.MeshShape(1, 4))
    yield opened
    ttnn.close_mesh_device(opened)
    ttnn.set_fabric_config(ttnn.FabricConfig.DISABLED)


def on_mesh(data: torch.Tensor, mesh, dim=None) -> ttnn.Tensor:
    mapper = ttnn.ShardTensorToMesh(mesh, dim=dim) if dim is not None else ttnn.ReplicateTensorToMesh(mesh)
    return ttnn.from_torch(data, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=mesh, mesh_mapper=mapper)


def per_device(t: ttnn.Tensor) -> list[torch.Tensor]:
    return [ttnn.to_torch(piece) for piece in ttnn.get_device_tensors(t)]


def test_all_gather_async_gathers_on_every_device(mesh):
    semaphore = ttnn.create_global_semaphore(mesh, ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0),
                                                                                     ttnn.CoreCoord(0, 0))]), 0)
    out = ttnn.experimental.all_gather_async(on_mesh(X, mesh, dim=3), dim=3, multi_device_global_semaphore=semaphore,
                                             num_links=1, topology="Linear")
    assert all(torch.equal(piece, X) for piece in per_device(out))


def test_reduce_scatter_sums_and_leaves_each_device_its_slice(mesh):
    parts = torch.randn(4, 1, 32, 128)
    stacked = ttnn.from_torch(parts, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=mesh,
                              mesh_mapper=ttnn.ShardTensorToMesh(mesh, dim=0))
    out = ttnn.experimental.reduce_scatter_minimal_async(stacked, dim=3, multi_device_global_semaphore=None)
    total = parts.sum(0, keepdim=True)
    for k, piece in enumerate(per_device(out)):
        assert torch.allclose(piece, total[..., 32 * k:32 * (k + 1)], atol=1e-5)


def test_fast_reduce_nc_adds_up_what_a_gather_stacked(mesh):
    gathered = ttnn.all_gather(on_mesh(torch.randn(4, 1, 32, 64), mesh, dim=0), dim=0)
    out = ttnn.experimental.fast_reduce_nc(gathered, dims=[0], output=None, compute_kernel_config=None)
    assert tuple(out.shape) == (1, 1, 32, 64)
    expected = torch.cat(per_device(gathered)[:1]).sum(0, keepdim=True)
    assert torch.allclose(per_device(out)[0], expected, atol=1e-5)


def test_create_mesh_mapper_and_distribute(mesh):
    mapper = ttnn.create_mesh_mapper(mesh, ttnn.MeshMapperConfig([ttnn.PlacementReplicate(), ttnn.PlacementShard(3)]))
    pieces = per_device(ttnn.from_torch(X, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=mesh,
                                        mesh_mapper=mapper))
    assert all(torch.equal(p, X[..., 32 * k:32 * (k + 1)]) for k, p in enumerate(pieces))
    with ttnn.distribute(ttnn.ShardTensorToMesh(mesh, dim=3)):
        inside = ttnn.as_tensor(X, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=mesh)
    assert [tuple(p.shape) for p in per_device(inside)] == [(1, 1, 32, 32)] * 4
    outside = ttnn.from_torch(X, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=mesh)
    assert [tuple(p.shape) for p in per_device(outside)] == [(1, 1, 32, 128)] * 4


@pytest.mark.parametrize(("devices", "arch", "expected"), [(1, "wormhole_b0", "N150"), (8, "wormhole_b0", "T3K"),
                                                           (2, "blackhole", "P150_X2"), (3, "wormhole_b0", "INVALID")])
def test_cluster_type_follows_the_simulated_system(devices, arch, expected):
    from tilecraft import session
    from tilecraft.options import RunOptions
    with session.using(options=RunOptions(arch=arch, devices=devices)):
        assert ttnn.cluster.get_cluster_type() is ttnn.cluster.ClusterType[expected]


def test_minimal_matmul_is_linear_with_its_k_blocks():
    a, w, b = torch.randn(1, 1, 64, 96), torch.randn(96, 64), torch.randn(64)
    tile = lambda t: ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)  # noqa: E731
    config = ttnn.MinimalMatmulConfig(M_block_size=2, K_block_size=1, N_block_size=2, subblock_h=1, subblock_w=2)
    out = ttnn.experimental.minimal_matmul(tile(a), tile(w), tile(b), config=config, compute_kernel_config=
                                           ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi4,
                                                                            fp32_dest_acc_en=True))
    expected = a.bfloat16().float() @ w.bfloat16().float() + b.bfloat16().float()
    assert torch.allclose(ttnn.to_torch(out).float(), expected, rtol=2 ** -7, atol=2e-2)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda m: ttnn.experimental.reduce_scatter_minimal_async(on_mesh(torch.randn(1, 1, 32, 90), m), dim=3),
     ValueError, "does not split evenly over 4 devices"),
    (lambda m: ttnn.experimental.fast_reduce_nc(on_mesh(X, m), dims=[2]), ValueError, "sums over the N and C dims"),
    (lambda m: ttnn.create_mesh_mapper(m, ttnn.MeshMapperConfig([ttnn.PlacementShard(0)] * 3)), ValueError,
     "one or two"),
    (lambda m: ttnn.distribute("replicate").__enter__(), TypeError, "takes a mesh mapper"),
    (lambda m: ttnn.create_global_semaphore(m, None, 0.5), TypeError, "initial_value is an int"),
    (lambda m: ttnn.cluster.get_device_ids(), AttributeError, "ttnn.cluster.get_device_ids is not a ttnn function"),
])
def test_bad_inputs_are_errors_naming_the_problem(mesh, call, error, message):
    with pytest.raises(error, match=message):
        call(mesh)
