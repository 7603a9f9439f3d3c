"""Calls in PyKernel kernels: Metalium kernel API calls, checked against the 0.81.1 signatures.

A call ``name(args)`` (or ``name[template args](args)``) is looked up in the API table of the
kernel's kind (:mod:`.api`); the arguments pick an overload by count and kind, exactly as C++
would accept them, and the call becomes one ``metal.call`` operation. A name that is not API is
diagnosed at the call: a name 0.81.1 removed (with its replacement), an API of the other kind of
kernel, a Python function (kernels call no Python), or an unknown name (with the nearest API
names). A few PyKernel forms are not C++ functions and are built here: ``TensorAccessorArgs``,
``TensorAccessor``, ``get_interleaved_addr_gen_fast`` and ``get_compile_time_arg_val``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Callable

from ..diagnostics import did_you_mean
from ..ir import ops as ir
from ..metal import kir
from . import api
from .kernel_names import (INT_TYPES, MISSING, EnumValue, Obj, StringValue, TypeName, describe, is_float_const, is_int,
                     is_pointer)

#: compile-time arguments an interleaved TensorAccessorArgs reads in 0.81.1: the config flags and
#: the aligned page size
ACCESSOR_CT_ARGS = 2
_OBJECT_TYPES = {"TensorAccessorArgs": kir.CType("constexpr auto"), "TensorAccessor": kir.CType("const auto")}


@dataclass
class _Shaped:
    """One overload with the call's arguments laid out for it."""

    overload: api.Overload
    args: list
    template: list
    explicit: list[api.Param]

    def templates_fit(self) -> bool:
        if self.explicit and self.explicit[0].kind == api.TYPE and not self.template:
            return True  # get_arg_val(i): the type defaults to uint32_t
        return self.overload.template_required <= len(self.template) <= len(self.explicit)


def _shape(overload: api.Overload, args: list, template: list) -> _Shaped:
    explicit = [p for p in overload.template if p.kind != "deduced"]
    given_args, given_template = list(args), list(template)
    if explicit and explicit[0].kind == api.TYPE and len(given_template) < len(explicit) \
            and given_args and isinstance(given_args[0], TypeName):
        given_template.insert(0, given_args.pop(0))  # get_arg_val(int, 0): the published spelling
    return _Shaped(overload, given_args, given_template, explicit)


