"""MatmulWidthShardedWeight: [1, K] x [K, N] with the weight width-sharded over 8 and 16 cores."""

import pytest
import torch
import ttnn
from shards import core_grid, sharded
from matmul.op import MatmulWidthShardedWeight

from tilecraft.testing import comp_pcc


@pytest.mark.parametrize("k, n, weight_grid", [(1024, 1024, (0, 0, 7, 0)), (512, 2048, (0, 0, 7, 1))],
                         ids=["8_cores", "16_cores"])
@pytest.mark.parametrize("fp32_dest_acc_en", [False, True])
def test_matmul(device, k, n, weight_grid, fp32_dest_acc_en):
    cores = core_grid(*weight_grid)
    shard_n = n // cores.num_cores()
    torch.manual_seed(0)
    torch_act = torch.randn(1, k).to(torch.bfloat16)
    torch_weight = torch.randn(k, n).to(torch.bfloat16)
    torch_expected = MatmulWidthShardedWeight.golden(torch_act, torch_weight)

    act = ttnn.from_torch(torch_act, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=sharded("height", core_grid(0, 4, 0, 4), (32, k)))
    weight = ttnn.from_torch(torch_weight, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                             memory_config=sharded("width", cores, (k, shard_n)))
    out = ttnn.from_torch(torch.zeros(1, n), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=sharded("width", cores, (32, shard_n)))

    result = MatmulWidthShardedWeight.op(act, weight, out, fp32_dest_acc_en=fp32_dest_acc_en)

    # Products are exact; the sums over K are kept in fp32 (fp32_dest_acc_en) or bfloat16 in DST.
    passing, pcc_message = comp_pcc(torch_expected, ttnn.to_torch(result).float(), 0.9999 if fp32_dest_acc_en else 0.999)
    assert passing, pcc_message


def test_matmul_rejects_more_output_tiles_than_dst_holds(device):
    cores = core_grid(0, 0, 0, 0)
    act = ttnn.from_torch(torch.zeros(1, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=sharded("height", cores, (32, 64)))
    weight = ttnn.from_torch(torch.zeros(64, 320), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                             memory_config=sharded("width", cores, (64, 320)))
    out = ttnn.from_torch(torch.zeros(1, 320), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=sharded("width", cores, (32, 320)))
    with pytest.raises(ValueError, match="do not fit in half of DST"):
        MatmulWidthShardedWeight.op(act, weight, out)
