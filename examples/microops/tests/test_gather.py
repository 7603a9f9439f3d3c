"""GatherSingleCore: row shards of 8 cores into one core, outside and inside the sender grid."""

import pytest
import torch
import ttnn
from shards import core_grid, sharded
from gather.op import GatherSingleCore

from tilecraft.testing import comp_pcc


@pytest.mark.parametrize("gather_core", [(5, 4), (2, 1)],
                         ids=["outside_senders", "one_of_the_senders"])
@pytest.mark.parametrize("shard_shape", [(32, 256), (64, 128)])
def test_gather(device, gather_core, shard_shape):
    senders = core_grid(0, 0, 3, 1)                      # 8 cores, shards handed out row by row
    rows = 8 * shard_shape[0]
    torch.manual_seed(0)
    torch_input = torch.randn(rows, shard_shape[1]).to(torch.bfloat16)
    torch_expected = GatherSingleCore.golden(torch_input)

    x = ttnn.from_torch(torch_input, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                        memory_config=sharded("height", senders, shard_shape))
    out = ttnn.from_torch(torch.zeros_like(torch_input), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=sharded("height", core_grid(*gather_core, *gather_core), (rows, shard_shape[1])))

    result = ttnn.to_torch(GatherSingleCore.op(x, out))

    passing, pcc_message = comp_pcc(torch_expected, result, 0.9999)
    assert passing, pcc_message
    assert torch.equal(result, torch_expected), "data movement must be bit exact"


def test_gather_needs_a_single_core_output(device):
    grid = core_grid(0, 0, 1, 0)
    x = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                        memory_config=sharded("height", grid, (32, 64)))
    with pytest.raises(ValueError, match="exactly one core"):
        GatherSingleCore.op(x, x)
