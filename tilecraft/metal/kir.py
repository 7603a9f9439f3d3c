"""The kernel-level IR: TT-Metalium calls, kernel arguments and accessors.

Lowering turns each thread into a :class:`Kernel` whose body mixes these operations with the
language IR's scalar arithmetic and structured control flow (``ir.ops``), which both levels
share. ``metal.call`` is one Metalium API call; its name is looked up in :mod:`.optable`
(header, kind) and printed verbatim by :mod:`.cpp`, so a new call needs a table entry, not a
new operation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..arch.processors import Processor
from ..ir import ops as ir
from ..ir.dialects import Dialect
from ..ir.fieldkinds import CALL_ARGS, TEMPLATE, field_of_kind
from ..ir.l1 import L1Need
from ..ir.program_ir import ThreadKind
from ..ir.types import TensorDecl, Type

#: the Metalium version every emitted file targets
METAL_VERSION = "0.81.1"


class CType(Type):
    """A C++ type for kernel-level registers (uint32_t, uint64_t, a TensorAccessor)."""

    scalar = True

    def __init__(self, spelling: str):
        self.spelling = spelling

    def __str__(self) -> str:
        return self.spelling


U32 = CType("uint32_t")
I32 = CType("int32_t")
U64 = CType("uint64_t")
ACCESSOR = CType("auto")
SEM_PTR = CType("volatile tt_l1_ptr uint32_t*")
#: the value of the L1 word a SEM_PTR points at (printed as ``*ptr``; a pipe's published address)
L1_WORD = "*"


@dataclass(eq=False, kw_only=True)
class Call(ir.Op):
    """One Metalium API call; ``template`` holds template arguments printed verbatim."""

    name: ClassVar[str] = "metal.call"
    result: ir.Reg | None = None
    fn: str
    args: list = field_of_kind(CALL_ARGS, default_factory=list)
    template: tuple = field_of_kind(TEMPLATE, default=())


@dataclass(eq=False, kw_only=True)
class Arg(ir.Op):
    """A kernel argument: ``rt`` per-core runtime, ``common`` common runtime, ``ct`` compile-time."""

    name: ClassVar[str] = "metal.arg"
    result: ir.Reg
    source: str
    index: int
    label: str


@dataclass(eq=False, kw_only=True)
class Accessor(ir.Op):
    """``TensorAccessor`` for a DRAM tensor: compile-time args at ``ct_offset``, base ``addr``."""

    name: ClassVar[str] = "metal.accessor"
    result: ir.Reg
    tensor: TensorDecl
    ct_offset: int
    addr: ir.Reg
    page_bytes: int


@dataclass(eq=False, kw_only=True)
class Aggregate(ir.Op):
    """A kernel-side struct without a constructor, built by aggregate initialisation:
    ``const InterleavedAddrGenFast<true> s = {addr, page_size, data_format};``."""

    name: ClassVar[str] = "metal.aggregate"
    result: ir.Reg
    type_name: str
    template: tuple = field_of_kind(TEMPLATE, default=())
    args: list = field_of_kind(CALL_ARGS, default_factory=list)


@dataclass(eq=False, kw_only=True)
class Comment(ir.Op):
    """A comment in the emitted C++ (the source line an operation came from)."""

    name: ClassVar[str] = "metal.comment"
    text: str


class SemAddr(ir.Const):
    """``get_semaphore(id)``: the L1 address of a semaphore, printed as a call (in C++ and in the
    metal dialect's text, which reads it back as this)."""

    call: ClassVar[str] = "get_semaphore"

    def __init__(self, index: int):
        object.__setattr__(self, "value", index)

    def __str__(self) -> str:
        return f"{self.call}({self.value})"


#: the kernel-level dialect, registered by the IR's dialect table on first use (``ir/dialects.py``)
DIALECT = Dialect("metal", (Call, Arg, Accessor, Aggregate, Comment), types=(U32, I32, U64, ACCESSOR, SEM_PTR),
                  constants=(SemAddr,))


class BufferId(ir.Const):
    """A circular buffer's id as compute lowering writes it: a constant to the passes that follow
    (inits, formats), then bound to the kernel's compile-time argument for that buffer
    (:func:`.passes.bind_buffer_ids`), as data-movement kernels name theirs."""


@dataclass
class ArgDecl:
    label: str
    #: one value per core (flat core index) for rt args; one value for ct args
    values: tuple[Any, ...]


@dataclass
class Kernel:
    """One kernel: a thread lowered for one RISC-V (compute, riscv_0 or riscv_1)."""

    name: str
    processor: Processor
    body: list[ir.Op]
    rt_args: list[ArgDecl] = field(default_factory=list)
    #: tensors whose TensorAccessorArgs start at a compile-time arg offset: (decl, offset)
    accessors: list[tuple[TensorDecl, int]] = field(default_factory=list)
    includes: set[str] = field(default_factory=set)
    #: compile-time args before the accessors' (PyKernel: the circular buffer ids)
    compile_args: list[int] = field(default_factory=list)
    #: common runtime args (one value for every core)
    common_args: list[ArgDecl] = field(default_factory=list)

    @property
    def thread_kind(self) -> ThreadKind:
        """The kind of thread the kernel runs as (the language's threads are lowered one per kernel)."""
        return ThreadKind.COMPUTE if self.processor.is_compute else ThreadKind.DATAMOVEMENT

    @property
    def noc(self) -> int:
        """The NoC this kernel's NoC calls go out on (0 for compute kernels, which make none)."""
        return self.processor.default_noc

    def rt(self, label: str, values: tuple[Any, ...]) -> int:
        for i, arg in enumerate(self.rt_args):
            if arg.label == label and arg.values == values:
                return i
        self.rt_args.append(ArgDecl(label, values))
        return len(self.rt_args) - 1

    def common(self, label: str, value: Any) -> int:
        """The index of a common runtime argument (one value for every core), added once."""
        for i, arg in enumerate(self.common_args):
            if arg.label == label and arg.values == (value,):
                return i
        self.common_args.append(ArgDecl(label, (value,)))
        return len(self.common_args) - 1

    def compile_arg(self, value: int) -> int:
        """The index of a compile-time argument word before the accessors' (a buffer id), added once."""
        if value not in self.compile_args:
            self.compile_args.append(value)
        return self.compile_args.index(value)


@dataclass
class CBSpec:
    """A circular buffer as the host creates it: index, format, page size, pages."""

    index: int
    name: str
    fmt: Any
    page_bytes: int
    pages: int
    #: introduced by lowering (intermediate results, reduce scalers), not by the user
    internal: bool = False
    #: the index of the buffer whose L1 pages this index names too (one allocation, two indices,
    #: each with its own page counters and unpacker mode: metal/dst_view.py); None for a buffer
    #: with pages of its own
    shares: int | None = None


@dataclass
class SemSpec:
    index: int
    name: str
    initial: int


@dataclass
class MetalProgram:
    name: str
    grid: tuple[int, ...]
    arch: str
    kernels: list[Kernel]
    cbs: list[CBSpec]
    semaphores: list[SemSpec]
    tensors: list[TensorDecl]
    math_fidelity: str = "HiFi4"
    fp32_dest_acc_en: bool = False
    #: the grid is the compute grid of the device emitted for (``grid="full"``), see hosts.py
    grid_from_device: bool = False
    #: buffer indices whose Float32 tiles the compute kernel unpacks straight into DST
    #: (``unpack_to_dest_mode[i] = UnpackToDestFp32``); every other buffer goes through SrcA/SrcB
    unpack_to_dest_fp32: list[int] = field(default_factory=list)
    #: what one core needs in L1, the buffers the lowering added included, each with why
    l1_need: L1Need | None = None
