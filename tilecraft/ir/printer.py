"""The text form of the IR (``tilecraft show-ir``, ``tilecraft opt``): complete and parseable.

One line per declaration and per operation: results, dotted name, operands and attributes, type,
and the source location, with nested bodies indented between braces. Every field of every
operation is printed, so :func:`tilecraft.ir.parser.parse_program` reads the text back into the
same IR and printing that gives the same text again (the tests check this on every example).

Operand-like fields (registers, constants, declarations) are positional, in field order; every
other field is ``name=value``. Values: ``%reg``, ``@buffer`` / ``@semaphore`` / ``@pipenetN``,
``%tensor[lo+:n, a:b]`` for a tensor slice, Python literals for constants, ``[...]`` for tuples and
lists, ``[a:b, c:d]`` for a core range.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from typing import Any

from ..diagnostics import Span
from . import ops as ir
from .fieldkinds import POSITIONAL, kind_of
from .program_ir import ProgramIR, ThreadIR
from .types import CoreRange, PipeDecl, TensorDecl


def print_program(program: ProgramIR) -> str:
    out = [f"program @{program.name} grid={'x'.join(map(str, program.grid))} {{{_loc(program.span)}"]
    for t in program.tensors:
        out.append(f"  tensor %{t.name} #{t.index} : {t.fmt.name}[{'x'.join(map(str, t.shape))}]"
                   f"{'' if t.unit.tiled else ' row-major'}")
    for cb in program.cbs:
        unit = "" if cb.unit.tiled else ", scalar"
        out.append(f"  buffer @{cb.name} #{cb.index} : block<{'x'.join(map(str, cb.shape))}, {cb.fmt.name}{unit}> "
                   f"x {cb.buffer_factor}  ({cb.total_bytes} B{f', sized {cb.sizing}' if cb.sizing else ''})"
                   f"{_loc(cb.span)}")
    for pipe in _pipes(program):
        arrow = "=>" if pipe.multicast else "->"
        out.append(f"  pipe #{pipe.index} {pipe.src} {arrow} [{', '.join(map(str, pipe.dsts))}]{_loc(pipe.span)}")
    for net in program.pipenets:
        how = f" lands {'in place' if net.direct else 'in landing slots'} {json.dumps(net.landing_reason)}" \
            if net.landing_reason else ""
        out.append(f"  pipenet @pipenet{net.index} = [{', '.join(f'#{p.index}' for p in net.pipes)}]{how}")
    for sem in program.semaphores:
        out.append(f"  semaphore @{sem.name} #{sem.index} = {sem.initial}{_loc(sem.span)}")
    for p in program.params:
        out.append(f"  param #{p.index} {json.dumps(p.label)} = [{', '.join(map(repr, p.values))}]")
    for thread in program.threads:
        out += print_thread(thread, indent=1)
    out.append("}")
    return "\n".join(out)


def _pipes(program: ProgramIR) -> list[PipeDecl]:
    found: dict[int, PipeDecl] = {}
    for net in program.pipenets:
        for pipe in net.pipes:
            found.setdefault(pipe.index, pipe)
    return [found[i] for i in sorted(found)]


def print_thread(thread: ThreadIR, indent: int = 0) -> list[str]:
    pad = "  " * indent
    lines = [f"{pad}{thread.kind} @{thread.name} {{{_loc(thread.span)}"]
    lines += _body(thread.body, indent + 1)
    lines.append(f"{pad}}}")
    return lines


def _body(body: list[ir.Op], indent: int) -> list[str]:
    lines = []
    for op in body:
        lines += print_op(op, indent)
    return lines


def print_op(op: ir.Op, indent: int = 0) -> list[str]:
    pad = "  " * indent
    text = op_text(op)
    regions = op.regions()
    if not regions:
        return [f"{pad}{text}{_loc(op.loc)}"]
    lines = [f"{pad}{text} {{{_loc(op.loc)}"]
    names = [f.name for f in fields(op) if f.metadata.get("region")]
    for i, (name, region) in enumerate(zip(names, regions)):
        if i and not region and name == "else_body":
            continue
        if i:
            lines.append(f"{pad}}} {name} {{")
        lines += _body(region, indent + 1)
    lines.append(f"{pad}}}")
    return lines


def op_text(op: ir.Op) -> str:
    """The operation's line without its location and nested bodies."""
    if isinstance(op, ir.For):
        return f"scf.for {op.var} = {value_text(op.lo)} to {value_text(op.hi)} step {value_text(op.step)}"
    if isinstance(op, ir.PipeForEach):
        return f"pipe.foreach_{op.role} {op.var} in {op.net}"
    results = op.results()
    parts = []
    for f in fields(op):
        kind = kind_of(type(op), f.name)
        value = getattr(op, f.name)
        if kind is None or value is None:
            continue
        if kind in POSITIONAL:
            parts.append(value_text(value))
        elif f.default is MISSING or value != f.default:  # defaults are left out (the parser fills them in)
            parts.append(f"{f.name}={value_text(value)}")
    text = op.name
    if results:
        text = ", ".join(str(r) for r in results) + " = " + text
    if parts:
        text += " " + ", ".join(parts)
    if results:
        text += " : " + ", ".join(str(r.type) for r in results)
    return text


def value_text(value: Any) -> str:
    """One field's value (see the module docstring for the notation)."""
    if isinstance(value, (ir.Reg, ir.TensorIndex, TensorDecl)):
        return str(value)
    if isinstance(value, ir.Const):
        return str(value)  # a number, or a dialect's constant form (``get_semaphore(1)``)
    if isinstance(value, CoreRange):
        return "[" + ", ".join(f"{a}:{b}" for a, b in zip(value.starts, value.stops)) + "]"
    if isinstance(value, str):
        return value if value.isidentifier() else repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_item_text(v) for v in value) + "]"
    if hasattr(value, "index") and str(value).startswith("@"):  # a declaration: buffer, semaphore, pipe net
        return str(value)
    return repr(value)


def _item_text(value: Any) -> str:
    """An element of a list field: strings are always quoted, a tuple is ``(a, b)``."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        return "(" + "".join(f"{_item_text(v)}, " for v in value) + ")"
    return value_text(value)


def _loc(span: Span | None) -> str:
    if span is None:
        return ""
    end = f"-{span.end_col}" if span.end_col is not None else ""
    return f"  loc({span}{end})"
