"""The published PyKernel's argument binding: what ``create_kernel(kernel, *args, **constants)`` means.

Positional arguments are matched with the kernel's parameters by kind, each kind in order:

* circular buffers (``create_cb`` results) -> the ``CircularBuffer`` parameters; their ids become
  the kernel's first compile-time arguments, numbered in order;
* an ``int`` -> the next unannotated parameter, as a *common* runtime argument (one value for all
  cores, read with ``get_common_arg_val``);
* a list of lists shaped like the core grid's bounding box (``args[x][y] == [value]``) -> the next
  unannotated parameter, as a *per-core* runtime argument (``get_arg_val``);
* keywords -> the ``CompileTimeValue`` parameters of the same names, folded into the kernel.

``tensor_accessor_configs=[tensor, ...]`` appends each tensor's 0.81.1 ``TensorAccessorArgs``
(config flags and page size) after the CB ids, for ``TensorAccessorArgs(offset)`` in the kernel.
An io tensor's ``buffer_address()`` passed as it is (not computed on) is remembered as that tensor's address,
so a cached program runs on new tensors of the same shapes and ``tilecraft emit`` writes hosts
that ask the device for the address.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..diagnostics import Note, Span, error
from ..ttnn.cores import CoreRangeSet
from ..ttnn.descriptors import core_list
from ..ttnn.tensor import BufferAddress
from .calls import ACCESSOR_CT_ARGS
from .interface import CB, COMMON, CT, RT, THREADS, KernelInterface, ParamBinding
from .kernel_ast import KernelFunction

Core = tuple[int, int]
#: a runtime argument value: a word, or ("buffer_address", i): the address of io tensor i
Value = Any


@dataclass
class KernelArgs:
    """What the host passes one kernel."""

    cb_ids: list[int]
    #: io tensors (by index) whose TensorAccessorArgs follow the CB ids
    accessor_tensors: list[int]
    #: (parameter name, value) of each common runtime argument
    common: list[tuple[str, Value]]
    #: parameter names of the per-core runtime arguments, and their values per core
    per_core_labels: list[str] = field(default_factory=list)
    per_core: dict[Core, list[Value]] = field(default_factory=dict)


def bind(kernel: Any, args: Sequence[Any], constants: dict[str, Any], core_ranges: CoreRangeSet,
         io_tensors: Sequence[Any], accessor_tensors: Sequence[Any], span: Span | None,
         cb_type: type) -> tuple[KernelInterface, KernelArgs]:
    """Match ``create_kernel``'s arguments with ``kernel``'s parameters (diagnostics at ``span``)."""
    if not isinstance(kernel, KernelFunction) or kernel.thread not in ("compute_thread", "reader_thread",
                                                                     "writer_thread"):
        raise error("E0624", f"create_kernel takes a kernel decorated with @compute_thread(), @reader_thread() or "
                    f"@writer_thread(), not {kernel!r}", span)
    params = kernel.parameters()
    where = (Note(f"kernel {kernel.name}() is defined here", kernel.source.span(kernel.source.node)),)
    cbs = [a for a in args if isinstance(a, cb_type)]
    runtime = [a for a in args if not isinstance(a, cb_type)]
    cb_params = [p for p in params if p.role == CB]
    rt_params = [p for p in params if p.role == RT]
    _check_count("CircularBuffer", cb_params, cbs, kernel, span, where)
    _check_count("runtime", rt_params, runtime, kernel, span, where)

    tensors = [_tensor_index(t, io_tensors, span) for t in accessor_tensors]
    out = KernelArgs([cb.cb_type.cb_id for cb in cbs], tensors, [])
    cores = core_list(core_ranges)
    bindings: dict[str, ParamBinding] = {}
    for param, cb_index in zip(cb_params, range(len(cbs))):
        bindings[param.name] = ParamBinding(param.name, CB, cb_index)
    for param, value in zip(rt_params, runtime):
        if isinstance(value, list):
            words = _per_core(value, param.name, core_ranges, cores, kernel, span)
            bindings[param.name] = ParamBinding(param.name, RT, len(out.per_core_labels))
            out.per_core_labels.append(param.name)
            for core, word in words.items():
                out.per_core.setdefault(core, []).append(_value(word, io_tensors, param.name, kernel, span))
        elif _is_word(value):
            bindings[param.name] = ParamBinding(param.name, COMMON, len(out.common))
            out.common.append((param.name, _value(value, io_tensors, param.name, kernel, span)))
        else:
            raise error("E0623", f"runtime argument '{param.name}' of {kernel.name}() is a {type(value).__name__}: "
                        "pass an int (common to all cores) or a list of lists shaped like the core grid "
                        "(one [value] per core)", span, notes=where)
    ct_params = {p.name for p in params if p.role == CT}
    for key in constants:
        if key not in ct_params:
            raise error("E0622", f"{kernel.name}() has no CompileTimeValue parameter '{key}'", span, notes=where,
                        hint=f"its CompileTimeValue parameters: {', '.join(sorted(ct_params)) or 'none'}")
    for name in ct_params:
        if name not in constants:
            raise error("E0622", f"compile-time value '{name}' of {kernel.name}() is not given", span, notes=where,
                        hint=f"pass it to create_kernel as a keyword: {name}=...")
        value = constants[name]
        if not isinstance(value, (bool, int, float, np.integer)):
            raise error("E0623", f"compile-time value '{name}' is a {type(value).__name__}: CompileTimeValues are "
                        "ints, bools or floats", span)
        bindings[name] = ParamBinding(name, CT, value=value.item() if isinstance(value, np.integer) else value)
    kind, processor = THREADS[kernel.thread]
    interface = KernelInterface(kind, processor, tuple(bindings[p.name] for p in params),
                                len(cbs) + ACCESSOR_CT_ARGS * len(tensors))
    return interface, out


def _check_count(what: str, params: list, given: list, kernel: KernelFunction, span: Span | None,
                 where: tuple[Note, ...]) -> None:
    if len(params) != len(given):
        names = ", ".join(p.name for p in params) or "none"
        raise error("E0621", f"kernel {kernel.name}() takes {len(params)} {what} argument"
                    f"{'s' if len(params) != 1 else ''} ({names}), but create_kernel passes {len(given)}", span,
                    notes=where)


def _is_word(value: Any) -> bool:
    return isinstance(value, (int, np.integer))  # bools too: True is the word 1


def _per_core(grid: list, name: str, core_ranges: CoreRangeSet, cores: list[Core], kernel: KernelFunction,
              span: Span | None) -> dict[Core, Any]:
    """``grid[x][y] == [value]`` over the bounding box -> value per core of the range set."""
    box = core_ranges.bounding_box()
    width, height = box.end.x - box.start.x + 1, box.end.y - box.start.y + 1
    shape_hint = f"the core grid's bounding box is {width} x {height} (x, y): pass [[[v] for y] for x]"
    if len(grid) != width or not all(isinstance(row, (list, tuple)) and len(row) == height for row in grid):
        rows = [len(row) if isinstance(row, (list, tuple)) else type(row).__name__ for row in grid]
        raise error("E0623", f"per-core runtime argument '{name}' of {kernel.name}() has {len(grid)} columns of "
                    f"{rows} entries", span, hint=shape_hint)
    words = {}
    for x, y in cores:
        entry = grid[x - box.start.x][y - box.start.y]
        if not (isinstance(entry, (list, tuple)) and len(entry) == 1 and _is_word(entry[0])):
            raise error("E0623", f"per-core runtime argument '{name}' of {kernel.name}() holds {entry!r} for core "
                        f"({x}, {y}): each core's entry is a one-element list [value]", span, hint=shape_hint)
        words[(x, y)] = entry[0]
    return words


def _value(value: Any, io_tensors: Sequence[Any], name: str, kernel: KernelFunction, span: Span | None) -> Value:
    word = int(value)
    if not -(2 ** 31) <= word < 2 ** 32:
        raise error("E0623", f"runtime argument '{name}' of {kernel.name}() is {word}, which is not a 32-bit word",
                    span)
    if isinstance(value, BufferAddress):
        for index, tensor in enumerate(io_tensors):
            if tensor is value.tensor:
                return ("buffer_address", index)
    return word


def _tensor_index(tensor: Any, io_tensors: Sequence[Any], span: Span | None) -> int:
    for index, candidate in enumerate(io_tensors):
        if candidate is tensor:
            return index
    raise error("E0623", f"tensor_accessor_configs takes the op's io tensors, got {type(tensor).__name__}", span,
                hint="0.81.1's TensorAccessorArgs are a tensor's config flags and page size: pass the tensor the "
                     "kernel reads or writes")


def resolve(value: Value, io_tensors: Sequence[Any]) -> int:
    """A runtime argument's word for these tensors."""
    if isinstance(value, tuple):
        return io_tensors[value[1]].buffer_address()
    return value
