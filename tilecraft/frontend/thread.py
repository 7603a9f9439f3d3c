"""Compile one thread function (with the helpers it calls) into IR.

Names resolve, in order, to: locals of the function being compiled; locals of enclosing
functions defined inside the thread; values the Python function captured from kernel scope
(classified across cores by :class:`CaptureEnv`); module globals; builtins.
"""

from __future__ import annotations

import ast
import builtins
import copy
from typing import Any

from ..ir.program_ir import ThreadIR
from ..ir.types import BlockType, CBDecl, PipeNetDecl
from .auto_release import insert_auto_releases
from .capture import CaptureEnv
from .returns import always_returns, returns_inside, tail_returns
from .source import FunctionSource, function_source
from .stmts import StmtMixin, _Return
from .value_kinds import CT, RV, FuncRef, PipeNetV, Scope


class ThreadCompiler(StmtMixin):
    def __init__(self, env: CaptureEnv, kind: str):
        super().__init__()
        self.env = env
        self.kind = kind
        self.grid = env.grid
        self.block_origin: dict[str, tuple[CBDecl, str]] = {}
        #: (scope id, name) -> (scope, register) of each local block (see bind_local_block)
        self.local_blocks: dict[tuple[int, str], tuple[Any, Any]] = {}
        #: local block register name -> the loop whose body first read it as a carried value
        self.carried_reads: dict[str, Any] = {}
        self._inline_stack: list[Any] = []
        #: the ``if_src`` / ``if_dst`` regions being compiled, outermost first: (net, role)
        self.pipe_roles: list[tuple[PipeNetDecl, str]] = []

    def compile(self, name: str, variants: tuple[Any, ...]) -> ThreadIR:
        fn = FuncRef(variants)
        source = function_source(fn.fn)
        if source.node.args.args or source.node.args.vararg or source.node.args.kwonlyargs:
            self.fail_at(source, source.node, "E0104", f"thread function {name}() must take no arguments")
        scope = Scope(prefix="", multi=frozenset(multi_assigned(source.node)))
        self.reserve_locals(scope.multi)
        scope.bindings["__func__"] = fn
        with self.in_function(source, scope):
            try:
                self.stmts(source.node.body)
            except _Return:
                pass
        span = source.span(source.node)
        published = {b.index for b in self.env.scopes[0].buffers if b.releases_held_blocks}
        body = insert_auto_releases(self.body, self.env.program.cbs, published, span)
        return ThreadIR(name=name, kind=self.kind, body=body, span=span)

    def fail_at(self, source: FunctionSource, node: ast.AST, code: str, message: str) -> None:
        self.source = source
        self.fail(code, message, node)

    # ---------------------------------------------------------------- name resolution
    def lookup(self, name: str) -> Any:
        value = self.scope.lookup(name)
        if value is not None:
            return value
        fn: FuncRef | None = self.current_function()
        if fn is not None and fn.node is None:
            found = self.env.resolve(fn.variants, name)
            if found is not CaptureEnv.MISSING:
                return found
        elif fn is not None:
            outer_fn = self.defining_function(fn)
            if outer_fn is not None:
                found = self.env.resolve(outer_fn.variants, name)
                if found is not CaptureEnv.MISSING:
                    return found
        if hasattr(builtins, name):
            return CT(getattr(builtins, name))
        self.fail("E0102", f"name '{name}' is not defined in this thread",
                  hint="threads can use their own locals and values defined in the kernel function "
                       "or the module")

    def current_function(self) -> FuncRef | None:
        scope: Scope | None = self.scope
        while scope is not None:
            fn = scope.bindings.get("__func__")
            if fn is not None:
                return fn
            scope = scope.parent
        return None

    def defining_function(self, fn: FuncRef) -> FuncRef | None:
        """For a function defined inside the thread: the Python function it was written in."""
        outer_scope, _source = fn.scope
        scope = outer_scope
        while scope is not None:
            candidate = scope.bindings.get("__func__")
            if candidate is not None and candidate.node is None:
                return candidate
            if candidate is not None:
                return self.defining_function(candidate)
            scope = scope.parent
        return None

    def classify_ct(self, value: Any) -> Any:
        return self.env.classify([value])

    # ---------------------------------------------------------------- inlining
    def inline_function(self, fn: FuncRef, args: list[Any], node: ast.AST) -> Any:
        key = fn.node if fn.node is not None else fn.fn.__code__
        if key in self._inline_stack:
            self.fail("E0101", "recursive helper functions are not supported", node)
        if fn.node is not None:
            outer_scope, source = fn.scope
            fn_node = fn.node
        else:
            source = function_source(fn.fn)
            outer_scope, fn_node = None, source.node
        params = fn_node.args
        if params.vararg or params.kwarg or params.kwonlyargs:
            self.fail("E0101", "helper functions take positional parameters only", node)
        names = [a.arg for a in params.args]
        defaults = self.defaults_of(fn, params.defaults)
        if not len(names) - len(defaults) <= len(args) <= len(names):
            self.fail("E0104", f"{fn_node.name}() takes {len(names)} arguments, {len(args)} given", node)
        args = args + defaults[len(defaults) - (len(names) - len(args)):] if len(args) < len(names) else args
        if any(returns_inside(stmt) for stmt in fn_node.body if isinstance(stmt, ast.If)):
            fn_node = copy.copy(fn_node)  # returns in branches: every return made the end of its path
            fn_node.body = tail_returns(fn_node.body)
        prefix = f"{fn_node.name}."
        scope = Scope(prefix=prefix, parent=outer_scope, multi=frozenset(multi_assigned(fn_node)))
        self.reserve_locals(prefix + name for name in scope.multi)
        scope.bindings["__func__"] = fn
        self._inline_stack.append(key)
        saved = (self.block_depth, self.loop_depth, self.unrolled, self.return_barrier, self.return_reg)
        # the callee's own nesting
        self.block_depth, self.loop_depth, self.unrolled, self.return_barrier, self.return_reg = 0, 0, [], 0, None
        try:
            with self.in_function(source, scope):
                for pname, value in zip(names, args):
                    self.bind(pname, value, fn_node)
                try:
                    self.stmts(fn_node.body)
                except _Return as ret:
                    return ret.value
                if self.return_reg is not None:
                    if not always_returns(fn_node.body):
                        self.fail("E0101", f"{fn_node.name}() returns a value on some paths and falls off its end "
                                  "on others", fn_node, hint="end every path of the helper with a return")
                    return RV(self.return_reg)
                return CT(None)
        finally:
            self._inline_stack.pop()
            self.block_depth, self.loop_depth, self.unrolled, self.return_barrier, self.return_reg = saved

    def inlining(self) -> bool:
        """Whether a helper (or a pipe function) is being inlined, rather than the thread itself."""
        return bool(self._inline_stack)

    def defaults_of(self, fn: FuncRef, nodes: list[ast.expr]) -> list[Any]:
        """The default values of a helper's parameters. A helper defined in Python (at module level
        or in the operation body) has them already evaluated, as Python does at its ``def``
        (``k=SCALE`` reads the module constant); one defined inside a thread takes literals only."""
        if fn.node is None:
            return [self.classify_ct(value) for value in fn.fn.__defaults__ or ()]
        for node in nodes:
            if not isinstance(node, ast.Constant):
                self.fail("E0101", "default parameter values of helpers defined in a thread must be literals", node,
                          hint="define the helper at module level, or pass the value as an argument")
        return [CT(node.value) for node in nodes]

    # ---------------------------------------------------------------- pipes
    def pipenet_of(self, value: Any) -> PipeNetDecl:
        if isinstance(value, PipeNetV):
            return value.decl
        pipes = value.value if isinstance(value, CT) else None
        if not isinstance(pipes, (tuple, list)):
            pipes = (pipes,)
        decl = self.env.pipenet(tuple(pipes))
        if decl is None:
            self.fail("E0104", "if_pipe_src/if_pipe_dst need a ttl.Pipe or a list of them")
        return decl

    def note_pipe_use(self, pipe: RV, kind: str, block: BlockType, node: ast.AST) -> None:
        self.env.pipe_uses.append((pipe.type.net, kind, block, self.span(node)))


def multi_assigned(fn: ast.FunctionDef) -> set[str]:
    """Names assigned at more than one place in ``fn`` (nested functions excluded): these live
    in one mutable register; names assigned once bind directly to their value. A parameter is
    assigned by the call, so reassigning it once (``n = n + n`` in a loop) makes two places."""
    counts: dict[str, int] = {arg.arg: 1 for arg in (*fn.args.posonlyargs, *fn.args.args)}

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if isinstance(child, ast.AugAssign) and isinstance(child.target, ast.Name):
                counts[child.target.id] = counts.get(child.target.id, 0) + 2
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                counts[child.id] = counts.get(child.id, 0) + 1
            elif isinstance(child, ast.For) and not _is_range_loop(child):
                for name_node in ast.walk(child.target):
                    if isinstance(name_node, ast.Name):
                        counts[name_node.id] = counts.get(name_node.id, 0) + 2
            visit(child)

    visit(fn)
    return {name for name, n in counts.items() if n > 1}


def _is_range_loop(node: ast.For) -> bool:
    it = node.iter
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "reversed" and it.args:
        it = it.args[0]
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"

