"""Kernel-level clean-up passes run after lowering.

``prune_redundant_inits``: compute lowering emits an ``*_init`` call before every operation
whose configuration may have changed, and it cannot see across loop iterations. This pass
tracks the last configuration call on every path (a forward analysis over the structured
body; a loop is analysed until its head state is stable) and deletes an init whose exact call
is already the configuration in force. A loop whose body leaves the configuration as it found
it then keeps its init before the loop only, as a hand-written kernel would.

``bind_buffer_ids``: the compute kernel's buffer ids become named compile-time arguments.
"""

from __future__ import annotations

from typing import Any

from ..ir import ops as ir
from . import kir

_UNKNOWN = ("<unknown>",)
#: configuration families that do not disturb each other: unpack/FPU (copy, binary, matmul,
#: reduce, transpose, broadcast) and SFPU (``*_tile_init``)
_FAMILIES = ("fpu", "sfpu")


def _config_key(op: ir.Op) -> tuple | None:
    """(family, call) a configuration call establishes, or None when it configures nothing."""
    if not isinstance(op, kir.Call):
        return None
    if op.fn in ("compute_kernel_hw_startup", "reduce_uninit") or op.fn.endswith("_init"):
        family = "sfpu" if op.fn.endswith("_tile_init") else "fpu"
        return family, (op.fn, tuple(str(a) for a in op.args), tuple(op.template))
    return None


def _with(state: tuple, key: tuple) -> tuple:
    family, call = key
    if family == "fpu" and call[0] == "compute_kernel_hw_startup":
        return (call, _UNKNOWN)  # start-up configures everything
    return tuple(call if f == family else s for f, s in zip(_FAMILIES, state))


def _holds(state: tuple, key: tuple) -> bool:
    family, call = key
    return state[_FAMILIES.index(family)] == call


def _analyse(body: list[ir.Op], state: Any, remove: set[int] | None) -> Any:
    """State after ``body``; with ``remove`` given, records the ids of inits already in force."""
    for op in body:
        key = _config_key(op)
        if key is not None:
            if _holds(state, key) and op.fn != "compute_kernel_hw_startup" and remove is not None:
                remove.add(id(op))
            state = _with(state, key)
        elif isinstance(op, ir.If):
            after_then = _analyse(op.then_body, state, remove)
            after_else = _analyse(op.else_body, state, remove)
            state = tuple(a if a == b else _UNKNOWN for a, b in zip(after_then, after_else))
        elif isinstance(op, (ir.For, ir.While)):
            head = state
            for _ in range(3):  # the head state: what holds before the first and every next iteration
                end = _analyse(_loop_body(op), head, None)
                if end == head:
                    break
                head = tuple(h if h == e else _UNKNOWN for h, e in zip(head, end))
            end = _analyse(_loop_body(op), head, remove)
            state = tuple(h if h == e else _UNKNOWN for h, e in zip(head, end))
    return state


def _loop_body(op: ir.Op) -> list[ir.Op]:
    return [*op.cond_body, *op.body] if isinstance(op, ir.While) else op.body


def _drop(body: list[ir.Op], remove: set[int]) -> None:
    body[:] = [op for op in body if id(op) not in remove]
    for op in body:
        for region in op.regions():
            _drop(region, remove)


def _first_configs(body: list[ir.Op]) -> list[kir.Call]:
    """The first configuration call of each family in ``body`` (program order, nested included)."""
    found: dict[str, kir.Call] = {}

    def visit(ops: list[ir.Op]) -> None:
        for op in ops:
            key = _config_key(op)
            if key is not None and op.fn != "compute_kernel_hw_startup":
                found.setdefault(key[0], op)
            for region in op.regions():
                visit(region)

    visit(body)
    return list(found.values())


def _hoist(body: list[ir.Op]) -> None:
    """Before a loop whose body leaves the configuration it first sets, set it once (inner loops first)."""
    i = 0
    while i < len(body):
        op = body[i]
        for region in op.regions():
            _hoist(region)
        if isinstance(op, (ir.For, ir.While)):
            for first in _first_configs(_loop_body(op)):  # the first call of each family
                key = _config_key(first)
                family = _FAMILIES.index(key[0])
                start = tuple(key[1] if f == family else _UNKNOWN for f in range(len(_FAMILIES)))
                if _analyse(_loop_body(op), start, None)[family] == key[1]:
                    body.insert(i, kir.Call(fn=first.fn, args=list(first.args), template=first.template,
                                            loc=first.loc))
                    i += 1
        i += 1


def prune_redundant_inits(kernel: kir.Kernel) -> int:
    """Hoist loop-invariant inits and remove those whose configuration is already in force."""
    _hoist(kernel.body)
    remove: set[int] = set()
    _analyse(kernel.body, (_UNKNOWN, _UNKNOWN), remove)
    _drop(kernel.body, remove)
    return len(remove)


def bind_buffer_ids(kernel: kir.Kernel, names: dict[int, str]) -> None:
    """Turn the compute kernel's buffer ids (:class:`kir.BufferId`, which the passes above read as
    constants) into compile-time arguments, one ``constexpr uint32_t cb_<name> =
    get_compile_time_arg_val(i)`` per buffer at the top of the kernel, as the data-movement
    kernels take theirs: the ids come from the host (``kernel.compile_args``), not the source.
    Runs last: the init and format passes compare buffer ids as constants."""
    taken = {r.name for op in ir.walk(kernel.body) for r in (*op.results(), *op.operands()) if isinstance(r, ir.Reg)}
    bound: dict[int, ir.Reg] = {}
    header: list[ir.Op] = []

    def bind(arg: Any) -> Any:
        if not isinstance(arg, kir.BufferId):
            return arg
        if arg.value not in bound:
            name, n = f"cb_{names[arg.value]}", 1
            while name in taken:
                name, n = f"cb_{names[arg.value]}_{n}", n + 1
            taken.add(name)
            bound[arg.value] = ir.Reg(name, kir.U32)
            header.append(kir.Arg(result=bound[arg.value], source="ct", index=kernel.compile_arg(arg.value),
                                  label=f"buffer '{names[arg.value]}'"))
        return bound[arg.value]

    for op in ir.walk(kernel.body):
        if isinstance(op, kir.Call):
            op.args = [bind(a) for a in op.args]
    kernel.body[:0] = header
