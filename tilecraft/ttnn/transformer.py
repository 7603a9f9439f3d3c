"""``ttnn.transformer``: attention and the head reshuffles around it.

The ones tilecraft simulates are re-exported here from ``ops``; any other name is the E0540
diagnostic naming it (:func:`tilecraft.ttnn.surface.missing_attribute`).
"""

from __future__ import annotations

from .ops.attention import SDPAProgramConfig, scaled_dot_product_attention, scaled_dot_product_attention_decode
from .ops.heads import concatenate_heads, split_query_key_value_and_split_heads
from .surface import namespace_or_error

__all__ = ["SDPAProgramConfig", "scaled_dot_product_attention", "scaled_dot_product_attention_decode",
           "concatenate_heads", "split_query_key_value_and_split_heads"]


def __getattr__(name: str) -> object:
    return namespace_or_error("ttnn.transformer", name, globals())
