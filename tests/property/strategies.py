"""Hypothesis strategies: random valid TT-Lang programs, single mistakes, bad host inputs.

``KINDS[kind]()`` draws a complete program of one kind with its golden; ``mutants()`` a valid
program with one mistake and the diagnostic it must get;
``host_scripts(mistake)`` a working host script with one bad ttnn call or kernel call. Every
program is deterministic in its draw (seeded inputs), so a failing example reproduces from its
file.
"""

from __future__ import annotations

import keyword
from typing import Callable

from hypothesis import assume
from hypothesis import strategies as st

from . import known_issues
from .expressions import (BINARIES, COMPARISONS, FUNCTION_ONLY, STEP_FUNCTIONS, UNARIES, Binary, Broadcast,
                          Const, Expr, Interval, Leaf, Scalar, Unary, Where, fit, is_exact_operand)
from .comm import PATTERNS, CommSpec
from .comm import build as build_comm
from .host_inputs import HostMistake, HostScript
from .matmul import IDIOMS, MatmulSpec
from .matmul import build as build_matmul
from .mutations import MUTATIONS, Mutant, Mutation
from .names import NamesSpec, Statement
from .names import build as build_names
from .programs import DTYPES, SPLITS, Program, Spelling
from .stream import (COL, FULL, RED_ALL, RED_COLS, RED_ROWS, ROW, SCALAR, STREAM_KINDS, TRANSPOSED, Operand, Root,
                     StreamSpec, build)

# ---------------------------------------------------------------------------- names
PLAIN_NAMES = ("idx", "row", "col", "tile", "acc", "part", "chunk", "lhs", "rhs", "value", "step",
               "first", "last", "lo", "hi", "pos", "off", "cnt", "w", "h", "k", "u", "v", "q", "z")
#: C++ keywords and Metalium names that are valid Python identifiers (issue 8 item 1)
CPP_NAMES = ("int", "new", "char", "auto", "delete", "this", "template", "namespace", "union", "struct",
             "switch", "case", "default", "double", "long", "short", "signed", "unsigned", "void",
             "volatile", "register", "static", "extern", "const", "goto", "friend", "operator", "private",
             "public", "protected", "virtual", "explicit", "mutable", "inline", "sizeof", "typedef",
             "nullptr", "main", "kernel_main", "uint32_t", "int32_t", "size_t", "std", "true", "false",
             "get_arg_val", "cb_push_back", "cb_wait_front", "noc_async_read", "DPRINT", "ALWI", "FORCE_INLINE")
#: Python builtins the generated threads never call, shadowed by locals
BUILTIN_NAMES = ("len", "sum", "id", "type", "input", "iter", "next", "list", "dict", "str", "all", "any",
                 "zip", "map", "filter", "object", "hash", "format", "vars", "sorted", "reversed", "open",
                 "super", "tuple", "set", "float", "bool", "round", "pow", "divmod", "ord", "chr")
#: names of the front end's temporaries, mangled (``%t.1`` -> ``t_1``) (issue 8 item 1)
TEMPORARY_NAMES = ("t", "c", "e", "xf", "pipe", "group", "t_1", "t_2", "t_3", "t_4", "t_5", "t_6", "c_1", "c_2", "e_1", "e_2", "core0",
                   "core0_1", "v_1", "b_1", "x_1", "cb_1", "xf_1", "blk_1")
assert not any(keyword.iskeyword(name) for name in PLAIN_NAMES + CPP_NAMES + BUILTIN_NAMES + TEMPORARY_NAMES)

#: roles whose name is a suffix (``a0_blk``): always plain
SUFFIX_ROLES = {"buffer": "dfb", "blk": "blk", "xf": "xf"}


def name_pool(*, cpp: bool = True, builtins: bool = True, temporaries: bool = False) -> tuple[str, ...]:
    pool = PLAIN_NAMES + (CPP_NAMES if cpp else ()) + (BUILTIN_NAMES if builtins else ())
    return pool + (TEMPORARY_NAMES if temporaries else ())


def default_pool() -> tuple[str, ...]:
    return name_pool(temporaries=not known_issues.is_open("8.1"))


