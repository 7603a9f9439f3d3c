"""Read the text form of the IR (:mod:`.printer`) back into a :class:`ProgramIR`.

``tilecraft opt`` runs passes on IR files, and the tests print every example's IR, parse it and
print it again, which must give the same text: the printed form is the IR, not a summary of it.
A register is one object per name within a thread (registers are mutable: a name assigned in
several places is one register). Lines starting with ``//`` are comments. Errors are
:class:`IRSyntaxError` with the line they are on.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import fields
from typing import Any, Iterator

from ..diagnostics import Span
from ..dtypes import BY_NAME as FORMATS
from . import dialects
from . import ops as ir
from .fieldkinds import (BOOL, CALL_ARGS, CB, CORE, INDEX, INT, INTS, NET, NUMBERS, OPERAND, OPT_REG, POSITIONAL,
                         PRINT_ARGS, RANGE, REG, SEM, STR, TEMPLATE, TENSOR, kind_of)
from .program_ir import ParamDecl, ProgramIR, ThreadIR, ThreadKind
from .types import (BOOL as BOOL_T, FLOAT, GROUP, INDEX as INDEX_T, SCALAR_UNIT, TILE_UNIT, XFER, BlockType, CBDecl,
                    CoreRange, PipeDecl, PipeNetDecl, PipeType, SemaphoreDecl, TensorDecl, Type)


class IRSyntaxError(ValueError):
    """Text that is not IR; the message says where (``line N: ...``)."""


_TOKEN = re.compile(r"""
    (?P<reg>%[\w.]+) | (?P<sym>@[\w.]+) | (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*") |
    (?P<num>-?(?:inf|nan|\d+(?:\.\d*)?(?:e[-+]?\d+)?)) | (?P<name>[A-Za-z_][\w.]*) |
    (?P<punct>\+:|[\[\](),=:]) | (?P<space>\s+)
""", re.VERBOSE)
_LOC = re.compile(r"\s+loc\((?P<file>.+):(?P<line>\d+):(?P<col>\d+)(?:-(?P<end>\d+))?\)$")
_SIMPLE_TYPES: dict[str, Type] = {"index": INDEX_T, "i1": BOOL_T, "f32": FLOAT, "xfer": XFER, "xfer_group": GROUP}


def parse_program(text: str) -> ProgramIR:
    """The program printed as ``text`` by :func:`tilecraft.ir.printer.print_program`."""
    return _Parser(text).program()


class _Parser:
    def __init__(self, text: str):
        self.lines = [(n, line) for n, line in enumerate(text.splitlines(), 1)
                      if line.strip() and not line.lstrip().startswith("//")]  # comments: // ...
        self.pos = 0
        self.tensors: dict[str, TensorDecl] = {}
        self.cbs: dict[str, CBDecl] = {}
        self.sems: dict[str, SemaphoreDecl] = {}
        self.pipes: dict[int, PipeDecl] = {}
        self.nets: dict[str, PipeNetDecl] = {}
        self.regs: dict[str, ir.Reg] = {}

    # ---------------------------------------------------------------- structure
    def fail(self, message: str) -> IRSyntaxError:
        """An error at the line read last."""
        line = self.lines[max(0, min(self.pos, len(self.lines)) - 1)][0] if self.lines else 0
        return IRSyntaxError(f"line {line}: {message}")

    def next_line(self) -> tuple[str, Span | None]:
        if self.pos >= len(self.lines):
            raise self.fail("unexpected end of the IR")
        text = self.lines[self.pos][1].strip()
        self.pos += 1
        match = _LOC.search(text)
        if match is None:
            return text, None
        span = Span(match["file"], int(match["line"]), int(match["col"]), int(match["end"]) if match["end"] else None)
        return text[:match.start()], span

    def program(self) -> ProgramIR:
        head, span = self.next_line()
        match = re.fullmatch(r"program @(\S+) grid=([\dx]+) \{", head)
        if match is None:
            raise self.fail("expected 'program @name grid=AxB {'")
        program = ProgramIR(name=match[1], grid=tuple(int(g) for g in match[2].split("x")), span=span)
        while True:
            text, span = self.next_line()
            if text == "}":
                return program
            keyword = text.split(" ", 1)[0]
            if keyword in tuple(ThreadKind):
                program.threads.append(self.thread(text, span))
            else:
                getattr(self, f"decl_{keyword}", self.unknown_decl)(program, text, span)

    def unknown_decl(self, program: ProgramIR, text: str, span: Span | None) -> None:
        raise self.fail(f"unknown declaration: {text!r}")

    def decl_tensor(self, program: ProgramIR, text: str, span: Span | None) -> None:
        m = self.match(r"tensor %(\S+) #(\d+) : (\w+)\[([\dx]*)\]( row-major)?", text)
        decl = TensorDecl(int(m[2]), m[1], _dims(m[4]), self.format(m[3]), SCALAR_UNIT if m[5] else TILE_UNIT)
        self.tensors[decl.name] = decl
        program.tensors.append(decl)

    def decl_buffer(self, program: ProgramIR, text: str, span: Span | None) -> None:
        m = self.match(r"buffer @(\S+) #(\d+) : block<([\dx]+), (\w+)(, scalar)?> x (\d+)  "
                       r"\(\d+ B(?:, sized ([^()]+))?\)", text)
        cb = CBDecl(int(m[2]), m[1], _dims(m[3]), self.format(m[4]), SCALAR_UNIT if m[5] else TILE_UNIT,
                    int(m[6]), span, m[7])
        self.cbs[cb.name] = cb
        program.cbs.append(cb)

    def decl_pipe(self, program: ProgramIR, text: str, span: Span | None) -> None:
        m = self.match(r"pipe #(\d+) (\([\d, ]*\)) (->|=>) \[(.*)\]", text)
        dsts = tuple(ast.literal_eval(f"[{m[4]}]"))
        self.pipes[int(m[1])] = PipeDecl(int(m[1]), ast.literal_eval(m[2]), dsts, m[3] == "=>", span)

    def decl_pipenet(self, program: ProgramIR, text: str, span: Span | None) -> None:
        m = self.match(r'pipenet @pipenet(\d+) = \[([^\]]*)\](?: lands (in place|in landing slots) (".*"))?', text)
        try:
            pipes = tuple(self.pipes[int(i)] for i in re.findall(r"#(\d+)", m[2]))
        except KeyError as exc:
            raise self.fail(f"pipe #{exc.args[0]} is not declared") from None
        net = PipeNetDecl(int(m[1]), pipes)
        if m[3] is not None:  # the verdict of the proof of landing in place (sim/language/direct_landing.py)
            net.direct, net.landing_reason = m[3] == "in place", json.loads(m[4])
        self.nets[f"pipenet{net.index}"] = net
        program.pipenets.append(net)

    def decl_semaphore(self, program: ProgramIR, text: str, span: Span | None) -> None:
        m = self.match(r"semaphore @(\S+) #(\d+) = (\d+)", text)
        sem = SemaphoreDecl(int(m[2]), m[1], int(m[3]), span)
        self.sems[sem.name] = sem
        program.semaphores.append(sem)

    def decl_param(self, program: ProgramIR, text: str, span: Span | None) -> None:
        m = self.match(r'param #(\d+) ("(?:[^"\\]|\\.)*") = \[(.*)\]', text)
        program.params.append(ParamDecl(int(m[1]), json.loads(m[2]), tuple(ast.literal_eval(f"[{m[3]}]"))))

    def match(self, pattern: str, text: str) -> re.Match:
        m = re.fullmatch(pattern, text)
        if m is None:
            raise self.fail(f"cannot read {text!r}")
        return m

    def format(self, name: str) -> Any:
        if name not in FORMATS:
            raise self.fail(f"unknown data format {name!r}")
        return FORMATS[name]

    def thread(self, text: str, span: Span | None) -> ThreadIR:
        m = self.match(rf"({'|'.join(ThreadKind)}) @(\S+) \{{", text)
        self.regs = {}
        body = self.body()
        if self.next_line()[0] != "}":
            raise self.fail("expected '}' at the end of the thread")
        return ThreadIR(name=m[2], kind=ThreadKind(m[1]), body=body, span=span)

    def body(self) -> list[ir.Op]:
        """Operations up to the closing brace of the enclosing region (consumed)."""
        ops: list[ir.Op] = []
        while True:
            text, span = self.next_line()
            if text == "}" or re.fullmatch(r"\} \w+ \{", text):
                self.pos -= 1
                return ops
            op = self.operation(text)
            op.loc = span
            ops.append(op)

    def regions(self, op: ir.Op, opens: bool) -> None:
        """The bodies of a structured op: ``{`` body ``} name {`` body ... ``}``."""
        names = [f.name for f in fields(op) if f.metadata.get("region")]
        if not opens:
            raise self.fail(f"{op.name} needs a body")
        for i, name in enumerate(names):
            if i:
                text, _ = self.next_line()
                if text == "}":  # an omitted trailing region (an if without else)
                    return
                if text != f"}} {name} {{":
                    raise self.fail(f"expected '}} {name} {{', got {text!r}")
            getattr(op, name)[:] = self.body()
        text, _ = self.next_line()
        if text != "}":
            raise self.fail(f"expected '}}', got {text!r}")

    # ---------------------------------------------------------------- operations
    def operation(self, text: str) -> ir.Op:
        opens = text.endswith(" {")
        text = text[:-2] if opens else text
        if text.startswith("scf.for "):
            return self.for_loop(text, opens)
        if text.startswith("pipe.foreach_"):
            return self.pipe_loop(text, opens)
        if text.startswith("scf.while "):
            return self.while_loop(text, opens)
        results, rest = _split_results(text)
        rest, result_types = _split_types(rest)
        name, _, args_text = rest.partition(" ")
        cls = dialects.op_class(name)
        if cls is None:
            raise self.fail(f"unknown operation {name!r}")
        values = self.arguments(cls, args_text)
        result_fields = [f.name for f in fields(cls) if f.name in ("result", "outs")]
        if results:
            if len(results) != len(result_types):
                raise self.fail(f"{len(results)} results but {len(result_types)} types")
            regs = [self.define(r, self.type(t)) for r, t in zip(results, result_types)]
            if not result_fields:
                raise self.fail(f"{name} has no result")
            values[result_fields[0]] = regs if result_fields[0] == "outs" else regs[0]
        try:
            op = cls(**values)
        except TypeError as exc:
            raise self.fail(f"{name}: {exc}") from None
        if op.regions():
            self.regions(op, opens)
        return op

    def arguments(self, cls: type, text: str) -> dict[str, Any]:
        """Positional operands (in field order) and ``name=value`` attributes of one op."""
        tokens = _Tokens(text, self)
        positional = [f.name for f in fields(cls) if kind_of(cls, f.name) in POSITIONAL]
        values: dict[str, Any] = {}
        while not tokens.done():
            if tokens.peek_kind() == "name" and tokens.peek(1) == "=":
                key = tokens.take()
                tokens.expect("=")
                kind = kind_of(cls, key) if key in {f.name for f in fields(cls)} else None
                if kind is None:
                    raise self.fail(f"{cls.name} has no attribute {key!r}")
                values[key] = tokens.value(kind)
            else:
                free = [n for n in positional if n not in values]
                if not free:
                    raise self.fail(f"too many operands for {cls.name}")
                values[free[0]] = tokens.value(kind_of(cls, free[0]))
            if not tokens.done():
                tokens.expect(",")
        return values

    def for_loop(self, text: str, opens: bool) -> ir.For:
        m = self.match(r"scf\.for (%[\w.]+) = (\S+) to (\S+) step (\S+)", text)
        var = self.define(m[1], INDEX_T)
        op = ir.For(var=var, lo=self.operand_text(m[2]), hi=self.operand_text(m[3]), step=self.operand_text(m[4]))
        self.regions(op, opens)
        return op

    def while_loop(self, text: str, opens: bool) -> ir.While:
        """``scf.while %c { cond_body } body { body }``: the condition is defined in ``cond_body``,
        after the head that names it, so it is read once that region is."""
        m = self.match(r"scf\.while (\S+)", text)
        op = ir.While(cond=ir.Const(True))
        self.regions(op, opens)
        op.cond = self.operand_text(m[1])
        return op

    def pipe_loop(self, text: str, opens: bool) -> ir.PipeForEach:
        m = self.match(r"pipe\.foreach_(src|dst) (%[\w.]+) in @(\S+)", text)
        net = self.nets.get(m[3])
        if net is None:
            raise self.fail(f"unknown pipe net @{m[3]}")
        op = ir.PipeForEach(role=m[1], net=net, var=self.define(m[2], PipeType(net.index)))
        self.regions(op, opens)
        return op

    def operand_text(self, text: str) -> ir.Operand:
        return _Tokens(text, self).value(OPERAND)

    # ---------------------------------------------------------------- registers and types
    def define(self, text: str, type_: Type) -> ir.Reg:
        """The register named ``text`` (one object per name in a thread), with its type."""
        name = text[1:]
        reg = self.regs.get(name)
        if reg is None:
            reg = self.regs[name] = ir.Reg(name, type_)
        return reg

    def use(self, text: str) -> ir.Reg:
        reg = self.regs.get(text[1:])
        if reg is None:
            raise self.fail(f"register {text} is used before it is defined")
        return reg

    def type(self, text: str) -> Type:
        text = text.strip()
        if text in _SIMPLE_TYPES:
            return _SIMPLE_TYPES[text]
        m = re.fullmatch(r"(block|expr|local)<([\dx]+), (\w+)(, scalar)?>", text)
        if m is not None:
            return BlockType(_dims(m[2]), self.format(m[3]), SCALAR_UNIT if m[4] else TILE_UNIT,
                             expr=m[1] == "expr", local=m[1] == "local")
        m = re.fullmatch(r"pipe<net(\d+)>", text)
        if m is not None:
            return PipeType(int(m[1]))
        registered = dialects.register_type(text)
        if registered is not None:
            return registered
        raise self.fail(f"unknown type {text!r}")


class _Tokens:
    """The tokens of an operation's operand list, read as values of the field kinds."""

    def __init__(self, text: str, parser: _Parser):
        self.parser = parser
        self.items: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise parser.fail(f"cannot read {text[pos:]!r}")
            pos = m.end()
            if m.lastgroup != "space":
                self.items.append((m.lastgroup, m.group()))
        self.i = 0

    def done(self) -> bool:
        return self.i >= len(self.items)

    def peek(self, ahead: int = 0) -> str | None:
        i = self.i + ahead
        return self.items[i][1] if i < len(self.items) else None

    def peek_kind(self) -> str | None:
        return self.items[self.i][0] if self.i < len(self.items) else None

    def take(self) -> str:
        if self.done():
            raise self.parser.fail("unexpected end of the operands")
        self.i += 1
        return self.items[self.i - 1][1]

    def expect(self, text: str) -> None:
        got = self.take()
        if got != text:
            raise self.parser.fail(f"expected {text!r}, got {got!r}")

    # ---------------------------------------------------------------- values by kind
    def value(self, kind: str | None) -> Any:
        if kind in (REG, OPT_REG):
            return self.parser.use(self.take())
        if kind == OPERAND:
            return self.operand()
        if kind in (CB, SEM, NET):
            table = {CB: self.parser.cbs, SEM: self.parser.sems, NET: self.parser.nets}[kind]
            name = self.take()[1:]
            if name not in table:
                raise self.parser.fail(f"unknown {kind} @{name}")
            return table[name]
        if kind == STR:
            text = self.take()
            return ast.literal_eval(text) if text[0] in "'\"" else text
        if kind in (INT, BOOL):
            return ast.literal_eval(self.take())
        if kind in (INTS, NUMBERS, TEMPLATE):
            return tuple(self.sequence(lambda: ast.literal_eval(self.take())))
        if kind == CALL_ARGS:
            return list(self.sequence(self.operand))
        if kind == CORE:
            return tuple(self.sequence(self.operand))
        if kind == RANGE:
            bounds = list(self.sequence(self.span_pair))
            return CoreRange(tuple(a for a, _ in bounds), tuple(b for _, b in bounds))
        if kind == INDEX:
            return self.tensor_index()
        if kind == TENSOR:
            return self.tensor()
        if kind == PRINT_ARGS:
            return list(self.sequence(self.print_item))
        raise self.parser.fail(f"cannot read a value of kind {kind!r}")

    def operand(self) -> ir.Operand:
        kind, text = self.peek_kind(), self.peek()
        if kind == "reg":
            return self.parser.use(self.take())
        if kind in ("num", "str") or text in ("True", "False", "None"):
            self.take()
            return ir.Const(float(text) if text in ("inf", "-inf", "nan") else ast.literal_eval(text))
        constant = dialects.constant_class(text) if kind == "name" and self.peek(1) == "(" else None
        if constant is not None:  # a dialect's constant form: call(value)
            self.take()
            self.expect("(")
            value = ast.literal_eval(self.take())
            self.expect(")")
            return constant(value)
        raise self.parser.fail(f"expected an operand, got {text!r}")

    def sequence(self, item: Any, close: str = "]") -> Iterator[Any]:
        self.expect("[" if close == "]" else "(")
        while self.peek() != close:
            yield item()
            if self.peek() == ",":
                self.take()
        self.take()

    def span_pair(self) -> tuple[int, int]:
        a = int(self.take())
        self.expect(":")
        return a, int(self.take())

    def print_item(self) -> Any:
        if self.peek() == "(":
            return tuple(self.sequence(self.print_item, close=")"))
        if self.peek_kind() == "reg":
            return self.parser.use(self.take())
        return ast.literal_eval(self.take())

    def tensor(self) -> TensorDecl:
        name = self.take()[1:]
        tensor = self.parser.tensors.get(name)
        if tensor is None:
            raise self.parser.fail(f"unknown tensor %{name}")
        return tensor

    def tensor_index(self) -> ir.TensorIndex:
        tensor = self.tensor()
        bounds, extents = [], []
        self.expect("[")
        while self.peek() != "]":
            lo = self.operand()
            if self.peek() == "+:":
                self.take()
                bounds.append((lo, None))
                extents.append(int(self.take()))
            else:
                self.expect(":")
                hi = self.operand()
                static = isinstance(lo, ir.Const) and isinstance(hi, ir.Const)
                bounds.append((lo, None if static else hi))
                extents.append(hi.value - lo.value if static else None)
            if self.peek() == ",":
                self.take()
        self.take()
        return ir.TensorIndex(tensor=tensor, bounds=bounds, static_extents=tuple(extents))


def _split_results(text: str) -> tuple[list[str], str]:
    """``%a, %b = name ...`` -> (["%a", "%b"], "name ...")."""
    m = re.match(r"((?:%[\w.]+)(?:, %[\w.]+)*) = ", text)
    if m is None:
        return [], text
    return m[1].split(", "), text[m.end():]


def _split_types(text: str) -> tuple[str, list[str]]:
    """The operands and the result types after the last `` : `` outside brackets and quotes."""
    depth, quote, cut = 0, "", -1
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[(<":
            depth += 1
        elif ch in "])>":
            depth -= 1
        elif depth == 0 and text.startswith(" : ", i):
            cut = i
    if cut < 0:
        return text, []
    types, depth, current = [], 0, ""
    for ch in text[cut + 3:]:
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            types.append(current.strip())
            current = ""
        else:
            current += ch
    types.append(current.strip())
    return text[:cut], types


def _dims(text: str) -> tuple[int, ...]:
    return tuple(int(d) for d in text.split("x")) if text else ()
