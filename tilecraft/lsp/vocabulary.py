"""The names an editor offers: ``ttl.*``, ``ttl.math.*``, ``ttl.block.*`` and the methods of
buffers, blocks, transfers, pipe nets and semaphores, and what kind of object a variable holds.

The ``ttl`` names are read from the package itself (``tilecraft.__all__``, the math vocabulary of
``ir/mathops.py``, ``lang/block.py``), so completion offers exactly what the front end accepts.
Blocks, transfer handles and groups exist only inside compiled threads (no Python class has their
methods), so the methods of each kind of object are listed here, each with the forms under which
the language reference describes it (tests check that it does).

A variable's kind is read off the module's source: what it is assigned from
(``x_dfb = ttl.make_dataflow_buffer_like(...)`` is a buffer; ``with x_dfb.wait() as blk`` makes
``blk`` a block). Names are matched by spelling across the whole file: kernels are small, and a
name reused for another kind of object simply gets the first kind found.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass

import tilecraft
from ..ir import mathops
from ..lang import block as block_module


@dataclass(frozen=True)
class Name:
    name: str
    #: "function", "class", "module", "constant", "method" or "property"
    kind: str
    detail: str
    #: how the language reference writes it, most specific first (see docs.Reference.find)
    forms: tuple[str, ...]
    #: the bare name, looked for in the reference's sections about ``scope`` (e.g. ``ttl.math``)
    bare: str | None = None
    scope: str | None = None


def _method(kind_var: str, name: str, params: str = "", prop: bool = False) -> Name:
    return Name(name, "property" if prop else "method", f"{kind_var}.{name}" + ("" if prop else f"({params})"),
                (f"{kind_var}.{name}",))


#: kind of object -> what a thread may call on it
METHODS: dict[str, tuple[Name, ...]] = {
    "buffer": (_method("cb", "reserve"), _method("cb", "wait"), _method("cb", "push"), _method("cb", "pop"),
               _method("cb", "shape", prop=True)),
    "block": (Name("store", "method", "blk.store(expr)", ("blk.store",), bare="store"),
              _method("blk", "push"), _method("blk", "pop"), _method("blk", "shape", prop=True),
              Name("to", "method", "blk.to(ttnn.bfloat16)", ("expr.to",), bare="to")),
    "transfer": (_method("xf", "wait"),),
    "group": (_method("g", "add", "xf"), _method("g", "wait_all")),
    "pipenet": (_method("net", "if_src", "fn"), _method("net", "if_dst", "fn"), _method("net", "is_src"),
                _method("net", "is_dst"), _method("net", "is_active")),
    "semaphore": (_method("sem", "wait_eq", "v"), _method("sem", "wait_for", "v"), _method("sem", "wait_ge", "v"),
                  _method("sem", "wait_for_min", "v"), _method("sem", "set", "v"),
                  _method("sem", "get_remote", "core"), _method("sem", "get_remote_multicast", "range=None")),
    "remote semaphore": (_method("r", "inc", "v=1"), _method("r", "set", "v")),
    "multicast semaphore": (_method("m", "set", "v"),),
}

#: ``var = ttl.<constructor>(...)`` -> the kind of ``var``
CONSTRUCTORS = {"make_circular_buffer_like": "buffer", "make_dataflow_buffer_like": "buffer", "Pipe": "pipe",
                "PipeNet": "pipenet", "Semaphore": "semaphore", "copy": "transfer", "GroupTransfer": "group"}
#: ``var = <object of kind>.<method>(...)`` -> the kind of ``var``
DERIVED = {("buffer", "reserve"): "block", ("buffer", "wait"): "block",
           ("semaphore", "get_remote"): "remote semaphore",
           ("semaphore", "get_remote_multicast"): "multicast semaphore"}


def _kind_of(value: object) -> str:
    if inspect.ismodule(value):
        return "module"
    if inspect.isclass(value):
        return "class"
    return "function" if callable(value) else "constant"


def _signature(name: str, value: object) -> str:
    """``name(a, b=1, *, c=None)``: the parameters as a user writes them, without annotations."""
    try:
        sig = inspect.signature(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return name
    params = [p.replace(annotation=p.empty) for p in sig.parameters.values()]
    return f"{name}{sig.replace(parameters=params, return_annotation=sig.empty)}"


def module_names() -> list[Name]:
    """``ttl.<name>``: everything the package exports."""
    out = []
    for name in sorted(tilecraft.__all__):
        value = getattr(tilecraft, name)
        kind = _kind_of(value)
        detail = f"ttl.{name}" if kind in ("module", "constant") else f"ttl.{_signature(name, value)}"
        out.append(Name(name, kind, detail, (f"ttl.{name}",)))
    return out


def _math_detail(name: str) -> str:
    if name in mathops.UNARY_PARAM:
        params, required = mathops.UNARY_PARAM[name]
        optional = params[required:]
        text = ", ".join(["x", *params[:required]]) + "".join(f"[, {p}" for p in optional) + "]" * len(optional)
        return f"{name}({text})"
    if name in mathops.BINARY:
        return f"{name}(a, b)"
    if name in mathops.UNARY or name in mathops.UNARY_ALIASES:
        return f"{name}(x)"
    return name


def submodule_names(module: str) -> list[Name]:
    """``ttl.math.<name>`` or ``ttl.block.<name>``."""
    if module == "math":
        names = [*mathops.UNARY, *mathops.UNARY_ALIASES, *mathops.UNARY_PARAM, *mathops.BINARY,
                 "where", "matmul", "transpose", "reduce_sum", "reduce_max", "fill", "broadcast"]
    else:
        names = [n for n in vars(block_module) if not n.startswith("_") and callable(getattr(block_module, n))]
    return [Name(n, "function", f"ttl.{module}.{_math_detail(n)}", (f"ttl.{module}.{n}", f"{module}.{n}"),
                 bare=n, scope=f"ttl.{module}") for n in sorted(set(names))]


def module_aliases(tree: ast.Module) -> set[str]:
    """The names the file gives the language module: ``import ttl``, ``import tilecraft as ttl``."""
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("ttl", "tilecraft"):
                    aliases.add(alias.asname or alias.name)
    return aliases


def infer_kinds(tree: ast.Module, aliases: set[str]) -> dict[str, str]:
    """Variable name -> kind of object, from what each is assigned (see the module docstring)."""
    bindings: list[tuple[str, ast.expr]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bindings += [(t.id, node.value) for t in targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
            bindings.append((node.optional_vars.id, node.context_expr))
    kinds: dict[str, str] = {}
    changed = True
    while changed:  # a block's kind needs its buffer's: repeat until nothing new is learnt
        changed = False
        for name, value in bindings:
            if name in kinds or not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
                continue
            owner, attr = value.func.value, value.func.attr
            if not isinstance(owner, ast.Name):
                continue
            kind = CONSTRUCTORS.get(attr) if owner.id in aliases else DERIVED.get((kinds.get(owner.id, ""), attr))
            if kind is not None:
                kinds[name] = kind
                changed = True
    return kinds
