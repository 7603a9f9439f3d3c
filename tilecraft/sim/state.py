"""Per-core device state: circular buffers, blocks, semaphores, transfers, pipe landing slots.

These objects carry no tensor data: a block slot holds the *id* of the value in it (see
:mod:`.values`), so the synchronisation skeleton runs without touching data. Every protocol
rule of the language is checked here, at the operation that breaks it.

Generated thread code reads ``free``/``ready``/``value`` directly and yields ``(waitable, op)``
when it must block; a waitable's ``wake()`` puts its waiters back on the scheduler's queue.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

from ..diagnostics import error

FREE, RESERVED, FILLED, WAITED = 0, 1, 2, 3


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

    __slots__ = ("decl", "capacity", "free", "ready", "slot_vid", "slot_gen", "slot_state", "slot_xfer",
                 "next_reserve", "next_wait", "reserved", "waited", "core", "span_of", "producers",
                 "consumers")

    def __init__(self, decl: Any, core: tuple[int, ...], ready_queue: deque, span_of: Callable[[int], Any]):
        super().__init__(ready_queue)
        self.decl = decl
        self.core = core
        self.capacity = decl.buffer_factor
        self.free = self.capacity
        self.ready = 0
        n = self.capacity
        self.slot_vid = [-1] * n
        self.slot_gen = [0] * n
        self.slot_state = [FREE] * n
        self.slot_xfer: list[Any] = [None] * n
        self.next_reserve = 0
        self.next_wait = 0
        self.reserved: deque[int] = deque()
        self.waited: deque[int] = deque()
        self.span_of = span_of
        self.producers: set[str] = set()
        self.consumers: set[str] = set()

    def fail(self, code: str, message: str, op: int, hint: str | None = None) -> Exception:
        return error(code, f"{message} (buffer '{self.decl.name}', core {self.core})", self.span_of(op), hint=hint)

    def reserve(self, op: int) -> "BlockRef":
        slot = self.next_reserve
        self.next_reserve = (slot + 1) % self.capacity
        self.free -= 1
        self.slot_state[slot] = RESERVED
        self.slot_gen[slot] += 1
        self.slot_vid[slot] = -1
        self.reserved.append(slot)
        return BlockRef(self, slot, self.slot_gen[slot])

    def push(self, block: "BlockRef | None", op: int) -> None:
        if not self.reserved:
            raise self.fail("E1102", "push() without a reserved block", op,
                            hint="call reserve() (or use `with cb.reserve() as blk:`) before push()")
        slot = self.reserved[0]
        if block is not None:
            block.check(op, "push")
            if block.slot != slot:
                raise self.fail("E1102", "blocks must be pushed in the order they were reserved", op)
        if self.slot_xfer[slot] is not None:
            raise self.fail("E1104", "block pushed while a copy into it has not been waited", op,
                            hint="call wait() on the transfer handle of ttl.copy before the block is pushed")
        if self.slot_vid[slot] < 0:
            raise self.fail("E1108", "block pushed without being written", op,
                            hint="fill the block with ttl.copy(...) or blk.store(...) before pushing it")
        self.reserved.popleft()
        self.slot_state[slot] = FILLED
        self.slot_gen[slot] += 1
        self.ready += 1
        self.wake()

    def wait(self, op: int) -> "BlockRef":
        slot = self.next_wait
        self.next_wait = (slot + 1) % self.capacity
        self.ready -= 1
        self.slot_state[slot] = WAITED
        self.slot_gen[slot] += 1
        self.waited.append(slot)
        return BlockRef(self, slot, self.slot_gen[slot])

    def pop(self, block: "BlockRef | None", op: int) -> None:
        if not self.waited:
            raise self.fail("E1101", "pop() without a block obtained by wait()", op,
                            hint="call wait() (or use `with cb.wait() as blk:`) before pop()")
        slot = self.waited[0]
        if block is not None:
            block.check(op, "pop")
            if block.slot != slot:
                raise self.fail("E1101", "blocks must be popped in the order they were waited for", op)
        if self.slot_xfer[slot] is not None:
            raise self.fail("E1104", "block popped while a copy out of it has not been waited", op,
                            hint="call wait() on the transfer handle before the block is released")
        self.waited.popleft()
        self.slot_state[slot] = FREE
        self.slot_gen[slot] += 1
        self.free += 1
        self.wake()


class BlockRef:
    """A handle to a block slot, valid until the slot is released (generation check)."""

    __slots__ = ("cb", "slot", "gen")

    def __init__(self, cb: CBState, slot: int, gen: int):
        self.cb = cb
        self.slot = slot
        self.gen = gen

    def check(self, op: int, what: str) -> None:
        if self.cb.slot_gen[self.slot] != self.gen:
            raise self.cb.fail("E1103", f"block used after it was released ({what})", op,
                               hint="a block is valid only until its push()/pop() (the end of its `with`)")

    def rd(self, op: int) -> int:
        """The id of the value in the block, for reading it."""
        cb = self.cb
        slot = self.slot
        if cb.slot_gen[slot] != self.gen:
            self.check(op, "read")
        if cb.slot_xfer[slot] is not None:
            xfer = cb.slot_xfer[slot]
            if xfer.incoming:
                raise cb.fail("E1104", "block read while a copy into it has not been waited", op,
                              hint="call wait() on the transfer handle before using the block")
        vid = cb.slot_vid[slot]
        if vid < 0:
            raise cb.fail("E1109", "block read before anything was written to it", op,
                          hint="reserve() gives an uninitialised block: store() or copy into it first")
        return vid

    def wr(self, vid: int, op: int) -> None:
        cb = self.cb
        if cb.slot_gen[self.slot] != self.gen:
            self.check(op, "write")
        if cb.slot_xfer[self.slot] is not None:
            raise cb.fail("E1104", "block written while a copy involving it has not been waited", op)
        cb.slot_vid[self.slot] = vid


class Xfer:
    """A transfer handle. ``incoming`` copies fill a block; the others read one."""

    __slots__ = ("block", "incoming", "done")

    def __init__(self, block: BlockRef | None, incoming: bool):
        self.block = block
        self.incoming = incoming
        self.done = False
        if block is not None:
            block.cb.slot_xfer[block.slot] = self

    def try_complete(self, op: int) -> bool:
        if not self.done:
            self.done = True
            block = self.block
            if block is not None and block.cb.slot_xfer[block.slot] is self:
                block.cb.slot_xfer[block.slot] = None
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
    """The landing buffer of one pipe at one destination core: one block in flight at a time.

    A sender's ``wait()`` completes when the block has landed in every destination's slot (the
    slots must be empty: finite capacity); a receiver's ``wait()`` takes the block out.
    """

    __slots__ = ("pipe", "dst", "vid", "sender_span")

    def __init__(self, pipe: Any, dst: tuple[int, ...], ready_queue: deque):
        super().__init__(ready_queue)
        self.pipe = pipe
        self.dst = dst
        self.vid = -1
        self.sender_span = None


class PipeSend(Xfer):
    __slots__ = ("slots", "vid", "waitable")

    def __init__(self, block: BlockRef, vid: int, slots: list[PipeSlot]):
        super().__init__(block, incoming=False)
        self.slots = slots
        self.vid = vid
        self.waitable = slots[0]

    def try_complete(self, op: int) -> bool:
        if self.done:
            return True
        for slot in self.slots:
            if slot.vid >= 0:
                self.waitable = slot
                return False
        for slot in self.slots:
            slot.vid = self.vid
            slot.wake()
        return Xfer.try_complete(self, op)


class PipeRecv(Xfer):
    __slots__ = ("slot", "waitable", "op")

    def __init__(self, block: BlockRef, slot: PipeSlot, op: int):
        super().__init__(block, incoming=True)
        self.slot = slot
        self.waitable = slot
        self.op = op

    def try_complete(self, op: int) -> bool:
        if self.done:
            return True
        slot = self.slot
        if slot.vid < 0:
            return False
        block = self.block
        block.cb.slot_vid[block.slot] = slot.vid
        slot.vid = -1
        slot.wake()
        return Xfer.try_complete(self, op)