@st.composite
def role_names(draw, pool: tuple[str, ...]) -> dict[str, str]:
    """One distinct name per role; thread-local roles from ``pool``."""
    local = ("b", "r", "c", "node", "nx", "ny", "e", "group", "k", "acc", "cx", "cy", "out", "i", "part",
             "pipe", "sx", "sy", "me", "px", "py")
    chosen = draw(st.lists(st.sampled_from(pool), min_size=len(local), max_size=len(local), unique=True))
    names = dict(zip(local, chosen))
    names.update(SUFFIX_ROLES)
    names.update(kernel=draw(st.sampled_from(("kern", "program", "op", "elementwise", "kernel_fn"))),
                 start="start", end="end", read="reader", compute="compute_fn", write="writer",
                 pipes="pipes", net="net", sem="sem", remote="remote_sem")
    return names


# ---------------------------------------------------------------------------- expressions
CONSTANTS = (0.5, 2.0, -1.0, 1.5, 0.25, 3.0, -0.75, 1.25)


@st.composite
def expressions(draw, leaves: list[Expr], depth: int = 3) -> Expr:
    """A float block expression over ``leaves`` (blocks and runtime scalars); at least one block."""
    blocks = [leaf for leaf in leaves if not isinstance(leaf, Scalar)]
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(blocks))
    shape = draw(st.sampled_from(("unary", "unary", "binary", "binary", "scalar", "where", "pow")))
    if shape == "unary":
        child = draw(expressions(leaves, depth - 1))
        names = sorted(set(UNARIES) - (frozenset() if is_exact_operand(child) else STEP_FUNCTIONS))
        fn = draw(st.sampled_from(names))
        params = draw(st.sampled_from(UNARIES[fn].params))
        spelling = "math"
        if fn == "neg" and draw(st.booleans()):
            spelling = "neg"
        elif fn == "abs" and draw(st.booleans()):
            spelling = "abs"
        elif fn == "power" and draw(st.booleans()):
            spelling = "pow"
        return Unary(fn, fit(child, UNARIES[fn].domain), params, spelling)
    if shape == "binary":
        fn = draw(st.sampled_from(("add", "sub", "mul", "div", "max", "min", "pow", "add", "mul")))
        left = draw(expressions(leaves, depth - 1))
        right = draw(expressions(leaves, depth - 1))
        table = BINARIES[fn]
        return Binary(fn, fit(left, table.left), fit(right, table.right),
                      operator=fn not in FUNCTION_ONLY and draw(st.booleans()))
    if shape == "scalar":
        child = draw(expressions(leaves, depth - 1))
        scalars = [leaf for leaf in leaves if isinstance(leaf, Scalar)]
        number: Expr = draw(st.sampled_from([*(Const(c) for c in CONSTANTS), *scalars]))
        fn = draw(st.sampled_from(("add", "sub", "mul", "mul", "div", "rsub_op")))
        if fn == "rsub_op":  # number - block: the number on the left
            return Binary("sub", number, child)
        if fn == "div":
            return Binary("div", fit(child, BINARIES["div"].left), Const(draw(st.sampled_from((2.0, 0.5, -4.0)))))
        if fn == "mul":
            return Binary("mul", fit(child, BINARIES["mul"].left), number)
        return Binary(fn, child, number, operator=draw(st.booleans()))
    if shape == "pow":
        child = draw(expressions(leaves, depth - 1))
        form = draw(st.sampled_from(("square", "cube", "sqrt", "base")))
        if form == "base":  # 2.0 ** x: a number raised to a block
            return Binary("pow", Const(2.0), fit(child, Interval(-4, 4)))
        if form == "sqrt":
            return Binary("pow", fit(child, Interval(0.25, 4)), Const(0.5))
        return Unary("power", fit(child, UNARIES["power"].domain), (2 if form == "square" else 3,), "pow")
    # where: the condition compares inputs (exact operands), so both sides decide it alike
    cmp = draw(st.sampled_from(COMPARISONS))
    a, b = draw(st.sampled_from(blocks)), draw(st.sampled_from([*blocks, Const(0.5), Const(-0.25)]))
    cond = Binary(cmp, a, b, operator=cmp not in FUNCTION_ONLY)
    then = draw(expressions(leaves, depth - 1))
    other = draw(expressions(leaves, depth - 1))
    if draw(st.booleans()):
        return Where(cond, then, other)
    return Binary("mul", cond, fit(then, BINARIES["mul"].right)) if draw(st.booleans()) else cond


