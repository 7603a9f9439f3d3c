"""ProgramIR -> MetalProgram: one kernel per thread, plus the buffers and semaphores they need.

Thread roles follow the program's order: the compute thread runs on the three compute
RISC-Vs; the first data-movement thread (by convention the reader) on RISCV_1, the second on RISCV_0.
Buffers keep their indices; buffers introduced by lowering (reduce scalers, intermediate
results) take the next free indices and count against L1 like the user's: the program's L1 need
(``ir/l1.py``) is made here, by :meth:`ProgramLowering.l1_need`, for every tool that reads it.
"""

from __future__ import annotations

from typing import Any

from ..arch.processors import thread_processors
from ..diagnostics import KernelError, error
from ..dtypes import DataFormat, float32, uint32
from ..ir.cb_count import check_cb_count
from ..ir.l1 import Added, L1Buffer, L1Need, l1_need
from ..ir.program_ir import COMPUTE, ProgramIR
from ..ir import ops as ir
from ..ir import pipe_protocol
from ..ir.verify import verify_body
from ..ir.types import SCALAR_UNIT, TILE_UNIT, BlockType, CBDecl, PipeNetDecl, SemaphoreDecl, TensorDecl
from . import kir
from .lower_compute import ComputeLowering
from .lower_dm import DataMovementLowering
from .lower_pipes import FLAG_STRIDE, PipeNetResources
from .optable import EMITTABLE_FORMATS, unsupported
from .dst_view import read_both_ways, read_views
from .formats import configure_formats, unpack_to_dest_buffers
from .passes import bind_buffer_ids, prune_redundant_inits


#: semaphores per core in tt-metal (``NUM_SEMAPHORES``)
MAX_SEMAPHORES = 16


