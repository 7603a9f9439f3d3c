"""A store's cycles from its call plan: the lowered kernel's calls for it, replayed on the compute stages.

Why: the language level charges each ``block.store`` at its line, and the work of a store is
what the emitted compute kernel does for it (:class:`tilecraft.metal.store_plan.StorePlan`: the
copies into DST, ``*_init`` calls and reconfigurations per DST section, intermediate buffers, the
three TRISCs handing tiles on). Its calls are recorded as the metal level records them
(:func:`tilecraft.sim.metal_level.metal_engine.call_trace`) and replayed by the kernel-level model's
own compute stages (:class:`.kernel_replay.KernelRun`), alone: the store starts with the three
stages idle and its buffers never wait (what it waits for is the program's, timed by the language
level's own buffer ops). So both levels charge a store's calls by one table and one pipeline.
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

from ..arch.base import Arch
from ..metal.store_plan import StorePlan
from ..sim.metal_level.metal_engine import call_trace
from .kernel_replay import KernelLayout, KernelRun


@lru_cache(maxsize=4096)
def replay_plan(plan: StorePlan, page_bytes: tuple[tuple[int, int], ...], arch: Arch, phases: int) -> float:
    """Cycles of one execution of ``plan`` (buffers' page sizes by id, ``phases`` of the
    matrix unit's fidelity). Cached: a store's plan is replayed once, however many times it runs."""
    recorder = call_trace((1,))
    core = SimpleNamespace(core=(0,), cbs={cb: SimpleNamespace(page_bytes=n) for cb, n in page_bytes},
                           rt=SimpleNamespace(span_of=lambda op: None))
    for fn, args in plan.calls:
        recorder.record(core, "compute", None, fn, args)
    run = KernelRun(KernelLayout({}, fidelity_value=phases), recorder.kernel_trace((1,), {}), arch, "store",
                    keep_slices=False)
    run.run()
    return max((t.end for t in run.threads), default=0.0)
