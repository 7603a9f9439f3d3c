"""``verify=True``: simulate the winner with values and check it against a reference first.

The cost model ranks candidates without computing anything, so a candidate whose program is
fast but wrong (a block size that skips a remainder, a hyper-parameter the kernel mishandles)
could win. With ``verify=True`` the tuner runs the best candidates in the simulator, in order,
on the call's own inputs (and fresh outputs), and accepts the first whose outputs match
``reference(*args)`` (a dict: output argument name -> expected torch tensor).
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import torch

from .. import options, session
from ..lang.kernel import KernelDef
from ..ttnn.conversion import to_torch
from ..ttnn.creation import zeros
from .evaluate import split_params

Reference = Callable[..., dict]


def check(kdef: KernelDef, params: dict[str, Any], args: tuple, kwargs: dict, expected: dict[str, torch.Tensor],
          generation: str, grid: tuple[int, ...] | None, rtol: float, atol: float) -> str | None:
    """None if the candidate computes ``expected``; else what differs."""
    bound = inspect.signature(kdef.fn).bind_partial(*args, **kwargs)
    fresh = {name: zeros(tuple(bound.arguments[name].shape), dtype=bound.arguments[name].dtype,
                         layout=bound.arguments[name].layout) for name in expected}
    call = {**bound.arguments, **fresh}
    kernel, hyper = split_params(kdef, params)
    checked = options.RunOptions(arch=generation, grid=grid, devices=session.options().devices, simulate=True)
    # a check is not one of the program's launches: show-ir, profile and the tests' hooks do not see it
    with session.using(checked, inherit_hooks=False):
        kernel(**call, **hyper)
    for name, want in expected.items():
        got = to_torch(fresh[name]).float()
        want = want.float()
        if got.shape != want.shape:
            return f"'{name}' has shape {tuple(got.shape)}, the reference {tuple(want.shape)}"
        if not torch.allclose(got, want, rtol=rtol, atol=atol):
            return f"'{name}' differs from the reference by up to {(got - want).abs().max().item():.4g}"
    return None
