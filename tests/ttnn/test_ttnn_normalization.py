"""layer_norm, rms_norm and the distributed RMSNorm against torch: fp32 intermediates by default,
bfloat16 ones without fp32 DST, ttnn's shape and layout checks."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from tests.ttnn.values import bf16, tile, values
import tilecraft.ttnn as ttnn

torch.manual_seed(0)
X, RESIDUAL = torch.randn(2, 40, 96) * 3 + 1, torch.randn(2, 40, 96)
GAMMA, BETA = torch.rand(96) + 0.5, torch.randn(96)
BF16_DST = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=False)


def rms_reference(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def test_layer_norm_with_residual_weight_and_bias_is_one_rounding_of_torch():
    out = ttnn.layer_norm(tile(X), residual_input_tensor=tile(RESIDUAL), weight=tile(GAMMA), bias=tile(BETA),
                          epsilon=1e-5)
    expected = F.layer_norm(bf16(X) + bf16(RESIDUAL), (96,), bf16(GAMMA), bf16(BETA), eps=1e-5)
    assert out.dtype is ttnn.bfloat16 and torch.allclose(values(out), expected, rtol=2 ** -8, atol=2 ** -8)


def test_rms_norm_with_a_row_major_weight_in_rows_of_32():
    weight = ttnn.from_torch(GAMMA.reshape(1, 1, 3, 32), dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT)
    out = ttnn.rms_norm(tile(X), weight=weight, epsilon=1e-6)
    assert torch.allclose(values(out), rms_reference(bf16(X), bf16(GAMMA), 1e-6), rtol=2 ** -8, atol=2 ** -8)


def test_without_fp32_dst_the_intermediates_are_bfloat16():
    exact = F.layer_norm(bf16(X), (96,), eps=1e-5)
    fp32 = values(ttnn.layer_norm(tile(X), epsilon=1e-5))
    bf16_dst = values(ttnn.layer_norm(tile(X), epsilon=1e-5, compute_kernel_config=BF16_DST))
    assert (bf16_dst - exact).abs().max() > (fp32 - exact).abs().max()
    assert torch.allclose(bf16_dst, exact, rtol=2 ** -5, atol=2 ** -5)


def test_distributed_rms_norm_over_a_mesh_equals_the_whole_row_norm():
    ttnn.set_fabric_config(ttnn.FabricConfig.FABRIC_1D)
    mesh = ttnn.open_mesh_device(ttnn.MeshShape(1, 2))
    try:
        x = ttnn.from_torch(X, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=mesh,
                            mesh_mapper=ttnn.ShardTensorToMesh(mesh, dim=-1))
        gamma = ttnn.from_torch(GAMMA, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=mesh,
                                mesh_mapper=ttnn.ShardTensorToMesh(mesh, dim=-1))
        stats = ttnn.rms_norm_pre_all_gather(x)
        assert tuple(stats.shape) == (2, 40, 32)
        gathered = ttnn.all_gather(stats, dim=-1)
        out = ttnn.rms_norm_post_all_gather(x, gathered, epsilon=1e-6, weight=gamma)
        joined = ttnn.to_torch(out, mesh_composer=ttnn.ConcatMeshToTensor(mesh, dim=-1)).float()
        assert torch.allclose(joined, rms_reference(bf16(X), bf16(GAMMA), 1e-6), rtol=2 ** -7, atol=2 ** -7)
    finally:
        ttnn.close_mesh_device(mesh)
        ttnn.set_fabric_config(ttnn.FabricConfig.DISABLED)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ttnn.layer_norm(ttnn.from_torch(X, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT)), ValueError,
     "ttnn.layer_norm: the input must be in tile layout"),
    (lambda: ttnn.rms_norm(tile(X), weight=tile(torch.ones(64))), ValueError, r"must be as wide as the input's last dim \(96\)"),
    (lambda: ttnn.layer_norm(tile(X), residual_input_tensor=tile(X[:1])), ValueError, "must have the input's shape"),
    (lambda: ttnn.rms_norm(tile(X), weight=ttnn.from_torch(GAMMA.reshape(6, 16), dtype=ttnn.bfloat16,
                                                            layout=ttnn.ROW_MAJOR_LAYOUT)), ValueError, "rows of 32"),
    (lambda: ttnn.layer_norm(tile(X), weight=GAMMA), TypeError, "the weight must be a ttnn.Tensor, got torch.Tensor"),
    (lambda: ttnn.rms_norm_post_all_gather(tile(X), tile(torch.ones(2, 40, 40))), ValueError, "whole tiles"),
])
def test_bad_inputs_are_errors_naming_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()


IMAGE = torch.randn(2, 1, 64, 96)  # N, 1, H*W, C
GN_GAMMA, GN_BETA = torch.rand(96) + 0.5, torch.randn(96)


def packed(values: torch.Tensor, cores: int) -> ttnn.Tensor:
    return ttnn.from_torch(ttnn.create_group_norm_weight_bias_rm(values, 96, cores), dtype=ttnn.bfloat16,
                           layout=ttnn.ROW_MAJOR_LAYOUT)


def test_create_group_norm_weight_bias_rm_pads_each_cores_share_to_rows_of_32():
    rows = ttnn.create_group_norm_weight_bias_rm(torch.arange(96.0), 96, 2)
    assert rows.shape == (1, 1, 4, 32)
    assert torch.equal(rows[0, 0, :2].reshape(-1)[:48], torch.arange(48.0)) and not rows[0, 0, 1, 16:].any()
    assert torch.equal(rows[0, 0, 2:].reshape(-1)[:48], torch.arange(48.0, 96.0))


@pytest.mark.parametrize(("memory_config", "core_grid", "cores"), [
    (None, None, 1),
    (ttnn.MemoryConfig(ttnn.TensorMemoryLayout.BLOCK_SHARDED, ttnn.BufferType.L1,
                       ttnn.ShardSpec(ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 1))]),
                                      (64, 48), ttnn.ShardOrientation.ROW_MAJOR)), ttnn.CoreGrid(y=2, x=2), 2),
])
def test_group_norm_matches_torch(memory_config, core_grid, cores):
    out = ttnn.group_norm(tile(IMAGE), num_groups=8, epsilon=1e-5, weight=packed(GN_GAMMA, cores),
                          bias=packed(GN_BETA, cores), memory_config=memory_config, core_grid=core_grid)
    images = bf16(IMAGE).reshape(2, 64, 96).permute(0, 2, 1)
    expected = F.group_norm(images, 8, bf16(GN_GAMMA), bf16(GN_BETA), eps=1e-5).permute(0, 2, 1).reshape(2, 1, 64, 96)
    assert torch.allclose(values(out), expected, rtol=2 ** -7, atol=2 ** -7)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ttnn.group_norm(tile(IMAGE), num_groups=7), ValueError, "96 channels do not split into 7 groups"),
    (lambda: ttnn.group_norm(tile(IMAGE), num_groups=8, weight=packed(GN_GAMMA, 2)), ValueError,
     "laid out by ttnn.create_group_norm_weight_bias_rm for 1 core"),
    (lambda: ttnn.group_norm(tile(IMAGE), num_groups=8, dtype=ttnn.float32), ValueError, "must be the input's"),
    (lambda: ttnn.create_group_norm_weight_bias_rm(torch.ones(90), 96, 2), ValueError, "90 values for 96 channels"),
])
def test_group_norm_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_group_norm_input_mask_marks_each_groups_columns_within_its_tiles():
    mask = ttnn.create_group_norm_input_mask(96, 8, 1, ttnn.bfloat8_b)
    assert tuple(mask.shape) == (1, 8, 32, 64) and mask.dtype is ttnn.bfloat8_b and mask.layout is ttnn.TILE_LAYOUT
    held = values(mask)
    for group in range(8):  # 12 channels a group: its offset in its first tile is 12 * group mod 32
        start = 12 * group % 32
        expected = torch.zeros(64)
        expected[start:start + 12] = 1
        assert torch.equal(held[0, group], expected.expand(32, 64)), group
    per_core = values(ttnn.create_group_norm_input_mask(96, 8, 2))  # 4 groups per core: offsets restart
    assert torch.equal(per_core[0, 4], per_core[0, 0])
    out = ttnn.group_norm(tile(IMAGE), num_groups=8, epsilon=1e-5, input_mask=mask)
    images = bf16(IMAGE).reshape(2, 64, 96).permute(0, 2, 1)
    expected = F.group_norm(images, 8, eps=1e-5).permute(0, 2, 1).reshape(2, 1, 64, 96)
    assert torch.allclose(values(out), expected, rtol=2 ** -7, atol=2 ** -7)
    with pytest.raises(ValueError, match="do not split evenly"):
        ttnn.create_group_norm_input_mask(96, 7, 1)


@pytest.mark.parametrize(("channels", "groups", "rows", "height", "row_major", "layout", "shard", "grid", "orientation"), [
    # block: the rows over one grid line (the largest divisor of their 128 tiles up to 8), the channels over
    # the other, halving the channel cores until each holds a multiple of 32 channels (40 -> 80 -> 160)
    (320, 32, 4096, False, False, ttnn.TensorMemoryLayout.BLOCK_SHARDED, (160, 512), (8, 2),
     ttnn.ShardOrientation.COL_MAJOR),
    (64, 2, 32, True, True, ttnn.TensorMemoryLayout.HEIGHT_SHARDED, (32, 64), (1, 1), ttnn.ShardOrientation.ROW_MAJOR),
    # height: the 96 row tiles over 48 cores (the largest divisor up to 64), 8 wide and 6 high; without
    # is_row_major the shard is written (channels, rows), as the rule has it
    (128, 4, 32 * 96, True, False, ttnn.TensorMemoryLayout.HEIGHT_SHARDED, (128, 64), (8, 6),
     ttnn.ShardOrientation.ROW_MAJOR),
])
def test_expected_group_norm_sharding(device, channels, groups, rows, height, row_major, layout, shard, grid,
                                      orientation):
    config, core_grid = ttnn.determine_expected_group_norm_sharded_config_and_grid_size(
        device=device, num_channels=channels, num_groups=groups, input_nhw=rows, is_height_sharded=height,
        is_row_major=row_major)
    assert config.memory_layout is layout and config.shard_spec.shape == shard
    assert (core_grid.x, core_grid.y) == grid and config.shard_spec.orientation is orientation
    assert config.shard_spec.num_cores() == grid[0] * grid[1]


def test_expected_group_norm_sharding_needs_whole_tiles_of_channels(device):
    with pytest.raises(ValueError, match="multiple of 32"):
        ttnn.determine_expected_group_norm_sharded_config_and_grid_size(
            device=device, num_channels=96 + 8, num_groups=8, input_nhw=64, is_height_sharded=True)