#: unary functions of integers with integer results
INTEGER_UNARIES = ("abs", "neg", "relu", "sign", "square", "relu_max", "clamp", "rsub")
#: functions torch has no integer kernel for (finding N3): float results, truncated by an int32 store
#: (round is one too; the generators have no model of it: tests/sim/test_tile_math.py covers it)
FLOAT_ONLY_UNARIES = ("elu", "frac", "gelu", "hardsigmoid", "hardswish", "leaky_relu", "mish", "prelu", "selu",
                      "silu")


@st.composite
def integer_expressions(draw, leaves: list[Expr], depth: int = 3) -> Expr:
    """int32 arithmetic the device computes exactly: + - * max min abs neg where, comparisons."""
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(leaves))
    shape = draw(st.sampled_from(("binary", "binary", "unary", "scalar", "where")))
    if shape == "unary":
        child = draw(integer_expressions(leaves, depth - 1))
        fn = draw(st.sampled_from(INTEGER_UNARIES + (() if known_issues.is_open("N3") else FLOAT_ONLY_UNARIES)))
        if fn in ("abs", "neg"):
            return Unary(fn, child, spelling=draw(st.sampled_from(("math", fn))))
        if fn == "square" and child.interval.magnitude > 2 ** 10:
            fn = "relu"
        return Unary(fn, child, draw(st.sampled_from(UNARIES[fn].params)))
    if shape == "scalar":
        child = draw(integer_expressions(leaves, depth - 1))
        value = draw(st.integers(-9, 9))
        fn = draw(st.sampled_from(("add", "sub", "mul")))
        return Binary(fn, child, Const(value))
    if shape == "where":
        a, b = draw(st.sampled_from(leaves)), draw(st.sampled_from(leaves))
        cmp = draw(st.sampled_from(("lt", "gt", "le", "ge")))
        return Where(Binary(cmp, a, b), draw(integer_expressions(leaves, depth - 1)),
                     draw(integer_expressions(leaves, depth - 1)))
    fn = draw(st.sampled_from(("add", "sub", "mul", "max", "min")))
    left, right = draw(integer_expressions(leaves, depth - 1)), draw(integer_expressions(leaves, depth - 1))
    if fn == "mul" and (left.interval.magnitude * right.interval.magnitude > 2 ** 20):
        fn = "add"
    return Binary(fn, left, right, operator=fn not in FUNCTION_ONLY and draw(st.booleans()))


# ---------------------------------------------------------------------------- streaming kernels
GRIDS = st.one_of(st.just((1, 1)), st.tuples(st.integers(1, 4), st.integers(1, 4)),
                  st.tuples(st.integers(1, 13), st.integers(1, 10)))
INPUT_RANGES = ((-2.0, 2.0), (0.5, 3.0), (-4.0, 1.0), (-1.0, 1.0))


