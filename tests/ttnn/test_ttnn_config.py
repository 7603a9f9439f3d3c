"""Devices, memory configs, core sets and enumerations."""

from __future__ import annotations

import pytest

import tilecraft.ttnn as ttnn


def test_device_reports_wormhole_8x8():
    device = ttnn.open_device(device_id=0, l1_small_size=8192)  # tuning options are accepted
    assert device.arch() == "wormhole_b0" and str(device.arch()) == "wormhole_b0"
    assert device.arch() is ttnn.Arch.WORMHOLE_B0
    assert device.compute_with_storage_grid_size() == ttnn.CoreCoord(8, 8) and device.id() == 0
    ttnn.close_device(device)
    assert not device.is_open
    with pytest.raises(ValueError, match="has 4 devices"):
        ttnn.open_device(device_id=4)
    with pytest.raises(TypeError, match="open_device"):
        ttnn.close_device("device 0")


def test_fabric_config_is_recorded_on_meshes_opened_after_it():
    ttnn.set_fabric_config(ttnn.FabricConfig.FABRIC_1D_RING)
    try:
        assert ttnn.open_mesh_device(ttnn.MeshShape(1, 2)).fabric_config is ttnn.FabricConfig.FABRIC_1D_RING
    finally:
        ttnn.set_fabric_config(ttnn.FabricConfig.DISABLED)
    assert ttnn.open_mesh_device(ttnn.MeshShape((1, 2))).fabric_config is ttnn.FabricConfig.DISABLED
    assert {c.name for c in ttnn.FabricConfig} == {"DISABLED", "FABRIC_1D", "FABRIC_1D_RING", "FABRIC_2D"}
    with pytest.raises(TypeError, match="FabricConfig"):
        ttnn.set_fabric_config("FABRIC_1D")
    with pytest.raises(ValueError, match="rows, cols"):
        ttnn.MeshShape(0, 4)


def test_memory_configs():
    assert ttnn.DRAM_MEMORY_CONFIG == ttnn.MemoryConfig(ttnn.TensorMemoryLayout.INTERLEAVED, ttnn.BufferType.DRAM)
    assert ttnn.L1_MEMORY_CONFIG.buffer_type is ttnn.BufferType.L1 and not ttnn.L1_MEMORY_CONFIG.is_sharded()
    grid = ttnn.CoreRangeSet({ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(7, 7))})
    spec = ttnn.ShardSpec(grid, [256, 64], ttnn.ShardOrientation.ROW_MAJOR)
    sharded = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, spec)
    assert sharded.is_sharded() and sharded.shard_spec.shape == (256, 64) and spec.num_cores() == 64
    assert repr(ttnn.DRAM_MEMORY_CONFIG).startswith("MemoryConfig(memory_layout=TensorMemoryLayout.INTERLEAVED")
    with pytest.raises(ValueError, match="interleaved"):
        ttnn.MemoryConfig(ttnn.TensorMemoryLayout.INTERLEAVED, ttnn.BufferType.L1, spec)
    with pytest.raises(ValueError, match="shard shape"):
        ttnn.ShardSpec(grid, [256], ttnn.ShardOrientation.ROW_MAJOR)
    with pytest.raises(TypeError, match="MemoryConfig"):
        ttnn.from_device(ttnn.zeros((2, 2))).to(ttnn.open_device(), memory_config="L1")


def test_core_range_sets():
    a = ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 1))
    b = ttnn.CoreRange(ttnn.CoreCoord(0, 2), ttnn.CoreCoord(0, 2))
    cores = ttnn.CoreRangeSet({b, a})  # a set is ordered by first cores, row by row
    assert cores.num_cores() == 9 and cores.ranges() == [a, b]
    assert ttnn.CoreRangeSet([b, a]).ranges() == [b, a]  # a list keeps its order, as in ttnn
    assert cores.bounding_box() == ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 2))
    assert cores.contains(ttnn.CoreCoord(3, 1)) and not cores.contains(ttnn.CoreCoord(3, 2))
    assert cores.contains(ttnn.CoreRange(ttnn.CoreCoord(1, 0), ttnn.CoreCoord(2, 1)))
    assert a.grid_size() == ttnn.CoreCoord(4, 2)
    with pytest.raises(ValueError, match="overlap"):
        ttnn.CoreRangeSet([a, ttnn.CoreRange(ttnn.CoreCoord(1, 1), ttnn.CoreCoord(4, 4))])
    with pytest.raises(ValueError, match="before its start"):
        ttnn.CoreRange(ttnn.CoreCoord(2, 2), ttnn.CoreCoord(1, 1))


def test_enumerations_and_constants():
    assert ttnn.TILE_SIZE == 32 and ttnn.TILE_LAYOUT is ttnn.Layout.TILE
    assert [f.phases for f in ttnn.MathFidelity] == [1, 2, 3, 4]
    assert ttnn.MathFidelity.HiFi4.name == "HiFi4"
    assert repr(ttnn.bfloat16) == "DataType.BFLOAT16" and repr(ttnn.TILE_LAYOUT) == "Layout.TILE"
