"""``ttl.block``: block constructors, selection and shape operations (TT-Lang 1.1.6 spelling).

1.1.1 spelled ``fill``/``broadcast`` under ``ttl.math``; both names reach the same handlers.
"""

from __future__ import annotations

from . import math as _math

fill = _math.fill
broadcast = _math.broadcast
reduce_sum = _math.reduce_sum
reduce_max = _math.reduce_max
transpose = _math.transpose
where = _math.where
mask = _math.mask
mask_posinf = _math.mask_posinf
squeeze = _math.squeeze
unsqueeze = _math.unsqueeze
