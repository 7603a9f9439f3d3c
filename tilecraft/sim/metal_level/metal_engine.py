"""Simulate the lowered program: every kernel's Metalium calls, tile by tile, on every core.

Each kernel of a :class:`~tilecraft.metal.kir.MetalProgram` becomes a generated generator
function (the language-level code generator handles the shared scalar and control-flow ops);
``cb_reserve_back``/``cb_wait_front``/``noc_semaphore_wait`` block, everything else runs at once.
Each call has the semantics its Metalium documentation gives: NoC tile reads fill L1 pages,
``copy_tile``/``add_tiles``/``matmul_tiles``/SFPU calls write DST tiles, ``pack_tile`` rounds a
DST tile into a page, ``tile_regs_release`` clears DST. Values go into the same dataflow graph
as the language level, so a test can require both levels to produce identical bits.
"""

from __future__ import annotations

import codecs

import struct
from typing import Any, Callable

import numpy as np
import torch

from ...diagnostics import error
from ...dtypes import BY_NAME, float32
from ...arch import get as get_arch
from ...ir import ops as ir
from ...ir.program_ir import ThreadIR
from ...ir.grid import all_cores
from ...metal import kir, optable
from .. import tile_math
from ..codegen import ThreadCodegen
from .metal_state import L1, L1_BASE, ZERO, PageCB, SemRT, SemToken
from .metal_trace import MetalCallTrace
from ..op_table import OpTable
from ..scheduler import Scheduler, SimThread
from ..dataflow.level_evaluator import evaluator_for
from ..dataflow.graph import ComputeSite, ReadSite, Recorder, TensorRef, WriteSite

#: SFPU call -> the functions it computes, told apart by their constant arguments (relu_max_tile is
#: relu6 with 6 as its argument; log_with_base_tile is log2 or log10 by its scale)
_UNARY: dict[str, list[tuple[str, optable.Sfpu]]] = {}
for _name, _sfpu in optable.UNARY.items():
    _UNARY.setdefault(_sfpu.call, []).append((_name, _sfpu))
_UNARY = {call: sorted(entries, key=lambda e: -len(e[1].fixed)) for call, entries in _UNARY.items()}
_SFPU_BINARY = {s.call: name for name, s in optable.SFPU_BINARY.items()}
_SCALAR = {s.call: name for name, s in optable.SCALAR_BINARY.items()}
#: the integer SFPU calls, by call and template arguments -> (the function, the format DST holds)
_INT_SFPU = {(s.call, s.call_template): (table, fn, BY_NAME[fmt])
             for table, calls in (("binary", optable.INT_SFPU_BINARY), ("unary", optable.INT_UNARY))
             for (fn, fmt), s in calls.items()}
_SFPU_BINARY.update({s.call: fn for (fn, _), s in optable.INT_SFPU_BINARY.items()})  # the trace's cost table
_FPU = {f.call: (name, ()) for name, f in optable.FPU_BINARY.items()}
_FPU.update({call: (name, dims) for name, f in optable.FPU_BINARY.items() for dims, (_, call) in f.bcast.items()})

_INT_FORMATS = {data_format: BY_NAME[name] for name, data_format in optable.INT_DATA_FORMATS.items()}
_BCAST_TYPE = {"BroadcastType::COL": (-1,), "BroadcastType::ROW": (-2,), "BroadcastType::SCALAR": (-2, -1)}
_REDUCE_DIM = {v: k for k, v in optable.REDUCE_DIM.items()}
#: calls that only configure the hardware: no effect on values
_CONFIG_ONLY = {"compute_kernel_hw_startup", "reduce_uninit", "noc_async_read_barrier", "noc_async_write_barrier",
                "noc_async_writes_flushed",
                "tile_regs_commit", "tile_regs_wait", optable.RECONFIG_SRCA, optable.RECONFIG_SRCB,
                optable.RECONFIG_BOTH, optable.RECONFIG_PACK}


def call_trace(grid: tuple[int, ...]) -> MetalCallTrace:
    """A recorder of lowered calls as emulator trace events, with this engine's call tables."""
    return MetalCallTrace(grid, _UNARY, _SFPU_BINARY, _SCALAR, _FPU)


