"""What a kernel's parameters are bound to, as the front end needs to know it.

A PyKernel kernel is a Python function whose parameters the host fills (the published binding
rules, applied in :mod:`.binding`): a ``CircularBuffer`` parameter reads its CB id from a
compile-time argument, numbered in order; an unannotated parameter is a runtime argument, common
to all cores or per core; a ``CompileTimeValue`` parameter is a constant folded into the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..arch.processors import Processor
from .api import COMPUTE, DATAMOVEMENT

CB, RT, COMMON, CT = "cb", "rt", "common", "ct"
#: decorator -> (kind of kernel, the RISC-V it runs on as tilecraft's kernel-level IR names it)
THREADS = {"compute_thread": (COMPUTE, Processor.COMPUTE), "reader_thread": (DATAMOVEMENT, Processor.RISCV_1),
           "writer_thread": (DATAMOVEMENT, Processor.RISCV_0), "ttkernel_tensix_compile": (COMPUTE, Processor.COMPUTE),
           "ttkernel_noc_compile": (DATAMOVEMENT, Processor.RISCV_1)}


@dataclass(frozen=True)
class ParamBinding:
    """One kernel parameter: ``role`` CB / RT / COMMON / CT, the argument index (CB: the
    compile-time argument holding its id; RT / COMMON: the runtime argument) or the constant."""

    name: str
    role: str
    index: int = 0
    value: Any = None


@dataclass(frozen=True)
class KernelInterface:
    """Everything about a kernel's launch that its compiled text depends on."""

    kind: str
    processor: Processor
    params: tuple[ParamBinding, ...]
    #: how many compile-time arguments the host passes (CB ids, then tensor accessor args)
    compile_args: int

    def __post_init__(self) -> None:
        assert self.kind in (COMPUTE, DATAMOVEMENT)
