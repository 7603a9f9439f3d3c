"""Why a program stopped with threads still blocked: the diagnosis of a deadlock.

When no thread can run and some have not finished, the scheduler hands its threads to
:func:`diagnose`. It names the kind of deadlock (a pipe copy without a counterpart, E2112; a
semaphore no running thread can change, E2113; a buffer nobody will fill or drain, E2111; a
cycle of threads waiting for each other, E2110) and explains it:

* blocked threads in the same state on several cores are one note ("cores (0, 0) ... (7, 7):
  ..."), so a deadlock on 64 nodes reads like one on a single node;
* a circular wait shows the cycle (each thread of it, what it waits for and which thread would
  provide it), on one core, and says on which other cores the same cycle stands;
* a full buffer says who holds its blocks: reserved and not pushed (the producer's line), or
  pushed and taken with ``wait()`` but not popped (the consumer's line).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..diagnostics import KernelError, Note, Span, error
from ..ir import ops as ir
from ..ir.program_ir import DATAMOVEMENT
from .metal_level.metal_state import PageCB
from .language.state import CBState, PipeSlot, SemState

#: cores listed by name in a grouped note before the rest are counted
CORES_SHOWN = 4


def diagnose(threads: Sequence[Any], ops: Sequence[ir.Op]) -> KernelError:
    """The error for a deadlock among ``threads`` (SimThreads, some blocked; ``ops`` by op id)."""
    return _Deadlock(threads, ops).error()


class _Deadlock:
    def __init__(self, threads: Sequence[Any], ops: Sequence[ir.Op]):
        self.threads = list(threads)
        self.ops = ops
        self.blocked = [t for t in self.threads if not t.done]
        self.by_core: dict[tuple[int, ...], list[Any]] = {}
        for t in self.threads:
            self.by_core.setdefault(t.core, []).append(t)
        self.all_cores = len(self.by_core)

    # ---------------------------------------------------------------- the diagnosis
    def error(self) -> KernelError:
        notes = self.grouped_notes(self.blocked)
        for diagnosis in (self.pipe_without_counterpart, self.semaphore_never_satisfied, self.starvation):
            found = diagnosis(notes)
            if found is not None:
                return found
        return self.circular(notes)

    def pipe_without_counterpart(self, notes: list[Note]) -> KernelError | None:
        for t in self.blocked:
            waitable, op = t.blocked
            if not isinstance(waitable, PipeSlot):
                continue
            pipe = waitable.pipe.decl
            if waitable.vid < 0:  # an empty landing slot: the blocked thread is a receiver
                peers, role = self.dm_threads([pipe.src]), "sends into"
            else:
                peers, role = self.dm_threads(pipe.dsts), "receives from"
            if all(o.done for o in peers):
                return error("E2112", f"pipe copy with no matching counterpart: {t.describe()} waits on {pipe} "
                             f"but no thread {role} it any more", self.span(op), notes=notes,
                             hint="every ttl.copy(blk, pipe) on the source core needs one ttl.copy(pipe, blk) "
                                  "on each destination core")
        return None

    def semaphore_never_satisfied(self, notes: list[Note]) -> KernelError | None:
        for t in self.blocked:
            waitable, op = t.blocked
            if isinstance(waitable, SemState) and all(o.done or isinstance(o.blocked[0], SemState)
                                                      for o in self.threads if o is not t):
                sem_op = self.ops[op]
                target = operand_value(t, sem_op.value)
                return error("E2113", f"semaphore wait can never be satisfied: {t.describe()} waits for "
                             f"'{sem_op.sem.name}' {'==' if sem_op.cond == 'eq' else '>='} {target}, "
                             f"but its value stays {waitable.value} and no running thread can change it",
                             self.span(op), notes=notes, hint="check the number of inc()/set() calls "
                             "that reach this core against the value waited for")
        return None

    def buffer_wait(self, t: Any) -> tuple[int, str, bool] | None:
        """(buffer index, name, waits for data) of a thread blocked on a circular buffer, at either
        level (``cb.wait`` / ``cb.reserve``, or Metalium's ``cb_wait_front`` / ``cb_reserve_back``)."""
        waitable, op = t.blocked
        if isinstance(waitable, CBState):
            return waitable.decl.index, waitable.decl.name, isinstance(self.ops[op], ir.CBWait)
        if isinstance(waitable, PageCB):
            return waitable.spec.index, waitable.spec.name, getattr(self.ops[op], "fn", "") == "cb_wait_front"
        return None

    def starvation(self, notes: list[Note]) -> KernelError | None:
        for t in self.blocked:
            found = self.buffer_wait(t)
            if found is None:
                continue
            index, name, waiting_data = found
            op = t.blocked[1]
            partners = self.partners(t, index, waiting_data)
            if partners and not all(o.done for o in partners):
                continue
            if waiting_data:
                msg = (f"deadlock: {t.describe()} waits for a block of '{name}' that no thread will push "
                       f"({'its producers have finished' if partners else 'no thread reserves this buffer'})")
                hint = "the consumer waits more times than the producer pushes: make the loop counts agree"
            else:
                msg = (f"deadlock: {t.describe()} waits for free space in '{name}' that no thread will pop "
                       f"({'its consumers have finished' if partners else 'no thread waits on this buffer'})")
                hint = "the producer pushes more blocks than the consumer pops: make the loop counts agree"
            return error("E2111", msg, self.span(op), notes=notes, hint=hint)
        return None

    def circular(self, notes: list[Note]) -> KernelError:
        cycle = self.find_cycle()
        first = cycle[0] if cycle else self.blocked[0]
        if cycle:
            cores = [c for c in self.by_core if self.same_cycle_on(cycle, c)]
            where = "" if len(cores) <= 1 else f", on each of {len(cores)} cores"
            message = f"deadlock: {len(cycle)} thread{'s wait for each other' if len(cycle) > 1 else ' waits for itself'}" \
                      f" in a cycle{where}"
            steps = [Note(f"cycle, step {i + 1}: {t.describe()} waits in {self.waiting_what(t)}, "
                          f"{self.provider_text(t, cycle[(i + 1) % len(cycle)])}", self.span(t.blocked[1]))
                     for i, t in enumerate(cycle)]
            if len(cores) > 1:
                others = [c for c in cores if c != first.core]
                steps.append(Note(f"the same cycle stands on {_cores_text(others, self.all_cores)}"))
            in_cycle = {(t.name, t.blocked[1]) for t in cycle}
            others = self.grouped_notes([t for t in self.blocked if (t.name, t.blocked[1]) not in in_cycle
                                         or not self.same_cycle_on(cycle, t.core)])
            notes = steps + self.holder_notes(cycle) + others
        else:
            message = f"deadlock: {len(self.blocked)} threads wait for each other"
        return error("E2110", message, self.span(first.blocked[1]), notes=notes, hint=self.circular_hint(cycle or self.blocked))

    def circular_hint(self, threads: Sequence[Any]) -> str:
        for t in threads:
            waitable, op = t.blocked
            if isinstance(waitable, CBState) and isinstance(self.ops[op], ir.CBReserve) \
                    and waitable.nres - waitable.npush == waitable.capacity:
                return (f"'{waitable.decl.name}' holds {waitable.capacity} blocks (block_count) and "
                        f"{t.kind} thread '{t.name}' reserves more before pushing any: raise block_count or "
                        "push earlier")
        return ("each thread of the cycle waits for the next one: acquire buffers in the same order in "
                "producers and consumers, and the same number of times")

    # ---------------------------------------------------------------- who waits for whom
    def partners(self, t: Any, index: int, waiting_data: bool) -> list[Any]:
        """Threads of ``t``'s core that could satisfy its wait on buffer ``index``: its producers
        when it waits for data, its consumers when it waits for space."""
        return [o for o in self.by_core[t.core] if index in (o.reserves if waiting_data else o.waits)]

    def dm_threads(self, cores: Iterable[tuple[int, ...]]) -> list[Any]:
        return [o for c in cores for o in self.by_core.get(c, []) if o.kind == DATAMOVEMENT]

    def providers(self, t: Any) -> list[Any]:
        """Blocked threads ``t`` waits for (the edges of the wait-for graph)."""
        waitable, op = t.blocked
        buffer = self.buffer_wait(t)
        if buffer is not None:
            found = self.partners(t, buffer[0], buffer[2])
        elif isinstance(waitable, PipeSlot):
            pipe = waitable.pipe.decl
            found = self.dm_threads([pipe.src] if waitable.vid < 0 else [waitable.dst])
        else:
            found = []
        return [o for o in found if not o.done]  # t itself when it is its own producer or consumer

    def find_cycle(self) -> list[Any]:
        """A cycle of the wait-for graph, on the first core that has one (empty if none)."""
        for start in self.blocked:
            path: list[Any] = []
            on_path: dict[int, int] = {}
            node = start
            while node is not None and id(node) not in on_path:
                on_path[id(node)] = len(path)
                path.append(node)
                nxt = self.providers(node)
                node = nxt[0] if nxt else None
            if node is not None:
                return path[on_path[id(node)]:]
        return []

    def same_cycle_on(self, cycle: Sequence[Any], core: tuple[int, ...]) -> bool:
        """Whether the threads of ``cycle`` (by name) are blocked at the same operations on ``core``."""
        mine = {t.name: t.blocked[1] for t in self.by_core.get(core, []) if not t.done}
        return all(mine.get(t.name) == t.blocked[1] for t in cycle) and (
            all(t.core == cycle[0].core for t in cycle))

    def provider_text(self, t: Any, nxt: Any) -> str:
        waitable, op = t.blocked
        buffer = self.buffer_wait(t)
        if buffer is not None:
            verb = "pushes" if buffer[2] else "pops"
        elif isinstance(waitable, PipeSlot):
            verb = "sends on it" if waitable.vid < 0 else "receives from it"
            return f"which {nxt.describe()} {verb}"
        else:
            verb = "changes"
        return f"which only {nxt.kind} thread '{nxt.name}' {verb}"

    def holder_notes(self, cycle: Sequence[Any]) -> list[Note]:
        """For each full buffer a thread of the cycle waits on: which blocks hold its space."""
        notes: list[Note] = []
        for t in cycle:
            cb, op = t.blocked
            if not (isinstance(cb, CBState) and isinstance(self.ops[op], ir.CBReserve)):
                continue
            held_by_producer = cb.nres - cb.npush
            pushed_not_waited = cb.ready
            waited_not_popped = cb.nwait - cb.npop
            for count, first, what in ((held_by_producer, cb.npush, "reserved and not pushed yet"),
                                       (waited_not_popped, cb.npop, "taken with wait() and not popped yet"),
                                       (pushed_not_waited, cb.nwait, "pushed and not yet taken with wait()")):
                if count:
                    slot = first % cb.capacity
                    notes.append(Note(f"'{cb.decl.name}' on core {cb.core} is full: {count} of its "
                                      f"{cb.capacity} blocks {'is' if count == 1 else 'are'} {what} "
                                      f"(the first one here)", self.span(cb.ops[slot])))
        return notes

    # ---------------------------------------------------------------- notes
    def grouped_notes(self, threads: Sequence[Any]) -> list[Note]:
        """One note per state (thread, operation, what it waits on), listing its cores."""
        groups: dict[tuple, list[Any]] = {}
        for t in threads:
            groups.setdefault((t.kind, t.name, t.blocked[1], self.waiting_what(t, with_core=False)), []).append(t)
        notes = []
        for (kind, name, op, what), members in groups.items():
            cores = [t.core for t in members]
            notes.append(Note(f"{_cores_text(cores, self.all_cores)} {kind} thread '{name}' waits in {what}", self.span(op)))
        return notes

    def waiting_what(self, t: Any, with_core: bool = True) -> str:
        waitable, op = t.blocked
        name = getattr(self.ops[op], "fn", None) or self.ops[op].name  # a Metalium call: its function
        buffer = self.buffer_wait(t)
        if buffer is not None:
            return f"{name} on buffer '{buffer[1]}'"
        if isinstance(waitable, SemState):
            value = f" (value {waitable.value})" if with_core else ""
            return f"{name} on semaphore '{waitable.decl.name}'{value}"
        if isinstance(waitable, PipeSlot):
            return f"{name} on {waitable.pipe.decl}"
        describe = getattr(waitable, "describe", None)
        return f"{name} on {describe()}" if describe is not None else name

    def span(self, op: int) -> Span | None:
        return self.ops[op].loc


def _cores_text(cores: Sequence[tuple[int, ...]], total: int) -> str:
    """``cores (0, 0), (1, 0)``; many cores are counted: ``64 cores (all): (0, 0), (0, 1), ... (7, 7)``."""
    cores = list(cores)
    if len(cores) == 1:
        return f"core {cores[0]}"
    if len(cores) <= CORES_SHOWN:
        return "cores " + ", ".join(str(c) for c in cores)
    shown = ", ".join(str(c) for c in cores[:CORES_SHOWN - 1])
    every = " (every core)" if len(cores) == total else ""
    return f"{len(cores)} cores{every}: {shown}, ... {cores[-1]}"


def operand_value(thread: Any, operand: Any) -> Any:
    """The value of an operand in a blocked thread (a constant, or the register in its frame)."""
    if isinstance(operand, ir.Const):
        return operand.value
    frame = thread.gen.gi_frame
    name = thread.code.names(operand.name)
    return frame.f_locals.get(name, operand) if frame is not None else operand
