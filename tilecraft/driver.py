"""The launcher: a kernel call -> ProgramIR -> simulation. The one module that sees every layer.

Installed into :mod:`tilecraft.lang.kernel` at import, so the language layer never imports the
front end or the simulator. Multi-device (mesh) tensors run the program once per device on that
device's shards, as TT-Lang's SPMD launch does.
"""

from __future__ import annotations

from typing import Any, Callable

from . import options
from .arch import get as get_arch
from .frontend import l1_budget
from .frontend.program import build_program
from .ir.passes import run_pipeline
from .ir.program import ProgramIR
from .lang import kernel as lang_kernel
from .lang.kernel import KernelDef
from .metal.lower import internal_l1_bytes, lower_program
from .sim.engine import ProgramRuntime
from .sim.metal_engine import MetalRuntime

#: called with each program before it runs (``tilecraft show-ir`` prints them)
program_hooks: list[Callable[[ProgramIR], None]] = []
#: called with each program and its tensors after it ran (tests compare simulation levels)
result_hooks: list[Callable[[ProgramIR, list], None]] = []


def resolve_grid(grid: Any, opts: options.RunOptions) -> tuple[int, ...]:
    if grid in ("auto", "full"):
        return tuple(opts.grid) if opts.grid else get_arch(opts.arch).compute_grid
    return tuple(grid)


def launch(kdef: KernelDef, args: tuple, kwargs: dict) -> None:
    opts = options.current
    mesh = [a for a in (*args, *kwargs.values()) if getattr(a, "is_mesh", False)]
    if mesh:
        devices = len(mesh[0].device_tensors())
        for i in range(devices):
            pick = (lambda a: a.device_tensors()[i] if getattr(a, "is_mesh", False) else a)
            launch(kdef, tuple(pick(a) for a in args), {k: pick(v) for k, v in kwargs.items()})
        return None
    program, tensors = build_program(kdef, args, kwargs, resolve_grid(kdef.grid, opts), opts.arch)
    run_pipeline(program)
    for hook in program_hooks:
        hook(program)
    if opts.simulate:
        runtime = (MetalRuntime(lower_program(program, opts.arch), tensors, opts.exact) if opts.level == "metal"
                   else ProgramRuntime(program, tensors, opts.exact))
        if opts.show_generated:
            print(runtime.generated_source())
        runtime.run()
    for result_hook in result_hooks:
        result_hook(program, tensors)
    return None


lang_kernel.set_launcher(launch)
#: block_count="max" leaves room for the buffers the Metalium lowering adds (frontend/l1_budget.py)
l1_budget.internal_l1_bytes = internal_l1_bytes
