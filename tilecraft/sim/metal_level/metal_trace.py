"""The calls of a lowered program, recorded while ``--level metal`` simulates it: the kernel-level
cost model's input for TT-Lang programs, without compiling or running any C++.

The records are the emulator's (:mod:`tilecraft.emu.trace`: one per Metalium call, kind and operands,
the write that released each semaphore wait), so the same replay times a program whichever
simulation ran it; here a call's place is the TT-Lang source line the lowering gave it. Only the
synchronisation skeleton is needed, so a traced run may skip the values (``MetalRuntime.run(values=False)``)
and time real problem sizes.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ...arch.processors import Processor
from ...emu import trace as tr
from ...emu.codes import Barrier, Bcast, Ev, Fpu
from ...emu.program_spec import BRISC, NCRISC, TRISC
from ...metal import optable
from .. import emu_sfpu

#: tilecraft's FPU binary names -> the emulator's FPU operations
_FPU_CODE = {"add": Fpu.ADD, "sub": Fpu.SUB, "mul": Fpu.MUL}
#: broadcast dims of the FPU call tables -> the emulator's broadcasts
_BCAST_CODE = {(): Bcast.NONE, (-2,): Bcast.ROW, (-1,): Bcast.COL, (-2, -1): Bcast.SCALAR}
#: the emulator's trace slot of each kernel processor
SLOTS = {Processor.RISCV_0: BRISC, Processor.RISCV_1: NCRISC, Processor.COMPUTE: TRISC}
_BARRIERS = {"noc_async_read_barrier": Barrier.READS, "noc_async_write_barrier": Barrier.WRITES,
             "noc_async_writes_flushed": Barrier.WRITES_FLUSHED,
             "noc_async_posted_writes_flushed": Barrier.POSTED_WRITES_FLUSHED,
             "noc_async_atomic_barrier": Barrier.ATOMICS, "noc_async_full_barrier": Barrier.FULL}
_CONFIG = {"compute_kernel_hw_startup": Ev.HW_STARTUP, "reduce_uninit": Ev.INIT}
_DST = {"tile_regs_acquire": Ev.ACQUIRE, "tile_regs_commit": Ev.COMMIT, "tile_regs_wait": Ev.REGS_WAIT,
        "tile_regs_release": Ev.RELEASE}
_CB = {"cb_reserve_back": Ev.CB_RESERVE, "cb_push_back": Ev.CB_PUSH, "cb_wait_front": Ev.CB_WAIT,
       "cb_pop_front": Ev.CB_POP}


def slot_of(processor: Processor) -> int:
    return SLOTS[processor]


class MetalCallTrace:
    """Records each call of every core's kernels as an emulator trace event."""

    def __init__(self, grid: tuple[int, ...], unary: dict, sfpu_binary: dict, scalar: dict, fpu: dict):
        self.cols = grid[0]
        self.rows: list[tuple] = []
        self.files: list[str] = []
        self._file_ids: dict[str, int] = {}
        self._writers: dict[int, int] = {}  # id(semaphore word) -> event that last wrote it
        self.unary, self.sfpu_binary, self.scalar, self.fpu = unary, sfpu_binary, scalar, fpu

    def index(self, core: tuple[int, ...]) -> int:
        return (core[1] if len(core) > 1 else 0) * self.cols + core[0]

    def _add(self, k: Any, slot: int, kind: int, span: Any, a: int = 0, b: int = 0, c: int = 0, d: int = 0,
             ref: int = -1) -> int:
        file = span.file if span is not None else "<lowered>"
        fid = self._file_ids.get(file)
        if fid is None:
            fid = self._file_ids[file] = len(self.files)
            self.files.append(file)
        self.rows.append((self.index(k.core), slot, kind, fid, span.line if span is not None else 0,
                          int(a), int(b), int(c), int(d), ref))
        return len(self.rows) - 1

    def kernel_trace(self, grid: tuple[int, ...], kernels: dict[tuple[int, int], str]) -> tr.KernelTrace:
        events = np.array(self.rows, dtype=tr.EVENT_DTYPE) if self.rows else np.empty(0, dtype=tr.EVENT_DTYPE)
        return tr.KernelTrace(events, self.files, (grid[0], grid[1] if len(grid) > 1 else 1), kernels)

    # ---------------------------------------------------------------- one call
    def record(self, k: Any, processor: str, op: int, fn: str, args: tuple) -> None:
        """``fn(*args)`` ran on core ``k`` (a MetalCore) in the kernel of ``processor`` (its name:
        the generated code spells it as a string)."""
        span = k.rt.span_of(op)
        kernel_processor = Processor(processor)
        slot, noc = SLOTS[kernel_processor], kernel_processor.default_noc
        add = lambda kind, *fields, ref=-1: self._add(k, slot, kind, span, *fields, ref=ref)  # noqa: E731
        if fn in _CB:
            add(_CB[fn], args[0], args[1])
        elif fn in ("noc_async_read_page", "noc_async_write_page"):
            tile, tensor, addr = args
            cb, _ = k.l1.locate(addr, op, k.rt.span_of)
            add(Ev.NOC_READ if fn.startswith("noc_async_read") else Ev.NOC_WRITE, cb.page_bytes, 1, tile, noc)
        elif fn in ("noc_async_read", "noc_async_write"):
            far, nbytes = (args[0] if fn == "noc_async_read" else args[1]), args[2]
            kind = Ev.NOC_READ if fn == "noc_async_read" else Ev.NOC_WRITE
            if hasattr(far, "page"):  # a row of a DRAM tensor
                add(kind, nbytes, 1, far.page, noc)
            else:
                add(kind, nbytes, 0, self.index(far.cores[0]), noc)
        elif fn.startswith("noc_async_write_multicast"):
            add(Ev.NOC_MCAST, args[2], args[3], self._rect(args[1].cores), noc)
        elif fn in _BARRIERS:
            add(Ev.NOC_BARRIER, _BARRIERS[fn], 0, 0, noc)
        elif fn in ("noc_semaphore_wait", "noc_semaphore_wait_min"):
            add(Ev.SEM_WAIT, args[1], fn.endswith("_min"), ref=self._writers.get(id(k.sem(args[0])), -1))
        elif fn == "noc_semaphore_set":
            self._writers[id(k.sem(args[0]))] = add(Ev.SEM_SET, args[1])
        elif fn in ("noc_semaphore_inc", "noc_semaphore_set_remote"):
            remote = args[0] if fn == "noc_semaphore_inc" else args[1]
            for core in remote.cores:
                event = add(Ev.SEM_REMOTE, self.index(core), 0, 0, noc)
                self._writers[id(k.rt.core_at(core, op).sems[remote.index])] = event
        elif fn == "noc_inline_dw_write":
            add(Ev.NOC_WRITE, 4, 0, self.index(args[0].cores[0]), noc)
        elif fn.startswith("noc_semaphore_set_multicast"):
            dst, loopback = args[1], fn.endswith("loopback_src")
            targets = [c for c in dst.cores if loopback or c != k.core]
            event = add(Ev.SEM_MCAST, len(targets), 0, self._rect(targets), noc)
            for core in targets:
                target = k.rt.core_at(core, op)
                word = target.sem(dst.addr) if hasattr(dst, "addr") else target.sems[dst.index]
                self._writers[id(word)] = event
        elif fn in _DST:
            add(_DST[fn])
        elif fn in _CONFIG or fn in optable.INIT_CALLS or fn.startswith("reconfig") or fn.startswith("pack_reconfig"):
            add(_CONFIG.get(fn, Ev.INIT if not fn.startswith(("reconfig", "pack_reconfig")) else Ev.RECONFIG))
        else:
            self._compute(k, fn, args, add)

    def _compute(self, k: Any, fn: str, args: tuple, add: Any) -> None:
        page = lambda cb: k.cbs[cb].page_bytes  # noqa: E731
        if fn == "copy_tile":
            add(Ev.COPY, page(args[0]))
        elif fn == "pack_tile":
            add(Ev.PACK, page(args[1]))
        elif fn == "matmul_tiles":
            add(Ev.MATMUL, page(args[0]), page(args[1]), 1, 1)
        elif fn == "matmul_block":
            add(Ev.MATMUL, page(args[0]), page(args[1]), args[6], args[7])
        elif fn == "reduce_tile":
            add(Ev.REDUCE, page(args[0]), page(args[1]))
        elif fn == "unary_bcast":
            add(Ev.UNARY_BCAST, page(args[0]))
        elif "transpose" in fn:
            add(Ev.TRANSPOSE, page(args[0]))
        elif fn in self.fpu:
            name, dims = self.fpu[fn]
            add(Ev.BINARY, page(args[0]), page(args[1]), _FPU_CODE[name], _BCAST_CODE[tuple(dims)])
        elif fn in self.unary:
            add(Ev.SFPU_UNARY, emu_sfpu.UNARY[self.unary[fn][0][0]].value)
        elif fn in self.scalar:
            add(Ev.SFPU_UNARY, emu_sfpu.SCALAR[self.scalar[fn]].value)
        elif fn in self.sfpu_binary:
            add(Ev.SFPU_BINARY, emu_sfpu.BINARY[self.sfpu_binary[fn]].value)
        elif fn in ("fill_tile", optable.FILL_INT.call):
            add(Ev.SFPU_UNARY, emu_sfpu.FILL.value)
        elif fn == "where_tile":
            add(Ev.SFPU_TERNARY, emu_sfpu.WHERE.value)
        elif re.match(r"(get_|DPRINT|DEVICE_PRINT|__builtin|noc_x_of|noc_y_of|reinterpret_cast)", fn) is None:
            add(Ev.POLL)  # any other call: charged as a call, no work model

    @staticmethod
    def _rect_of(cores: Any) -> tuple[int, int, int, int]:
        xs = [c[0] for c in cores]
        ys = [c[1] if len(c) > 1 else 0 for c in cores]
        return min(xs), min(ys), max(xs), max(ys)

    def _rect(self, cores: Any) -> int:
        if not cores:
            return 0
        x0, y0, x1, y1 = self._rect_of(cores)
        return x0 | (y0 << 8) | (x1 << 16) | (y1 << 24)
