"""Performance model and profiler: predicted cycles of a program from the architecture's figures.

``estimate(program)`` replays the program's operations per core and per thread with costs from
:mod:`tilecraft.arch` (no tensor data), and returns an :class:`Estimate`: predicted time, the
bound with its evidence, the roofline point and the cycles per source line. The model and its
assumptions are in docs/performance-model.md.
"""

from __future__ import annotations

import os
from typing import Union

from ..arch import ARCHS, BOARDS
from ..arch.base import Arch
from ..emu.program_spec import ProgramSpec
from ..emu.trace import KernelTrace
from ..ir.program_ir import ProgramIR
from ..metal.kir import MetalProgram
from ..metal.lower import lower_program
from ..metal.lowered import LoweredProgram
from ..sim.metal_level.metal_engine import MetalRuntime
from ..sim.metal_level.metal_trace import slot_of
from ..ttnn.fidelity import MathFidelity
from .bound import busy_lower_bound
from .engine import BeyondLimit, TimingRun
from .kernel_replay import KernelLayout, KernelRun
from .result import Estimate, LineCost, summarise

Fidelity = Union[str, MathFidelity]


def resolve_arch(arch: Union[str, Arch]) -> Arch:
    """An architecture by generation (wormhole_b0, blackhole) or board (n150, n300, p100, p150)."""
    if isinstance(arch, Arch):
        return arch
    found = ARCHS.get(arch) or BOARDS.get(arch)
    if found is None:
        raise ValueError(f"unknown architecture {arch!r}; known: {', '.join([*ARCHS, *BOARDS])}")
    return found


def resolve_fidelity(fidelity: Fidelity) -> MathFidelity:
    if isinstance(fidelity, MathFidelity):
        return fidelity
    try:
        return MathFidelity[fidelity]
    except KeyError:
        raise ValueError(f"unknown math fidelity {fidelity!r}; known: "
                         f"{', '.join(f.name for f in MathFidelity)}") from None


def estimate(program: ProgramIR, arch: Union[str, Arch] = "wormhole_b0", fidelity: Fidelity = "HiFi4",
             fp32_acc: bool = False, trace: bool = False, stop_after: float = float("inf"),
             fast_forward: bool = True, lowered: LoweredProgram | None = None) -> Estimate:
    """Predict the run time of ``program`` (after the IR passes, as the driver runs it).

    ``fidelity`` sets the matrix unit's passes; ``fp32_acc`` halves DST (fp32 accumulation);
    data formats come from the program's tensors and buffers. ``trace`` keeps every thread's
    slices and the buffer occupancy for :func:`tilecraft.perf.trace.write_trace`. ``stop_after``
    (cycles) abandons a run that cannot finish sooner: :class:`BeyondLimit` is raised as soon as
    one thread's clock passes it (the autotuner's cut-off against the best candidates so far), or
    before the run when the compute thread's busy cycles alone pass it (:mod:`.bound`).
    ``fast_forward`` advances long loops by whole periods once the run's state repeats
    (:mod:`.fastforward`, within its stated tolerance); False times every operation.
    ``lowered``: the launch's lowering of ``program`` (a session lowering hook receives it), which
    an ``fp32_acc`` estimate reads its stores' calls from instead of lowering the program again.
    """
    arch_desc = resolve_arch(arch)
    fid = resolve_fidelity(fidelity)
    run = TimingRun(program, arch_desc, fid.phases, fp32_acc, trace, fast_forward, lowered)
    if stop_after < float("inf"):
        bound = busy_lower_bound(run)
        if bound > stop_after:
            raise BeyondLimit(bound, stop_after)
    run.run(stop_after)
    return summarise(run, arch_desc.board or arch_desc.name, fid.name)


