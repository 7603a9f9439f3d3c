"""One candidate, evaluated: build its program (or prune it at compile time), then estimate it.

:func:`evaluate` is the one function a worker runs, in a Dask worker or in the tuning process
itself, so a serial sweep and a distributed one compute the same thing. It takes a :class:`Job`
(plain data: the operation's source, the call's argument specs, the hyper-parameters) and
returns an :class:`Outcome` (plain data); it never raises for a candidate's own failure.

Compile-time pruning: a candidate whose program does not build is *pruned* with the diagnostic
as its reason (``E0401`` its buffers overflow L1, ``E0106`` a slice does not fit its block, ...),
the L1 budget checked on the program's whole need (its own buffers and those the compiler adds,
read from the candidate's one lowering: ``metal.lowered.LoweredProgram.l1_need``, which the cost
model's store plans then read too), which is what its launch checks, so no winner fails to launch;
and so is one whose kernel scope fails an ``assert`` (``assert K % BK == 0, "BK must divide K"``:
how a program states that its shapes must divide). Any other exception is a *failure* (a crash),
reported with its type, message and line.
"""

from __future__ import annotations

import os
import time
import traceback
import warnings
from dataclasses import dataclass, field
from typing import Any

from .. import driver, options
from ..diagnostics import DiagnosticWarning, KernelError
from ..lang import kernel as lang_kernel
from ..lang.kernel import KernelDef
from ..metal.lowered import LoweredProgram
from ..perf import BeyondLimit, estimate, lower_bound, resolve_arch
from ..version import __version__
from .shipping import CallSpec, OperationSource, load_operation
from .space import GRID

#: the statuses of an outcome
COMPILED, OK, PRUNED, FAILED, SLOWER, LOST = "compiled", "ok", "pruned", "failed", "slower", "lost"
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass(frozen=True)
class Job:
    """Everything a worker needs for one candidate (no object of the caller's process)."""

    index: int
    params: dict[str, Any]
    source: OperationSource
    call: CallSpec
    #: board or generation for the cost model (n150, p150, wormhole_b0, ...)
    arch: str
    grid: tuple[int, ...] | None
    fidelity: str
    fp32_acc: bool
    #: "compile" (build, prune, bound) or "estimate"
    phase: str
    #: abandon the estimate once it passes this many cycles (the cut-off)
    stop_after: float = float("inf")
    #: the tilecraft version of the process that made the job (a worker must run the same)
    version: str = ""


@dataclass(frozen=True)
class BufferSize:
    """A buffer as the compiler sized it for the candidate (relative sizes resolved)."""

    name: str
    shape: tuple[int, ...]
    count: int
    nbytes: int
    sizing: str | None


@dataclass
class Outcome:
    index: int
    params: dict[str, Any]
    status: str
    reason: str = ""
    l1_bytes: int = 0
    l1_available: int = 0
    buffers: tuple[BufferSize, ...] = ()
    cycles: float | None = None
    seconds: float | None = None
    bound: str = ""
    #: busy share of the bound's resource (the busiest one when bound by synchronisation)
    utilisation: float | None = None
    flops_per_s: float | None = None
    #: cycles it takes at least (compile phase): the sweep estimates in this order, and skips a
    #: candidate whose bound passes the cut-off
    lower_bound: float = 0.0
    #: largest store error relative to the store's largest value at the sweep's fidelity, measured on the
    #: call's inputs (``tilecraft tune --accuracy`` / ``--max-error``); None: not measured
    error: float | None = None
    #: wall-clock seconds the evaluation took (not part of any comparison)
    wall_s: float = field(default=0.0, compare=False)