def _bits_to_float(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def _tile_bcast(x: torch.Tensor, dims: tuple[int, ...]) -> torch.Tensor:
    return tile_math.broadcast(x, dims, x.shape[-2:])


class RowAddr:
    """``get_noc_addr(page, accessor, offset)``: bytes of one page (row) of a row-major tensor."""

    __slots__ = ("tensor", "page", "offset")

    def __init__(self, tensor: TensorRef, page: int, offset: int):
        self.tensor = tensor
        self.page = page
        self.offset = offset


class NocAddr:
    """A NoC address of an L1 location on one core or a rectangle of cores."""

    __slots__ = ("cores", "addr")

    def __init__(self, cores: tuple[tuple[int, ...], ...], addr: int):
        self.cores = cores
        self.addr = addr


class MetalCore:
    """What generated kernel code sees as ``K``: one core's L1, DST, semaphores and calls."""

    def __init__(self, rt: "MetalRuntime", core: tuple[int, ...], flat: int):
        self.rt = rt
        self.rec = rt.rec
        self.core = core
        self.flat = flat
        queue = rt.scheduler.ready
        base = L1_BASE
        self.cbs: dict[int, PageCB] = {}
        for spec in sorted(rt.metal.cbs, key=lambda s: s.index):
            if spec.shares is None:
                self.cbs[spec.index] = PageCB(spec, base, core, queue, rt.span_of)
                base += spec.pages * spec.page_bytes
        self.l1 = L1(list(self.cbs.values()))
        for spec in rt.metal.cbs:  # a second index on a buffer's pages: counters of its own
            if spec.shares is not None:
                self.cbs[spec.index] = self.cbs[spec.shares].view(spec)
        self.sems = [SemRT(s.initial, queue) for s in rt.metal.semaphores]
        #: DST: every tile of the register file (the lowering plans within one half-sync phase)
        self.dst_tiles = get_arch(rt.metal.arch).dst_tiles
        self.dst = [ZERO] * self.dst_tiles
        self.words: dict[int, SemRT] = {}

    def trace_call(self, processor: str, op: int, fn: str, args: tuple) -> None:
        """A call ran (traced runs only): the kernel-level cost model's record of it."""
        self.rt.call_trace.record(self, processor, op, fn, args)

    # ---------------------------------------------------------------- operands
    def tensor(self, index: int) -> TensorRef:
        return self.rt.tensors[index]

    def sem(self, token: Any) -> SemRT:
        """A semaphore (``get_semaphore``) or any L1 word used as one (pipe flags)."""
        if isinstance(token, int):
            word = self.words.get(token)
            if word is None:
                word = self.words[token] = SemRT(0, self.rt.scheduler.ready)
            return word
        return self.sems[token.index]

    def c_get_semaphore(self, op: int, index: int) -> SemToken:
        """``get_semaphore(id)`` with an id computed at run time (a pipe's ready counter)."""
        return SemToken(index)

    def sem_token(self, index: int) -> SemToken:
        """``get_semaphore(index)``: this core's semaphore."""
        return SemToken(index)

    # ---------------------------------------------------------------- calls
    def call(self, fn: str, args: tuple, template: tuple, op: int) -> Any:
        handler = getattr(self, f"c_{fn}", None)
        if handler is not None:
            return handler(op, *args, template=template) if template else handler(op, *args)
        if fn in _CONFIG_ONLY or fn in optable.INIT_CALLS:
            return None
        integer = _INT_SFPU.get((fn, tuple(template)))
        if integer is not None:  # in DST as integers of the blocks' format (exact, as the device holds them)
            kind, name, fmt = integer
            sources, out = (args[:2], args[2]) if kind == "binary" else (args, args[0])  # a unary works in place
            math = tile_math.BINARY[name] if kind == "binary" else tile_math.UNARY[name]
            self.dst[out] = self.rt.node(op, "int", math, [self.dst_get(d, op) for d in sources], fmt=fmt)
            return None
        if fn in _UNARY:
            d, *values = args
            name, sfpu = next((n, f) for n, f in _UNARY[fn] if not f.fixed or tuple(values[-len(f.fixed):]) ==
                              tuple(int(c.rstrip("u"), 0) for c in f.fixed))
            values = [_bits_to_float(v) if sfpu.params == "bits" else v for v in values[:len(values) - len(sfpu.fixed)]]
            fn_math = tile_math.UNARY_PARAM[name] if name in tile_math.UNARY_PARAM else tile_math.UNARY[name]
            self.dst_op(op, d, lambda x, *p: fn_math(x, *values), [self.dst_get(d, op)])
            return None
        if fn in _SFPU_BINARY:
            a, b, out = args
            binary = tile_math.BINARY[_SFPU_BINARY[fn]]
            self.dst_op(op, out, binary, [self.dst_get(a, op), self.dst_get(b, op)])
            return None
        if fn in _SCALAR:  # the scalar may differ per core or iteration: it is a leaf, not a constant
            d, bits = args
            binary = tile_math.BINARY[_SCALAR[fn]]
            self.dst[d] = self.rt.node(op, "", binary, [self.dst_get(d, op)], scalars=(_bits_to_float(bits),))
            return None
        if fn in _FPU:
            name, dims = _FPU[fn]
            cb0, cb1, i0, i1, d = args
            binary = tile_math.BINARY[name]
            fpu = (lambda a, b: binary(a, _tile_bcast(b, dims))) if dims else binary
            self.dst_op(op, d, fpu, [self.cbs[cb0].front(i0, op), self.cbs[cb1].front(i1, op)])
            return None
        raise error("E4199", f"the simulator has no model of Metalium call '{fn}'", self.rt.span_of(op))

    def dst_get(self, d: int, op: int) -> int:
        vid = self.dst[d]
        if vid == ZERO:
            vid = self.rt.node(op, "zero", lambda: torch.zeros(1, 32, 32), [])
            self.dst[d] = vid
        return vid

    def dst_op(self, op: int, d: int, fn: Callable, leaves: list[int], variant: str = "") -> None:
        self.dst[d] = self.rt.node(op, variant, fn, leaves)

    # circular buffers and pointers (blocking ones are generated inline)
    def c_cb_push_back(self, op: int, cb: int, n: int) -> None:
        self.cbs[cb].push(n)

    def c_cb_pop_front(self, op: int, cb: int, n: int) -> None:
        self.cbs[cb].pop(n, op)

    def c_get_write_ptr(self, op: int, cb: int) -> int:
        return self.cbs[cb].write_ptr()

    def c_get_read_ptr(self, op: int, cb: int) -> int:
        return self.cbs[cb].read_ptr()

    # NoC
    def tile_coords(self, tensor: TensorRef, tile: int, op: int) -> tuple[int, ...]:
        size = int(np.prod(tensor.unit_shape))
        if not 0 <= tile < size:
            raise error("E4105", f"tile id {tile} is outside tensor '{tensor.decl.name}' ({size} tiles)",
                        self.rt.span_of(op))
        return tuple(int(c) for c in np.unravel_index(tile, tensor.unit_shape))

    def c_noc_async_read_page(self, op: int, tile: int, tensor: TensorRef, addr: int) -> None:
        cb, page = self.l1.locate(addr, op, self.rt.span_of)
        site = self.rt.read_site(op, tensor, cb.spec.fmt)
        cb.vids[page] = self.rec.read(site, self.tile_coords(tensor, tile, op))

    def c_noc_async_write_page(self, op: int, tile: int, tensor: TensorRef, addr: int) -> None:
        cb, page = self.l1.locate(addr, op, self.rt.span_of)
        vid = cb.vids[page]
        if vid < 0:
            raise error("E4103", "a NoC write sends an L1 page that was never written", self.rt.span_of(op))
        self.rec.write(self.rt.write_site(op, tensor), vid, self.tile_coords(tensor, tile, op))

    # semaphores
    def c_get_noc_addr(self, op: int, *args: Any) -> Any:
        if len(args) == 3 and isinstance(args[2], SemToken):
            return SemToken(args[2].index, ((args[0], args[1]),))
        if len(args) == 1 and isinstance(args[0], int):
            return NocAddr((self.core,), args[0])
        if len(args) == 3 and isinstance(args[2], int) and not isinstance(args[1], TensorRef):
            return NocAddr(((args[0], args[1]),), args[2])
        if len(args) == 3 and isinstance(args[1], TensorRef):  # a row-major page (+ byte offset)
            return RowAddr(args[1], args[0], args[2])
        raise error("E4199", f"get_noc_addr{tuple(type(a).__name__ for a in args)} is not simulated at the "
                    "Metalium level", self.rt.span_of(op))

    def row_coords(self, row: "RowAddr", nbytes: int, op: int) -> tuple[tuple[int, ...], int]:
        """Element coordinates of the first element a row-major transfer touches, and its length."""
        tensor = row.tensor
        esize = tensor.decl.fmt.element_bits // 8
        lead = tuple(int(c) for c in np.unravel_index(row.page, tensor.unit_shape[:-1]))
        return (*lead, row.offset // esize), nbytes // esize

    def c_noc_async_write(self, op: int, src: int, dst: Any, nbytes: int) -> None:
        if not isinstance(dst, RowAddr):
            (core,) = dst.cores
            self.copy_pages(op, self, src, self.rt.core_at(core, op), dst.addr, nbytes)
            return
        cb, page, offset = self.l1.locate_bytes(src, op, self.rt.span_of)
        vid = cb.pieces.get((page % cb.pages, offset))
        if vid is None:
            raise error("E4103", "a NoC write sends L1 bytes that were never written", self.rt.span_of(op))
        start, count = self.row_coords(dst, nbytes, op)
        self.rec.write(self.rt.row_site(op, dst.tensor, count, write=True), vid, start)

    def c_get_noc_multicast_addr(self, op: int, x0: int, y0: int, x1: int, y1: int, addr: Any) -> Any:
        """The cores between the two corners. This level runs on logical coordinates and does
        not route: the corner order each NoC needs is the kernel emulator's check (E5305)."""
        cores = tuple((x, y) for y in range(min(y0, y1), max(y0, y1) + 1) for x in range(min(x0, x1), max(x0, x1) + 1))
        return SemToken(addr.index, cores) if isinstance(addr, SemToken) else NocAddr(cores, addr)

    def copy_pages(self, op: int, src: "MetalCore", src_addr: int, dst: "MetalCore", dst_addr: int,
                   nbytes: int) -> None:
        """A NoC transfer of whole pages between two cores' L1 (value ids move, data does not)."""
        cb_s, page_s = src.l1.locate(src_addr, op, self.rt.span_of)
        cb_d, page_d = dst.l1.locate(dst_addr, op, self.rt.span_of)
        for i in range(nbytes // cb_s.page_bytes):
            vid = cb_s.vids[(page_s + i) % cb_s.pages]
            if vid < 0:
                raise error("E4103", "a NoC write sends an L1 page that was never written", self.rt.span_of(op))
            cb_d.vids[(page_d + i) % cb_d.pages] = vid

    def c_noc_async_write_multicast(self, op: int, src: int, dst: "NocAddr", nbytes: int, count: int,
                                    linked: bool = False, loopback: bool = False) -> None:
        targets = [c for c in dst.cores if loopback or c != self.core]
        if len(targets) != count:
            raise error("E4107", f"multicast to {len(targets)} cores announced as {count}", self.rt.span_of(op))
        for core in targets:
            self.copy_pages(op, self, src, self.rt.core_at(core, op), dst.addr, nbytes)

    def c_noc_async_write_multicast_loopback_src(self, op: int, src: int, dst: "NocAddr", nbytes: int,
                                                 count: int, linked: bool = False) -> None:
        self.c_noc_async_write_multicast(op, src, dst, nbytes, count, loopback=True)

    def c_noc_async_read(self, op: int, src: Any, dst: int, nbytes: int) -> None:
        if isinstance(src, RowAddr):
            cb, page, offset = self.l1.locate_bytes(dst, op, self.rt.span_of)
            start, count = self.row_coords(src, nbytes, op)
            cb.pieces[(page % cb.pages, offset)] = self.rec.read(self.rt.row_site(op, src.tensor, count), start)
            return
        (core,) = src.cores
        self.copy_pages(op, self.rt.core_at(core, op), src.addr, self, dst, nbytes)

    def c_noc_semaphore_set_multicast(self, op: int, src: Any, dst: Any, count: int, loopback: bool = False) -> None:
        value = self.sem(src).value
        for core in dst.cores:
            if loopback or core != self.core:
                target = self.rt.core_at(core, op)
                target.sem(dst.addr if isinstance(dst, NocAddr) else SemToken(dst.index)).set(value)

    def c_noc_semaphore_set(self, op: int, ptr: SemToken, value: int) -> None:
        self.sem(ptr).set(value)

    def c_noc_semaphore_inc(self, op: int, remote: SemToken, value: int) -> None:
        for core in remote.cores:
            target = self.rt.core_at(core, op)
            target.sems[remote.index].set(target.sems[remote.index].value + value)

    def c_noc_inline_dw_write(self, op: int, dst: NocAddr, value: int) -> None:
        """A word written into another core's L1 (a pipe receiver publishing its block's address)."""
        for core in dst.cores:
            self.rt.core_at(core, op).sem(dst.addr).set(value)

    def c_noc_semaphore_set_remote(self, op: int, src: SemToken, remote: SemToken) -> None:
        for core in remote.cores:
            self.rt.core_at(core, op).sems[remote.index].set(self.sems[src.index].value)

    def c_noc_semaphore_set_multicast_loopback_src(self, op: int, src: Any, remote: Any, count: int) -> None:
        self.c_noc_semaphore_set_multicast(op, src, remote, count, loopback=True)

    # compute: DST and packing
    def c_DPRINT(self, op: int, literal: str, *values: Any) -> None:  # noqa: N802 - the macro's name
        """``DPRINT("fmt", ...)``: the C string literal, unescaped, formatted the way fmt does."""
        text = codecs.decode(literal[1:-1], "unicode_escape")
        print(text.format(*values), end="")

    c_DEVICE_PRINT_MATH = c_DPRINT

    def c_tile_regs_acquire(self, op: int) -> None:
        self.dst = [ZERO] * self.dst_tiles

    def c_tile_regs_release(self, op: int) -> None:
        self.dst = [ZERO] * self.dst_tiles

    def c_copy_tile(self, op: int, cb: int, index: int, d: int) -> None:
        self.dst[d] = self.cbs[cb].front(index, op)

    def c_pack_tile(self, op: int, d: int, cb: int, index: int = 0, *, template: tuple = ()) -> None:
        # every emitted pack names its page: in-order packs (no template) pack a store's tiles in
        # page order, so ``index`` is their page too; pack_tile<true> (``template``) addresses it
        target = self.cbs[cb]
        vid = self.rt.node(op, "pack", lambda x: x, [self.dst_get(d, op)], fmt=target.spec.fmt)
        target.set_back(index, vid)

    def c___builtin_bit_cast(self, op: int, type_name: Any, value: float) -> int:
        return struct.unpack("<I", struct.pack("<f", float(value)))[0]

    def c_fill_tile(self, op: int, d: int, value: float) -> None:
        self.dst[d] = self.rt.node(op, "fill", lambda v: v.expand(-1, 32, 32), [], scalars=(float(value),))

    def c_fill_tile_int(self, op: int, d: int, bits: int, *, template: tuple) -> None:
        """``fill_tile_int<format>(d, bits)``: the integer whose two's complement bits are ``bits``
        (a number the kernel knows: one tile per call site, exact, not an fp32 scalar)."""
        fmt = _INT_FORMATS[template[0]]
        value = bits - (1 << 32) if fmt.name == "int32" and bits >= 1 << 31 else bits
        self.dst[d] = self.rt.node(op, "fill", lambda: torch.full((1, 32, 32), value, dtype=torch.int64), [], fmt=fmt)

    def c_matmul_tiles(self, op: int, cb0: int, cb1: int, i0: int, i1: int, d: int, transpose: int = 0) -> None:
        a, b = self.cbs[cb0].front(i0, op), self.cbs[cb1].front(i1, op)
        if transpose:  # in1's tile transposed as it is unpacked (matmul_block's flag)
            b = self.rt.node(op, "transpose", tile_math.transpose, [b])
        if self.dst[d] == ZERO:
            self.dst[d] = self.rt.node(op, "mm", tile_math.matmul, [a, b])
        else:
            self.dst[d] = self.rt.node(op, "mm_acc", lambda x, y, acc: tile_math.matmul(x, y, acc), [a, b, self.dst[d]])

    def c_matmul_block(self, op: int, cb0: int, cb1: int, i0: int, i1: int, d: int, transpose: int, ct_dim: int,
                       rt_dim: int, kt_dim: int) -> None:
        """rt_dim x ct_dim tiles of one K step: in0 tile i0 + r * kt_dim times in1 tile i1 + c
        (each transposed when ``transpose``) into DST tile d + r * ct_dim + c (0.81.1 matmul.h)."""
        for r in range(rt_dim):
            for c in range(ct_dim):
                self.c_matmul_tiles(op, cb0, cb1, i0 + r * kt_dim, i1 + c, d + r * ct_dim + c, transpose)

    def c_reduce_tile(self, op: int, cb: int, scaler_cb: int, i: int, si: int, d: int, *, template: tuple) -> None:
        kind = "sum" if template[0].endswith("SUM") else "max"
        dims = _REDUCE_DIM[template[1]]
        x, s = self.cbs[cb].front(i, op), self.cbs[scaler_cb].front(si, op)
        part = self.rt.node(op, f"reduce_{kind}", lambda t, sc: tile_math.reduce(kind, t, dims, sc), [x, s])
        if self.dst[d] == ZERO:
            self.dst[d] = part
        else:
            combine = torch.add if kind == "sum" else torch.maximum
            self.dst[d] = self.rt.node(op, f"reduce_acc_{kind}", combine, [self.dst[d], part])

    def c_unary_bcast(self, op: int, cb: int, i: int, d: int, *, template: tuple) -> None:
        dims = _BCAST_TYPE[template[0]]
        self.dst[d] = self.rt.node(op, "ubcast", lambda x: _tile_bcast(x, dims), [self.cbs[cb].front(i, op)])

    def c_transpose_tile(self, op: int, cb: int, i: int, d: int) -> None:
        self.dst[d] = self.rt.node(op, "transpose", tile_math.transpose, [self.cbs[cb].front(i, op)])

    def c_where_tile(self, op: int, c: int, a: int, b: int, out: int, *, template: tuple) -> None:
        self.dst[out] = self.rt.node(op, "where", tile_math.where,
                                     [self.dst_get(c, op), self.dst_get(a, op), self.dst_get(b, op)],
                                     fmt=_INT_FORMATS.get(template[0], float32))


class KernelCodegen(ThreadCodegen):
    """Kernel-level ops on top of the shared scalar/control-flow code generation."""

    def __init__(self, metal: kir.MetalProgram, kernel: kir.Kernel, ctx: "MetalRuntime"):
        thread = ThreadIR(kernel.name, kernel.thread_kind, kernel.body)
        self.kernel = kernel
        super().__init__(ctx.program_stub, thread, ctx)
        self.processor = kernel.processor

    FUNCTION_PREFIX = "kernel_"
    #: the core, its runtime arguments and the common ones
    PARAMETERS = "K, A, C"
    FILE_TAG = "tilecraft metal"
    FAST_FORWARD = False

    def v(self, operand: Any) -> str:
        if isinstance(operand, kir.SemAddr):
            return f"K.sem_token({operand.value})"
        if isinstance(operand, ir.Const) and isinstance(operand.value, str):
            text = operand.value  # C++ literals: 1.0f, 0x3f800000u; anything else is a type name
            if text.endswith("f") and text[:-1].replace(".", "", 1).lstrip("-").isdigit():
                return repr(float(text[:-1]))
            if text[0].isdigit():
                return str(int(text.rstrip("u"), 0))
            return repr(text)
        return super().v(operand)

    def op_Comment(self, op: kir.Comment) -> None:
        pass

    def op_Arg(self, op: kir.Arg) -> None:
        if op.source == "ct":  # a compile-time word: known when the kernel is generated
            self.line(f"{self.v(op.result)} = {self.kernel.compile_args[op.index]}", op)
        else:
            self.line(f"{self.v(op.result)} = {'A' if op.source == 'rt' else 'C'}[{op.index}]", op)

    def op_Accessor(self, op: kir.Accessor) -> None:
        self.line(f"{self.v(op.result)} = K.tensor({op.tensor.index})", op)

    def op_Call(self, op: kir.Call) -> None:
        i = self.oid(op)
        args = [self.v(a) for a in op.args]
        inline = _INLINE.get(op.fn) or (_value_of_first if op.fn.startswith("reinterpret_cast") else None)
        if inline is not None:
            self.line(inline(self.v(op.result) if op.result is not None else None, args, i, op.fn), op)
        else:
            call = f"K.call({op.fn!r}, ({', '.join(args)}{',' if args else ''}), {tuple(op.template)!r}, {i})"
            self.line(f"{self.v(op.result)} = {call}" if op.result is not None else call, op)
        if self.ctx.call_trace is not None and (inline is None or op.fn in _TRACED_INLINE):
            self.line(f"K.trace_call({self.processor.value!r}, {i}, {op.fn!r}, ({', '.join(args)}{',' if args else ''}))", op)


def _wait_loop(condition: str, waited: str) -> Callable[[Any, list[str], int, str], str]:
    """A blocking call: loop (yielding what it waits on, for the scheduler) until ``condition``."""
    return lambda result, args, i, fn: (f"while {condition.format(*args)}: yield ({waited.format(*args)}, {i})")


def _value_of_first(result: str, args: list[str], i: int, fn: str) -> str:
    return f"{result} = {args[0]}"


#: Metalium calls generated inline rather than through ``K.call``: the blocking ones (generated as
#: loops that yield to the scheduler) and those that only move a value. Arguments: the result's
#: name, the argument expressions, the op id and the call's name.
_INLINE: dict[str, Callable[[Any, list[str], int, str], str]] = {
    "cb_reserve_back": _wait_loop("K.cbs[{0}].free() < {1}", "K.cbs[{0}]"),
    "cb_wait_front": _wait_loop("K.cbs[{0}].available() < {1}", "K.cbs[{0}]"),
    "noc_semaphore_wait": _wait_loop("K.sem({0}).value != {1}", "K.sem({0})"),
    "noc_semaphore_wait_min": _wait_loop("K.sem({0}).value < {1}", "K.sem({0})"),
    "get_arg_val<uint32_t>": lambda result, args, i, fn: f"{result} = A[{args[0]}]",
    "get_common_arg_val<uint32_t>": lambda result, args, i, fn: f"{result} = C[{args[0]}]",
    # logical coordinates stand for NoC ones
    "noc_x_of": _value_of_first,
    "noc_y_of": _value_of_first,
    # the value of an L1 word (a pipe's published address)
    kir.L1_WORD: lambda result, args, i, fn: f"{result} = K.sem({args[0]}).value",
}


#: inline calls the kernel-level trace records (after the wait, so a semaphore wait names its releaser)
_TRACED_INLINE = frozenset({"cb_reserve_back", "cb_wait_front", "noc_semaphore_wait", "noc_semaphore_wait_min"})


class _ProgramStub:
    """What the shared code generator reads of a program (no circular buffers at this level)."""

    name = "metal"
    cbs: list = []
    semaphores: list = []


class MetalRuntime(OpTable):
    """``trace``: record every call for the kernel-level cost model (``self.call_trace``); ``device``:
    where the values are evaluated."""

    def __init__(self, metal: kir.MetalProgram, tensors: list[Any], exact: bool = False, trace: bool = False,
                 device: Any = None):
        self.metal = metal
        self.call_trace = call_trace(metal.grid) if trace else None
        self.exact = exact
        self.device = device
        self.program_stub = _ProgramStub()
        OpTable.__init__(self)
        self.rec = Recorder()
        self.tensors = {decl.index: TensorRef(t, decl) for decl, t in zip(metal.tensors, tensors)}
        self.rec.tensors = list(self.tensors.values())
        self.scheduler = Scheduler(self.ops)
        self.codegen_globals: dict[str, Any] = {}
        self._sites: dict[tuple, Any] = {}
        self.kernels = [KernelCodegen(metal, k, self).generate() for k in metal.kernels]
        self.cores = {c: MetalCore(self, c, i) for i, c in enumerate(all_cores(metal.grid))}

    def core_at(self, core: tuple[int, ...], op: int) -> MetalCore:
        target = self.cores.get(tuple(core))
        if target is None:
            raise error("E4106", f"core {core} is outside the grid {self.metal.grid}", self.span_of(op))
        return target

    # ---------------------------------------------------------------- value sites
    def node(self, op: int, variant: str, fn: Callable, leaves: list[int], fmt: Any = float32,
             scalars: tuple = ()) -> int:
        """A value computed by ``fn`` from tiles (value ids) and scalars (per-call numbers)."""
        key = (op, variant, fmt.name)
        site = self._sites.get(key)
        if site is None:
            site = ComputeSite(len(self._sites), lambda values, n, device, f=fn: _batched(f, values, n, device),
                               (True,) * len(leaves) + (False,) * len(scalars), fmt, 1024)
            self._sites[key] = site
            self.rec.computes.append(site)
        return self.rec.store(site, (*leaves, *scalars))

    def read_site(self, op: int, tensor: TensorRef, fmt: Any) -> ReadSite:
        key = ("read", op, tensor.decl.index)
        site = self._sites.get(key)
        if site is None:
            n = len(tensor.unit_shape)
            site = ReadSite(len(self._sites), tensor, (1,) * n, True, fmt, (32, 32))
            site.span = self.ops[op].loc
            self._sites[key] = site
            self.rec.reads.append(site)
        return site

    def row_site(self, op: int, tensor: TensorRef, count: int, write: bool = False) -> Any:
        """The site of row transfers of ``count`` elements at one op (a read or a write)."""
        key = ("row_write" if write else "row_read", op, tensor.decl.index, count)
        site = self._sites.get(key)
        if site is None:
            extents = (*(1,) * (len(tensor.unit_shape) - 1), count)
            if write:
                site = WriteSite(len(self._sites), tensor, extents, False)
                self.rec.writes.append(site)
            else:
                site = ReadSite(len(self._sites), tensor, extents, False, tensor.decl.fmt, (1, count))
                self.rec.reads.append(site)
            site.span = self.ops[op].loc
            self._sites[key] = site
        return site

    def write_site(self, op: int, tensor: TensorRef) -> WriteSite:
        key = ("write", op, tensor.decl.index)
        site = self._sites.get(key)
        if site is None:
            site = WriteSite(len(self._sites), tensor, (1,) * len(tensor.unit_shape), True)
            site.span = self.ops[op].loc
            self._sites[key] = site
            self.rec.writes.append(site)
        return site

    # ---------------------------------------------------------------- running
    def resolve(self, value: Any, core: MetalCore) -> Any:
        if isinstance(value, tuple) and value and value[0] == "buffer_address":
            return value[1]
        if isinstance(value, tuple) and value and value[0] in ("noc_x", "noc_y"):
            return value[1]
        return value

    def generated_source(self) -> str:
        """The Python generated for every thread (what ``tilecraft show-ir --generated`` prints)."""
        return "\n".join(f"# {code.filename}\n{code.source}" for code in self.kernels)

    def run(self, values: bool = True) -> None:
        """Run every kernel on every core; ``values=False`` stops after the synchronisation skeleton
        (the calls and their order, what a traced run needs), computing no tensor values."""
        for core, k in self.cores.items():
            for kernel, code in zip(self.metal.kernels, self.kernels):
                args = [self.resolve(a.values[k.flat], k) for a in kernel.rt_args]
                common = [self.resolve(a.values[0], k) for a in kernel.common_args]
                self.scheduler.add(SimThread(core, kernel.name, kernel.thread_kind, code.fn(k, args, common), code,
                                             _buffers_called(kernel, "cb_reserve_back"),
                                             _buffers_called(kernel, "cb_wait_front")))
        self.scheduler.run()
        if values:
            evaluator_for(self.rec, self.exact, self.device).run()
        self.rec.release()


def _batched(fn: Callable, values: list[torch.Tensor], n: int, device: torch.device) -> torch.Tensor:
    result = (fn(*values) if values else fn()).to(device)  # a constant tile is made on the host
    return result.expand(n, *result.shape[-2:]) if result.shape[0] != n else result



def _buffers_called(kernel: kir.Kernel, fn: str) -> set[int]:
    """The circular buffers a kernel calls ``fn`` on (producers reserve, consumers wait): what the
    deadlock diagnosis needs to tell a starved buffer from a circular wait."""
    ids = {op.result.name: kernel.compile_args[op.index] for op in ir.walk(kernel.body)
           if isinstance(op, kir.Arg) and op.source == "ct"}  # buffer ids passed as compile-time words
    return {op.args[0].value if isinstance(op.args[0], ir.Const) else ids[op.args[0].name]
            for op in ir.walk(kernel.body) if isinstance(op, kir.Call) and op.fn == fn and op.args
            and (isinstance(op.args[0], ir.Const) or getattr(op.args[0], "name", None) in ids)}