@st.composite
def stream_programs(draw, kind: str, pool: tuple[str, ...] | None = None) -> Program:
    """A streaming kernel of ``kind`` (see :data:`STREAM_KINDS`)."""
    names = draw(role_names(pool or default_pool()))
    spelling = Spelling(draw(st.booleans()))
    tiled = kind != "row_major"
    grid = draw(GRIDS)
    split = draw(st.sampled_from(SPLITS[1:])) if grid != (1, 1) else draw(st.sampled_from(SPLITS))
    if kind in ("row_major",):
        R, C = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        BH, BW = draw(st.integers(1, 6)), draw(st.integers(1, 12))
    else:
        R, C = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        BH, BW = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    if kind == "integer":
        dtypes = st.just("int32")
    elif kind == "row_major":
        dtypes = st.sampled_from(("bfloat16", "float32"))
    else:
        dtypes = st.sampled_from(DTYPES)
    full_inputs = draw(st.integers(0 if kind == "broadcast" else 1, 3))
    inputs: list[Operand] = []
    for i in range(full_inputs):
        lo, hi = (-500, 500) if kind == "integer" else draw(st.sampled_from(INPUT_RANGES))
        inputs.append(Operand(f"a{i}", FULL, draw(dtypes), lo, hi))
    if kind == "broadcast":
        for i in range(draw(st.integers(1, 2))):
            role = draw(st.sampled_from((ROW, COL, SCALAR)))
            lo, hi = draw(st.sampled_from(INPUT_RANGES))
            inputs.append(Operand(f"v{i}", role, draw(dtypes), lo, hi, thin=draw(st.sampled_from((1, 32)))))
    root = Root()
    out_role = FULL
    if kind == "reduce":
        along = draw(st.sampled_from(("cols", "rows", "both")))
        dims_text = draw(st.sampled_from({"cols": ("[1]", "[-1]"), "rows": ("[0]", "[-2]"),
                                          "both": ("[0, 1]", "[-2, -1]")}[along]))
        scaler = None
        if draw(st.booleans()):
            lo, hi = draw(st.sampled_from(((0.5, 2.0), (-2.0, -0.5))))
            inputs.append(Operand("s", SCALAR, draw(dtypes), lo, hi, thin=draw(st.sampled_from((1, 32)))))
            scaler = "s"
        root = Root("reduce", draw(st.sampled_from(("reduce_sum", "reduce_max"))), along, dims_text,
                    draw(st.sampled_from(("ttl.math", "ttl.block"))), scaler, draw(st.booleans()),
                    draw(st.booleans()), draw(st.sampled_from((None, None, 0.5, -2.0))))
        out_role = {"cols": RED_COLS, "rows": RED_ROWS, "both": RED_ALL}[along]
    elif kind == "transpose":
        root = Root("transpose", namespace=draw(st.sampled_from(("ttl.math", "ttl.block"))))
        out_role = TRANSPOSED
    out_dtype = draw(dtypes) if kind != "reduce" else draw(st.sampled_from(("bfloat16", "float32")))
    output = Operand("y", out_role, out_dtype)
    blk = names["blk"]
    exprs_leaves: list[Expr] = [Leaf(f"{op.tensor}_{blk}", op.tensor, Interval(op.lo, op.hi))
                                for op in inputs if op.role == FULL]
    if kind != "integer" and draw(st.booleans()):
        exprs_leaves.append(Scalar(names["b"], "__b__", Interval(0, R * C)))
    spec_shape = (R * BH * (32 if tiled else 1), C * BW * (32 if tiled else 1))
    if kind == "broadcast":
        computed = draw(st.booleans())
        for op in inputs:
            if op.role == FULL or op.tensor == "s":
                continue
            leaf: Expr = Leaf(f"{op.tensor}_{blk}", op.tensor, Interval(op.lo, op.hi))
            if computed:
                leaf = draw(expressions([leaf], depth=2))
            along = {ROW: "rows", COL: "cols", SCALAR: "both"}[op.role]
            dims_text = draw(st.sampled_from({"rows": ("[0]", "[-2]"), "cols": ("[1]", "[-1]"),
                                              "both": ("[0, 1]", "[-2, -1]")}[along]))
            style = draw(st.sampled_from(("block", "block_positional", "math")))
            out_block = f"y_{blk}"
            target = out_block if style == "math" else draw(st.sampled_from((f"{out_block}.shape", repr((BH, BW)))))
            exprs_leaves.append(Broadcast(leaf, along, dims_text, target, spec_shape, style))
    if kind == "integer":
        expr = draw(integer_expressions(exprs_leaves))
    else:
        expr = draw(expressions(exprs_leaves))
        broadcasts = [leaf for leaf in exprs_leaves if isinstance(leaf, Broadcast)]
        if broadcasts and not any(b in broadcasts for b in expr.walk()):
            expr = Binary("add", expr, draw(st.sampled_from(broadcasts)))
    factors = tuple(draw(st.integers(1, 3)) for _ in range(len(inputs) + 1))
    program = build(StreamSpec(
        kind=kind, spelling=spelling, grid=grid, grid_auto=draw(st.booleans()) and grid != (1, 1),
        split=split, tiled=tiled, R=R, C=C, BH=BH, BW=BW, inputs=tuple(inputs), output=output,
        expr=expr, root=root, explicit=draw(st.booleans()),
        copy_wait=draw(st.sampled_from(("inline", "handle", "group"))), factors=factors,
        one_dm=draw(st.booleans()), named_expr=draw(st.booleans()), named_uses=draw(st.integers(1, 2)), names=names,
        seed=draw(st.integers(0, 2 ** 16)), thread_order=draw(st.permutations((0, 1, 2))),
        creators=(draw(st.sampled_from(("from_torch", "rand"))), draw(st.sampled_from(("zeros", "empty"))))))
    return program


