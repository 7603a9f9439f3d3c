"""The launcher: a kernel call -> ProgramIR -> simulation. The one module that sees every layer.

Installed into :mod:`tilecraft.lang.kernel` at import, so the language layer never imports the
front end or the simulator. Multi-device (mesh) tensors run the program once per device on that
device's shards, as TT-Lang's SPMD launch does.
"""

from __future__ import annotations

from typing import Any

import torch

from . import session
from .arch import get as get_arch
from .diagnostics import KernelError, warn
from .frontend import l1_budget
from .frontend.build_program import build_program
from .ir import evaluate_once
from .ir.passes import PIPELINE, run_pipeline
from .ir.program_ir import ProgramIR
from .lang import kernel as lang_kernel
from .lang.kernel import KernelDef
from .metal.lower import program_l1_need
from .metal.lowered import LoweredProgram
from .run_cpp import run_emitted
from .sim.device_math import device_math
from .sim.language import direct_landing
from .sim.language.engine import ProgramRuntime
from .options import RunOptions
from .sim.metal_level.metal_engine import MetalRuntime
from .ttnn import trace as ttnn_trace


def resolve_grid(grid: Any, opts: RunOptions) -> tuple[int, ...]:
    if grid in ("auto", "full"):
        return tuple(opts.grid) if opts.grid else get_arch(opts.arch).compute_grid
    return tuple(grid)


def launch(kdef: KernelDef, args: tuple, kwargs: dict) -> None:
    """Build, check and run one kernel call under the current session's options and hooks (a ttnn
    trace capture open on the tensors' device records it, to run again with ttnn.execute_trace)."""
    with ttnn_trace.recorded((*args, *kwargs.values()), lambda: launch(kdef, args, kwargs)):
        launch_per_device(kdef, args, kwargs)


def launch_per_device(kdef: KernelDef, args: tuple, kwargs: dict) -> None:
    """The kernel once per device of its mesh tensors (once, for single-device tensors)."""
    current = session.current()
    opts = current.options
    mesh = [a for a in (*args, *kwargs.values()) if getattr(a, "is_mesh", False)]
    if mesh:
        devices = len(mesh[0].device_tensors())
        for i in range(devices):
            pick = (lambda a: a.device_tensors()[i] if getattr(a, "is_mesh", False) else a)
            launch_per_device(kdef, tuple(pick(a) for a in args), {k: pick(v) for k, v in kwargs.items()})
        return None
    program, tensors, lowered = build_and_lower(kdef, args, kwargs, opts)
    if opts.level == "language":
        warn_if_not_emittable(lowered)
    for hook in current.program_hooks:
        hook(program)
    for lowering_hook in current.lowering_hooks:
        lowering_hook(lowered)
    if opts.simulate and opts.level == "cpp":
        run_emitted(lowered, tensors)
    elif opts.simulate:
        device = torch.device(opts.device)
        runtime = (MetalRuntime(lowered.metal(), tensors, opts.exact, device=device)
                   if opts.level == "metal" else ProgramRuntime(program, tensors, opts.exact, device,
                                                                 math=device_math(opts.numerics),
                                                                 accuracy=opts.accuracy))
        if opts.show_generated:
            print(runtime.generated_source())
        runtime.run()
    for result_hook in current.result_hooks:
        result_hook(program, tensors)
    return None


def build_and_lower(kdef: KernelDef, args: tuple, kwargs: dict,
                    opts: RunOptions) -> tuple[ProgramIR, list[Any], LoweredProgram]:
    """The program through the pass pipeline, and its lowering (made once, on first use, for every
    reader of the launch). When the blocks the evaluate-once pass added break the lowering's L1 or
    circular-buffer limit, the program is built again and run as written (W0420 says so), so that
    a program that fits as written still runs."""
    program, tensors = build_program(kdef, args, kwargs, resolve_grid(kdef.grid, opts), opts.arch)
    run_pipeline(program)
    decide_pipe_landing(program, tensors)
    lowered = LoweredProgram(program, opts.arch)
    added = evaluate_once.stores_added(program)
    if not added:
        return program, tensors, lowered
    try:
        lowered.not_emittable()
    except KernelError as exc:
        if exc.code not in evaluate_once.LIMITS:
            raise
        program, tensors = build_program(kdef, args, kwargs, resolve_grid(kdef.grid, opts), opts.arch)
        run_pipeline(program, [name for name, _ in PIPELINE if name != "evaluate-once"])
        decide_pipe_landing(program, tensors)
        evaluate_once.warn_over_limit(added, f"{exc.code}: {exc.diagnostic.message}")
        lowered = LoweredProgram(program, opts.arch)
    return program, tensors, lowered


def decide_pipe_landing(program: ProgramIR, tensors: list[Any]) -> None:
    """Which pipe nets land in place (``sim/language/direct_landing.py``), recorded on each net for
    the lowering and ``show-ir``."""
    for landing in direct_landing.prove(program, tensors):
        landing.net.direct = landing.direct
        landing.net.landing_reason = landing.reason


def warn_if_not_emittable(lowered: LoweredProgram) -> None:
    """What the simulator runs but ``tilecraft emit`` would reject is said now, at its line
    (W3001), not when the user first emits: the lowering is tried on every launched program (the
    launch's one lowering, which ``emit`` and ``profile`` then read), and checks the program's
    whole L1 need (``metal.lower.program_l1_need``)."""
    stopped = lowered.not_emittable()
    if stopped is not None:
        d = stopped.diagnostic
        warn("W3001", f"{d.message} (tilecraft run simulates it; tilecraft emit stops here with {d.code})",
             d.span, hint=d.hint)


lang_kernel.set_launcher(launch)
#: block_count="max" leaves room for the buffers the Metalium lowering adds (frontend/l1_budget.py)
l1_budget.set_program_l1_need(program_l1_need)
