"""Kernel-level clean-up passes run after lowering.

``prune_redundant_inits``: compute lowering emits an ``*_init`` call before every operation
whose configuration may have changed, and it cannot see across loop iterations. This pass
tracks the last configuration call on every path (a forward analysis over the structured
body; a loop is analysed until its head state is stable) and deletes an init whose exact call
is already the configuration in force. A loop whose body leaves the configuration as it found
it then keeps its init before the loop only, as a hand-written kernel would.
"""

from __future__ import annotations

from typing import Any

from ..ir import ops as ir
from . import kir

_UNKNOWN = ("<unknown>",)


def _config_key(op: ir.Op) -> tuple | None:
    """The configuration a call establishes, or None when the call configures nothing."""
    if not isinstance(op, kir.Call):
        return None
    if op.fn in ("compute_kernel_hw_startup", "reduce_uninit") or op.fn.endswith("_init"):
        return (op.fn, tuple(str(a) for a in op.args), tuple(op.template))
    return None


def _analyse(body: list[ir.Op], state: Any, remove: set[int] | None) -> Any:
    """State after ``body``; with ``remove`` given, records the ids of inits already in force."""
    for op in body:
        key = _config_key(op)
        if key is not None:
            if key == state and op.fn != "compute_kernel_hw_startup" and remove is not None:
                remove.add(id(op))
            state = key
        elif isinstance(op, ir.If):
            after_then = _analyse(op.then_body, state, remove)
            after_else = _analyse(op.else_body, state, remove)
            state = after_then if after_then == after_else else _UNKNOWN
        elif isinstance(op, (ir.For, ir.While)):
            head = state
            for _ in range(3):  # the head state: what holds before the first and every next iteration
                end = _analyse(_loop_body(op), head, None)
                if end == head:
                    break
                head = _UNKNOWN
            end = _analyse(_loop_body(op), head, remove)
            state = head if end == head else _UNKNOWN
    return state


def _loop_body(op: ir.Op) -> list[ir.Op]:
    return [*op.cond_body, *op.body] if isinstance(op, ir.While) else op.body


def _drop(body: list[ir.Op], remove: set[int]) -> None:
    body[:] = [op for op in body if id(op) not in remove]
    for op in body:
        for region in op.regions():
            _drop(region, remove)


def _first_config(body: list[ir.Op]) -> kir.Call | None:
    for op in body:
        if _config_key(op) is not None:
            return op
        for region in op.regions():
            found = _first_config(region)
            if found is not None:
                return found
    return None


def _hoist(body: list[ir.Op]) -> None:
    """Before a loop whose body leaves the configuration it first sets, set it once (inner loops first)."""
    i = 0
    while i < len(body):
        op = body[i]
        for region in op.regions():
            _hoist(region)
        if isinstance(op, (ir.For, ir.While)):
            first = _first_config(_loop_body(op))
            key = _config_key(first) if first is not None else None
            if key is not None and _analyse(_loop_body(op), key, None) == key:
                body.insert(i, kir.Call(fn=first.fn, args=list(first.args), template=first.template, loc=first.loc))
                i += 1
        i += 1


def prune_redundant_inits(kernel: kir.Kernel) -> int:
    """Hoist loop-invariant inits and remove those whose configuration is already in force."""
    _hoist(kernel.body)
    remove: set[int] = set()
    _analyse(kernel.body, _UNKNOWN, remove)
    _drop(kernel.body, remove)
    return len(remove)
