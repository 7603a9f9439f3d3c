"""ttnn operations as primitives, the way JAX defines its operations.

A :class:`Primitive` is a named operation with two rules kept apart:

* its **shape rule** maps the operand types (:class:`TensorType`: shape, dtype, layout; Python
  numbers stay numbers) and the op's parameters to the result type, or raises a ValueError that
  names the offending shapes. It needs no values, so the cost model and the lowering can size a
  result without computing it;
* its **impl** computes the logical result on the CPU from values in compute precision (fp32, or
  int64 for integer formats: :func:`tilecraft.numerics.to_compute`). ``bind`` then rounds the
  result into the result dtype with :func:`tilecraft.numerics.quantize` (in
  :meth:`Tensor.from_values`), the one place op results are rounded.

Other layers attach further rules without touching this package: each keeps a
:class:`RuleTable` keyed by primitive (cost rules in the cost model, lowerings in the emitter),
as JAX keeps its lowering tables outside its primitives. :data:`PRIMITIVES` lists them all, so a
table can be checked for completeness.

``bind`` also carries what every ttnn op shares: scalar operands, the ``dtype``/``layout``/
``memory_config`` overrides of the result, placement on the first tensor operand's device, mesh
tensors, on which an op runs once per device, and trace capture (:mod:`.trace`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Generic, Optional, Sequence, TypeVar, Union

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name
from tilecraft.dtypes import DataFormat
from tilecraft.numerics import to_compute

from .datatype import as_data_format
from .layout import Layout, Shape
from .memory import MemoryConfig, as_memory_config
from .mesh import FabricConfig
from . import op_record, trace
from .tensor import Tensor

Scalar = Union[int, float]
Operand = Union[Tensor, Scalar]


@dataclass(frozen=True)
class TensorType:
    """What a shape rule knows of a tensor: enough to size a result, no values."""

    shape: Shape
    dtype: DataFormat
    layout: Layout

    @classmethod
    def of(cls, tensor: Tensor) -> "TensorType":
        return cls(tensor.shape, tensor.dtype, tensor.layout)


OperandType = Union[TensorType, Scalar]
ShapeRule = Callable[..., TensorType]
Impl = Callable[..., torch.Tensor]

#: every primitive by name, in definition order
PRIMITIVES: dict[str, "Primitive"] = {}

#: runs a device op call on the wheel's kernels at ``--level cpp`` (``wheel_ops.registry.dispatch``:
#: op name, operands, params, result shape, dtype, layout and memory config -> the result, or None
#: to compute it here); installed when ``tilecraft.ttnn`` is imported
KernelDispatch = Callable[..., Optional["Tensor"]]
_kernel_dispatch: Optional[KernelDispatch] = None


def set_kernel_dispatch(dispatch: KernelDispatch) -> None:
    global _kernel_dispatch
    _kernel_dispatch = dispatch


class Primitive:
    """A named ttnn operation with its shape rule and impl; subclasses say how it runs over devices."""

    def __init__(self, name: str, shape_rule: ShapeRule, impl: Impl) -> None:
        if name in PRIMITIVES:
            raise UsageValueError(f"a primitive named {name!r} already exists")
        self.name = name
        self.shape_rule = shape_rule
        self.impl = impl
        PRIMITIVES[name] = self

    def __repr__(self) -> str:
        return f"ttnn.{self.name}"

    def result_type(self, *operand_types: OperandType, dtype: Optional[DataFormat] = None,
                    layout: Optional[Layout] = None, **params: object) -> TensorType:
        """The result type from the shape rule, with the caller's dtype/layout overrides applied.

        Shape rules word their errors without the op's name; it is prefixed here.
        """
        try:
            result = self.shape_rule(*operand_types, **params)
        except ValueError as error:
            raise UsageValueError(f"{self!r}: {error}") from None
        if dtype is not None:
            result = replace(result, dtype=as_data_format(dtype))
        if layout is not None:
            if not isinstance(layout, Layout):
                raise UsageTypeError(f"{self!r}: layout must be ttnn.TILE_LAYOUT or ttnn.ROW_MAJOR_LAYOUT, got {layout!r}")
            result = replace(result, layout=layout)
        return result


class DevicePrimitive(Primitive):
    """An operation each device computes on its own tensors (every op but the collectives)."""

    def bind(self, *operands: Operand, dtype: Optional[DataFormat] = None, layout: Optional[Layout] = None,
             memory_config: Optional[MemoryConfig] = None, **params: object) -> Tensor:
        """Apply the primitive: per device for mesh tensors, the result on the first tensor's device.
        Inside a trace capture the call is recorded, to be computed again into the same result."""
        capture = trace.recording(operands)
        mesh = next((o.mesh_device for o in operands if isinstance(o, Tensor)), None)
        with op_record.recording(self.name, operands, params, 1 if mesh is None else mesh.get_num_devices()) as out:
            result = self._bind(operands, dtype, layout, memory_config, params)
            out.append(result)
        if capture is not None:
            capture.append(lambda: result.overwrite(self._bind(operands, dtype, layout, memory_config, params)))
        return result

    def _bind(self, operands: Sequence[Operand], dtype: Optional[DataFormat], layout: Optional[Layout],
              memory_config: Optional[MemoryConfig], params: dict[str, object]) -> Tensor:
        tensors = self._check_operands(operands)
        mesh = tensors[0].mesh_device
        if any(t.mesh_device is not mesh for t in tensors):
            raise UsageValueError(f"{self!r}: operands must all be on the same mesh, or all single-device tensors")
        if mesh is None:
            return self._bind_single(operands, dtype, layout, memory_config, params)
        per_device = [
            self._bind_single([o.device_tensors()[i] if isinstance(o, Tensor) else o for o in operands],
                              dtype, layout, memory_config, params)
            for i in range(mesh.get_num_devices())
        ]
        return Tensor.on_mesh(per_device, mesh)

    def _bind_single(self, operands: Sequence[Operand], dtype: Optional[DataFormat], layout: Optional[Layout],
                     memory_config: Optional[MemoryConfig], params: dict[str, object]) -> Tensor:
        first = next(o for o in operands if isinstance(o, Tensor))
        result_type = self.result_type(*(TensorType.of(o) if isinstance(o, Tensor) else o for o in operands),
                                       dtype=dtype, layout=layout, **params)
        config = first.memory_config() if memory_config is None else as_memory_config(memory_config)
        if _kernel_dispatch is not None:
            ran = _kernel_dispatch(self.name, operands, params, result_type.shape, result_type.dtype,
                                   result_type.layout, config)
            if ran is not None:
                return ran
        if self.name in _ONE_ROUNDING and all(isinstance(o, Tensor) and o.dtype is result_type.dtype
                                              and o.dtype.torch_dtype == torch.bfloat16
                                              and not o.dtype.is_block_float for o in operands):
            # torch computes a bf16 elementwise op in fp32 and rounds once: our numerics, without
            # widening whole tensors first
            values = self.impl(*(o.logical() for o in operands), **params)
        else:
            values = self.impl(*(to_compute(o.logical()) if isinstance(o, Tensor) else o for o in operands),
                               **params)
        _check_impl_shape(self, values, result_type)
        result = Tensor.from_values(values, result_type.dtype, result_type.layout, memory_config=config, owned=True)
        return result if first.device() is None else result.to(first.device())

    def _check_operands(self, operands: Sequence[Operand]) -> list[Tensor]:
        for operand in operands:
            if isinstance(operand, torch.Tensor):
                raise UsageTypeError(f"{self!r} takes ttnn tensors; convert the torch tensor with ttnn.from_torch first")
            if not isinstance(operand, (Tensor, int, float)):
                raise UsageTypeError(f"{self!r}: operands are ttnn.Tensor or Python numbers, got {type_name(operand)}")
        tensors = [o for o in operands if isinstance(o, Tensor)]
        if not tensors:
            raise UsageTypeError(f"{self!r} needs at least one ttnn.Tensor operand")
        return tensors


#: elementwise ops of two tensors that torch evaluates in fp32 with one rounding for bfloat16
_ONE_ROUNDING = frozenset({"add", "subtract", "multiply", "divide"})


class CollectivePrimitive(Primitive):
    """A ttnn operation that combines the devices of a mesh (an all-reduce, an all-gather).

    Its shape rule takes the per-device operand type and ``group_size`` (devices combined); its
    impl takes the group's values as an iterable in device order, made one at a time so that an
    8-way reduction of large tensors holds one widened copy at once, and returns the one result
    every device of the group receives. Groups are the whole mesh, or its columns or rows
    (``cluster_axis`` 0 or 1).
    """

    def bind(self, tensor: Tensor, *, cluster_axis: Optional[int] = None,
             memory_config: Optional[MemoryConfig] = None, **params: object) -> Tensor:
        capture = trace.recording((tensor,))
        mesh = tensor.mesh_device if isinstance(tensor, Tensor) else None
        with op_record.recording(self.name, (tensor,), {"cluster_axis": cluster_axis, **params},
                                 1 if mesh is None else mesh.get_num_devices()) as out:
            result = self._combine(tensor, cluster_axis, memory_config, params)
            out.append(result)
        if capture is not None:
            capture.append(lambda: result.overwrite(self._combine(tensor, cluster_axis, memory_config, params)))
        return result

    def _combine(self, tensor: Tensor, cluster_axis: Optional[int], memory_config: Optional[MemoryConfig],
                 params: dict[str, object]) -> Tensor:
        mesh = tensor.mesh_device if isinstance(tensor, Tensor) else None
        if mesh is None:
            raise UsageValueError(
                f"{self!r} combines the devices of a mesh; it needs a tensor made with "
                "ttnn.from_torch(..., device=mesh, mesh_mapper=...)"
            )
        if tensor.device() is None:
            raise UsageValueError(f"{self!r} runs on the devices; move the tensor there first (tensor.to(mesh))")
        groups = mesh.device_groups(cluster_axis)
        if len(groups[0]) > 1 and mesh.fabric_config is FabricConfig.DISABLED:
            raise RuntimeError(
                f"{self!r} sends data between chips, and {mesh!r} was opened without a fabric: call "
                "ttnn.set_fabric_config(ttnn.FabricConfig.FABRIC_1D) before ttnn.open_mesh_device"
            )
        shards = tensor.device_tensors()
        result_type = self.result_type(TensorType.of(shards[0]), group_size=len(groups[0]), **params)
        config = tensor.memory_config() if memory_config is None else as_memory_config(memory_config)
        results: list[Optional[Tensor]] = [None] * len(shards)
        for group in groups:
            values = self.impl((to_compute(shards[i].logical()) for i in group), **params)
            _check_impl_shape(self, values, result_type)
            host = Tensor.from_values(values, result_type.dtype, result_type.layout, memory_config=config)
            for k, i in enumerate(group):  # each chip holds its own copy: later writes stay on one chip
                storage = host.storage if k == 0 else host.storage.clone()
                results[i] = Tensor(storage, shape=host.shape, dtype=host.dtype, layout=host.layout,
                                    memory_config=config, device=shards[i].device())
        return Tensor.on_mesh(results, mesh)


def _check_impl_shape(primitive: Primitive, values: torch.Tensor, expected: TensorType) -> None:
    if values.shape != expected.shape:
        raise RuntimeError(
            f"internal error in {primitive!r}: its impl produced shape {list(values.shape)} "
            f"but its shape rule says {list(expected.shape)}"
        )


R = TypeVar("R")


class RuleTable(Generic[R]):
    """One kind of rule (cost, lowering, ...) for each primitive, filled by the layer owning that kind."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._rules: dict[Primitive, R] = {}

    def register(self, primitive: Primitive) -> Callable[[R], R]:
        """Decorator: ``@COSTS.register(ops.add_p)`` registers the function below it."""
        def add(rule: R) -> R:
            if primitive in self._rules:
                raise UsageValueError(f"{primitive!r} already has a {self.kind}")
            self._rules[primitive] = rule
            return rule
        return add

    def __getitem__(self, primitive: Primitive) -> R:
        try:
            return self._rules[primitive]
        except KeyError:
            raise LookupError(f"no {self.kind} is registered for {primitive!r}") from None

    def __contains__(self, primitive: object) -> bool:
        return primitive in self._rules

    def missing(self) -> list[Primitive]:
        """Primitives without a rule of this kind."""
        return [p for p in PRIMITIVES.values() if p not in self._rules]
