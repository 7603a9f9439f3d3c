"""Meshes: sharding, replication and concatenation round trips, per-device ops and collectives."""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft import options, session


@pytest.fixture(autouse=True)
def eight_devices():
    """A T3K-sized system (tilecraft run --devices 8) for the meshes below."""
    with session.using(devices=8):
        yield


@pytest.fixture
def fabric():
    """Open meshes with a 1D fabric, as the tutorials do, and put the default back afterwards."""
    ttnn.set_fabric_config(ttnn.FabricConfig.FABRIC_1D)
    yield
    ttnn.set_fabric_config(ttnn.FabricConfig.DISABLED)


def open_mesh(rows: int, cols: int) -> ttnn.MeshDevice:
    return ttnn.open_mesh_device(ttnn.MeshShape(rows, cols))


def bf16_tiles(data: torch.Tensor, mesh: ttnn.MeshDevice, mapper) -> ttnn.Tensor:
    return ttnn.from_torch(data, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=mesh,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG, mesh_mapper=mapper)


def test_the_default_system_has_four_devices_as_the_published_simulator(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(options.DEVICES_VARIABLE, raising=False)
    with session.using(options.RunOptions()):
        assert ttnn.GetNumAvailableDevices() == 4
        with pytest.raises(ValueError, match="needs 8 devices; the simulated system has 4") as info:
            open_mesh(1, 8)
    assert "--devices" in info.value.hint
    monkeypatch.setenv(options.DEVICES_VARIABLE, "2")
    assert options.RunOptions().devices == 2
    monkeypatch.setenv(options.DEVICES_VARIABLE, "many")
    with pytest.raises(ValueError, match="TILECRAFT_DEVICES must be a positive number"):
        options.RunOptions()


def test_simulated_system_has_eight_devices_when_asked():
    assert ttnn.GetNumAvailableDevices() == 8
    mesh = open_mesh(1, 8)
    assert mesh.get_num_devices() == 8 and mesh.shape == ttnn.MeshShape(1, 8) == (1, 8)
    assert mesh.get_device_ids() == list(range(8))
    assert mesh.compute_with_storage_grid_size() == ttnn.CoreCoord(8, 8)
    with pytest.raises(ValueError, match="needs 16 devices"):
        open_mesh(2, 8)


@pytest.mark.parametrize("n", [4, 8])
@pytest.mark.parametrize("dim", [0, 1])
def test_shard_and_concat_round_trip(n, dim):
    mesh = open_mesh(1, n)
    data = torch.randn(32 * n, 48 * n, dtype=torch.bfloat16)
    t = bf16_tiles(data, mesh, ttnn.ShardTensorToMesh(mesh, dim=dim))
    assert t.is_mesh and t.device() is mesh and t.mesh_device is mesh
    expected_shape = (32, 48 * n) if dim == 0 else (32 * n, 48)
    assert t.shape == expected_shape
    pieces = torch.chunk(data, n, dim)
    for i, device_tensor in enumerate(t.device_tensors()):
        assert device_tensor.device() is mesh.get_devices()[i] and not device_tensor.is_mesh
        assert torch.equal(ttnn.to_torch(device_tensor), pieces[i])
    assert len({id(d.storage) for d in t.device_tensors()}) == n
    assert torch.equal(ttnn.to_torch(t, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=dim)), data)


def test_replicate_gives_every_device_its_own_copy():
    mesh = open_mesh(1, 4)
    data = torch.randn(32, 64, dtype=torch.bfloat16)
    t = bf16_tiles(data, mesh, ttnn.ReplicateTensorToMesh(mesh))
    assert t.shape == (32, 64)
    t.device_tensors()[0].storage.zero_()
    assert torch.equal(ttnn.to_torch(t.device_tensors()[1]), data)
    joined = ttnn.to_torch(t, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=0))
    assert joined.shape == (128, 64) and torch.equal(joined[32:64], data)


def test_a_mesh_device_without_mapper_replicates():
    mesh = open_mesh(1, 2)
    t = ttnn.from_torch(torch.ones(4, 4), device=mesh)
    assert t.is_mesh and t.shape == (4, 4) and len(t.device_tensors()) == 2


def test_mesh_tensor_errors():
    mesh = open_mesh(1, 4)
    t = bf16_tiles(torch.zeros(128, 32), mesh, ttnn.ShardTensorToMesh(mesh, dim=0))
    with pytest.raises(TypeError, match="device_tensors"):
        t.storage
    with pytest.raises(ValueError, match="mesh_composer"):
        ttnn.to_torch(t)
    with pytest.raises(ValueError, match="does not split evenly over 4 devices"):
        bf16_tiles(torch.zeros(90, 32), mesh, ttnn.ShardTensorToMesh(mesh, dim=0))
    with pytest.raises(ValueError, match="same mesh"):
        ttnn.add(t, ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT))
    with pytest.raises(ValueError, match="cannot move to a mesh"):
        ttnn.from_torch(torch.zeros(2)).to(mesh)


def test_ops_on_mesh_tensors_run_per_device():
    mesh = open_mesh(1, 4)
    data = torch.randn(128, 64)
    a = bf16_tiles(data, mesh, ttnn.ShardTensorToMesh(mesh, dim=0))
    result = ttnn.relu(ttnn.add(a, a))
    assert result.is_mesh and result.shape == (32, 64) and result.device() is mesh
    assert [d.device() for d in result.device_tensors()] == mesh.get_devices()
    joined = ttnn.to_torch(result, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=0))
    assert torch.equal(joined, torch.relu(2 * data.to(torch.bfloat16)))


