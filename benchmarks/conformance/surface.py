"""List the public surface of the published simulator (tt-lang-sim 1.1.6), mechanically.

Run with the reference's interpreter, which can import it (this module imports nothing of
tilecraft nor of torch itself):

    /tmp/ref/venv/bin/python -m benchmarks.conformance.surface > surface.json

It prints a JSON list of ``{"name", "kind", "traced"}``, one entry per public name of

* the ``ttl`` namespace the simulator builds (``ttl.sim.ttl``), its ``ttl.math`` and
  ``ttl.block`` namespaces;
* the members (public methods and properties, and the operators they define) of the objects a
  program gets from it: dataflow buffers, blocks, pipes, pipe nets, pipe identities, transfer
  handles, transfer groups;
* its ttnn stand-in (``ttl.sim.ttnnsim``): every public module-level name defined there,
  those it imports from other modules excepted (``typing``, ``dataclasses``, modules), and the
  members of ``ttnn.Tensor`` and ``ttnn.Device``.

``benchmarks/conformance/surface_table.py`` turns the list into the table of docs/language.md.
:func:`code_index` maps the code of every callable name back to the name, so that the
reference launcher can record which names a program calls (``reference_launcher.py``).
"""

from __future__ import annotations

import inspect
import json
import sys
import types
from typing import Any, Iterator, NamedTuple

#: operators a class may define, as a program spells them
OPERATORS = {
    "__add__": "a + b", "__radd__": "n + a", "__sub__": "a - b", "__rsub__": "n - a", "__mul__": "a * b",
    "__rmul__": "n * a", "__truediv__": "a / b", "__rtruediv__": "n / a", "__floordiv__": "a // b",
    "__rfloordiv__": "n // a", "__mod__": "a % b", "__rmod__": "n % a", "__pow__": "a ** b",
    "__rpow__": "n ** a", "__matmul__": "a @ b", "__neg__": "-a", "__abs__": "abs(a)", "__iadd__": "a += b",
    "__getitem__": "a[i]", "__setitem__": "a[i] = v", "__len__": "len(a)", "__enter__": "with a",
    "__exit__": "with a", "__eq__": "a == b", "__ne__": "a != b", "__lt__": "a < b", "__gt__": "a > b",
}
_FOREIGN_MODULES = ("typing", "dataclasses", "enum", "__future__", "builtins", "abc", "collections")


class Entry(NamedTuple):
    name: str
    kind: str
    value: Any  # the object itself (a function, a property, a class, a constant)


def ttl_names(ttl: Any) -> Iterator[Entry]:
    for name in sorted(set(vars(ttl)) | {"signpost"}):
        value = getattr(ttl, name)
        if name in ("math", "block"):
            for member in sorted(vars(value)):
                yield Entry(f"ttl.{name}.{member}", _kind(getattr(value, member)), getattr(value, member))
        else:
            yield Entry(f"ttl.{name}", _kind(value), value)


def member_names(owner: str, cls: type) -> Iterator[Entry]:
    """Public methods and properties a class defines itself or inherits from the simulator."""
    for name, value in inspect.getmembers(cls):
        defined_by = next((base for base in cls.__mro__ if name in vars(base)), object)
        if defined_by is object or defined_by.__module__.split(".")[0] in _FOREIGN_MODULES:
            continue
        if name.startswith("_") and name not in OPERATORS:
            continue
        kind = "property" if isinstance(value, property) else ("operator" if name in OPERATORS else "method")
        if kind == "method" and not callable(value):
            kind = "attribute"
        yield Entry(f"{owner}.{name}", kind, vars(defined_by)[name])
    for field in getattr(cls, "__dataclass_fields__", {}):
        yield Entry(f"{owner}.{field}", "attribute", None)


