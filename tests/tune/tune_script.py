"""A script as a user runs it with ``tilecraft tune``: it calls the tuned operation at a real size."""

import tilecraft.ttnn as ttnn
from scale_op import scale

x = ttnn.zeros((128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
scale(x, y)
