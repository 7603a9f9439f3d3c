"""The program source hash of a tuned operation: what invalidates its cached tuning results.

It covers what decides the program: the operation's own source (its threads included, they are
nested in it), the source of every module-level function it calls (helpers, transitively), the
values of the module-level constants and closure variables it reads (``TILE = 32``), its
decorator's grid and options. An edit anywhere else in the script (the test at the bottom, a
comment above) keeps the cached results; an edit of anything the program is built from drops them.
"""

from __future__ import annotations

import hashlib
import inspect
import types
from typing import Any, Callable, Iterator

from ..lang.kernel import KernelDef

#: values whose repr stands for them in the hash (anything else is ignored: modules, classes, objects)
_CONSTANTS = (int, float, str, bool, bytes, type(None))


def program_hash(kdef: KernelDef) -> str:
    digest = hashlib.sha256()
    digest.update(f"grid={kdef.grid!r} options={sorted(kdef.options.items())!r} style={kdef.style}".encode())
    seen: set[types.CodeType] = set()
    _visit(kdef.fn, digest, seen)
    return digest.hexdigest()[:16]


def _visit(fn: Callable[..., Any], digest: Any, seen: set[types.CodeType]) -> None:
    code = fn.__code__
    if code in seen:
        return
    seen.add(code)
    try:
        digest.update(inspect.getsource(fn).encode())
    except (OSError, TypeError):
        digest.update(code.co_code)
    module = getattr(fn, "__module__", None)
    closure = dict(zip(code.co_freevars, map(_cell_value, fn.__closure__ or ())))
    for name in sorted(set(_names(code))):
        value = closure[name] if name in closure else fn.__globals__.get(name)
        if isinstance(value, types.FunctionType) and value.__module__ == module:
            _visit(value, digest, seen)
        elif isinstance(value, KernelDef):
            _visit(value.fn, digest, seen)
        elif _is_constant(value):
            digest.update(f"{name}={value!r}".encode())


def _names(code: types.CodeType) -> Iterator[str]:
    """Global and free names read by ``code`` and every function nested in it."""
    yield from code.co_names
    yield from code.co_freevars
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _names(const)


def _cell_value(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # a cell not yet filled
        return None


def _is_constant(value: Any) -> bool:
    if isinstance(value, (tuple, frozenset)):
        return all(_is_constant(v) for v in value)
    return isinstance(value, _CONSTANTS)
