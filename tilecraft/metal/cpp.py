"""Kernel-level IR -> C++ source for tt-metal 0.81.1 (``void kernel_main()``).

Each operation prints as one statement; a comment with the user's source line precedes the
statements it produced, and :func:`print_kernel_mapped` also returns that mapping for machines
(C++ line -> source span), which the manifest carries so that diagnostics found in the C++ can
be reported at the TT-Lang line (docs/emulator.md, section 6). Registers are declared where they are assigned when that is their
only assignment and every use is in the same scope; the others are declared at the top.
"""

from __future__ import annotations

import math

import linecache
from collections import defaultdict
from typing import Any

from ..diagnostics import Span
from ..ir import ops as ir
from ..ir.types import BOOL, FLOAT, INDEX
from ..ir.names import Identifiers
from . import kir

_BIN = {"add": "+", "sub": "-", "mul": "*", "floordiv": "/", "mod": "%", "truediv": "/", "lshift": "<<",
        "rshift": ">>", "and": "&", "or": "|", "xor": "^"}
_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
#: how each kind of kernel argument (kir.Arg.source) is read
_ARG_READ = {"rt": "get_arg_val<uint32_t>({index})", "common": "get_common_arg_val<uint32_t>({index})",
             "ct": "get_compile_time_arg_val({index})"}
_PROCESSOR = {"compute": "compute kernel (unpack/math/pack TRISCs)", "riscv_0": "data movement kernel, RISCV_0",
              "riscv_1": "data movement kernel, RISCV_1"}


def ctype(type_: Any) -> str:
    if isinstance(type_, kir.CType):
        return type_.spelling
    return {INDEX: "int32_t", BOOL: "bool", FLOAT: "float"}.get(type_, "uint32_t")