def ttnn_names(ttnnsim: types.ModuleType) -> Iterator[Entry]:
    for name in sorted(vars(ttnnsim)):
        value = getattr(ttnnsim, name)
        if name.startswith("_") or isinstance(value, types.ModuleType) or _foreign(value):
            continue
        yield Entry(f"ttnn.{name}", _kind(value), value)


def _foreign(value: Any) -> bool:
    """Imported helpers and type aliases: typing constructs, dataclasses.field, enum.auto ...
    (plain data, such as the tuple ``TILE_SHAPE``, is a constant of the module, never foreign)."""
    if isinstance(value, (bool, int, float, str, tuple)):
        return False
    module = getattr(value, "__module__", None) or type(value).__module__
    return module.split(".")[0] in _FOREIGN_MODULES or type(value).__module__ == "typing"


def _kind(value: Any) -> str:
    if _foreign(value):
        return "type alias"
    if isinstance(value, type):
        return "class"
    if callable(value):
        return "function"
    if isinstance(value, types.SimpleNamespace) or type(value).__name__.endswith("Namespace"):
        return "namespace"
    return "constant"


def entries() -> list[Entry]:
    """Every public name, once (the first place it is reached from)."""
    from ttl.sim import ttl, ttnnsim
    from ttl.sim.copy import CopyTransaction, GroupTransfer
    from ttl.sim.dfb import Block, DataflowBuffer
    from ttl.sim.pipe import DstPipeIdentity, Pipe, PipeNet, SrcPipeIdentity

    rows = list(ttl_names(ttl))
    for owner, cls in (("DataflowBuffer", DataflowBuffer), ("Block", Block), ("Pipe", Pipe), ("PipeNet", PipeNet),
                       ("SrcPipeIdentity", SrcPipeIdentity), ("DstPipeIdentity", DstPipeIdentity),
                       ("CopyTransaction", CopyTransaction), ("GroupTransfer", GroupTransfer)):
        rows += member_names(owner, cls)
    rows += ttnn_names(ttnnsim)
    rows += member_names("ttnn.Tensor", ttnnsim.Tensor)
    rows += member_names("ttnn.Device", ttnnsim.Device)
    unique: dict[str, Entry] = {}
    for entry in rows:
        unique.setdefault(entry.name, entry)
    return list(unique.values())


def surface() -> list[dict[str, Any]]:
    """Every name with its kind, and whether the launcher can see a program call it (``traced``)."""
    traced = {callee.name for callees in code_index().values() for callee in callees}
    return [{"name": e.name, "kind": e.kind, "traced": e.name in traced} for e in entries()]


class Callee(NamedTuple):
    name: str
    function: types.FunctionType

    def called_by(self, frame: types.FrameType) -> bool:
        """Whether ``frame`` runs this function: functions made by one factory share their code and
        differ only in what their closure holds (``ttl.math.exp`` and ``ttl.math.log`` do)."""
        cells = self.function.__closure__ or ()
        return all(frame.f_locals.get(var) is cell.cell_contents
                   for var, cell in zip(self.function.__code__.co_freevars, cells))


def code_index() -> dict[types.CodeType, list[Callee]]:
    """The code objects a call of each callable name runs first: functions, methods, property
    getters, and the ``__init__`` / ``__post_init__`` the simulator defines for its classes."""
    index: dict[types.CodeType, list[Callee]] = {}
    for entry in entries():
        for function in _functions(entry.value):
            index.setdefault(function.__code__, []).append(Callee(entry.name, function))
    return index


def _functions(value: Any) -> list[types.FunctionType]:
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        value = value.fget
    if isinstance(value, types.FunctionType):
        return [value]
    if isinstance(value, type) and value.__module__.startswith("ttl."):
        methods = [vars(value).get(name) for name in ("__init__", "__post_init__", "__new__")]
        return [m for m in methods if isinstance(m, types.FunctionType) and m.__module__.startswith("ttl.")]
    return []


if __name__ == "__main__":
    json.dump(surface(), sys.stdout, indent=1)
    sys.stdout.write("\n")
