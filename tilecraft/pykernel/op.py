"""``PyKernelOp`` (``pykernel.op``): an operation built from PyKernel kernels, run with ``generic_op``.

A subclass defines its kernels (decorated methods), may override ``define_core_ranges`` (the
default is core (0, 0)), and implements ``invoke(*tensors, **options)``, which makes circular
buffers (``create_cb``), kernels (``create_kernel``) and returns ``create_program(...)``. Calling
the op runs that program on the io tensors (outputs pre-allocated and last, as ``generic_op``
wants) and returns the last tensor. Programs are cached by the tensors' shapes, dtypes, layouts
and memory configs and the options: a second call with tensors of the same kind reuses the
program (and its compiled kernels) with the new tensors' buffer addresses.
"""

from __future__ import annotations

import hashlib
import inspect
import math
from typing import Any, Sequence

from .. import ttnn
from ..diagnostics import calling_user_span, error
from . import binding
from .kernel_types import CircularBuffer, Kernel, data_format_name
from .pykernel_program import OpCircularBuffer, OpKernel, PyKernelProgram, kernel_descriptor, kernel_path, run


class PyKernelOp:
    """Base class of PyKernel operations (see the module docstring)."""

    def __init__(self) -> None:
        self.kernel_cache: dict[str, PyKernelProgram | Any] = {}
        self.ttnn = ttnn
        self._io_tensors: tuple = ()

    # ---------------------------------------------------------------- what subclasses override
    def define_core_ranges(self, tensors: Sequence[Any], options: dict[str, Any]) -> ttnn.CoreRangeSet:
        """The cores the op runs on; core (0, 0) unless a subclass says otherwise."""
        core = ttnn.CoreCoord(0, 0)
        return ttnn.CoreRangeSet([ttnn.CoreRange(core, core)])

    def invoke(self, *tensors: Any, **options: Any) -> Any:
        return None

    # ---------------------------------------------------------------- building the program
    def get_core_ranges(self, core_ranges: ttnn.CoreRangeSet | None = None) -> ttnn.CoreRangeSet:
        if core_ranges is not None:
            return core_ranges
        if not hasattr(self, "defined_core_ranges"):
            raise error("E0625", "get_core_ranges() is called before the op was called: the core ranges come "
                        "from define_core_ranges when the op runs", calling_user_span())
        return self.defined_core_ranges

    def create_rt_args(self, core_ranges: ttnn.CoreRangeSet | None = None) -> list[list[Any]]:
        """A zero-filled [x][y] table over the core grid's bounding box (for per-core arguments)."""
        size = self.get_core_ranges(core_ranges).bounding_box().grid_size()
        return [[0 for _ in range(size.y)] for _ in range(size.x)]

    def create_cb(self, tensor: Any, buffer_index: int, core_ranges: ttnn.CoreRangeSet | None = None,
                  **options: Any) -> OpCircularBuffer:
        """A circular buffer sized for the whole of ``tensor`` (one page per tile) on the op's cores."""
        dtype = tensor.dtype
        page_size = dtype.tile_bytes
        total_size = math.ceil(tensor.volume() / 1024) * page_size
        cb_format = ttnn.CBFormatDescriptor(buffer_index=buffer_index, data_format=dtype, page_size=page_size)
        descriptor = ttnn.CBDescriptor(total_size=total_size, core_ranges=self.get_core_ranges(core_ranges),
                                       format_descriptors=[cb_format])
        cb_type = CircularBuffer(buffer_index, tuple(tensor.shape), data_format_name(dtype))
        return OpCircularBuffer(cb_type, cb_format, descriptor)

    def create_kernel(self, kernel: Any, *args: Any, core_ranges: ttnn.CoreRangeSet | None = None,
                      tensor_accessor_configs: Any = None, **compile_time_values: Any) -> OpKernel:
        """Compile ``kernel`` for these arguments (the binding rules are in :mod:`.binding`)."""
        span = calling_user_span()
        ranges = self.get_core_ranges(core_ranges)
        accessors = tensor_accessor_configs if isinstance(tensor_accessor_configs, (list, tuple)) else \
            [] if tensor_accessor_configs is None else [tensor_accessor_configs]
        interface, kernel_args = binding.bind(kernel, args, compile_time_values, ranges, self._io_tensors,
                                              accessors, span, OpCircularBuffer)
        compiled = kernel.compile(interface)
        path = kernel_path(kernel.name, compiled.text)
        made = OpKernel(Kernel(kernel.name, compiled.text), None, compiled, kernel_args, kernel.thread, path,  # type: ignore[arg-type]
                        ranges, span)
        made.kernel_descriptor = kernel_descriptor(made, self._io_tensors)
        return made

    def create_program(self, kernels: Sequence[OpKernel], cbs: Sequence[OpCircularBuffer],
                       semaphores: Sequence[Any] = ()) -> PyKernelProgram:
        return PyKernelProgram(kernels=[k.kernel_descriptor for k in kernels], cbs=[cb.cb_descriptor for cb in cbs],
                               semaphores=list(semaphores), name=type(self).__name__, op_kernels=list(kernels),
                               op_cbs=list(cbs), core_ranges=self.get_core_ranges(), span=calling_user_span(),
                               tensor_names=self.tensor_names(len(self._io_tensors)))

    # ---------------------------------------------------------------- running
    def _compute_input_hash(self, tensors: Sequence[Any], options: dict[str, Any]) -> str:
        """The program cache key: each tensor's shape, dtype, layout and memory config, and the options."""
        parts = [(tuple(t.shape), repr(t.dtype), repr(t.layout), repr(t.memory_config())) for t in tensors]
        return hashlib.md5(repr((parts, sorted(options.items()))).encode()).hexdigest()

    def tensor_names(self, count: int) -> list[str]:
        """The io tensors' names: ``invoke``'s parameter names where it has them."""
        params = [p.name for p in inspect.signature(self.invoke).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        return [params[i] if i < len(params) else f"tensor{i}" for i in range(count)]

    def __call__(self, *tensors: Any, **options: Any) -> Any:
        self.defined_core_ranges = self.define_core_ranges(tensors, options)
        if not isinstance(self.defined_core_ranges, ttnn.CoreRangeSet):
            raise error("E0625", f"define_core_ranges returned {self.defined_core_ranges!r}, not a "
                        "ttnn.CoreRangeSet", calling_user_span())
        key = self._compute_input_hash(tensors, options)
        if key not in self.kernel_cache:
            self._io_tensors = tensors
            program = self.invoke(*tensors, **options)
            if program is None:
                raise error("E0625", f"{type(self).__name__}.invoke returned nothing: it must return "
                            "self.create_program(kernels, cbs)", calling_user_span())
            self.kernel_cache[key] = program
        return run(self.kernel_cache[key], tensors)
