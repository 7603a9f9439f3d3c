"""The emulator's numeric codes, once for Python: trace event kinds, FPU operations, broadcasts,
NoC barriers and SFPU operations.

The C++ runtime and the Python readers of its trace (the cost model's replay, the metal-level
simulator's trace, the profiler) must agree on every code. The SFPU operations are listed once, in
the X-macros of ``include/tc_emu/sfpu_ops.h`` that the kernels and the runtime compile, and read
from there into enums. The other codes are small C++ ``enum class`` declarations
(``runtime/trace.h``: ``Ev``; ``include/tc_emu/runtime.h``: ``Fpu``, ``Bcast``, ``Barrier``) stated
here as Python enums; ``tests/emu/test_codes.py`` reads the C++ declarations and holds the two to
each other, member by member (names compared without case or underscores), so a code added or
moved on one side fails there instead of mislabelling a trace.
"""

from __future__ import annotations

import re
from enum import Enum, IntEnum
from pathlib import Path


class Ev(IntEnum):
    """A trace event's kind (``tc::Ev``); the fields per kind are listed in :mod:`.trace`."""

    # data movement
    CB_RESERVE = 1
    CB_PUSH = 2
    CB_WAIT = 3
    CB_POP = 4
    NOC_READ = 5
    NOC_WRITE = 6
    NOC_MCAST = 7
    NOC_BARRIER = 8
    SEM_WAIT = 9
    SEM_SET = 10
    SEM_REMOTE = 11
    SEM_MCAST = 12
    POLL = 13
    # compute
    HW_STARTUP = 20
    INIT = 21
    RECONFIG = 22
    ACQUIRE = 23
    COMMIT = 24
    REGS_WAIT = 25
    RELEASE = 26
    COPY = 27
    BINARY = 28
    UNARY_BCAST = 29
    REUSE_DEST = 30
    MATMUL = 31
    REDUCE = 32
    TRANSPOSE = 33
    TILIZE = 34
    UNTILIZE = 35
    PACK = 36
    SFPU_UNARY = 37
    SFPU_BINARY = 38
    SFPU_TERNARY = 39
    TYPECAST = 40
    SFPU_INIT = 41
    COPY_DEST = 42


class Mode(IntEnum):
    """The configuration an ``INIT`` event sets up (field ``a``; ``tc::Mode``): which operation the
    unpackers and the math engine are initialised for (``NONE``: an uninit)."""

    NONE = 0
    COPY = 1
    BINARY = 2
    BINARY_BCAST = 3
    UNARY_BCAST = 4
    MATMUL = 5
    REDUCE = 6
    TRANSPOSE = 7
    TILIZE = 8
    UNTILIZE = 9
    REUSE_DEST = 10
    PACK_UNTILIZE = 11


class Fpu(IntEnum):
    """The FPU's elementwise operation of a ``BINARY`` / ``REUSE_DEST`` event (``tc::Fpu``)."""

    ADD = 0
    SUB = 1
    MUL = 2


class Bcast(IntEnum):
    """The broadcast of a ``BINARY`` event's second operand (``tc::Bcast``)."""

    NONE = 0
    ROW = 1
    COL = 2
    SCALAR = 3


class Barrier(IntEnum):
    """What a ``NOC_BARRIER`` event waits for (``tc::Barrier``)."""

    READS = 0
    WRITES = 1
    WRITES_FLUSHED = 2
    POSTED_WRITES_FLUSHED = 3
    ATOMICS = 4
    FULL = 5


SFPU_HEADER = Path(__file__).parent / "include" / "tc_emu" / "sfpu_ops.h"


def _sfpu_enum(kind: str) -> type[Enum]:
    text = SFPU_HEADER.read_text()
    body = re.search(rf"#define TC_SFPU_{kind}\(X\)(.*?)(?:\n\n|\n//)", text, re.S)
    assert body is not None, kind
    names = re.findall(r"X\((\w+)\)", body.group(1))
    return Enum(f"Sfpu{kind.title()}", [(name, code) for code, name in enumerate(names)])


#: the SFPU operations of one DST tile, of two, of three (``tc::SfpuUnary`` / ``Binary`` / ``Ternary``):
#: members named as in the header (``SfpuUnary.LogWithBase``), valued by their code (plain enums, not
#: integers: ``SfpuUnary.Abs`` and ``SfpuBinary.Max`` may share a code but are different operations)
SfpuUnary = _sfpu_enum("UNARY")
SfpuBinary = _sfpu_enum("BINARY")
SfpuTernary = _sfpu_enum("TERNARY")
