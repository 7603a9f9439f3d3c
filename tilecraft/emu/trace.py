"""The profiling trace the emulator records: each kernel API call of each RISC, at its source line.

Why a trace and not a cost model inside the emulator: the emulator is the oracle of what a
program *does* (which calls, how many bytes, which semaphore write released which wait); how long
that takes is the cost model's business (:mod:`tilecraft.perf.kernel_replay`), which replays the
trace with the same architecture figures and blocking rules as the language-level model. The
runtime records only while a run asks for it (``launch.run(..., trace=True)``): one 40-byte record
per call (runtime/trace.h), nothing when off.

Fields per kind (``a``, ``b``, ``c``, ``d``; ``ref``):

==================  =========================================================================
CB_RESERVE..POP     cb index, pages
NOC_READ / WRITE    bytes, 1 if the far end is a DRAM bank (else a core's L1), bank or core
                    index, NoC
NOC_MCAST           bytes, destinations, logical rectangle of the destinations (packed
                    x0 | y0 << 8 | x1 << 16 | y1 << 24), NoC
NOC_BARRIER         barrier kind (0 reads, 1 writes, 2 writes flushed, 3 posted writes, 4
                    atomics, 5 all), -, -, NoC
SEM_WAIT            value, at least; ``ref`` the event that last wrote the word before the
                    wait passed (-1: its initial value satisfied it)
SEM_SET / REMOTE    value / target core index, -, -, NoC
SEM_MCAST           destinations, -, rectangle, NoC
COPY .. PACK        page bytes of the operand CBs (srcA, srcB), and per kind: FPU op and
                    broadcast (BINARY), ct and rt dims (MATMUL), tiles and output page bytes
                    (TILIZE/UNTILIZE)
SFPU_*              the SFPU operation code (:data:`SFPU_UNARY`, ...)
==================  =========================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

CB_RESERVE, CB_PUSH, CB_WAIT, CB_POP, NOC_READ, NOC_WRITE, NOC_MCAST, NOC_BARRIER, SEM_WAIT, SEM_SET, SEM_REMOTE, \
    SEM_MCAST, POLL = range(1, 14)
HW_STARTUP, INIT, RECONFIG, ACQUIRE, COMMIT, REGS_WAIT, RELEASE, COPY, BINARY, UNARY_BCAST, REUSE_DEST, MATMUL, \
    REDUCE, TRANSPOSE, TILIZE, UNTILIZE, PACK, SFPU_UNARY, SFPU_BINARY, SFPU_TERNARY, TYPECAST, SFPU_INIT, \
    COPY_DEST = range(20, 43)

#: the API call each kind stands for (labels of stalls and trace slices)
KIND_NAMES = {
    CB_RESERVE: "cb_reserve_back", CB_PUSH: "cb_push_back", CB_WAIT: "cb_wait_front", CB_POP: "cb_pop_front",
    NOC_READ: "noc_async_read", NOC_WRITE: "noc_async_write", NOC_MCAST: "noc_async_write_multicast",
    NOC_BARRIER: "noc barrier", SEM_WAIT: "noc_semaphore_wait", SEM_SET: "noc_semaphore_set",
    SEM_REMOTE: "remote semaphore write", SEM_MCAST: "semaphore multicast", POLL: "poll",
    HW_STARTUP: "compute_kernel_hw_startup", INIT: "init", RECONFIG: "reconfig", ACQUIRE: "tile_regs_acquire",
    COMMIT: "tile_regs_commit", REGS_WAIT: "tile_regs_wait", RELEASE: "tile_regs_release", COPY: "copy_tile",
    BINARY: "binary tiles", UNARY_BCAST: "unary_bcast", REUSE_DEST: "binary_dest_reuse_tiles",
    MATMUL: "matmul", REDUCE: "reduce_tile", TRANSPOSE: "transpose_wh_tile", TILIZE: "tilize_block",
    UNTILIZE: "untilize_block", PACK: "pack_tile", SFPU_UNARY: "SFPU", SFPU_BINARY: "SFPU binary",
    SFPU_TERNARY: "SFPU ternary", TYPECAST: "typecast_tile", SFPU_INIT: "SFPU init", COPY_DEST: "copy_dest_values",
}

#: runtime/trace.h's TraceEvent
EVENT_DTYPE = np.dtype({
    "names": ["core", "slot", "kind", "file", "line", "a", "b", "c", "d", "ref"],
    "formats": [np.uint16, np.uint8, np.uint8, np.uint32, np.uint32, np.uint32, np.uint32, np.uint32, np.uint32,
                np.int64],
    "offsets": [0, 2, 3, 4, 8, 12, 16, 20, 24, 32],
    "itemsize": 40,
})

_SFPU_HEADER = Path(__file__).parent / "include" / "tc_emu" / "sfpu_ops.h"


@cache
def sfpu_names(kind: str) -> tuple[str, ...]:
    """The SFPU operation names in code order (``"UNARY"``, ``"BINARY"``, ``"TERNARY"``), read from
    the header the kernels and the runtime share, so a new operation needs no second table."""
    text = _SFPU_HEADER.read_text()
    body = re.search(rf"#define TC_SFPU_{kind}\(X\)(.*?)(?:\n\n|\n//)", text, re.S)
    assert body is not None, kind
    return tuple(re.findall(r"X\((\w+)\)", body.group(1)))


@dataclass
class KernelTrace:
    """One emulator run's trace: the events, the files they name, and the grid they ran on."""

    events: np.ndarray
    files: list[str]
    #: compute grid (columns, rows): core index i is logical core (i % columns, i // columns)
    grid: tuple[int, int]
    #: cores the trace's events name, in index order, and the kernel each (core, RISC) ran
    kernels: dict[tuple[int, int], str] = field(default_factory=dict)

    def core(self, index: int) -> tuple[int, int]:
        return index % self.grid[0], index // self.grid[0]
