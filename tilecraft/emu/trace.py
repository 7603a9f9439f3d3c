"""The profiling trace the emulator records: each kernel API call of each RISC, at its source line.

Why a trace and not a cost model inside the emulator: the emulator is the oracle of what a
program *does* (which calls, how many bytes, which semaphore write released which wait); how long
that takes is the cost model's business (:mod:`tilecraft.perf.kernel_replay`), which replays the
trace with the same architecture figures and blocking rules as the language-level model. The
runtime records only while a run asks for it (``launch.run(..., trace=True)``): one 40-byte record
per call (runtime/trace.h), nothing when off.

Fields per kind (:class:`.codes.Ev`; ``a``, ``b``, ``c``, ``d``; ``ref``):

==================  =========================================================================
CB_RESERVE..POP     cb index, pages
NOC_READ / WRITE    bytes, 1 if the far end is a DRAM bank (else a core's L1), bank or core
                    index, NoC
NOC_MCAST           bytes, destinations, logical rectangle of the destinations (packed
                    x0 | y0 << 8 | x1 << 16 | y1 << 24), NoC
NOC_BARRIER         barrier kind (:class:`.codes.Barrier`), -, -, NoC
SEM_WAIT            value, at least; ``ref`` the event that last wrote the word before the
                    wait passed (-1: its initial value satisfied it)
SEM_SET / REMOTE    value / target core index, -, -, NoC
SEM_MCAST           destinations, -, rectangle, NoC
COPY .. PACK        page bytes of the operand CBs (srcA, srcB), and per kind: FPU op and
                    broadcast (BINARY: :class:`.codes.Fpu`, :class:`.codes.Bcast`), ct and rt dims (MATMUL), tiles and output page bytes
                    (TILIZE/UNTILIZE)
SFPU_*              the SFPU operation code (:mod:`.codes`: ``SfpuUnary``, ...)
==================  =========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .codes import Ev

#: the API call each kind stands for (labels of stalls and trace slices)
KIND_NAMES = {
    Ev.CB_RESERVE: "cb_reserve_back", Ev.CB_PUSH: "cb_push_back", Ev.CB_WAIT: "cb_wait_front",
    Ev.CB_POP: "cb_pop_front", Ev.NOC_READ: "noc_async_read", Ev.NOC_WRITE: "noc_async_write",
    Ev.NOC_MCAST: "noc_async_write_multicast", Ev.NOC_BARRIER: "noc barrier", Ev.SEM_WAIT: "noc_semaphore_wait",
    Ev.SEM_SET: "noc_semaphore_set", Ev.SEM_REMOTE: "remote semaphore write", Ev.SEM_MCAST: "semaphore multicast",
    Ev.POLL: "poll", Ev.HW_STARTUP: "compute_kernel_hw_startup", Ev.INIT: "init", Ev.RECONFIG: "reconfig",
    Ev.ACQUIRE: "tile_regs_acquire", Ev.COMMIT: "tile_regs_commit", Ev.REGS_WAIT: "tile_regs_wait",
    Ev.RELEASE: "tile_regs_release", Ev.COPY: "copy_tile", Ev.BINARY: "binary tiles", Ev.UNARY_BCAST: "unary_bcast",
    Ev.REUSE_DEST: "binary_dest_reuse_tiles", Ev.MATMUL: "matmul", Ev.REDUCE: "reduce_tile",
    Ev.TRANSPOSE: "transpose_wh_tile", Ev.TILIZE: "tilize_block", Ev.UNTILIZE: "untilize_block",
    Ev.PACK: "pack_tile", Ev.SFPU_UNARY: "SFPU", Ev.SFPU_BINARY: "SFPU binary", Ev.SFPU_TERNARY: "SFPU ternary",
    Ev.TYPECAST: "typecast_tile", Ev.SFPU_INIT: "SFPU init", Ev.COPY_DEST: "copy_dest_values",
}

#: runtime/trace.h's TraceEvent
EVENT_DTYPE = np.dtype({
    "names": ["core", "slot", "kind", "file", "line", "a", "b", "c", "d", "ref"],
    "formats": [np.uint16, np.uint8, np.uint8, np.uint32, np.uint32, np.uint32, np.uint32, np.uint32, np.uint32,
                np.int64],
    "offsets": [0, 2, 3, 4, 8, 12, 16, 20, 24, 32],
    "itemsize": 40,
})


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
