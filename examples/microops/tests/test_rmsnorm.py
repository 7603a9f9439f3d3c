"""RMSNormHeightSharded against its torch golden, on 2x2 cores, with and without fp32 accumulation."""

import pytest
import torch
import ttnn
from shards import core_grid, sharded
from rmsnorm.op import RMSNormHeightSharded

from tilecraft.testing import comp_pcc


@pytest.mark.parametrize("width", [512, 1024])
@pytest.mark.parametrize("fp32_dest_acc_en", [False, True])
def test_rmsnorm(device, width, fp32_dest_acc_en):
    shard_rows, epsilon = 64, 1e-6          # two tile rows per core
    grid = core_grid(0, 0, 1, 1)
    torch.manual_seed(0)
    torch_input = torch.randn(4 * shard_rows, width).to(torch.bfloat16)
    torch_gamma = (torch.rand(1, width) + 0.5).to(torch.bfloat16)
    torch_expected = RMSNormHeightSharded.golden(torch_input, torch_gamma, epsilon)

    memory = sharded("height", grid, (shard_rows, width))
    x = ttnn.from_torch(torch_input, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=memory)
    out = ttnn.from_torch(torch.zeros_like(torch_input), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=memory)
    gamma = ttnn.from_torch(torch_gamma, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                            memory_config=ttnn.DRAM_MEMORY_CONFIG)

    result = RMSNormHeightSharded.op(x, gamma, out, epsilon=epsilon, fp32_dest_acc_en=fp32_dest_acc_en)

    # bfloat16 x^2 and x * (1/rms) intermediates, an SFPU rsqrt and a bf16 output: a few bf16 ulps.
    passing, pcc_message = comp_pcc(torch_expected, ttnn.to_torch(result).float(), 0.999)
    assert passing, pcc_message


def test_rmsnorm_rejects_an_interleaved_input(device):
    x = ttnn.from_torch(torch.zeros(64, 512), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                        memory_config=ttnn.L1_MEMORY_CONFIG)
    with pytest.raises(ValueError, match="height-sharded in L1"):
        RMSNormHeightSharded.op(x, x, x)
