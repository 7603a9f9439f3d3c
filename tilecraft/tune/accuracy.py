"""``tilecraft tune --accuracy`` / ``--max-error``: what the tuned fidelity costs in accuracy.

The cost model ranks candidates by time, and a lower fidelity is faster; what it costs in accuracy
is measured here on the call's own inputs: each ranked candidate runs in the simulator on copies of
the call's tensors while the language level measures every block store against an fp64 golden with
the device's arithmetic at the sweep's fidelity (:class:`tilecraft.sim.accuracy.AccuracyLog`). The
number kept per candidate is the largest error of any store relative to that store's largest
value, the measure ``tilecraft profile`` prints.
"""

from __future__ import annotations

import inspect
from typing import Any

from .. import options, session
from ..lang.kernel import KernelDef
from ..sim.accuracy import AccuracyLog
from ..ttnn.conversion import from_torch, to_torch
from ..ttnn.tensor import Tensor
from .evaluate import split_params


def measure(kdef: KernelDef, params: dict[str, Any], args: tuple, kwargs: dict, generation: str,
            grid: tuple[int, ...] | None, fidelity: str) -> float:
    """The candidate's largest relative store error at ``fidelity`` on copies of the call's tensors
    (the call's own tensors are left as they are: the winner runs on them afterwards)."""
    bound = inspect.signature(kdef.fn).bind_partial(*args, **kwargs)
    call = {name: _copy(v) if isinstance(v, Tensor) else v for name, v in bound.arguments.items()}
    kernel, hyper = split_params(kdef, params)
    log = AccuracyLog((fidelity,))
    run = options.RunOptions(arch=generation, grid=grid, devices=session.options().devices, simulate=True,
                             accuracy=log)
    # a measurement is not one of the program's launches: show-ir, profile and the tests' hooks do not see it
    with session.using(run, inherit_hooks=False):
        kernel(**call, **hyper)
    return log.worst(fidelity)


def _copy(tensor: Tensor) -> Tensor:
    """A host tensor with the same values, format and layout."""
    return from_torch(to_torch(tensor), dtype=tensor.dtype, layout=tensor.layout)
