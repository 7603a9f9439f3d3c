"""ttnn tensor creation and queries on the host: ``rand`` and ``empty`` (shape, dtype, layout,
value range), ``Tensor.shape`` / ``.dtype`` / ``.layout``, memory configs (``get_memory_config``,
``is_sharded``, ``to_memory_config`` to ``L1_MEMORY_CONFIG``), ``synchronize_device``, the
device's ``compute_with_storage_grid_size()`` and ``GetNumAvailableDevices()`` (4 by default in
the published simulator), the layout constants ``ttl`` re-exports next to ``ttl.TILE_SHAPE``, and
``ttnn.TILE_SIZE`` / ``ttnn.TILE_SHAPE``.
Every answer is saved as a number.

Variants: rand empty properties memory_config device_grid device_count ttl_constants ttnn_constants
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

WHAT = sys.argv[1]
device = ttnn.open_device(device_id=0)
x = ttnn.from_torch(bf16_exact((64, 96), seed=48), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


def describe(t):
    """Shape, and 1 where the dtype and layout are the ones asked for."""
    return {"rows": t.shape[0], "cols": t.shape[1], "bfloat16": t.dtype == ttnn.bfloat16,
            "tile": t.layout == ttnn.TILE_LAYOUT}


if WHAT == "rand":
    torch.manual_seed(7)  # ttnn.rand draws from torch's generator: the same draws in every run
    r = ttnn.rand((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    values = ttnn.to_torch(r).float()
    answers = describe(r) | {"in_unit_interval": bool(((values >= 0) & (values < 1)).all())}
elif WHAT == "empty":
    answers = describe(ttnn.empty((32, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT, device))
elif WHAT == "properties":
    answers = describe(x) | {"float32": x.dtype == ttnn.float32, "row_major": x.layout == ttnn.ROW_MAJOR_LAYOUT}
elif WHAT == "memory_config":
    moved = ttnn.to_memory_config(x, ttnn.L1_MEMORY_CONFIG)
    ttnn.synchronize_device(device)
    answers = {"dram": ttnn.get_memory_config(x) == ttnn.DRAM_MEMORY_CONFIG, "sharded": ttnn.is_sharded(x),
               "l1": ttnn.get_memory_config(moved) == ttnn.L1_MEMORY_CONFIG,
               "same_values": bool(torch.equal(ttnn.to_torch(moved).float(), ttnn.to_torch(x).float()))}
elif WHAT == "ttl_constants":
    answers = {"tile_rows": ttl.TILE_SHAPE[0], "tile_cols": ttl.TILE_SHAPE[1],
               "tile": ttl.TILE_LAYOUT == ttnn.TILE_LAYOUT, "row_major": ttl.ROW_MAJOR_LAYOUT == ttnn.ROW_MAJOR_LAYOUT}
elif WHAT == "ttnn_constants":
    answers = {"tile_size": ttnn.TILE_SIZE, "tile_rows": ttnn.TILE_SHAPE[0], "tile_cols": ttnn.TILE_SHAPE[1]}
elif WHAT == "device_count":
    answers = {"devices": ttnn.GetNumAvailableDevices()}
else:
    grid = device.compute_with_storage_grid_size()
    answers = {"x": grid.x, "y": grid.y}
save_outputs(**answers)
ttnn.close_device(device)
