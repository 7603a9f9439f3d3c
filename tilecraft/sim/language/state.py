"""Per-core device state: circular buffers, blocks, semaphores, transfers, pipe landing slots.

These objects carry no tensor data: a block slot holds the *id* of the value in it (see
:mod:`tilecraft.sim.dataflow.graph`), so the synchronisation skeleton runs without touching data. Every protocol
rule of the language is checked here, at the operation that breaks it.

A block handle is an integer: the serial number of the acquisition on its buffer (the n-th
``reserve()`` or n-th ``wait()``). Buffers are rings released in order, so the slot is
``serial % capacity`` and a handle is still valid while ``serial >= pushes`` (producer side)
or ``serial >= pops`` (consumer side). Which buffer and which side a block register belongs to
is known statically, so generated code calls the matching ``*_r`` (reserved) or ``*_w``
(waited) method. Generated code reads ``free``/``ready``/``value`` directly and yields
``(waitable, op)`` when it must block; ``wake()`` puts the waiters back on the scheduler queue.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

from ...diagnostics import KernelError, error, warn
from ...ir import pipe_protocol

_HINT_RELEASED = "a block is valid only until its push()/pop() (the end of its `with`)"


class Waitable:
    __slots__ = ("waiters", "ready_queue")

    def __init__(self, ready_queue: deque) -> None:
        self.waiters: list[Any] = []
        self.ready_queue = ready_queue

    def wake(self) -> None:
        if self.waiters:
            self.ready_queue.extend(self.waiters)
            self.waiters.clear()


class CBState(Waitable):
    """One circular buffer on one core: a ring of ``capacity`` block slots."""

    __slots__ = ("decl", "capacity", "free", "ready", "nres", "npush", "nwait", "npop", "vids", "xfers",
                 "ops", "core", "span_of")

    def __init__(self, decl: Any, core: tuple[int, ...], ready_queue: deque, span_of: Callable[[int], Any]):
        super().__init__(ready_queue)
        self.decl = decl
        self.core = core
        self.capacity = decl.buffer_factor
        self.free = self.capacity
        self.ready = 0
        self.nres = self.npush = self.nwait = self.npop = 0
        self.vids = [-1] * self.capacity
        #: a copy in flight into or out of each slot (must be waited before release/use)
        self.xfers: list[Any] = [None] * self.capacity
        #: the last operation that acquired or released each slot (for end-of-program reports)
        self.ops = [-1] * self.capacity
        self.span_of = span_of

    def fail(self, code: str, message: str, op: int, hint: str | None = None) -> KernelError:
        return error(code, f"{message} (buffer '{self.decl.name}', core {self.core})", self.span_of(op), hint=hint)

    # ---------------------------------------------------------------- acquire / release
    def reserve(self, op: int) -> int:
        h = self.nres
        self.nres = h + 1
        self.free -= 1
        slot = h % self.capacity
        self.vids[slot] = -1
        self.ops[slot] = op
        return h

    def push(self, h: int | None, op: int) -> None:
        n = self.npush
        if n == self.nres:
            raise self.fail("E1102", "push() without a reserved block", op,
                            hint="call reserve() (or use `with cb.reserve() as blk:`) before push()")
        if h is not None and h != n:
            if h < n:
                raise self.fail("E1103", "block pushed after it was already released", op, hint=_HINT_RELEASED)
            raise self.fail("E1102", "blocks must be pushed in the order they were reserved", op)
        slot = n % self.capacity
        if self.xfers[slot] is not None:
            raise self.fail("E1104", "block pushed while a copy into it has not been waited", op,
                            hint="call wait() on the transfer handle of ttl.copy before the block is pushed")
        if self.vids[slot] < 0:  # undefined contents: only reading them is an error (E1109), as in 1.1.6
            # no core in the message: the warning is said once per line, not once per core
            warn("W1108", f"a block of '{self.decl.name}' pushed without being written: its contents are "
                 "undefined, and a thread that reads them stops with E1109", self.span_of(op),
                 hint="fill the block with ttl.copy(...) or blk.store(...) before pushing it")
        self.npush = n + 1
        self.ops[slot] = op
        self.ready += 1
        if self.waiters:
            self.ready_queue.extend(self.waiters)
            self.waiters.clear()

    def wait(self, op: int) -> int:
        h = self.nwait
        self.nwait = h + 1
        self.ready -= 1
        self.ops[h % self.capacity] = op
        return h

    def pop(self, h: int | None, op: int) -> None:
        n = self.npop
        if n == self.nwait:
            raise self.fail("E1101", "pop() without a block obtained by wait()", op,
                            hint="call wait() (or use `with cb.wait() as blk:`) before pop()")
        if h is not None and h != n:
            if h < n:
                raise self.fail("E1103", "block popped after it was already released", op, hint=_HINT_RELEASED)
            raise self.fail("E1101", "blocks must be popped in the order they were waited for", op)
        if self.xfers[n % self.capacity] is not None:
            raise self.fail("E1104", "block popped while a copy out of it has not been waited", op,
                            hint="call wait() on the transfer handle before the block is released")
        self.npop = n + 1
        self.free += 1
        if self.waiters:
            self.ready_queue.extend(self.waiters)
            self.waiters.clear()

    # ---------------------------------------------------------------- block contents
    def released(self, op: int, what: str) -> KernelError:
        return self.fail("E1103", f"block used after it was released ({what})", op, hint=_HINT_RELEASED)

    def _read(self, slot: int, op: int) -> int:
        xfer = self.xfers[slot]
        if xfer is not None and xfer.incoming:
            raise self.fail("E1104", "block read while a copy into it has not been waited", op,
                            hint="call wait() on the transfer handle before using the block")
        vid = self.vids[slot]
        if vid < 0:
            raise self.fail("E1109", "block read before anything was written to it", op,
                            hint="reserve() gives an uninitialised block: store() or copy into it first")
        return vid

    def _write(self, slot: int, vid: int, op: int) -> None:
        if self.xfers[slot] is not None:
            raise self.fail("E1104", "block written while a copy involving it has not been waited", op)
        self.vids[slot] = vid

    def rd_r(self, h: int, op: int) -> int:
        """The value id in a reserved block (producer side)."""
        if h < self.npush:
            raise self.released(op, "read")
        return self._read(h % self.capacity, op)

    def rd_w(self, h: int, op: int) -> int:
        """The value id in a waited-for block (consumer side)."""
        if h < self.npop:
            raise self.released(op, "read")
        return self._read(h % self.capacity, op)

    def wr_r(self, h: int, vid: int, op: int) -> None:
        if h < self.npush:
            raise self.released(op, "write")
        self._write(h % self.capacity, vid, op)

    def wr_w(self, h: int, vid: int, op: int) -> None:
        if h < self.npop:
            raise self.released(op, "write")
        self._write(h % self.capacity, vid, op)

    def copy_in_r(self, h: int, vid: int, op: int) -> "Xfer":
        """A copy lands in a reserved block: the block holds ``vid`` once the copy is waited."""
        self.wr_r(h, vid, op)
        return Xfer(self, h % self.capacity, True, op)

    def copy_in_w(self, h: int, vid: int, op: int) -> "Xfer":
        self.wr_w(h, vid, op)
        return Xfer(self, h % self.capacity, True, op)

    def copy_out(self, h: int, op: int) -> "Xfer":
        """A copy reads the block: it may not be released before the copy is waited."""
        return Xfer(self, h % self.capacity, False, op)

    def check(self, h: int, producer: bool, op: int, what: str) -> int:
        """The slot of a still-valid handle."""
        if h < (self.npush if producer else self.npop):
            raise self.released(op, what)
        return h % self.capacity


class Xfer:
    """A transfer handle. An ``incoming`` copy fills a block slot; the others read one."""

    __slots__ = ("cb", "slot", "incoming", "done", "op")

    def __init__(self, cb: CBState | None, slot: int, incoming: bool, op: int):
        self.cb = cb
        self.slot = slot
        self.incoming = incoming
        self.done = False
        self.op = op
        if cb is not None:
            cb.xfers[slot] = self

    def try_complete(self, op: int) -> bool:
        if not self.done:
            self.done = True
            cb = self.cb
            if cb is not None and cb.xfers[self.slot] is self:
                cb.xfers[self.slot] = None
        return True


class SemState(Waitable):
    __slots__ = ("decl", "value", "core")

    def __init__(self, decl: Any, core: tuple[int, ...], ready_queue: deque):
        super().__init__(ready_queue)
        self.decl = decl
        self.core = core
        self.value = decl.initial

    def set(self, value: int) -> None:
        self.value = value & 0xFFFFFFFF
        self.wake()

    def inc(self, value: int) -> None:
        self.value = (self.value + value) & 0xFFFFFFFF
        self.wake()


class PipeSlot(Waitable):
    """The landing buffer of one pipe at one destination core, under the pipe protocol of
    :mod:`tilecraft.ir.pipe_protocol` (one block in flight; a send lands only in empty slots)."""

    __slots__ = ("pipe", "dst", "vid", "direct", "posted")

    def __init__(self, pipe: Any, dst: tuple[int, ...], ready_queue: deque):
        super().__init__(ready_queue)
        self.pipe = pipe
        self.dst = dst
        self.vid = -1
        #: landed in place (the direct protocol, :mod:`tilecraft.sim.language.direct_landing`): a send
        #: also waits for the destination's receive to be posted
        self.direct = False
        #: the receive posted on this slot and not yet completed (tracked for direct slots only)
        self.posted: PipeRecv | None = None

    @property
    def full(self) -> bool:
        return self.vid >= 0

    @property
    def unready(self) -> bool:
        """Whether a send must wait on this slot under the direct protocol (``pipe_protocol.direct_blocking_slot``)."""
        return self.direct and self.posted is None


class PipeSend(Xfer):
    __slots__ = ("slots", "vid", "waitable")

    def __init__(self, cb: CBState, slot: int, vid: int, slots: list[PipeSlot], op: int):
        super().__init__(cb, slot, False, op)
        self.slots = slots
        self.vid = vid
        self.waitable = slots[0]

    def try_complete(self, op: int) -> bool:
        if self.done:
            return True
        full = pipe_protocol.blocking_slot(self.slots) or pipe_protocol.direct_blocking_slot(self.slots)
        if full is not None:
            self.waitable = full
            return False
        self.slots[0].pipe.check_in_place(self.slots)
        for slot in self.slots:
            slot.vid = self.vid
            slot.wake()
        return Xfer.try_complete(self, op)


class PipeRecv(Xfer):
    __slots__ = ("landing", "waitable")

    def __init__(self, cb: CBState, slot: int, landing: PipeSlot, op: int):
        super().__init__(cb, slot, True, op)
        self.landing = landing
        self.waitable = landing

    def try_complete(self, op: int) -> bool:
        if self.done:
            return True
        landing = self.landing
        if not landing.full:
            return False
        self.cb.vids[self.slot] = landing.vid
        landing.vid = -1
        landing.posted = None
        landing.wake()
        return Xfer.try_complete(self, op)
