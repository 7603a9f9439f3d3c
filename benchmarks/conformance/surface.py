"""List the public surface of the published simulator (tt-lang-sim 1.1.6), mechanically.

Run with the reference's interpreter, which can import it (this module imports nothing of
tilecraft nor of torch itself):

    /tmp/ref/venv/bin/python -m benchmarks.conformance.surface > surface.json

It prints a JSON list of ``{"name", "kind"}``, one entry per public name of

* the ``ttl`` namespace the simulator builds (``ttl.sim.ttl``), its ``ttl.math`` and
  ``ttl.block`` namespaces;
* the members (public methods and properties, and the operators they define) of the objects a
  program gets from it: dataflow buffers, blocks, pipes, pipe nets, pipe identities, transfer
  handles, transfer groups;
* its ttnn stand-in (``ttl.sim.ttnnsim``): every public module-level name defined there,
  those it imports from other modules excepted (``typing``, ``dataclasses``, modules), and the
  members of ``ttnn.Tensor`` and ``ttnn.Device``.

``benchmarks/conformance/surface_table.py`` turns the list into the table of docs/language.md.
"""

from __future__ import annotations

import inspect
import json
import sys
import types
from typing import Any, Iterator

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


def ttl_names(ttl: Any) -> Iterator[tuple[str, str]]:
    for name in sorted(set(vars(ttl)) | {"signpost"}):
        value = getattr(ttl, name)
        if name in ("math", "block"):
            for member in sorted(vars(value)):
                yield f"ttl.{name}.{member}", _kind(getattr(value, member))
        else:
            yield f"ttl.{name}", _kind(value)


def member_names(owner: str, cls: type) -> Iterator[tuple[str, str]]:
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
        yield f"{owner}.{name}", kind
    for field in getattr(cls, "__dataclass_fields__", {}):
        yield f"{owner}.{field}", "attribute"


def ttnn_names(ttnnsim: types.ModuleType) -> Iterator[tuple[str, str]]:
    for name in sorted(vars(ttnnsim)):
        value = getattr(ttnnsim, name)
        if name.startswith("_") or isinstance(value, types.ModuleType) or _foreign(value):
            continue
        yield f"ttnn.{name}", _kind(value)


def _foreign(value: Any) -> bool:
    """Imported helpers and type aliases: typing constructs, dataclasses.field, enum.auto ..."""
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


def surface() -> list[dict[str, str]]:
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
    seen: dict[str, str] = {}
    for name, kind in rows:
        seen.setdefault(name, kind)
    return [{"name": name, "kind": kind} for name, kind in seen.items()]


if __name__ == "__main__":
    json.dump(surface(), sys.stdout, indent=1)
    sys.stdout.write("\n")