def estimate_kernels(program: ProgramSpec, kernel_trace: KernelTrace, arch: Union[str, Arch] = "wormhole_b0",
                     name: str = "", trace: bool = False, stop_after: float = float("inf")) -> Estimate:
    """Predict the run time of a kernel-level program from the calls each RISC made.

    ``program`` is what the emulator ran (``tilecraft.emu.program_spec.ProgramSpec``: a ``generic_op``
    program, a PyKernel op, the emitted C++ of a TT-Lang program) and ``kernel_trace`` the calls it
    recorded (``launch.run(..., trace=True)``). Fidelity and fp32 accumulation are the program's own
    (its compute kernel's configuration). The estimate has the language-level one's fields; its
    lines are the kernels' C++ (or PyKernel) source lines. ``trace`` keeps slices for a Chrome trace.
    """
    arch_desc = resolve_arch(arch)
    run = KernelRun(KernelLayout.of_spec(program), kernel_trace, arch_desc, name or _program_name(program), trace)
    return _replayed(run, arch_desc, stop_after)


def estimate_lowered(program: ProgramIR, arch: Union[str, Arch] = "wormhole_b0", trace: bool = False,
                     stop_after: float = float("inf")) -> Estimate:
    """Predict the run time of a TT-Lang program's lowered kernels (``--level metal``) from their calls:
    the program lowered as ``tilecraft emit`` lowers it, then :func:`estimate_metal`."""
    arch_desc = resolve_arch(arch)
    return estimate_metal(lower_program(program, arch_desc.name), arch_desc, trace, stop_after)


def estimate_metal(metal: MetalProgram, arch: Union[str, Arch] = "wormhole_b0", trace: bool = False,
                   stop_after: float = float("inf")) -> Estimate:
    """Predict the run time of a lowered program (``tilecraft profile --level metal`` passes its
    launch's one lowering, ``metal.lowered``) from its kernels' calls.

    Its kernel IR is simulated without values (the synchronisation skeleton only, so any problem
    size), recording every Metalium call at the TT-Lang line it was lowered from; the calls are
    replayed as :func:`estimate_kernels` replays the emulator's. Fidelity and fp32 accumulation
    are the lowered program's.
    """
    arch_desc = resolve_arch(arch)
    runtime = MetalRuntime(metal, [_NoValues() for _ in metal.tensors], trace=True)
    runtime.run(values=False)
    assert runtime.call_trace is not None
    kernels = {}
    for core, k in runtime.cores.items():
        for kernel in metal.kernels:
            kernels[(runtime.call_trace.index(core), slot_of(kernel.processor))] = kernel.name
    run = KernelRun(KernelLayout.of_metal(metal), runtime.call_trace.kernel_trace(metal.grid, kernels), arch_desc,
                    metal.name, trace)
    return _replayed(run, arch_desc, stop_after)


class _NoValues:
    """A tensor stand-in for a skeleton-only run: the simulator reads shapes from the declarations."""

    storage = None


def _replayed(run: KernelRun, arch: Arch, stop_after: float) -> Estimate:
    run.run(stop_after)
    fidelity = {0: "LoFi", 2: "HiFi2", 3: "HiFi3", 4: "HiFi4"}.get(run.fidelity_value, "HiFi4")
    return summarise(run, arch.board or arch.name, fidelity)  # type: ignore[arg-type]


def _program_name(program: ProgramSpec) -> str:
    names = dict.fromkeys(os.path.basename(k.display) for k in program.kernels)
    return "kernels " + ", ".join(names)


def lower_bound(program: ProgramIR, arch: Union[str, Arch] = "wormhole_b0", fidelity: Fidelity = "HiFi4",
                fp32_acc: bool = False, lowered: LoweredProgram | None = None) -> float:
    """Cycles the program takes at least, for about two cores' worth of an estimate (:mod:`.bound`);
    ``lowered`` as for :func:`estimate`."""
    return busy_lower_bound(TimingRun(program, resolve_arch(arch), resolve_fidelity(fidelity).phases, fp32_acc,
                                      False, fast_forward=False, lowered=lowered))


__all__ = ["BeyondLimit", "Estimate", "LineCost", "estimate", "estimate_kernels", "estimate_lowered", "estimate_metal", "lower_bound", "resolve_arch", "resolve_fidelity"]
