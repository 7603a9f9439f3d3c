"""A store's cycles from its call plan: the lowered kernel's calls for it, replayed on the compute stages.

Why: the language level charges each ``block.store`` at its line, and the work of a store is
what the emitted compute kernel does for it (:class:`tilecraft.metal.store_plan.StorePlan`: the
copies into DST, ``*_init`` calls and reconfigurations per DST section, intermediate buffers, the
three TRISCs handing tiles on). Its calls are recorded as the metal level records them
(:func:`tilecraft.sim.metal_level.metal_engine.call_trace`) and replayed by the kernel-level model's
own compute stages (:class:`.kernel_replay.KernelRun`), alone: the store starts with the three
stages idle and only the buffers the calls both pack and read wait (what else it waits for is the
program's, timed by the language level's own buffer ops), then again right after the store that runs
before it on its thread (:func:`predecessors`), for its time when it follows that one. So both levels
charge a store's calls by one table and one pipeline.
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace
from typing import Callable

from ..arch.base import Arch
from ..ir import ops as ir
from ..metal.store_plan import StorePlan, cycled_buffers
from ..sim.metal_level.metal_engine import call_trace
from .kernel_replay import KernelLayout, KernelRun


def replay_plan(plan: StorePlan, before: StorePlan, buffers: tuple[tuple[int, int, int], ...], arch: Arch,
                phases: int) -> tuple[float, float]:
    """Cycles of one execution of ``plan`` (``buffers``: id, page size, pages; ``phases`` of the
    matrix unit's fidelity), as ``(steady, fill)``: ``steady`` is what it adds to the three stages'
    latest clock right after ``before`` (the store before it on its thread: its unpacks overlap
    that store's packs, or wait for them where it reads what that store packed), as the kernel
    level charges a line the advance of the thread's latest stage; ``steady + fill`` is at least
    its time from idle stages (the first store, or one after the thread waited)."""
    alone = _stages_end(plan.calls, plan.cycled, buffers, arch, phases)
    both = before.calls + plan.calls
    steady = _stages_end(both, cycled_buffers(both, dict(before.front)), buffers, arch, phases) - _stages_end(
        before.calls, before.cycled, buffers, arch, phases)
    return steady, max(0.0, alone - steady)


def predecessors(body: list[ir.Op], planned: Callable[[ir.Op], bool], loop: bool = False) -> dict[ir.Op, ir.Op]:
    """Each store of ``body`` (``planned``) -> the store that runs right before it on every pass
    but the first: the one before it in its own op list; for the first of a loop's body, the last of
    that body (the previous iteration's); else itself (nothing known before it)."""
    found: dict[ir.Op, ir.Op] = {}
    mine = [op for op in body if planned(op)]
    for i, op in enumerate(mine):
        found[op] = mine[i - 1] if i or loop else op
    for op in body:
        for inner, is_loop in ((getattr(op, "body", None), isinstance(op, (ir.For, ir.While))),
                               (getattr(op, "then_body", None), False), (getattr(op, "else_body", None), False)):
            if inner:
                found.update(predecessors(inner, planned, is_loop))
    return found


@lru_cache(maxsize=4096)
def _stages_end(calls: tuple[tuple[str, tuple[int, ...]], ...], cycled: tuple[tuple[int, int], ...],
                buffers: tuple[tuple[int, int, int], ...], arch: Arch, phases: int) -> float:
    """When the compute stages, idle at 0, are done with ``calls``. Only the ``cycled`` buffers
    (pushed and waited on by the calls; with the pages at their front at 0) have pages to wait on."""
    recorder = call_trace((1,))
    core = SimpleNamespace(core=(0,), cbs={cb: SimpleNamespace(page_bytes=n) for cb, n, _ in buffers},
                           rt=SimpleNamespace(span_of=lambda op: None))
    for fn, args in calls:
        recorder.record(core, "compute", None, fn, args)
    front = dict(cycled)
    pages = {((0, 0), cb): n for cb, _, n in buffers if cb in front}
    run = KernelRun(KernelLayout(pages, fidelity_value=phases), recorder.kernel_trace((1,), {}), arch, "store",
                    keep_slices=False)
    for cb, n in front.items():
        if n:
            run.rings[((0, 0), cb)].push(n, 0.0)
    run.run()
    return max((t.end for t in run.threads), default=0.0)
