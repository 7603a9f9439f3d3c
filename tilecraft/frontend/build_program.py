"""Kernel scope -> ProgramIR: run the kernel body per core, declare objects, compile threads.

Also the program-level static checks that need every thread: pipes used on one side only,
pipe block shapes that disagree, the count of circular buffers and the L1 budget of each core
(after relative block counts, ``block_count="max"``, are resolved for the architecture:
``l1_budget.py``).
"""

from __future__ import annotations

import inspect
from typing import Any

from ..diagnostics import Note, Span, error, type_name, warn
from ..ir.program_ir import COMPUTE, DATAMOVEMENT, ProgramIR
from ..ir.verify import verify_program
from ..ir.types import SCALAR_UNIT, TILE_UNIT, CBDecl, SemaphoreDecl
from ..lang import scope as kscope
from ..ir.grid import all_cores
from ..ir.cb_count import check_cb_count
from ..ir.l1 import check_l1
from ..lang.kernel import KernelDef
from ..lang.sizing import RelativeCount
from ..lang.threads import ThreadDef
from . import single_thread
from .capture import CaptureEnv
from .l1_budget import resolve_block_counts
from .thread import ThreadCompiler
from .unused_values import warn_unused_block_values


def build_program(kdef: KernelDef, args: tuple, kwargs: dict, grid: tuple[int, ...], arch: str) -> tuple[ProgramIR, list[Any]]:
    generated = None
    if single_thread.is_single_threaded(kdef):  # the compiler writes the threads (single_thread.py)
        kdef, generated = single_thread.expand(kdef, args, kwargs, grid, arch)
    scopes = _run_kernel_scope(kdef, args, kwargs, grid, arch)
    first = scopes[0]
    threads, tensors = _threads_and_tensors(kdef, first, args, kwargs)
    program = ProgramIR(name=kdef.name, grid=grid, span=kdef.span, grid_from_device=kdef.grid in ("auto", "full"),
                        generated_threads=generated)
    names = _tensor_names(kdef, args, kwargs)
    env = CaptureEnv(program, scopes)
    for i, t in enumerate(tensors):
        if env.tensor_decl(t) is None:
            _warn_default_layout(kdef, t, names.get(id(t), f"t{i}"))
        env.add_tensor(t, names.get(id(t), f"t{i}"))
    for buf in first.buffers:
        _same_on_all_cores(scopes, lambda s, b=buf: (s.buffers[b.index].shape, s.buffers[b.index].block_count_request),
                           f"buffer {buf.name}", buf.span)
        program.cbs.append(CBDecl(buf.index, buf.name, buf.shape, buf.fmt, TILE_UNIT if buf.tiled else SCALAR_UNIT,
                                  buf.buffer_factor or 1, buf.span, buf.sizing))
    for pipe in first.pipes:  # every pipe's cores are checked, used by a thread or not
        pipe.destinations(grid)
    for sem in first.semaphores:
        program.semaphores.append(SemaphoreDecl(sem.index, sem.name, sem.initial, sem.span))
    for index, thread in enumerate(threads):
        variants = tuple(_thread_variant(kdef, s, index).fn for s in scopes)
        compiler = ThreadCompiler(env, thread.kind)
        env.bind_compiler(compiler)
        program.threads.append(compiler.compile(thread.name, variants))
    check_pipes(env)
    resolve_block_counts(program, {b.index: b.block_count_request for b in first.buffers
                                   if isinstance(b.block_count_request, RelativeCount)}, arch)
    check_cb_count(program, arch)
    check_l1(program, arch)
    verify_program(program, "the front end")
    warn_unused_block_values(program)
    return program, env.tensors


def _warn_default_layout(kdef: KernelDef, tensor: Any, name: str) -> None:
    """A kernel argument made without ``layout=`` is tile layout here (as in the published
    simulator) but row-major on real ttnn: say so once, where the tensor was made."""
    span = getattr(tensor, "layout_defaulted_at", None)
    if span is not None:
        warn("W0501", f"tensor '{name}' of kernel {kdef.name}() was made without a layout: tilecraft made it "
             "ttnn.TILE_LAYOUT, as the TT-Lang simulator does, but real ttnn makes it ROW_MAJOR_LAYOUT", span,
             hint="pass layout=ttnn.TILE_LAYOUT (or layout=ttnn.ROW_MAJOR_LAYOUT) to say which")


def _run_kernel_scope(kdef: KernelDef, args: tuple, kwargs: dict, grid: tuple[int, ...],
                      arch: str) -> list[kscope.KernelScope]:
    cores = all_cores(grid)
    scopes = [_run_for_core(kdef, args, kwargs, grid, cores[0], arch)]
    if scopes[0].used_core:
        scopes += [_run_for_core(kdef, args, kwargs, grid, c, arch) for c in cores[1:]]
    return scopes


