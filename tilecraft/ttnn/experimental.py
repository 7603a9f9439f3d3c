"""``ttnn.experimental``: the ops ttnn keeps outside its stable namespace that models call anyway
(the attention-head reshuffles, rotary embeddings, KV-cache writes, asynchronous collectives).

The ones tilecraft simulates are re-exported here from ``ops``; any other name is the E0540
diagnostic naming it (:func:`tilecraft.ttnn.surface.missing_attribute`).
"""

from __future__ import annotations

from .surface import namespace_or_error


def __getattr__(name: str) -> object:
    return namespace_or_error("ttnn.experimental", name, globals())