def test_all_reduce_sums_over_devices_and_replicates(fabric):
    mesh = open_mesh(1, 8)
    partials = torch.randn(8 * 32, 64)
    t = bf16_tiles(partials, mesh, ttnn.ShardTensorToMesh(mesh, dim=0))
    reduced = ttnn.all_reduce(t)
    expected = partials.to(torch.bfloat16).float().reshape(8, 32, 64).sum(0).to(torch.bfloat16)
    assert reduced.shape == (32, 64) and reduced.dtype is ttnn.bfloat16
    storages = set()
    for device_tensor, device in zip(reduced.device_tensors(), mesh.get_devices()):
        assert device_tensor.device() is device and torch.equal(ttnn.to_torch(device_tensor), expected)
        storages.add(id(device_tensor.storage))
    assert len(storages) == 8


def test_all_reduce_over_one_mesh_axis(fabric):
    mesh = open_mesh(2, 4)
    values = torch.arange(8, dtype=torch.float32).repeat_interleave(32).reshape(8 * 32, 1).expand(-1, 32)
    t = ttnn.from_torch(values.contiguous(), layout=ttnn.TILE_LAYOUT, device=mesh,
                        mesh_mapper=ttnn.ShardTensorToMesh(mesh, dim=0))
    per_device = [ttnn.to_torch(d)[0, 0].item() for d in ttnn.all_reduce(t, cluster_axis=1).device_tensors()]
    assert per_device == [6.0] * 4 + [22.0] * 4  # rows {0,1,2,3} and {4,5,6,7}
    per_device = [ttnn.to_torch(d)[0, 0].item() for d in ttnn.all_reduce(t, cluster_axis=0).device_tensors()]
    assert per_device == [4.0, 6.0, 8.0, 10.0] * 2  # columns {0,4}, {1,5}, ...


def test_all_gather(fabric):
    mesh = open_mesh(1, 4)
    data = torch.randn(32, 4 * 64, dtype=torch.bfloat16)
    gathered = ttnn.all_gather(bf16_tiles(data, mesh, ttnn.ShardTensorToMesh(mesh, dim=1)), dim=1)
    assert gathered.shape == (32, 256)
    assert all(torch.equal(ttnn.to_torch(d), data) for d in gathered.device_tensors())


def test_collectives_need_a_fabric_and_a_mesh():
    ttnn.set_fabric_config(ttnn.FabricConfig.DISABLED)
    mesh = open_mesh(1, 4)
    t = bf16_tiles(torch.zeros(128, 32), mesh, ttnn.ShardTensorToMesh(mesh, dim=0))
    with pytest.raises(RuntimeError, match="set_fabric_config"):
        ttnn.all_reduce(t)
    single = ttnn.from_torch(torch.zeros(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    with pytest.raises(ValueError, match="mesh_mapper"):
        ttnn.all_reduce(single)


def test_shard_k_matmul_then_all_reduce_like_tutorial_step_7(fabric):
    mesh = open_mesh(1, 4)
    a, b = torch.randn(64, 4 * 64, dtype=torch.bfloat16), torch.randn(4 * 64, 32, dtype=torch.bfloat16)
    ta = bf16_tiles(a, mesh, ttnn.ShardTensorToMesh(mesh, dim=1))
    tb = bf16_tiles(b, mesh, ttnn.ShardTensorToMesh(mesh, dim=0))
    y = ttnn.relu(ttnn.all_reduce(ttnn.matmul(ta, tb)))
    ys = ttnn.to_torch(y, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=0))
    expected = torch.relu(a.float() @ b.float())
    for i in range(4):
        assert torch.allclose(ys[i * 64:(i + 1) * 64].float(), expected, rtol=5e-2, atol=0.3)


def test_closing_a_mesh_closes_its_devices():
    mesh = open_mesh(1, 2)
    ttnn.close_device(mesh)
    assert not mesh.is_open and not any(d.is_open for d in mesh.get_devices())
    with pytest.raises(ValueError, match="closed"):
        ttnn.from_torch(torch.zeros(2), device=mesh)


def test_shard_2d_mesh_splits_rows_over_mesh_rows_and_columns_over_mesh_columns():
    mesh = open_mesh(2, 2)
    data = torch.arange(64 * 128, dtype=torch.float32).reshape(64, 128)
    t = ttnn.from_torch(data, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=mesh,
                        mesh_mapper=ttnn.ShardTensor2dMesh(mesh, mesh_shape=(2, 2), dims=(0, 1)))
    assert t.shape == (32, 64)
    pieces = [ttnn.to_torch(d) for d in t.device_tensors()]  # device r * 2 + c holds block (r, c)
    assert torch.equal(pieces[1], data[:32, 64:]) and torch.equal(pieces[2], data[32:, :64])
    columns_only = ttnn.from_torch(data, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=mesh,
                                   mesh_mapper=ttnn.ShardTensor2dMesh(mesh, mesh_shape=(2, 2), dims=(None, 1)))
    assert [torch.equal(ttnn.to_torch(d), data[:, 64 * (i % 2):64 * (i % 2 + 1)])
            for i, d in enumerate(columns_only.device_tensors())] == [True] * 4


def test_shard_2d_mesh_checks_its_shape_and_the_split():
    mesh = open_mesh(2, 2)
    with pytest.raises(ValueError, match=r"mesh_shape \(1, 4\) is not the shape of"):
        ttnn.ShardTensor2dMesh(mesh, mesh_shape=(1, 4), dims=(0, 1))
    with pytest.raises(ValueError, match="does not split evenly over 2 devices"):
        ttnn.from_torch(torch.ones(33, 64), dtype=ttnn.float32, device=mesh,
                        mesh_mapper=ttnn.ShardTensor2dMesh(mesh, mesh_shape=(2, 2), dims=(0, 1)))
