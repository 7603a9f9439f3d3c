"""``tilecraft show-threads`` on a TileLang script: a standalone explicit-thread TT-Lang program.

For a TT-Lang script, show-threads replaces each single-threaded operation by the threads the
compiler made of it (``frontend/single_thread.graduated_script``). A TileLang script has more
around its kernel: ``@T.prim_func`` (a translation, not a function to run), usually inside a
``@tilelang.jit(out_idx=...)`` factory whose result the script calls with torch tensors. So the
printed program replaces

* the ``@T.prim_func`` function by the explicit-thread operation (renamed ``NAME_threads``) and a
  plain Python function ``NAME`` that does what the prim_func's launch did: torch tensors to the
  simulated device in the declared dtypes, the operation, the stored tensors back (with
  ``out_idx``: the outputs allocated and returned, as the jit kernel does);
* the ``@jit(...)`` decorator by nothing (the factory now returns that function);
* the ``tilecraft.tilelang`` imports, when nothing else uses them, by ``import tilecraft as ttl``
  and ``import tilecraft.ttnn as ttnn``.

Everything else -- the factory's parameters and statements, the host code that builds the inputs
and checks the result -- is the user's text, unchanged, so the program runs as the script did and
gives the same bits. Like every show-threads output it is specialised to the first launch.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ir.program_ir import GeneratedThreads

if TYPE_CHECKING:
    from .kernel import PrimFunc

#: the prim_func launched last at each (file, line of its ``def``) in this process: one entry per
#: kernel written (a script's globals may be gone by the time show-threads prints, so not weak)
_launched: "dict[tuple[str, int], PrimFunc]" = {}


def record_launch(func: "PrimFunc") -> None:
    """Remember a launched prim_func, so show-threads can print its launch."""
    _launched[(func.file, func.source.node.lineno)] = func


@dataclass
class Replacement:
    """Lines ``first``..``last`` of the script replaced by ``text`` (its lines, indented already)."""

    first: int
    last: int
    text: list[str]


def replacements(generated: list[GeneratedThreads]) -> list[Replacement]:
    """What replaces each launched prim_func (and its jit decorator) in the printed script."""
    out: list[Replacement] = []
    for g in generated:
        func = _launched.get((g.file, g.first_line))
        if func is None:
            continue
        node = func.source.node
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        lines = open(g.file, encoding="utf-8").read().splitlines()
        indent = lines[first - 1][:len(lines[first - 1]) - len(lines[first - 1].lstrip())]
        threads = g.text.replace(f"def {g.operation}(", f"def {g.operation}_threads(", 1)
        head = (f"# the threads tilecraft generated for the TileLang kernel {g.operation}() "
                f"({'x'.join(map(str, g.blocks))} output blocks{f' of {g.over}' if g.over else ''}), and its launch")
        text = [head, *threads.splitlines(), "", *_launch(func, g.operation).splitlines()]
        out.append(Replacement(first, node.end_lineno or node.lineno, [indent + t if t else "" for t in text]))
        factory = func.factory_node
        if factory is not None:
            for d in factory.decorator_list:  # @jit(...): the factory now returns the launch itself
                out.append(Replacement(d.lineno, d.end_lineno or d.lineno, []))
    return out


def _launch(func: "PrimFunc", name: str) -> str:
    """The plain function that launches the operation as the prim_func (or its jit kernel) did."""
    params = func.params
    outputs = set(func.out_idx or ())
    inputs = [p.name for i, p in enumerate(params) if i not in outputs]
    device = {p.name: f"{p.name}_device" for p in params}
    what = ("the inputs to the simulated device, the outputs allocated there and returned"
            if func.out_idx is not None else "torch tensors to the simulated device and the stored ones back")
    body = [f'"""The launch of {name}(): {what}."""']
    if func.out_idx is None:
        body += [f"if not all(isinstance(t, torch.Tensor) for t in ({', '.join(p.name for p in params)},)):",
                 f"    return {name}_threads({', '.join(p.name for p in params)})"]
    for i, p in enumerate(params):
        if i in outputs:
            body.append(f"{p.name} = torch.zeros({p.shape!r}, dtype=torch.{p.dtype})")
    for p in params:
        body.append(f"{device[p.name]} = ttnn.from_torch({p.name}.to(torch.{p.dtype}), dtype=ttnn.{p.dtype}, "
                    "layout=ttnn.TILE_LAYOUT)")
    body.append(f"{name}_threads({', '.join(device[p.name] for p in params)})")
    for p in params:
        if p.name in func.stores:
            body.append(f"{p.name}.copy_(ttnn.to_torch({device[p.name]}).to({p.name}.dtype))")
    if func.out_idx is not None:
        returned = [params[i].name for i in func.out_idx]
        body.append(f"return {returned[0] if len(returned) == 1 else '[' + ', '.join(returned) + ']'}")
    return f"def {name}({', '.join(inputs if func.out_idx is not None else [p.name for p in params])}):\n" + \
        "".join(f"    {line}\n" for line in body)


def standalone_imports(text: str) -> str:
    """``text`` with its unused ``tilecraft.tilelang`` imports replaced by the language's and ttnn's."""
    tree = ast.parse(text)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    lines = text.splitlines(keepends=True)
    tilelang = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom)) and _imports_tilelang(s)]
    if not tilelang:
        return text
    needed = [f"{line}\n" for line, name in (("import torch", "torch"), ("import tilecraft as ttl", "ttl"),
                                            ("import tilecraft.ttnn as ttnn", "ttnn"))
              if not _binds(tree, name)]
    for stmt in reversed(tilelang):
        bound = {(a.asname or a.name).split(".")[0] for a in stmt.names}
        keep = bound & used
        lines[stmt.lineno - 1:stmt.end_lineno] = [] if not keep else lines[stmt.lineno - 1:stmt.end_lineno]
    at = tilelang[0].lineno - 1
    lines[at:at] = needed
    return "".join(lines)


def _imports_tilelang(stmt: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(stmt, ast.ImportFrom):
        return (stmt.module or "").startswith("tilecraft.tilelang") or \
            (stmt.module == "tilecraft" and any(a.name == "tilelang" for a in stmt.names))
    return any(a.name.startswith("tilecraft.tilelang") for a in stmt.names)


def _binds(tree: ast.Module, name: str) -> bool:
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) and not _imports_tilelang(stmt):
            if any((a.asname or a.name.split(".")[0]) == name for a in stmt.names):
                return True
    return False