# ---------------------------------------------------------------------------- matmul
@st.composite
def matmul_programs(draw) -> Program:
    names = draw(role_names(default_pool()))
    grid = draw(st.one_of(st.just((1, 1)), st.tuples(st.integers(1, 4), st.integers(1, 3)),
                          st.tuples(st.integers(1, 13), st.integers(1, 10))))
    split = draw(st.sampled_from(SPLITS[:3])) if grid == (1, 1) else draw(st.sampled_from(SPLITS[1:]))
    allowed = tuple(i for i in IDIOMS if i != "value" or not known_issues.is_open("7.1"))
    idiom = draw(st.sampled_from(allowed))
    bias = None if idiom == "value" or not draw(st.booleans()) else draw(st.sampled_from(("bfloat16", "float32")))
    return build_matmul(MatmulSpec(
        spelling=Spelling(draw(st.booleans())), grid=grid, split=split,
        GM=draw(st.integers(1, 3)), GN=draw(st.integers(1, 3)), KS=draw(st.integers(1, 4)),
        BM=draw(st.integers(1, 2)), BN=draw(st.integers(1, 2)), BK=draw(st.integers(1, 3)),
        dtypes=(draw(st.sampled_from(DTYPES)), draw(st.sampled_from(DTYPES)),
                draw(st.sampled_from(("bfloat16", "float32")))),
        bias=bias, idiom=idiom, fill_spelling=draw(st.sampled_from(("block", "math", "number"))),
        matmul_spelling=draw(st.sampled_from(("@", "ttl.math.matmul"))), explicit=draw(st.booleans()),
        factors=(draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 2))),
        names=names, seed=draw(st.integers(0, 2 ** 16))))


# ---------------------------------------------------------------------------- pipes and semaphores
@st.composite
def comm_programs(draw, pattern: str) -> Program:
    names = draw(role_names(default_pool()))
    min_x = 2 if pattern in ("gather", "ring") else 1
    min_y = 2 if pattern in ("multicast", "loopback") else 1
    gx, gy = draw(st.integers(min_x, 6)), draw(st.integers(min_y, 5))
    if pattern in ("barrier", "release") and gx * gy == 1:
        gx = 2
    leaf = Leaf(names["blk"], "a", Interval(-2.0, 2.0))
    return build_comm(CommSpec(
        pattern=pattern, spelling=Spelling(draw(st.booleans())), grid=(gx, gy),
        BH=draw(st.integers(1, 2)), BW=draw(st.integers(1, 2)), fn=draw(expressions([leaf], depth=2)),
        a_dtype=draw(st.sampled_from(DTYPES)), y_dtype=draw(st.sampled_from(("bfloat16", "float32"))),
        helpers=draw(st.sampled_from(("thread", "kernel"))),
        wait_style=draw(st.sampled_from(("wait_for", "wait_eq", "wait_ge", "wait_for_min"))),
        names=names, seed=draw(st.integers(0, 2 ** 16))))