class ProgramLowering:
    def __init__(self, program: ProgramIR, arch: str):
        self.program = program
        self.arch = arch
        #: DST holds fp32 in every emitted program: the language computes the intermediates of an
        #: expression and the partial sums of a matmul in fp32 (docs/numerics.md section 4), which a
        #: 16-bit DST would round to bfloat16 after every operation
        self.fp32_dest_acc = True
        self.cbs: list[kir.CBSpec] = [kir.CBSpec(cb.index, cb.name, cb.fmt, _page_bytes(cb), _pages(cb))
                                      for cb in program.cbs]
        #: buffers the lowering added, with why (the L1 need names them)
        self.internal: list[tuple[CBDecl, Added, str]] = []
        #: tiles an added buffer holds beyond its blocks (a rotating local block's DST chunk), by index
        self.chunk_tiles: dict[int, int] = {}
        self.semaphores = [kir.SemSpec(s.index, s.name, s.initial) for s in program.semaphores]
        self._scratch: SemaphoreDecl | None = None
        self._noc_tables: set[int] = set()
        self._pipe_resources: dict[int, PipeNetResources] = {}
        #: Float32 buffers the compute kernel unpacks straight into DST (UnpackToDestFp32)
        self.unpack_to_dest: set[int] = set()
        #: second indices on the pages of a buffer (metal/dst_view.py), each with its buffer's
        #: index: no L1 of their own, but each is one of the core's circular buffers
        self.views: list[tuple[CBDecl, int]] = []
        #: id of each kernel op emitted -> (that op, the IR op it was emitted for); the op is kept
        #: so that its id is not reused by an op a pass adds (:mod:`.store_plan`)
        self.emitted_for: dict[int, tuple[ir.Op, ir.Op]] = {}
        #: the program's L1 need once its kernels are lowered (:func:`program_l1_need`'s figure), kept
        #: when a check of :meth:`lower` then stops the lowering (the tuner reports a pruned
        #: candidate's need)
        self.need: L1Need | None = None
        for cb in program.cbs:
            if cb.fmt.name not in EMITTABLE_FORMATS:
                raise error("E3002", f"buffer '{cb.name}' has data format {cb.fmt.name}, which Metalium buffers "
                            "cannot hold", cb.span)

    def lower(self) -> kir.MetalProgram:
        kernels = self.lower_kernels()
        self.need = need = self.l1_need()
        self.check_semaphores()
        check_cb_count(self.program, self.arch, [decl for decl, _, _ in self.internal] + [view for view, _ in self.views])
        need.check()
        return kir.MetalProgram(self.program.name, self.program.grid, self.arch, kernels, self.cbs,
                                self.semaphores, list(self.program.tensors),
                                fp32_dest_acc_en=self.fp32_dest_acc, grid_from_device=self.program.grid_from_device,
                                unpack_to_dest_fp32=sorted(self.unpack_to_dest), l1_need=need)

    def lower_kernels(self) -> list[kir.Kernel]:
        kernels = []
        producers: list[DataMovementLowering] = []
        threads = self.program.threads
        for thread, processor in zip(threads, thread_processors(t.kind == COMPUTE for t in threads)):
            kernel = kir.Kernel(name=thread.name, processor=processor, body=[])
            lowering = (ComputeLowering if thread.kind == COMPUTE else DataMovementLowering)(
                self.program, thread, kernel, self)
            kernel = lowering.lower()
            if thread.kind == COMPUTE:
                formats = {cb.index: cb.fmt.metal_name for cb in self.cbs}
                own = {cb.index for cb in self.cbs if not cb.internal}
                views = {index: self.view_of(index) for index in read_both_ways(kernel, formats, own)}
                read_views(kernel, views, self.emitted_beside)
                formats.update({view: formats[index] for index, view in views.items()})
                prune_redundant_inits(kernel)
                self.unpack_to_dest |= unpack_to_dest_buffers(kernel, formats)
                configure_formats(kernel, formats, self.unpack_to_dest)
                self.drop_buffers(lowering.unused_buffers())
                bind_buffer_ids(kernel, {cb.index: cb.name for cb in self.cbs})
            else:
                producers.append(lowering)
            kernels.append(kernel)
        for producer in producers:  # the kernels that push a buffer's pages publish its view's too
            producer.push_views(self.views)
        return kernels

    def check_semaphores(self) -> None:
        """tt-metal gives a program ``MAX_SEMAPHORES`` semaphores per core; pipe nets add one per
        ready counter (the most pipes of the net one core sends) and remote semaphore writes a
        scratch word."""
        if len(self.semaphores) <= MAX_SEMAPHORES:
            return
        nets = [net for net in self.program.pipenets if net.index in self._pipe_resources]
        ready = {net.index: len(set(self._pipe_resources[net.index].counters)) for net in nets}
        busiest = max(nets, key=lambda net: ready[net.index], default=None)
        span = busiest.span if busiest is not None and busiest.span is not None else self.program.span
        parts = [f"{len(self.program.semaphores)} of its own"] + [f"{n} ready semaphores for pipe net {i}"
                                                                   for i, n in ready.items()]
        if self._scratch is not None:
            parts.append("a scratch word")
        raise error("E3003", unsupported(f"a program that needs {len(self.semaphores)} semaphores per core, more "
                                         f"than tt-metal's {MAX_SEMAPHORES} ({', '.join(parts)}),"), span,
                    hint="a core that sends k pipes of one net needs k ready semaphores: split the pipes over fewer "
                         "sources, or use multicast pipes")

    def view_of(self, index: int) -> int:
        """A second index on the pages of buffer ``index``, copied into DST in ``UnpackToDestFp32``
        mode while the FPU reads the buffer itself (metal/dst_view.py)."""
        owner = next(cb for cb in self.cbs if cb.index == index)
        view = max(cb.index for cb in self.cbs) + 1
        name = f"{owner.name}_to_dst"
        self.cbs.append(kir.CBSpec(view, name, owner.fmt, owner.page_bytes, owner.pages, internal=True, shares=index))
        decl = next(cb for cb in self.program.cbs if cb.index == index)
        self.views.append((CBDecl(view, name, decl.shape, decl.fmt, decl.unit, decl.buffer_factor, decl.span), index))
        return view

    def emitted_beside(self, added: ir.Op, beside: ir.Op) -> None:
        """A kernel op a pass added, recorded as emitted for the IR op ``beside`` was (:mod:`.store_plan`)."""
        if id(beside) in self.emitted_for:
            self.emitted_for[id(added)] = (added, self.emitted_for[id(beside)][1])

    def drop_buffers(self, unused: list[CBDecl]) -> None:
        """Buffers introduced by lowering that no kernel names after all take no L1."""
        gone = {cb.index for cb in unused}
        self.internal = [added for added in self.internal if added[0].index not in gone]
        self.cbs = [cb for cb in self.cbs if cb.index not in gone]

    def l1_need(self) -> L1Need:
        """The program's L1 need as lowered so far: the user's buffers and the ones lowering added."""
        return l1_need(self.program, self.arch, [L1Buffer.of(cb, why, subject, self.chunk_tiles.get(cb.index, 0)
                                                             * cb.fmt.tile_bytes) for cb, why, subject in self.internal])

    # ---------------------------------------------------------------- tables for the lowerings
    def accessor_offset(self, kernel: kir.Kernel, tensor: TensorDecl) -> int:
        """Position of the tensor's TensorAccessorArgs in the kernel's compile-time argument chain."""
        for i, (decl, _) in enumerate(kernel.accessors):
            if decl is tensor:
                return i
        kernel.accessors.append((tensor, len(kernel.accessors)))
        return len(kernel.accessors) - 1

    def page_bytes(self, tensor: TensorDecl) -> int:
        if tensor.unit.tiled:
            return tensor.fmt.tile_bytes
        return tensor.shape[-1] * tensor.fmt.element_bits // 8

    def block_bytes(self, block: BlockType) -> int:
        return CBDecl(0, "", block.shape, block.fmt, block.unit, 1).block_bytes

    def new_cb(self, name: str, shape: tuple[int, ...], fmt: Any, why: Added, subject: str = "", blocks: int = 1,
               span: Any = None, chunk_tiles: int = 0) -> CBDecl:
        """A tile buffer the lowering adds (``why``: what for, ``subject``: for what), counted in L1:
        ``blocks`` blocks of ``shape`` and ``chunk_tiles`` tiles more (a rotating buffer's DST chunk)."""
        index = max([cb.index for cb in self.cbs], default=-1) + 1
        decl = CBDecl(index, name, shape, fmt, TILE_UNIT, blocks, span)
        self.internal.append((decl, why, subject))
        if chunk_tiles:
            self.chunk_tiles[index] = chunk_tiles
        self.cbs.append(kir.CBSpec(index, name, fmt, fmt.tile_bytes, _tiles(shape) * blocks + chunk_tiles,
                                   internal=True))
        return decl

    def intermediate_cb(self, kernel: kir.Kernel, block: BlockType, fmt: DataFormat = float32) -> CBDecl:
        """A buffer for a computed operand that the FPU must read from L1. It is fp32: the
        language rounds nothing between the operations of one expression (docs/numerics.md),
        except where the program states a rounding point (``.to(ttnn.bfloat16)``: ``fmt``)."""
        return self.new_cb(f"intermediate{len(self.internal)}", block.shape, fmt, Added.INTERMEDIATE,
                           f"kernel '{kernel.name}'")

    def pipe_resources(self, net: PipeNetDecl, program: ProgramIR) -> PipeNetResources:
        """Landing slots, flag words and ready semaphores of a pipe net (made once), laid out by
        the pipe protocol (``ir/pipe_protocol.py``)."""
        found = self._pipe_resources.get(net.index)
        if found is None:
            block = next((op.src.type for t in program.threads for op in ir.walk(t.body)
                          if isinstance(op, ir.CopyBlockToPipe) and op.pipe.type.net == net.index), None)
            if block is None or not block.unit.tiled:
                raise error("E3003", unsupported("a pipe that carries no tile block"), net.span)
            slots = pipe_protocol.landing_slots(net)
            counters = pipe_protocol.ready_counters(net)
            n = max(slots) + 1
            block_tiles = _tiles(block.shape)
            subject = f"pipe net {net.index}"
            landing = self.new_cb(f"pipenet{net.index}_landing", (n * block_tiles, 1), block.fmt, Added.PIPE_LANDING,
                                  subject, span=net.span)
            flags_index = max(cb.index for cb in self.cbs) + 1
            # and one word per ready counter, where the receivers of a net that lands in place
            # publish the address of the block they reserved on its sender; every net has them, so
            # that the L1 need (block_count="max" sizes by it before the driver's proof runs) does
            # not depend on how the net lands
            words = n + max(counters) + 1
            flags = CBDecl(flags_index, f"pipenet{net.index}_flags", (FLAG_STRIDE // 4 * words,), uint32, SCALAR_UNIT,
                           1, net.span)
            self.internal.append((flags, Added.PIPE_FLAGS, subject))
            self.cbs.append(kir.CBSpec(flags_index, flags.name, uint32, flags.block_bytes, 1, internal=True))
            ready_base = len(self.semaphores)
            for counter in range(max(counters) + 1):
                self.semaphores.append(kir.SemSpec(ready_base + counter, f"pipenet{net.index}_ready{counter}", 0))
            block_bytes = block_tiles * block.fmt.tile_bytes
            found = self._pipe_resources[net.index] = PipeNetResources(landing, flags, ready_base, block, block_bytes,
                                                                       slots, counters, net.direct)
        return found

    def scratch_semaphore(self) -> SemaphoreDecl:
        """A semaphore slot used as an L1 word holding values to send to remote semaphores."""
        if self._scratch is None:
            index = len(self.semaphores)
            self._scratch = SemaphoreDecl(index, "scratch", 0)
            self.semaphores.append(kir.SemSpec(index, "scratch", 0))
        return self._scratch

    def needs_noc_tables(self, kernel: kir.Kernel) -> None:
        """Logical -> NoC coordinates as common runtime args (the same on every core; filled by
        the host from the device)."""
        if id(kernel) in self._noc_tables:
            return
        self._noc_tables.add(id(kernel))
        cols, rows = self.program.grid
        kernel.noc_x_base = len(kernel.common_args)  # type: ignore[attr-defined]
        for x in range(cols):
            kernel.common_args.append(kir.ArgDecl(f"noc_x[{x}]", (("noc_x", x),)))
        kernel.noc_y_base = len(kernel.common_args)  # type: ignore[attr-defined]
        for y in range(rows):
            kernel.common_args.append(kir.ArgDecl(f"noc_y[{y}]", (("noc_y", y),)))


def lower_program(program: ProgramIR, arch: str = "wormhole_b0") -> kir.MetalProgram:
    """The program lowered to Metalium calls, one kernel per thread (verified)."""
    return verify_lowered(ProgramLowering(program, arch).lower())


def verify_lowered(metal: kir.MetalProgram) -> kir.MetalProgram:
    """``metal`` with every kernel checked by the IR verifier (a bug of the lowering raises)."""
    for kernel in metal.kernels:
        verify_body(metal, kernel.name, kernel.body, "lowering to Metalium")
    return metal


def program_l1_need(program: ProgramIR, arch: str = "wormhole_b0") -> L1Need:
    """What one core of ``program`` needs in L1: its own buffers and the ones the lowering adds
    (partial results, local blocks, intermediates, pipe landing slots and flags), itemized.

    The one computation of a program's L1 need: the launch, ``emit`` and ``profile`` check it when
    they lower the program (:meth:`ProgramLowering.lower`), the tuner prunes with it, and the front
    end leaves room for the added buffers when it resolves ``block_count="max"``
    (frontend/l1_budget.py). A program that does not lower (an ``E3xxx``: ``tilecraft run``
    simulates it, ``emit`` rejects it) needs its own buffers only (``lowered`` False).
    """
    try:
        lowering = ProgramLowering(program, arch)
        lowering.lower_kernels()
    except KernelError as exc:
        if not_emittable(exc):
            return l1_need(program, arch, lowered=False)
        raise
    return lowering.l1_need()


def not_emittable(exc: KernelError) -> bool:
    """Whether a lowering error says the program cannot be emitted (``E3xxx``: ``tilecraft run``
    still simulates it, with a W3001), rather than that it is wrong."""
    return exc.code.startswith("E3")


def _tiles(shape: tuple[int, ...]) -> int:
    n = 1
    for extent in shape:
        n *= extent
    return n


def _page_bytes(cb: CBDecl) -> int:
    """One page per tile for tile buffers; one page per block for row-major ones."""
    return cb.fmt.tile_bytes if cb.unit.tiled else cb.block_bytes


def _pages(cb: CBDecl) -> int:
    return _tiles(cb.shape) * cb.buffer_factor if cb.unit.tiled else cb.buffer_factor

