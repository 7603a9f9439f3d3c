"""``ttnn.experimental``: the ops ttnn keeps outside its stable namespace that models call anyway
(the attention-head reshuffles, rotary embeddings, KV-cache writes, asynchronous collectives).

The ones tilecraft simulates are re-exported here from ``ops``; any other name is the E0540
diagnostic naming it (:func:`tilecraft.ttnn.surface.missing_attribute`).
"""

from __future__ import annotations

from .ops.attn_matmul import attn_matmul, group_attn_matmul
from .ops.collectives import all_gather_async, reduce_scatter_minimal_async
from .ops.heads import nlp_concat_heads, nlp_create_qkv_heads
from .ops.kv_cache import paged_fill_cache, paged_update_cache
from .ops.matmul import minimal_matmul
from .ops.reduction import fast_reduce_nc
from .ops.rotary import rotary_embedding, rotary_embedding_llama
from .surface import namespace_or_error

__all__ = ["nlp_create_qkv_heads", "nlp_concat_heads", "paged_fill_cache", "paged_update_cache",
           "rotary_embedding", "rotary_embedding_llama", "fast_reduce_nc", "all_gather_async",
           "reduce_scatter_minimal_async", "minimal_matmul", "attn_matmul", "group_attn_matmul"]


def __getattr__(name: str) -> object:
    return namespace_or_error("ttnn.experimental", name, globals())
