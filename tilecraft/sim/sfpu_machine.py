"""SFPU functions for ``--numerics device``, computed by running the LLK's own code on the Tensix machine.

The emitted programs (``--level cpp``) run every compute kernel on the Tensix machine, which executes
the real 0.81.1 LLK SFPU algorithms (``ckernel_sfpu_*.h``: polynomials, lookup tables, Newton steps)
over our SFPI model. Those are not correctly rounded and no formula here could follow each of them
bit for bit, so the language level asks the machine itself: for each SFPU function a program needs,
a one-core program is built once (its kernels are cached like every emulator kernel) whose compute
kernel does, per tile, what the emitted kernel does for that operation: ``copy_tile`` of Float32
tiles (``UnpackToDestFp32``) into an fp32 DST, the same init and call the lowering emits (taken
from :mod:`tilecraft.metal.optable`, with the lowering's splits: ``threshold`` as its mirror image,
``hardswish`` as ``x * hardsigmoid(x)``, an integral power as ``power_tile``), and ``pack_tile`` into
a Float32 buffer, which keeps the fp32 DST values whole. The packer's rounding into the program's
format stays with :meth:`~tilecraft.sim.device_math.DeviceMath.pack`.

A unary SFPU function is elementwise, so its results are remembered per fp32 input: a call sends
only the values not seen before (a bfloat16 source has at most 65,536). Binary functions run each
call's pairs, padded to whole tiles.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch

from .. import session
from ..dtypes import float32
from ..emu import launch
from ..emu.build import source_file
from ..emu.device_model import chip
from ..emu.program_spec import BRISC, NCRISC, TRISC, CBFormat, CBSpec, ComputeSpec, KernelSpec, ProgramSpec, \
    TensorSpec
from ..ir import mathops
from ..metal.optable import COMPOSITE_UNARY, COPY, DST_FORMAT, MIRRORED_UNARY, SCALAR_BINARY, SFPU_BINARY, UNARY, Sfpu, \
    float_bits

Tensor = torch.Tensor

TILE = 32 * 32
#: the format of the emitted programs' DST (fp32 accumulation: ``metal.lower.ProgramLowering``)
_DST_FORMAT = "DataFormat::Float32"
_IN, _IN_B, _OUT = 0, 1, 16
_CORE = (0, 0)


@dataclass(frozen=True)
class Call:
    """One SFPU API call of the emitted kernel: ``sfpu``'s init, then its call on DST ``slots``
    (unary: one, binary: two operands and the result) with ``arguments`` (C++ literals) after them."""

    sfpu: Sfpu
    slots: tuple[int, ...]
    arguments: tuple[str, ...] = ()
    #: the lowering fills DST_FORMAT in a unary's templates (``emit_unary``), not a binary's
    typed: bool = True

    def text(self) -> str:
        def template(args: tuple[str, ...]) -> str:
            args = tuple(a.replace(DST_FORMAT, _DST_FORMAT) for a in args) if self.typed else args
            return f"<{', '.join(args)}>" if args else ""

        arguments = ", ".join([str(s) for s in self.slots] + list(self.arguments))
        return (f"{self.sfpu.init}{template(self.sfpu.init_template)}(); "
                f"{self.sfpu.call}{template(self.sfpu.call_template)}({arguments});")


def unary_calls(fn: str, params: tuple = (), slot: int = 0) -> list[Call]:
    """The calls the lowering emits for ``ttl.math.<fn>(x, *params)`` on DST ``slot`` (x copied there;
    a composite's second operand in ``slot + 1``), as ``ComputeLowering.node`` splits it."""
    if fn in MIRRORED_UNARY:  # -g(-x)
        inner, transform = MIRRORED_UNARY[fn]
        return [*unary_calls("neg", (), slot), *unary_calls(inner, transform(*params), slot), *unary_calls("neg", (), slot)]
    if fn in COMPOSITE_UNARY:  # combine(x, inner(x)), x in slot, inner(x) in the next
        inner, combine = COMPOSITE_UNARY[fn]
        return [*unary_calls(inner, (), slot + 1), Call(SFPU_BINARY[combine], (slot, slot + 1, slot), typed=False)]
    sfpu = UNARY[fn]
    values = [float_bits(p) if sfpu.params == "bits" else str(int(p)) for p in mathops.full_params(fn, params)]
    return [Call(sfpu, (slot,), tuple(values) + sfpu.fixed)]


def power_calls(exponent: float) -> list[Call]:
    """``x ** n`` for an integral ``n``: ``power_tile`` with the exponent's fp32 bits (``emit_power``)."""
    return [Call(UNARY["power"], (0,), (float_bits(exponent),), typed=False)]


def scalar_calls(fn: str, value: float) -> list[Call]:
    """``x <fn> value`` by a number: ``<fn>_unary_tile`` with its fp32 bits (``emit_scalar``)."""
    return [Call(SCALAR_BINARY[fn], (0,), (float_bits(value),), typed=False)]


def binary_calls(fn: str) -> list[Call]:
    """``fn(a, b)`` on two DST tiles (a in 0, b in 1, the result in 0), as ``emit_sfpu``."""
    return [Call(SFPU_BINARY[fn], (0, 1, 0), typed=False)]


def _input_copies(calls: tuple[Call, ...]) -> int:
    """How many DST slots of a unary's kernel take a copy of the input tile (a composite's two)."""
    return max(max(c.slots) for c in calls) + 1


def _compute_text(calls: tuple[Call, ...], operands: int) -> str:
    """The compute kernel: per tile, the operand(s) copied from their Float32 buffers into DST (a
    unary's input into every slot its calls read, a binary's into slots 0 and 1), ``calls``, and
    slot 0 packed into the Float32 output buffer, as the emitted kernels sequence them."""
    headers = sorted({c.sfpu.header for c in calls} | {COPY.header, "cb_api.h", "common.h",
                                                       "compute_kernel_hw_startup.h", "pack.h", "reg_api.h"})
    copies = [f"copy_tile({_IN}, 0, {s});" for s in range(_input_copies(calls))] if operands == 1 else \
        [f"copy_tile({_IN}, 0, 0);", f"{COPY.init}({_IN_B}); copy_tile({_IN_B}, 0, 1); {COPY.init}({_IN});"]
    waits = [f"cb_wait_front({cb}, 1);" for cb in (_IN, _IN_B)[:operands]]
    pops = [f"cb_pop_front({cb}, 1);" for cb in (_IN, _IN_B)[:operands]]
    body = "\n        ".join([*waits, f"cb_reserve_back({_OUT}, 1);", "tile_regs_acquire();", *copies,
                              *(c.text() for c in calls), "tile_regs_commit();", "tile_regs_wait();",
                              f"pack_tile(0, {_OUT}, 0);", "tile_regs_release();", f"cb_push_back({_OUT}, 1);", *pops])
    includes = "\n".join(f'#include "api/compute/{h}"' for h in headers)
    return f"""// tilecraft --numerics device: one SFPU operation of an emitted kernel, per tile (sim/sfpu_machine.py)
#include <cstdint>
{includes}

void kernel_main() {{
    const uint32_t tiles = get_arg_val<uint32_t>(0);
    compute_kernel_hw_startup({_IN}, {_IN_B if operands == 2 else _IN}, {_OUT});
    {COPY.init}({_IN});
    for (uint32_t t = 0; t < tiles; ++t) {{
        {body}
    }}
}}
"""


def _mover_text(read: bool, cbs: tuple[int, ...]) -> str:
    """A data-movement kernel: each tile of the tensors (runtime args: their addresses, then the
    tile count) into its CB, or the one output CB out to its tensor."""
    count = len(cbs)
    accessors = "\n    ".join(
        f"const auto t{i} = TensorAccessor(TensorAccessorArgs<{2 * i}>(), get_arg_val<uint32_t>({i}), "
        f"get_tile_size({cb}));" for i, cb in enumerate(cbs))
    if read:
        steps = " ".join(f"cb_reserve_back({cb}, 1); noc_async_read_page(t, t{i}, get_write_ptr({cb})); "
                         f"noc_async_read_barrier(); cb_push_back({cb}, 1);" for i, cb in enumerate(cbs))
    else:
        steps = " ".join(f"cb_wait_front({cb}, 1); noc_async_write_page(t, t{i}, get_read_ptr({cb})); "
                         f"noc_async_write_barrier(); cb_pop_front({cb}, 1);" for i, cb in enumerate(cbs))
    return f"""// tilecraft --numerics device: the tiles of an SFPU operation's {'inputs in' if read else 'result out'}
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

void kernel_main() {{
    {accessors}
    const uint32_t tiles = get_arg_val<uint32_t>({count});
    for (uint32_t t = 0; t < tiles; ++t) {{
        {steps}
    }}
}}
"""


def _kernel(text: str, name: str, slot: int, args: list[int], compile_args: list[int],
            compute: ComputeSpec | None = None) -> KernelSpec:
    source = source_file(text, name)
    return KernelSpec(name=name, source=source, text=text, display=f"<{name}>", slot=slot, noc=0 if slot != NCRISC else 1,
                      cores=[_CORE], compile_args=compile_args, runtime_args={_CORE: args}, compute=compute)


def run_calls(calls: tuple[Call, ...], *operands: Tensor, arch: str | None = None) -> Tensor:
    """The fp32 results of ``calls`` on the Tensix machine of ``arch`` (the session's by default),
    over flat fp32 ``operands`` of one length, in one launch."""
    count = operands[0].numel()
    tiles = max(1, -(-count // TILE))
    arch = arch or session.options().arch
    model = chip(arch)
    page = 4 * TILE
    bank_bytes = -(-tiles // len(model.dram_banks)) * -(-page // model.dram_alignment) * model.dram_alignment

    def tensor(i: int, values: Tensor | None) -> TensorSpec:
        storage = torch.zeros(tiles * 32, 32, dtype=torch.float32)
        if values is not None:
            storage.view(-1)[:count] = values.reshape(-1).float()
        return TensorSpec(f"sfpu_operand_{i}", storage, float32, True, i * bank_bytes, "dram")

    tensors = [tensor(i, x) for i, x in enumerate(operands)] + [tensor(len(operands), None)]
    ins = (_IN, _IN_B)[:len(operands)]
    accessor = [2, page]  # interleaved in DRAM (TensorAccessorArgs), aligned page
    unpack = tuple(i in ins for i in range(model.num_cbs))
    compute = ComputeSpec(math_fidelity=4, fp32_dest_acc=True, approx=False, unpack_to_dest_fp32=unpack)
    program = ProgramSpec(
        kernels=[_kernel(_mover_text(True, ins), "sfpu_reader", NCRISC, [t.address for t in tensors[:-1]] + [tiles],
                         accessor * len(ins)),
                 _kernel(_compute_text(calls, len(operands)), "sfpu_compute", TRISC, [tiles], [], compute),
                 _kernel(_mover_text(False, (_OUT,)), "sfpu_writer", BRISC, [tensors[-1].address, tiles], accessor)],
        cbs=[CBSpec([_CORE], 2 * page, [CBFormat(cb, float32, page)]) for cb in (*ins, _OUT)],
        semaphores=[], tensors=tensors, arch=arch)
    launch.run(program)
    return tensors[-1].storage.view(-1)[:count].clone()


class ElementwiseCache:
    """The results of one unary SFPU function by fp32 input bits: each call runs only new values."""

    def __init__(self, calls: tuple[Call, ...], arch: str) -> None:
        self.calls, self.arch = calls, arch
        self.keys = np.empty(0, dtype=np.uint32)
        self.values = np.empty(0, dtype=np.uint32)

    def __call__(self, x: Tensor) -> Tensor:
        flat = x.detach().float().cpu().contiguous().view(-1)
        bits = flat.view(torch.int32).numpy().view(np.uint32)
        wanted = np.unique(bits)
        new = wanted[~np.isin(wanted, self.keys, assume_unique=True)]
        if new.size:
            results = run_calls(self.calls, torch.from_numpy(new.view(np.float32).copy()), arch=self.arch)
            keys = np.concatenate([self.keys, new])
            order = np.argsort(keys, kind="stable")
            self.keys = keys[order]
            self.values = np.concatenate([self.values, results.numpy().view(np.uint32)])[order]
        found = self.values[np.searchsorted(self.keys, bits)]
        out = torch.from_numpy(found.view(np.float32).copy()).view(x.shape)
        return out.to(x.device)


@functools.cache
def _remembered(calls: tuple[Call, ...], arch: str) -> ElementwiseCache:
    return ElementwiseCache(calls, arch)


def _elementwise(calls: tuple[Call, ...]) -> Callable[[Tensor], Tensor]:
    return lambda x: _remembered(calls, session.options().arch)(x)


def unary(fn: str, params: tuple = ()) -> Callable[[Tensor], Tensor]:
    """``ttl.math.<fn>(x, *params)`` as the emitted kernel computes it (fp32 in, fp32 out)."""
    return _elementwise(tuple(unary_calls(fn, params)))


def power(exponent: float) -> Callable[[Tensor], Tensor]:
    """``x ** exponent`` for an integral exponent, as ``power_tile`` computes it."""
    return _elementwise(tuple(power_calls(exponent)))


def scalar(fn: str, value: float) -> Callable[[Tensor], Tensor]:
    """``x <fn> value`` (add, sub or mul by a number) as ``<fn>_unary_tile`` computes it."""
    return _elementwise(tuple(scalar_calls(fn, value)))


def binary(fn: str, a: Tensor, b: Tensor) -> Tensor:
    """``fn(a, b)`` of two DST tiles (``<fn>_binary_tile``), broadcast as the block math broadcasts."""
    a, b = torch.broadcast_tensors(a.float(), b.float())
    out = run_calls(tuple(binary_calls(fn)), a.detach().cpu().contiguous(), b.detach().cpu().contiguous())
    return out.view(a.shape).to(a.device)