class CallMixin:
    """``expr_Call`` and the API-call machinery of the kernel compiler."""

    def expr_Call(self, node: ast.Call, discard: bool = False) -> Any:
        func, template_nodes = node.func, ()
        if isinstance(func, ast.Subscript):
            template_nodes = func.slice.elts if isinstance(func.slice, ast.Tuple) else (func.slice,)
            func = func.value
        if not isinstance(func, ast.Name):
            self.fail("E0601", "only calls of kernel API functions by name are supported in a PyKernel kernel",
                      node, hint="call the free API functions (get_noc_addr(id, accessor), ...)")
        name = func.id
        if node.keywords:
            self.fail("E0601", f"keyword arguments in the call of {name}(): the kernel API takes positional "
                      "arguments only", node.keywords[0].value)
        special = _SPECIAL.get(name)
        if special is not None and not template_nodes:
            return special(self, node)
        if name in self.scope:
            self.fail("E0604", f"'{name}' is a variable of the kernel, not a function", func)
        overloads = api.overloads(name, self.interface.kind)
        if not overloads:
            self.not_api(name, func)
        args = [self.expr(a) for a in node.args]
        template = [self.expr(t) for t in template_nodes]
        overload, args, template_text = self.choose(name, overloads, args, template, node)
        self.kernel.includes.add(overload.header)
        result = None if discard or overload.returns == "void" else self.reg("t", self.result_type(overload,
                                                                                                   template_text))
        self.emit(kir.Call(result=result, fn=name, args=args, template=tuple(template_text)))
        if result is not None:
            self.temps.add(id(result))
        return result

    # ---------------------------------------------------------------- names that are not API
    def not_api(self, name: str, node: ast.AST) -> None:
        kind = self.interface.kind
        replacement = api.removed(name)
        if replacement is not None:
            self.fail("E0603", f"'{name}' was removed in TT-Metalium 0.81.1", node, hint=f"use {replacement}")
        other = api.other_kind(name, kind)
        if other is not None:
            self.fail("E0609", f"'{name}' is {api.KIND_NAMES[other]} kernel API; '{self.kernel.name}' is a "
                      f"{api.KIND_NAMES[kind]} kernel", node,
                      hint="move the call to a kernel of that kind (compute calls run on the compute RISC-Vs, "
                           "NoC calls on the data-movement ones)")
        if name == "print":
            self.fail("E0604", "print() is not supported in PyKernel kernels yet", node,
                      hint="device printing is not part of what tilecraft runs for PyKernel kernels")
        if self.host_value(name) is not MISSING:
            self.fail("E0604", f"call of the Python function '{name}': a kernel calls the Metalium kernel API only",
                      node, hint="kernels cannot call Python helpers or builtins; write the computation inline")
        hint = did_you_mean(name, api.names(kind)) or \
            "check the name against the TT-Metalium 0.81.1 kernel API (docs/pykernel.md)"
        self.fail("E0605", f"unknown API call '{name}': not part of the TT-Metalium 0.81.1 {api.KIND_NAMES[kind]} "
                  "kernel API",
                  node, hint=hint)

    # ---------------------------------------------------------------- overloads
    def choose(self, name: str, overloads: tuple[api.Overload, ...], args: list, template: list,
               node: ast.Call) -> tuple[api.Overload, list, list[str]]:
        """The first overload the arguments fit (counts, then kinds), with the arguments converted
        and the template arguments spelled; a located diagnostic when none fits."""
        shaped = [_shape(o, args, template) for o in overloads]
        by_args = [s for s in shaped if s.overload.required <= len(s.args) <= len(s.overload.params)]
        if not by_args:
            self.wrong_count(name, "", [(s.overload.required, len(s.overload.params)) for s in shaped],
                             len(args), node, overloads)
        counted = [s for s in by_args if s.templates_fit()]
        if not counted:
            self.wrong_count(name, "template ", [(s.overload.template_required, len(s.explicit)) for s in by_args],
                             len(template), node, overloads, hint=f"write template arguments as {name}[A, B](...)")
        problems = []
        for shape in counted:
            problem = self.mismatch(shape.overload, shape.args, shape.template, shape.explicit, node)
            if problem is None:
                converted = [self.convert(p, a) for p, a in zip(shape.overload.params, shape.args)]
                return shape.overload, converted, self.template_text(shape.explicit, shape.template)
            problems.append(problem)
        code, message, where = problems[0]
        self.fail(code, f"{name}(): {message}", where,
                  hint="TT-Metalium 0.81.1 declares " + "; ".join(s.overload.render() for s in counted))

    def wrong_count(self, name: str, what: str, ranges: list[tuple[int, int]], given: int, node: ast.Call,
                    overloads: tuple[api.Overload, ...], hint: str = "") -> None:
        takes = " or ".join(sorted({str(lo) if lo == hi else f"{lo} to {hi}" for lo, hi in ranges}))
        plural = "s" if takes != "1" else ""
        self.fail("E0606", f"{name}() takes {takes} {what}argument{plural}, but {given} "
                  f"{'was' if given == 1 else 'were'} given", node,
                  hint=(hint + "; " if hint else "") + "TT-Metalium 0.81.1 declares "
                  + "; ".join(o.render() for o in overloads))

    def mismatch(self, overload: api.Overload, args: list, template: list, explicit: list,
                 node: ast.Call) -> tuple[str, str, ast.AST] | None:
        arg_nodes = node.args[len(node.args) - len(args):]  # get_arg_val(int, i): the type was moved
        for i, (param, value) in enumerate(zip(overload.params, args)):
            if not self.fits(param.kind, value):
                where = arg_nodes[i] if i < len(arg_nodes) else node
                if is_float_const(value) and param.kind in (api.INT, api.BOOL):
                    return "E0608", f"argument {i + 1} is a float, but the API takes an integer ({param.ctype})", where
                return "E0607", f"argument {i + 1} is {describe(value)}, but the API takes {param.ctype}", where
        for i, (param, value) in enumerate(zip(explicit, template)):
            if not self.fits_template(param, value):
                return "E0607", f"template argument {i + 1} is {describe(value)}, but the API takes {param.ctype}", node
        return None

    def fits(self, kind: str, value: Any) -> bool:
        if kind in (api.INT, api.BOOL):
            return is_int(value)
        if kind == api.FLOAT:
            return is_int(value) or is_float_const(value)
        if kind == api.POINTER:
            return is_pointer(value) or is_int(value)  # an L1 address: cast to the pointer type
        if kind == api.STRING:
            return isinstance(value, StringValue)
        if kind.startswith("enum:"):
            enum = kind.split(":", 1)[1]
            return (isinstance(value, EnumValue) and value.enum == enum) or (
                isinstance(value, ir.Reg) and isinstance(value.type, kir.CType) and value.type.spelling == enum)
        if kind.startswith("object:"):
            cls = kind.split(":", 1)[1]
            return isinstance(value, Obj) and value.cls != "TensorAccessorArgs" and cls in (value.cls, "AddrGen")
        return False

    def fits_template(self, param: api.Param, value: Any) -> bool:
        if param.kind == api.TYPE:
            return isinstance(value, TypeName)
        if param.kind in (api.INT, api.BOOL):
            return isinstance(value, ir.Const) and isinstance(value.value, (bool, int))
        return self.fits(param.kind, value)

    def convert(self, param: api.Param, value: Any) -> ir.Operand:
        """An argument as an operand of the call (objects by their register, enums and strings as
        their C++ spelling, an L1 address cast to the semaphore pointer type)."""
        if isinstance(value, Obj):
            return value.reg
        if isinstance(value, EnumValue):
            return ir.Const(value.cpp)
        if isinstance(value, StringValue):
            return ir.Const('"' + value.text.replace("\\", "\\\\").replace('"', '\\"') + '"')
        if param.kind == api.POINTER and not is_pointer(value):
            ptr = self.reg("ptr", kir.SEM_PTR)
            self.emit(kir.Call(result=ptr, fn="reinterpret_cast", args=[value], template=(kir.SEM_PTR.spelling,)))
            return ptr
        return value

    def template_text(self, explicit: list[api.Param], given: list) -> list[str]:
        text = []
        for param, value in zip(explicit, given):
            if isinstance(value, TypeName):
                text.append(value.spelling)
            elif isinstance(value, EnumValue):
                text.append(value.cpp)
            elif isinstance(value.value, bool):
                text.append("true" if value.value else "false")
            else:
                text.append(str(value.value))
        if explicit and explicit[0].kind == api.TYPE and not given:
            text.append("uint32_t")  # get_arg_val(0): a runtime argument is a uint32_t word
        return text

    def result_type(self, overload: api.Overload, template: list[str]) -> Any:
        returns = overload.returns
        if returns == "T" and template:
            returns = template[0]
        if returns == "DataFormat":
            return kir.CType("DataFormat")
        found = INT_TYPES.get(returns.split("::")[-1])
        if found is None:
            self.fail("E0601", f"{overload.name}() returns {returns}, which a PyKernel kernel cannot hold")
        return found

    # ---------------------------------------------------------------- PyKernel forms that are not C++ functions
    def constant(self, node: ast.expr, what: str) -> Any:
        value = self.expr(node)
        if not (isinstance(value, ir.Const) and isinstance(value.value, (bool, int))):
            self.fail("E0613", f"{what} must be a compile-time constant (a literal or a CompileTimeValue "
                      f"parameter), not {describe(value)}", node)
        return value.value

    def arity(self, node: ast.Call, name: str, low: int, high: int) -> None:
        if not low <= len(node.args) <= high:
            takes = str(low) if low == high else f"{low} to {high}"
            self.fail("E0606", f"{name}() takes {takes} arguments, but {len(node.args)} were given", node)

    def compile_time_arg(self, node: ast.Call) -> ir.Reg:
        """``get_compile_time_arg_val(i)`` (a macro in 0.81.1): the host's i-th compile-time argument."""
        self.arity(node, "get_compile_time_arg_val", 1, 1)
        index = self.constant(node.args[0], "the index of get_compile_time_arg_val")
        self.check_ct_range(index, 1, node, "get_compile_time_arg_val")
        reg = self.reg("ct", kir.U32)
        self.emit(kir.Arg(result=reg, source="ct", index=index, label=f"compile-time arg {index}"))
        self.temps.add(id(reg))
        return reg

    def check_ct_range(self, first: int, count: int, node: ast.AST, what: str) -> None:
        available = self.interface.compile_args
        if first < 0 or first + count > available:
            reads = f"compile-time argument {first}" if count == 1 else \
                f"compile-time arguments {first} to {first + count - 1}"
            self.fail("E0613", f"{what} reads {reads}, but the host passes {available} "
                      f"({self.ct_layout()})", node,
                      hint="pass each tensor a TensorAccessor reads in create_kernel(..., "
                           "tensor_accessor_configs=[tensor, ...]); its args follow the CB ids, "
                           f"{ACCESSOR_CT_ARGS} per tensor")

    def ct_layout(self) -> str:
        cbs = sum(1 for p in self.interface.params if p.role == "cb")
        return f"{cbs} CB id{'s' if cbs != 1 else ''}, then {self.interface.compile_args - cbs} accessor args"

    def accessor_args(self, node: ast.Call) -> Obj:
        """``TensorAccessorArgs(cta_base[, crta_base])`` -> ``constexpr auto a = TensorAccessorArgs<...>();``"""
        self.arity(node, "TensorAccessorArgs", 1, 2)
        cta = self.constant(node.args[0], "the compile-time argument offset of TensorAccessorArgs")
        self.check_ct_range(cta, ACCESSOR_CT_ARGS, node, f"TensorAccessorArgs({cta})")
        template = [str(cta)]
        if len(node.args) == 2:
            template.append(str(self.constant(node.args[1], "the common runtime argument offset")))
        return self.make_object(node, "TensorAccessorArgs", kir.Call, fn="TensorAccessorArgs", args=[],
                                template=tuple(template), cta_base=cta)

    def accessor(self, node: ast.Call) -> Obj:
        """``TensorAccessor(args, base_address, page_size)``."""
        self.arity(node, "TensorAccessor", 3, 3)
        args = self.expr(node.args[0])
        if not (isinstance(args, Obj) and args.cls == "TensorAccessorArgs"):
            self.fail("E0607", f"TensorAccessor(): argument 1 is {describe(args)}, but it takes a TensorAccessorArgs",
                      node.args[0])
        addr = self.integer(node.args[1], "the base address of TensorAccessor")
        page = self.integer(node.args[2], "the page size of TensorAccessor")
        return self.make_object(node, "TensorAccessor", kir.Call, fn="TensorAccessor", args=[args.reg, addr, page])

    def addr_gen_fast(self, node: ast.Call) -> Obj:
        """The seed's ``get_interleaved_addr_gen_fast(is_dram, addr, page_size, data_format)``: an
        ``InterleavedAddrGenFast<is_dram>`` (0.81.1 still has it; it has no constructor)."""
        self.arity(node, "get_interleaved_addr_gen_fast", 4, 4)
        is_dram = self.constant(node.args[0], "is_dram of get_interleaved_addr_gen_fast")
        addr = self.word(self.integer(node.args[1], "the base address"))
        page = self.word(self.integer(node.args[2], "the page size"))
        fmt = self.expr(node.args[3])
        if not self.fits("enum:DataFormat", fmt):
            self.fail("E0607", f"get_interleaved_addr_gen_fast(): argument 4 is {describe(fmt)}, but it takes a "
                      "DataFormat (get_dataformat(cb))", node.args[3])
        fmt_operand = ir.Const(fmt.cpp) if isinstance(fmt, EnumValue) else fmt
        return self.make_object(node, "InterleavedAddrGenFast", kir.Aggregate, type_name="InterleavedAddrGenFast",
                                template=("true" if is_dram else "false",), args=[addr, page, fmt_operand])

    def word(self, value: ir.Operand) -> ir.Operand:
        """``value`` as a uint32_t (a struct's fields are initialised without narrowing)."""
        if isinstance(value, ir.Const) or value.type == kir.U32:
            return value
        reg = self.reg("t", kir.U32)
        self.emit(ir.Assign(result=reg, value=value))
        return reg

    def make_object(self, node: ast.Call, cls: str, op: type, cta_base: int | None = None, **fields: Any) -> Obj:
        self.kernel.includes.add(api.BASE_HEADER[self.interface.kind])
        if self.interface.kind != api.DATAMOVEMENT:
            self.fail("E0609", f"{cls} is data-movement kernel API; '{self.kernel.name}' is a compute kernel", node)
        reg = self.reg("obj", _OBJECT_TYPES.get(cls, kir.ACCESSOR))
        self.emit(op(result=reg, **fields))
        return Obj(reg, cls, cta_base)


_SPECIAL: dict[str, Callable[[CallMixin, ast.Call], Any]] = {
    "get_compile_time_arg_val": CallMixin.compile_time_arg,
    "TensorAccessorArgs": CallMixin.accessor_args,
    "TensorAccessor": CallMixin.accessor,
    "get_interleaved_addr_gen_fast": CallMixin.addr_gen_fast,
}