def evaluate(job: Job) -> Outcome:
    """Build the candidate's program and, in the estimate phase, predict its time."""
    start = time.perf_counter()
    outcome = Outcome(job.index, dict(job.params), FAILED)
    try:
        if job.version and job.version != __version__:
            outcome.reason = (f"this worker runs tilecraft {__version__}, the sweep {job.version}: "
                              "install the same version on every worker")
            return outcome
        lowered = _build_or_prune(job, outcome)
        if lowered is None:
            return outcome
        program = lowered.program
        if job.phase == "compile":
            outcome.status = COMPILED
            outcome.lower_bound = lower_bound(program, job.arch, job.fidelity, job.fp32_acc, lowered)
            return outcome
        try:
            est = estimate(program, job.arch, job.fidelity, job.fp32_acc, stop_after=job.stop_after, lowered=lowered)
        except BeyondLimit as beyond:
            outcome.status, outcome.reason = SLOWER, str(beyond)
            return outcome
        shares = {"compute": est.compute_utilisation, "DRAM": est.dram_utilisation, "NoC": est.noc_utilisation}
        outcome.status = OK
        outcome.cycles, outcome.seconds, outcome.bound = est.cycles, est.seconds, est.bound
        outcome.utilisation = shares.get(est.bound, max(shares.values()))
        outcome.flops_per_s = est.flops_per_s
        return outcome
    except Exception as exc:  # noqa: BLE001 - a crashing candidate is reported, the sweep goes on
        outcome.status, outcome.reason = FAILED, _crash(exc)
        return outcome
    finally:
        outcome.wall_s = time.perf_counter() - start


def _build_or_prune(job: Job, outcome: Outcome) -> LoweredProgram | None:
    """The candidate's program and its one lowering (its L1 need, and with ``fp32_acc`` the calls
    the cost model charges its stores), or None when it is pruned (``outcome`` says why)."""
    kdef = load_operation(job.source)
    generation = resolve_arch(job.arch).name
    try:
        lowered = build(kdef, job.call, job.params, generation, job.grid)
        program = lowered.program
        need = lowered.l1_need()
        outcome.l1_bytes, outcome.l1_available = need.total, need.available
        need.check()
    except KernelError as exc:
        outcome.status, outcome.reason = PRUNED, _diagnostic(exc)
        return None
    except AssertionError as exc:
        where = _user_line(exc)
        if where is None:
            raise
        outcome.status = PRUNED
        outcome.reason = f"assertion failed at {where}" + (f": {exc}" if str(exc) else "")
        return None
    outcome.buffers = tuple(BufferSize(cb.name, cb.shape, cb.buffer_factor, cb.total_bytes, cb.sizing)
                            for cb in program.cbs)
    return lowered


def build(kdef: KernelDef, call: CallSpec, params: dict[str, Any], generation: str,
          grid: tuple[int, ...] | None) -> LoweredProgram:
    """The program of ``kdef`` with hyper-parameters ``params``, as the driver would build it, with
    its lowering (made on first use, as a launch's)."""
    kdef, hyper = split_params(kdef, params)
    args, kwargs = call.materialise()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DiagnosticWarning)
        _, _, lowered = driver.build_and_lower(kdef, args, {**kwargs, **hyper},
                                               options.RunOptions(arch=generation, grid=grid))
    return lowered


def split_params(kdef: KernelDef, params: dict[str, Any]) -> tuple[KernelDef, dict[str, Any]]:
    """The operation to launch for a candidate (with its ``grid`` when the candidate sets one) and
    the keyword arguments that carry the other hyper-parameters."""
    hyper = {k: v for k, v in params.items() if k != GRID}
    if GRID not in params:
        return kdef, hyper
    decorate = lang_kernel.operation if kdef.style == "operation" else lang_kernel.kernel
    return decorate(grid=params[GRID], **kdef.options)(kdef.fn), hyper


def _diagnostic(exc: KernelError) -> str:
    d = exc.diagnostic
    return f"{d.code} {d.message}" + (f" ({d.span})" if d.span else "")


def _user_line(exc: BaseException) -> str | None:
    """``file:line`` of the innermost frame of ``exc`` when it is the user's code, else None."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames or frames[-1].filename.startswith(PACKAGE_DIR):
        return None
    return f"{frames[-1].filename}:{frames[-1].lineno}"


def _crash(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"
