"""Which stores pack into a reserved block that may already hold packed tiles.

``pack_tile(dst, cb, index)`` (``pack_tile<false>``, the form emitted everywhere else) ignores
``index``: it packs at the next page after those packed since the buffer's last ``cb_push_back``.
A store packs a block's tiles in page order, so its first store into a fresh reservation lands
on the right pages; a second store before the push (``y.store(a); y.store(b)``, or a store in
a loop inside the reservation) would go on past the reserved pages. Such a store must address
its pages: ``pack_tile<true>(dst, cb, index)`` overwrites page ``index``.

:func:`repacked_stores` finds those stores with a forward "may have been packed" analysis over
the thread's structured control flow: a reserve or a push of the block's buffer clears the
block, a store sets it, branches join by union, and a loop's body is analysed again from its
end (and from its ``continue`` points) until nothing changes, so a store repeated by a loop
inside the reservation is found as a second pack.
"""

from __future__ import annotations

from typing import Callable

from ..ir import ops as ir

#: the blocks that may hold packed tiles at a program point
_State = frozenset[str]


def repacked_stores(body: list[ir.Op], packs_into_block: Callable[[ir.BlockStore], bool]) -> set[ir.Op]:
    """The stores in ``body`` that may pack into a block already packed since its reserve (or the
    last push of its buffer); ``packs_into_block``: whether a store packs into the reserved block
    itself (stores into a partials buffer reserve and push it around each pack)."""
    walk = _Walk(packs_into_block)
    walk.body(body, frozenset())
    return walk.found


class _Walk:
    def __init__(self, packs_into_block: Callable[[ir.BlockStore], bool]):
        self.packs_into_block = packs_into_block
        self.found: set[ir.Op] = set()
        self.cbs: dict[str, int] = {}  # block -> index of its buffer
        #: per enclosing loop: the states at its ``continue`` points and at its ``break`` points
        self.loops: list[tuple[set[_State], set[_State]]] = []

    def body(self, ops: list[ir.Op], state: _State) -> _State:
        for op in ops:
            state = self.op(op, state)
        return state

    def op(self, op: ir.Op, state: _State) -> _State:
        if isinstance(op, ir.CBReserve):
            self.cbs[op.result.name] = op.cb.index
            return state - {op.result.name}
        if isinstance(op, ir.CBPush):  # the packer's page pointer restarts at the buffer's next block
            return frozenset(name for name in state if self.cbs.get(name) != op.cb.index)
        if isinstance(op, ir.BlockStore) and self.packs_into_block(op):
            if op.block.name in state:
                self.found.add(op)
            return state | {op.block.name}
        if isinstance(op, ir.If):
            return self.body(op.then_body, state) | self.body(op.else_body, state)
        if isinstance(op, (ir.For, ir.While)):
            return self.loop(op, state)
        if isinstance(op, (ir.Continue, ir.Break)):
            self.loops[-1][isinstance(op, ir.Break)].add(state)
            return frozenset()  # nothing after it in its body runs on this path
        if isinstance(op, ir.Return):
            return frozenset()
        return state

    def loop(self, op: ir.For | ir.While, state: _State) -> _State:
        """The state after ``op``: its body runs zero or more times from the state at its head."""
        head = state
        while True:
            self.loops.append((set(), set()))
            end = head
            if isinstance(op, ir.While):
                end = self.body(op.cond_body, end)
            leaves = end  # the loop leaves after its condition (a for loop's is its bounds check)
            end = self.body(op.body, end)
            continues, breaks = self.loops.pop()
            again = head.union(end, *continues)
            if again == head:
                return leaves.union(*breaks)
            head = again
