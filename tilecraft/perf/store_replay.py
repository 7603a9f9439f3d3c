"""A store's cycles from its call plan: the lowered kernel's calls for it, replayed on the compute stages.

Why: the language level charges each ``block.store`` at its line, and the work of a store is
what the emitted compute kernel does for it (:class:`tilecraft.metal.store_plan.StorePlan`: the
copies into DST, ``*_init`` calls and reconfigurations per DST section, intermediate buffers, the
three TRISCs handing tiles on). Its calls are recorded as the metal level records them
(:func:`tilecraft.sim.metal_level.metal_engine.call_trace`) and replayed by the kernel-level model's
own compute stages (:class:`.kernel_replay.KernelRun`), alone: the store starts with the three
stages idle and only the buffers it both packs and reads wait (what else it waits for is the
program's, timed by the language level's own buffer ops), then again right after itself, for its
time when it follows other work. So both levels charge a store's calls by one table and one pipeline.
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

from ..arch.base import Arch
from ..metal.store_plan import StorePlan
from ..sim.metal_level.metal_engine import call_trace
from .kernel_replay import KernelLayout, KernelRun


def replay_plan(plan: StorePlan, buffers: tuple[tuple[int, int, int], ...], arch: Arch,
                phases: int) -> tuple[float, float]:
    """Cycles of one execution of ``plan`` (``buffers``: id, page size, pages; ``phases`` of the
    matrix unit's fidelity), as ``(steady, fill)``: ``steady`` is what it adds to the three stages'
    latest clock right after work like its own (its unpacks overlap the previous packs), as the
    kernel level charges a line the advance of the thread's latest stage; ``steady + fill`` is its
    time from idle stages (the first store, or one after the thread waited)."""
    alone = _stages_end(plan.calls, plan.cycled, buffers, arch, phases)
    steady = _stages_end(plan.calls * 2, plan.cycled, buffers, arch, phases) - alone
    return steady, alone - steady


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
