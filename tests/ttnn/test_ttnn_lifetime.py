"""Buffer lifetimes and the host functions models call around their ops: deallocate, reallocate,
as_tensor, copy_host_to_device_tensor, get_device_tensors, the system queries, and
num_cores_to_corerangeset_in_subcoregrids."""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import UsageValueError

X = torch.randn(40, 64)


def test_reading_a_deallocated_tensor_is_an_error_naming_where_it_was_freed(device):
    x = ttnn.from_torch(X, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    y = ttnn.relu(x)
    ttnn.deallocate(x)
    line = test_reading_a_deallocated_tensor_is_an_error_naming_where_it_was_freed.__code__.co_firstlineno + 3
    assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(ttnn.relu(ttnn.from_torch(X, dtype=ttnn.bfloat16))))
    with pytest.raises(UsageValueError, match=rf"deallocated at .*test_ttnn_lifetime.py:{line}:"):
        ttnn.add(x, 1.0)
    assert "<deallocated>" in repr(x)


def test_reallocate_moves_the_values_and_frees_the_old_buffer(device):
    x = ttnn.from_torch(X, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    moved = ttnn.reallocate(x, ttnn.L1_MEMORY_CONFIG)
    assert ttnn.get_memory_config(moved) == ttnn.L1_MEMORY_CONFIG
    assert torch.equal(ttnn.to_torch(moved), X.bfloat16())
    with pytest.raises(ValueError, match="deallocated"):
        ttnn.to_torch(x)


def test_as_tensor_preprocesses_and_converts():
    weight = ttnn.as_tensor(X, dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT, preprocess=lambda t: t.T,
                            cache_file_name="/nonexistent/weights")
    assert tuple(weight.shape) == (64, 40) and weight.dtype is ttnn.bfloat8_b
    assert torch.allclose(ttnn.to_torch(weight).float(), X.T, atol=0.05, rtol=2 ** -6)


def test_copy_host_to_device_tensor_feeds_a_preallocated_input(device):
    target = ttnn.allocate_tensor_on_device(ttnn.Shape([40, 64]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device)
    ttnn.copy_host_to_device_tensor(ttnn.from_torch(X, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT), target)
    assert torch.equal(ttnn.to_torch(target), X.bfloat16())
    with pytest.raises(ValueError, match="differs from the device tensor"):
        ttnn.copy_host_to_device_tensor(ttnn.from_torch(X, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT), target)


def test_device_tensors_of_a_mesh_tensor_and_the_system_queries():
    mesh = ttnn.open_mesh_device(ttnn.MeshShape(1, 2))
    try:
        x = ttnn.from_torch(X, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=mesh,
                            mesh_mapper=ttnn.ShardTensorToMesh(mesh, dim=1))
        pieces = ttnn.get_device_tensors(x)
        assert [tuple(p.shape) for p in pieces] == [(40, 32), (40, 32)]
        assert torch.equal(ttnn.to_torch(pieces[1]), X[:, 32:].bfloat16())
    finally:
        ttnn.close_mesh_device(mesh)
    assert ttnn.get_arch_name() == "wormhole_b0" and ttnn.get_num_devices() == ttnn.GetNumAvailableDevices()


def test_cores_from_a_start_core_within_sub_grids():
    grids = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(1, 0), ttnn.CoreCoord(3, 1)),
                               ttnn.CoreRange(ttnn.CoreCoord(5, 0), ttnn.CoreCoord(6, 0))])
    picked = ttnn.num_cores_to_corerangeset_in_subcoregrids(ttnn.CoreCoord(2, 0), 6, grids, row_wise=True)
    # the first range's cores from (2, 0) on, row by row, then the second range's first core
    assert picked.num_cores() == 6 and set(ttnn.corerange_to_cores(picked)) == {
        ttnn.CoreCoord(2, 0), ttnn.CoreCoord(3, 0), ttnn.CoreCoord(1, 1), ttnn.CoreCoord(2, 1), ttnn.CoreCoord(3, 1),
        ttnn.CoreCoord(5, 0)}
    with pytest.raises(ValueError, match="do not fit"):
        ttnn.num_cores_to_corerangeset_in_subcoregrids(ttnn.CoreCoord(2, 0), 8, grids, row_wise=True)
    with pytest.raises(ValueError, match="is not in"):
        ttnn.num_cores_to_corerangeset_in_subcoregrids(ttnn.CoreCoord(4, 0), 1, grids)


def test_bad_arguments_are_type_errors():
    with pytest.raises(TypeError, match="ttnn.deallocate takes a ttnn.Tensor, got torch.Tensor"):
        ttnn.deallocate(X)
