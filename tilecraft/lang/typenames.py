"""Type names of the published TT-Lang API, for the annotations programs write with them.

``def send(pipe: ttl.SrcPipeIdentity[ttl.NodeRange]) -> None`` in kernel scope or at module level
is evaluated by Python when the function is defined, so every name such an annotation uses must
exist. They mean what the TT-Lang specification says (a node coordinate is an int or a tuple of
ints, a node range has an int or a slice per dimension, ...); tilecraft checks the values
themselves where they are used, not through these names.
"""

from __future__ import annotations

from typing import Generic, TypeVar, Union

from . import scope

#: a positive extent, and a non-negative index
Size = int
Index = int
#: node coordinates: an int (a linear node index) or one int per grid dimension
NodeCoord = Union[int, tuple[int, ...]]
#: a node range: one int or slice per grid dimension
NodeRange = tuple[Union[int, slice], ...]
#: a shape: one size per dimension
Shape = tuple[int, ...]
#: what a pipe's destination is: one node, or a range of nodes (multicast)
DstT = TypeVar("DstT", NodeCoord, NodeRange)


class SrcPipeIdentity(Generic[DstT]):
    """What ``PipeNet.if_src`` hands its function: ``.dst`` is the pipe's destination. It exists
    only in compiled threads, where the function is inlined; this class names it in annotations."""

    def __init__(self, *args: object) -> None:
        raise scope.thread_only("ttl.SrcPipeIdentity", "a function passed to PipeNet.if_src")


class DstPipeIdentity:
    """What ``PipeNet.if_dst`` hands its function: ``.src`` is the pipe's source (annotations only,
    as :class:`SrcPipeIdentity`)."""

    def __init__(self, *args: object) -> None:
        raise scope.thread_only("ttl.DstPipeIdentity", "a function passed to PipeNet.if_dst")
