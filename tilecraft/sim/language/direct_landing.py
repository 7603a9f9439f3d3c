"""The proof that a pipe net may land in place: its blocks written straight into the buffer block
each receiver reserved, with no landing slot and no copy out of it (docs/emit.md, "Pipes").

The language's pipe is buffered (:mod:`tilecraft.ir.pipe_protocol`): a send completes once its
block sits in a landing slot of every destination, before any receiver has reserved a block to
take it. Landing in place instead makes a send wait until every destination has *posted* its
receive (reached its ``ttl.copy(pipe, blk)``, the block reserved), which the buffered program need
not do: a sender that receives later, or a ring of senders each waiting for a receiver that waits
in its own send, deadlocks. What is proved here, per program and launch, is exactly the condition
the direct protocol needs:

1. **every send's receives are posted before the send waits, without deadlock**: the program's
   synchronisation skeleton (every thread of every core, buffers, semaphores and pipes, no values)
   is run with the net's destinations under rendezvous semantics -- a send completes only
   when each of them has a posted receive and an empty slot -- and the run finishes. The skeleton
   is the one the simulator's first phase runs; its control flow depends on the grid, the shapes
   and the scalar arguments of the launch, not on tensor values, and the emitted program is made
   for that launch, so the run covers every path the emitted kernels take;
2. **at most one receive outstanding per pipe and destination**: no core posts a second receive
   on a pipe before the first has completed (one ready count per pipe then names one block);
3. **one address per multicast**: every destination a send lands on in place received it into the
   same slot of the same buffer (buffers lie at one L1 address on every core), so the one
   multicast write the sender issues is right for all of them.

A pipe whose sender is one of its own destinations (``matmul_row_multicast``'s node (0, r)) is
refused: its own block would pass through its landing slot twice (copied in at the send, out at
its receive), and the direct protocol measured slower for it than the landing slots
(``matmul_row_multicast`` 8,602 -> 9,316 kernel-level cycles, 8% slower; ``gather_pipes``, no
sender among its destinations, 4,296 -> 3,809). So a net lands in place only when no pipe's
sender is among its destinations, and then every destination is written by the one multicast.
A net is accepted only if the run with it and every net accepted before it in place passes all
three checks (nets are tried in order; the accepted set is proved together, not one by one).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

from ...diagnostics import KernelError
from ...ir.program_ir import ProgramIR
from ...ir.types import PipeNetDecl
from .engine import ProgramRuntime


@dataclass(frozen=True)
class Landing:
    """How a pipe net lands: in place (``direct``), or through landing slots, and why."""

    net: PipeNetDecl
    direct: bool
    reason: str


def _static_refusal(net: PipeNetDecl) -> str | None:
    for pipe in net.pipes:
        if pipe.src in pipe.dsts:
            return (f"{pipe}: its sender is one of its destinations, so its own block would pass through its "
                    "landing slot twice (matmul_row_multicast measured 8% slower landed in place)")
    return None


def _refusal_in_run(program: ProgramIR, tensors: list[Any], direct: list[PipeNetDecl]) -> str | None:
    """Run the skeleton with ``direct``'s destinations under rendezvous; what went wrong."""
    runtime = ProgramRuntime(program, tensors, group_cores=False)
    for net in direct:
        for pipe in net.pipes:
            for dst in pipe.dsts:
                runtime.pipes[pipe.index].slots[dst].direct = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the launch's own run reports the program's warnings
            runtime.run_skeleton()
    except KernelError as exc:
        return f"landed in place, the program stops ({exc.code}: {exc.diagnostic.message})"
    finally:
        runtime.rec.release()
    for net in direct:
        for pipe in net.pipes:
            refusals = runtime.pipes[pipe.index].refusals
            if refusals:
                return f"{pipe}: {refusals[0]}"
    return None


def prove(program: ProgramIR, tensors: list[Any]) -> list[Landing]:
    """How each pipe net of ``program``, launched on ``tensors``, lands (see the module docstring)."""
    accepted: list[PipeNetDecl] = []
    landings = []
    for net in program.pipenets:
        reason = _static_refusal(net) or _refusal_in_run(program, tensors, accepted + [net])
        if reason is None:
            accepted.append(net)
            landings.append(Landing(net, True, "every receive is posted before its send waits (rendezvous run), "
                                               "one receive outstanding per pipe, one address per multicast"))
        else:
            landings.append(Landing(net, False, reason))
    return landings
