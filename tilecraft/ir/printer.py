"""The readable text form of the IR (``tilecraft show-ir``).

One line per operation: results, dotted name, operands and attributes, type, and the source
location, with nested bodies indented between braces.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from . import ops as ir
from .program import ProgramIR, ThreadIR
from .types import CBDecl, PipeNetDecl, SemaphoreDecl, TensorDecl

_SKIP = {"result", "outs", "var", "loc"}


def print_program(program: ProgramIR) -> str:
    out = [f"program @{program.name} grid={'x'.join(map(str, program.grid))} {{"]
    for t in program.tensors:
        out.append(f"  tensor %{t.name} : {t.fmt.name}[{'x'.join(map(str, t.shape))}]"
                   f"{'' if t.unit.tiled else ' row-major'}")
    for cb in program.cbs:
        out.append(f"  buffer @{cb.name} : block<{'x'.join(map(str, cb.shape))}, {cb.fmt.name}> "
                   f"x {cb.buffer_factor}  ({cb.total_bytes} B){_loc(cb.span)}")
    for net in program.pipenets:
        out.append(f"  pipenet @pipenet{net.index} = [" + ", ".join(str(p) for p in net.pipes) + "]")
    for sem in program.semaphores:
        out.append(f"  semaphore @{sem.name} = {sem.initial}{_loc(sem.span)}")
    for p in program.params:
        shown = ", ".join(map(str, p.values[:8])) + (", ..." if len(p.values) > 8 else "")
        out.append(f"  param #{p.index} {p.label} per core = [{shown}]")
    for thread in program.threads:
        out += print_thread(thread, indent=1)
    out.append("}")
    return "\n".join(out)


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
    results = op.results()
    head = ", ".join(str(r) for r in results)
    parts = []
    for f in fields(op):
        if f.name in _SKIP or f.metadata.get("region"):
            continue
        value = getattr(op, f.name)
        if value is None or value == () or value == []:
            continue
        parts.append(_show(f.name, value))
    text = f"{head} = {op.name}" if head else op.name
    if parts:
        text += " " + ", ".join(parts)
    if results and not isinstance(op, (ir.For, ir.PipeForEach)):
        text += " : " + ", ".join(str(r.type) for r in results)
    regions = op.regions()
    if isinstance(op, ir.For):
        text = f"scf.for {op.var} = {op.lo} to {op.hi} step {op.step}"
    if isinstance(op, ir.PipeForEach):
        text = f"pipe.foreach_{op.role} {op.var} in {op.net}"
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


def _show(name: str, value: Any) -> str:
    if isinstance(value, (CBDecl, SemaphoreDecl, TensorDecl, PipeNetDecl)):
        return str(value)
    if isinstance(value, (ir.Reg, ir.Const)):
        return str(value)
    if isinstance(value, str):
        return f"{name}={value}"
    if isinstance(value, (list, tuple)):
        return f"{name}=[" + ", ".join(str(v) for v in value) + "]"
    return f"{name}={value}"


def _loc(span: Any) -> str:
    return f"  loc({span})" if span is not None else ""