def _run_for_core(kdef: KernelDef, args: tuple, kwargs: dict, grid: tuple[int, ...], core: tuple[int, ...],
                  arch: str) -> kscope.KernelScope:
    sc = kscope.KernelScope(grid=grid, core=core, arch=arch)
    kscope.enter(sc)
    try:
        kdef.body(grid)(*args, **kwargs)
    finally:
        kscope.leave()
    return sc


def _threads_and_tensors(kdef: KernelDef, sc: kscope.KernelScope, args: tuple, kwargs: dict) -> tuple[list[ThreadDef], list[Any]]:
    if sc.program is not None:
        threads, tensors = list(sc.program.threads), list(sc.program.tensors)
        if not tensors and kdef.style == "operation":  # ttl.Program(...)() in an operation: its own tensors
            tensors = [a for a in (*args, *kwargs.values()) if hasattr(a, "storage")]
    elif kdef.style == "seed" and not sc.threads:
        raise error("E0204", f"kernel {kdef.name}() must return ttl.Program(threads...)(tensors...)", kdef.span)
    else:
        threads = list(sc.threads)
        tensors = [a for a in (*args, *kwargs.values()) if hasattr(a, "storage")]
    if not threads:
        raise error("E0204", f"kernel {kdef.name}() defines no thread", kdef.span,
                    hint="define @ttl.compute() and @ttl.datamovement() functions in its body")
    for kind, limit in ((COMPUTE, 1), (DATAMOVEMENT, 2)):
        of_kind = [t for t in threads if t.kind == kind]
        if len(of_kind) > limit:
            names = ", ".join(f"'{t.name}'" for t in of_kind)
            extra = of_kind[limit]
            raise error("E0204", f"a program has at most one compute and two data movement threads; "
                        f"{kdef.name}() has {len(of_kind)} {kind} threads ({names})", _decorator_span(extra.fn),
                        notes=[Note(f"{kind} thread '{t.name}'", _decorator_span(t.fn)) for t in of_kind[:limit]],
                        hint="merge the work of these threads into fewer ones (a Tensix core has one compute "
                             "thread and two data movement RISC-Vs)")
    for t in tensors:
        if not hasattr(t, "storage"):
            raise error("E0202", f"program arguments must be ttnn tensors, got {type_name(t)}", kdef.span)
    return threads, tensors


def _decorator_span(fn: Any) -> Span:
    """Where a thread function is declared: its first decorator line (``@ttl.datamovement()``), as
    the published simulator reports a thread it rejects; the ``def`` line when it has none."""
    code = fn.__code__
    lines = inspect.getsourcelines(fn)[0] if inspect.getsourcefile(fn) else []
    text = lines[0] if lines else ""
    return Span(code.co_filename, code.co_firstlineno, len(text) - len(text.lstrip()) + 1)


def _thread_variant(kdef: KernelDef, sc: kscope.KernelScope, index: int) -> ThreadDef:
    threads = sc.program.threads if sc.program is not None else sc.threads
    return threads[index]


def _tensor_names(kdef: KernelDef, args: tuple, kwargs: dict) -> dict[int, str]:
    try:
        bound = inspect.signature(kdef.fn).bind(*args, **kwargs)
    except TypeError:
        return {}
    return {id(v): k for k, v in bound.arguments.items()}


def _same_on_all_cores(scopes: list[kscope.KernelScope], key: Any, what: str, span: Span | None) -> None:
    values = {key(s) for s in scopes}
    if len(values) > 1:
        raise error("E0202", f"{what} has a different shape on different cores", span,
                    hint="buffers are allocated at the same L1 address on every core; give them one shape")


def check_pipes(env: CaptureEnv) -> None:
    """Every pipe net used as a source must be used as a destination, with the same block shape."""
    by_net: dict[int, dict[str, list]] = {}
    for net, kind, block, span in env.pipe_uses:
        by_net.setdefault(net, {"send": [], "recv": []})[kind].append((block, span))
    for net, uses in by_net.items():
        for kind, other, verb in (("recv", "send", "received from"), ("send", "recv", "sent to")):
            if uses[kind] and not uses[other]:
                raise error("E0107", f"a pipe is {verb} here but no thread copies "
                            f"{'into' if other == 'send' else 'out of'} it", uses[kind][0][1],
                            hint="every ttl.copy(pipe, blk) needs a matching ttl.copy(blk, pipe) in "
                                 "ttl.if_pipe_src, and vice versa")
        shapes = {(b.shape, b.unit) for b, _ in uses["send"] + uses["recv"]}
        if len(shapes) > 1:
            (sb, ss), (rb, rs) = uses["send"][0], uses["recv"][0]
            raise error("E0108", f"a block of shape {sb.shape} is sent into a pipe that is received "
                        f"into a block of shape {rb.shape}", ss, notes=[Note("received here", rs)])