# ---------------------------------------------------------------------------- names
@st.composite
def names_programs(draw, pool: tuple[str, ...]) -> Program:
    """Integer scalar code over variables named from ``pool``, printed; Python says what prints."""
    chosen = draw(st.lists(st.sampled_from(pool), min_size=6, max_size=6, unique=True))
    node, helper_name, param, *variables = chosen
    body: list[Statement] = []
    defined = [node]

    def operand() -> str:
        return draw(st.sampled_from([*defined, str(draw(st.integers(1, 9)))]))

    def expression() -> str:
        form = draw(st.sampled_from(("arith", "arith", "div", "minmax", "cond", "helper")))
        a, b = operand(), operand()
        if form == "arith":
            return f"{a} {draw(st.sampled_from(('+', '-', '*')))} {b}"
        if form == "div":
            operator, divisor = draw(st.sampled_from(("//", "%"))), draw(st.sampled_from((3, 7, -4, 5)))
            return f"({a} + {draw(st.integers(0, 50))}) {operator} {divisor}"
        if form == "minmax":
            return f"{draw(st.sampled_from(('min', 'max')))}({a}, {b}) + abs({operand()} - 4)"
        if form == "cond":
            return f"{a} if {b} > {draw(st.integers(0, 6))} else {operand()} + 1"
        return f"{helper_name}({a}, {b})"

    for var in variables:
        body.append(Statement(0, f"{var} = {expression()}"))
        defined.append(var)
    loop_var = draw(st.sampled_from([v for v in pool if v not in chosen] or ["i_loop"]))
    body.append(Statement(0, f"for {loop_var} in range({draw(st.integers(1, 4))}):"))
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(variables))
        body.append(Statement(1, f"{target} = ({target} + {loop_var} * {draw(st.integers(1, 9))} + "
                                 f"{operand()}) % {draw(st.sampled_from((97, 1009, 313)))}"))
    cond = f"{draw(st.sampled_from(variables))} % 2 == 0"
    body.append(Statement(0, f"if {cond}:"))
    body.append(Statement(1, f"{variables[0]} = {variables[0]} * 3 + {variables[1]}"))
    body.append(Statement(0, "else:"))
    body.append(Statement(1, f"{variables[0]} = {variables[0]} - {variables[2]}"))
    body.append(Statement(0, f"print({', '.join(variables)})"))
    helper = f"def {helper_name}({param}, {node}_):\n    return {param} * 2 + {node}_ // 3\n"
    return build_names(NamesSpec(
        grid=draw(st.sampled_from(((1, 1), (2, 1), (2, 2)))),
        thread=draw(st.sampled_from(("datamovement", "compute"))), node_name=node, body=tuple(body),
        variables=tuple(variables), helper=helper, published=draw(st.booleans())))


KINDS: dict[str, Callable[[], st.SearchStrategy[Program]]] = {
    **{kind: (lambda kind=kind: stream_programs(kind)) for kind in STREAM_KINDS},
    "matmul": matmul_programs,
    **{pattern: (lambda pattern=pattern: comm_programs(pattern)) for pattern in PATTERNS},
    "names": lambda: names_programs(name_pool(temporaries=not known_issues.is_open("8.1"))),
}


# ---------------------------------------------------------------------------- single mistakes
@st.composite
def mutants(draw, mutations: tuple[Mutation, ...] | None = None) -> Mutant:
    """A valid program of a kind the mutation applies to, with the mutation planted."""
    if mutations is None:
        mutations = tuple(m for m in MUTATIONS if m.known is None or not known_issues.is_open(m.known))
    mutation = draw(st.sampled_from(mutations))
    kinds = [k for k in (mutation.kinds or sorted(KINDS)) if k != "names" or mutation.kinds]
    program = draw(st.sampled_from(kinds).flatmap(lambda kind: KINDS[kind]()))
    mutant = mutation.apply(program, lambda items: draw(st.sampled_from(items)))
    assume(mutant is not None)  # the program has no site for this mutation: not a failure
    return mutant


# ---------------------------------------------------------------------------- bad host inputs
@st.composite
def host_scripts(draw, mistake: HostMistake) -> HostScript:
    """The working host script with ``mistake`` planted, its values drawn."""
    return mistake.script(draw)
