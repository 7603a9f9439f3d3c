"""The three kernel processors of a Tensix core, each with the facts every tool reads about it.

A program runs three kernels per core: two data-movement kernels on the RISC-Vs Metalium calls
RISCV_0 (BRISC) and RISCV_1 (NCRISC), and one compute kernel split over the three TRISCs. The
kernel-level IR, the hosts, the header check, the metal-level simulator and the cost model's
replay all need the same facts about each (its name, its default NoC, its role in a ttnn
descriptor), so they are stated here once and read everywhere. The kernel emulator and
``tilecraft.testing`` keep their own numbering: they are oracles and share no code with the
compiler.
"""

from __future__ import annotations

from typing import Iterable

from ..text_enum import TextEnum


class Processor(TextEnum):
    """One kernel processor. The value is the name the kernel-level IR, the manifest and the
    emitted file comments use (``riscv_0``, ``riscv_1``, ``compute``)."""

    #: BRISC: by ttnn's convention the writer, on NOC 0 (``NOC::RISCV_0_default``)
    RISCV_0 = "riscv_0", "writer", "brisc", 0, "data movement kernel, RISCV_0"
    #: NCRISC: by ttnn's convention the reader, on NOC 1 (``NOC::RISCV_1_default``), whose
    #: multicast corners are swapped
    RISCV_1 = "riscv_1", "reader", "ncrisc", 1, "data movement kernel, RISCV_1"
    #: the three TRISCs (unpack, math, pack); they make no NoC calls, NOC 0 stands in
    COMPUTE = "compute", "compute", "trisc", 0, "compute kernel (unpack/math/pack TRISCs)"

    def __new__(cls, name: str, role: str, risc: str, default_noc: int, description: str) -> Processor:
        member = str.__new__(cls, name)
        member._value_ = name
        #: the role of the kernel in 0.81.1's descriptors and the header check: ``reader``
        #: (``ReaderConfigDescriptor``), ``writer`` (``WriterConfigDescriptor``) or ``compute``
        member.role = role
        #: the RISC-V core's name in Metalium's firmware (``brisc``, ``ncrisc``, ``trisc``)
        member.risc = risc
        #: the NoC the kernel's NoC calls go out on: Metalium's ``RISCV_n_default``
        member.default_noc = default_noc
        #: what the emitted kernel's header comment calls it
        member.description = description
        return member

    @property
    def is_compute(self) -> bool:
        return self is Processor.COMPUTE

    @property
    def metal_name(self) -> str:
        """The ``DataMovementProcessor`` member of a data-movement processor (``RISCV_0``); the
        compute kernel has none."""
        if self.is_compute:
            raise ValueError("the compute kernel is configured by a ComputeConfigDescriptor, not a processor")
        return self.name

    @property
    def default_noc_name(self) -> str:
        """Metalium's ``NOC`` member for this processor's default NoC (``RISCV_0_default``)."""
        return f"{self.metal_name}_default"


#: the data-movement processors in the order a program's data-movement threads take them: the
#: first (by convention the reader) on RISCV_1, the second (the writer) on RISCV_0
DATA_MOVEMENT_ORDER: tuple[Processor, ...] = (Processor.RISCV_1, Processor.RISCV_0)


def thread_processors(is_compute: Iterable[bool]) -> list[Processor]:
    """The processor each of a program's threads runs on, given, in the program's order, whether
    each is a compute thread: compute threads on the TRISCs, data-movement threads on the RISC-Vs
    of :data:`DATA_MOVEMENT_ORDER`. The lowering places its kernels by this and the cost model
    routes each thread's NoC traffic by it, so a thread is timed on the NoC its kernel uses."""
    data_movement = iter(DATA_MOVEMENT_ORDER)
    return [Processor.COMPUTE if compute else next(data_movement) for compute in is_compute]


def processor_of_role(spelling: str) -> Processor:
    """The processor for any spelling a user or a kernel file may give: its IR name
    (``riscv_0``), its role (``writer``) or its RISC-V (``brisc``); case-insensitive."""
    word = spelling.lower()
    for processor in Processor:
        if word in (processor.value, processor.role, processor.risc):
            return processor
    known = sorted({w for p in Processor for w in (p.value, p.role, p.risc)})
    raise ValueError(f"unknown kernel kind {spelling!r}; expected one of {known}")