#: identifiers a register must not take in a C++ kernel: the language's keywords, the types and the
#: entry point the printed code names itself (the API functions a kernel calls are added per kernel)
CPP_RESERVED = frozenset("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t
    class compl concept const consteval constexpr constinit const_cast continue co_await co_return
    co_yield decltype default delete do double dynamic_cast else enum explicit export extern false float
    for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or
    or_eq private protected public register reinterpret_cast requires return short signed sizeof static
    static_assert static_cast struct switch template this thread_local throw true try typedef typeid
    typename union unsigned using virtual void volatile wchar_t while xor xor_eq
    int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t std kernel_main
    TensorAccessor TensorAccessorArgs DataFormat BroadcastType ReduceDim PoolType
""".split())


def literal(value: Any) -> str:
    """A constant operand as C++ source."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return '__builtin_nanf("")'
        if math.isinf(value):
            return "__builtin_inff()" if value > 0 else "(-__builtin_inff())"
        return f"{value!r}f"
    if isinstance(value, tuple):
        return "{" + ", ".join(literal(x) for x in value) + "}"
    return str(value)


class KernelPrinter:
    def __init__(self, program: kir.MetalProgram, kernel: kir.Kernel):
        self.program = program
        self.kernel = kernel
        self.lines: list[str] = []
        self.indent = 1
        self.last_loc: tuple[str, int] | None = None
        #: the source span of the operation being printed (an op without one: its enclosing op's)
        self.current: Span | None = None
        #: 1-based C++ line -> the source span of the operation that printed it
        self.spans: dict[int, Span] = {}
        self.inline: set[str] = set()
        self.declared: set[str] = set()
        called = {op.fn for op in ir.walk(kernel.body) if isinstance(op, kir.Call)}
        self.names = Identifiers(reserved=CPP_RESERVED | called).reserve_names(
            r.name for op in ir.walk(kernel.body) for r in (*op.results(), *op.operands()) if isinstance(r, ir.Reg))
        #: the compile-time arguments of each accessor are named after it, <name>_args; by ct offset
        self.accessor_args: dict[int, str] = {}
        for op in ir.walk(kernel.body):
            if isinstance(op, kir.Accessor):
                self.accessor_args[op.ct_offset] = f"{self.names(op.result.name)}_args"
                self.names.reserve(self.accessor_args[op.ct_offset])

    def operand(self, value: Any) -> str:
        if isinstance(value, ir.Reg):
            return self.names(value.name)
        if isinstance(value, kir.SemAddr):  # a Const subclass printed as get_semaphore(id), not its id
            return str(value)
        if isinstance(value, ir.Const):
            return literal(value.value)
        return str(value)

    def print(self) -> str:
        self.plan_declarations()
        k = self.kernel
        header = [f"// Generated by tilecraft: thread '{k.name}' of program '{self.program.name}'",
                  f"// {_PROCESSOR[k.processor]}; target TT-Metalium {kir.METAL_VERSION}, {self.program.arch}",
                  "// Do not edit: regenerate with `tilecraft emit`.", "", "#include <cstdint>"]
        header += [f'#include "{inc}"' for inc in sorted(k.includes)]
        self.lines = header + ["", "void kernel_main() {"]
        predeclared = [r for r in self.registers() if r.name not in self.inline]
        for reg in predeclared:
            self.line(f"{ctype(reg.type)} {self.operand(reg)} = 0;")
            self.declared.add(reg.name)
        self.body(k.body)
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    # ---------------------------------------------------------------- declarations
    def registers(self) -> list[ir.Reg]:
        seen: dict[str, ir.Reg] = {}
        for op in ir.walk(self.kernel.body):
            for r in op.results():
                if not isinstance(op, (kir.Arg, kir.Accessor, kir.Aggregate)):  # declared where made
                    seen.setdefault(r.name, r)
        return list(seen.values())

    def plan_declarations(self) -> None:
        defs: dict[str, list[tuple]] = defaultdict(list)
        uses: dict[str, list[tuple]] = defaultdict(list)

        def visit(body: list[ir.Op], path: tuple) -> None:
            for n, op in enumerate(body):
                for operand_ in op.operands():
                    if isinstance(operand_, ir.Reg):
                        uses[operand_.name].append(path)
                if isinstance(op, (ir.For, ir.While)):
                    inner = path + (id(op),)
                    if isinstance(op, ir.For):
                        defs[op.var.name].append(inner)
                    else:
                        uses[getattr(op.cond, "name", "")].append(inner)
                    for region in op.regions():
                        visit(region, inner + (id(region),))
                    continue
                for r in op.results():
                    defs[r.name].append(path)
                for region in op.regions():
                    visit(region, path + (id(op), id(region)))

        visit(self.kernel.body, ())
        for name, sites in defs.items():
            if len(sites) == 1 and all(u[:len(sites[0])] == sites[0] for u in uses.get(name, [])):
                self.inline.add(name)

    # ---------------------------------------------------------------- statements
    def line(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)
        if self.current is not None:
            self.spans[len(self.lines)] = self.current

    def source_comment(self, op: ir.Op) -> None:
        loc = op.loc
        if loc is None or (loc.file, loc.line) == self.last_loc:
            return
        self.last_loc = (loc.file, loc.line)
        text = linecache.getline(loc.file, loc.line).strip()
        name = loc.file.rsplit("/", 1)[-1]
        self.line(f"// {name}:{loc.line}: {text}" if text else f"// {name}:{loc.line}")

    def body(self, ops: list[ir.Op]) -> None:
        enclosing = self.current
        for op in ops:
            self.current = op.loc or enclosing
            if not isinstance(op, kir.Comment):
                self.source_comment(op)
            getattr(self, f"op_{type(op).__name__}")(op)  # a loop's closing brace too: nested bodies restore it
        self.current = enclosing

    def assign(self, reg: ir.Reg, expr: str) -> None:
        if reg.name in self.inline and reg.name not in self.declared:
            self.declared.add(reg.name)
            self.line(f"{ctype(reg.type)} {self.operand(reg)} = {expr};")
        else:
            self.line(f"{self.operand(reg)} = {expr};")

    def op_Comment(self, op: kir.Comment) -> None:
        self.line(f"// {op.text}")

    def op_Arg(self, op: kir.Arg) -> None:
        t = ctype(op.result.type)
        value = _ARG_READ[op.source].format(index=op.index)
        if t != "uint32_t":
            value = f"static_cast<{t}>({value})"
        qualifier = "constexpr " if op.source == "ct" else ""
        self.line(f"{qualifier}{t} {self.operand(op.result)} = {value};  // {op.label}")
        self.declared.add(op.result.name)

    def op_Aggregate(self, op: kir.Aggregate) -> None:
        template = f"<{', '.join(op.template)}>" if op.template else ""
        fields = ", ".join(self.operand(a) for a in op.args)
        self.line(f"const {op.type_name}{template} {self.operand(op.result)} = {{{fields}}};")
        self.declared.add(op.result.name)

    def op_Accessor(self, op: kir.Accessor) -> None:
        name, args = self.operand(op.result), self.accessor_args[op.ct_offset]
        # the first accessor's arguments follow the kernel's own compile-time words (buffer ids)
        offset = (str(len(self.kernel.compile_args)) if op.ct_offset == 0
                  else f"{self.accessor_args[op.ct_offset - 1]}.next_compile_time_args_offset()")
        self.line(f"constexpr auto {args} = TensorAccessorArgs<{offset}>();")
        self.line(f"const auto {name} = TensorAccessor({args}, {self.operand(op.addr)}, {op.page_bytes});")
        self.declared.add(op.result.name)

    def op_Call(self, op: kir.Call) -> None:
        if op.fn == "__builtin_bit_cast":  # its first argument is a type
            expr = f"__builtin_bit_cast({op.args[0].value}, {self.operand(op.args[1])})"
        elif op.fn in ("noc_x_of", "noc_y_of"):
            base = self.kernel.noc_x_base if op.fn == "noc_x_of" else self.kernel.noc_y_base  # type: ignore[attr-defined]
            expr = f"get_common_arg_val<uint32_t>({base} + {self.operand(op.args[0])})"
        else:
            template = f"<{', '.join(op.template)}>" if op.template else ""
            expr = f"{op.fn}{template}(" + ", ".join(self.operand(a) for a in op.args) + ")"
        if op.result is None:
            self.line(expr + ";")
        else:
            self.assign(op.result, expr)

    def op_Assign(self, op: ir.Assign) -> None:
        self.assign(op.result, self.operand(op.value))

    def op_Binary(self, op: ir.Binary) -> None:
        a, b = self.operand(op.lhs), self.operand(op.rhs)
        if op.op in ("min", "max"):
            expr = f"({a} {'<' if op.op == 'min' else '>'} {b} ? {a} : {b})"
        elif op.op == "pow":
            raise ValueError("integer ** reached the C++ printer")
        elif op.op in ("and", "or") and op.result.type == BOOL:
            expr = f"({a} {'&&' if op.op == 'and' else '||'} {b})"
        else:
            expr = f"{a} {_BIN[op.op]} {b}"
        self.assign(op.result, expr)

    def op_Unary(self, op: ir.Unary) -> None:
        a = self.operand(op.operand)
        expr = {"neg": f"-{a}", "not": f"!{a}", "invert": f"~{a}", "abs": f"({a} < 0 ? -{a} : {a})",
                "int": f"static_cast<int32_t>({a})", "float": f"static_cast<float>({a})",
                "bool": f"static_cast<bool>({a})"}[op.op]
        self.assign(op.result, expr)

    def op_Compare(self, op: ir.Compare) -> None:
        self.assign(op.result, f"{self.operand(op.lhs)} {_CMP[op.op]} {self.operand(op.rhs)}")

    def op_Select(self, op: ir.Select) -> None:
        self.assign(op.result, f"{self.operand(op.cond)} ? {self.operand(op.if_true)} : {self.operand(op.if_false)}")

    def op_For(self, op: ir.For) -> None:
        var = self.operand(op.var)
        decl = f"{ctype(op.var.type)} " if op.var.name in self.inline else ""
        step = op.step.value if isinstance(op.step, ir.Const) else None
        cond = ">" if isinstance(step, int) and step < 0 else "<"
        incr = f"{var}++" if step == 1 else f"{var} += {self.operand(op.step)}"
        self.line(f"for ({decl}{var} = {self.operand(op.lo)}; {var} {cond} {self.operand(op.hi)}; {incr}) {{")
        self.nested(op.body)
        self.line("}")

    def nested(self, ops: list[ir.Op]) -> None:
        self.indent += 1
        self.body(ops)
        self.indent -= 1

    def op_If(self, op: ir.If) -> None:
        self.line(f"if ({self.operand(op.cond)}) {{")
        self.nested(op.then_body)
        if op.else_body:
            self.line("} else {")
            self.nested(op.else_body)
        self.line("}")

    def op_While(self, op: ir.While) -> None:
        self.line("while (true) {")
        self.indent += 1
        self.body(op.cond_body)
        self.line(f"if (!({self.operand(op.cond)})) break;")
        self.body(op.body)
        self.indent -= 1
        self.line("}")

    def op_Break(self, op: ir.Break) -> None:
        self.line("break;")

    def op_Continue(self, op: ir.Continue) -> None:
        self.line("continue;")

    def op_Return(self, op: ir.Return) -> None:
        self.line("return;")


def print_kernel(program: kir.MetalProgram, kernel: kir.Kernel) -> str:
    return KernelPrinter(program, kernel).print()


def print_kernel_mapped(program: kir.MetalProgram, kernel: kir.Kernel) -> tuple[str, dict[int, Span]]:
    """The kernel's C++ and, for each C++ line an operation printed, that operation's source span."""
    printer = KernelPrinter(program, kernel)
    return printer.print(), printer.spans
