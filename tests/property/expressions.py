"""Random block expressions with their torch goldens (docs/numerics.md section 6).

An expression is a small tree that renders as TT-Lang source (``ttl.math.exp(a_blk) * 2.0``)
and evaluates as torch on whole tensors (the golden). Every node carries an interval that
bounds its values, so that a function is only applied inside its domain (``log`` of positive
values, ``asin`` of values in [-1, 1]) and values stay moderate: where a child's interval does
not fit, an adapter (``abs(x) + a`` or ``tanh(x) * s + o``) maps it in. The goldens compute in
fp32, as the device does between the operations of one expression.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping

import torch
import torch.nn.functional as F

Env = Mapping[str, torch.Tensor]


@dataclass(frozen=True)
class Interval:
    lo: float
    hi: float

    def within(self, other: "Interval") -> bool:
        return other.lo <= self.lo and self.hi <= other.hi

    @property
    def magnitude(self) -> float:
        return max(abs(self.lo), abs(self.hi))


def hull(*values: float) -> Interval:
    return Interval(min(values), max(values))


ANY = Interval(-40.0, 40.0)
UNIT = Interval(0.0, 1.0)


# ---------------------------------------------------------------------------- nodes
class Expr:
    interval: Interval

    def render(self) -> str:
        raise NotImplementedError

    def golden(self, env: Env) -> torch.Tensor:
        raise NotImplementedError

    def children(self) -> tuple["Expr", ...]:
        return tuple(value for value in vars(self).values() if isinstance(value, Expr))

    def walk(self) -> Iterator["Expr"]:
        yield self
        for child in self.children():
            yield from child.walk()


@dataclass(frozen=True)
class Leaf(Expr):
    """A block operand: ``name`` in the thread, ``key`` in the golden environment."""

    name: str
    key: str
    interval: Interval

    def render(self) -> str:
        return self.name

    def golden(self, env: Env) -> torch.Tensor:
        return env[self.key]



@dataclass(frozen=True)
class Const(Expr):
    value: float

    @property
    def interval(self) -> Interval:  # type: ignore[override]
        return Interval(self.value, self.value)

    def render(self) -> str:
        return repr(self.value)

    def golden(self, env: Env) -> torch.Tensor:
        return torch.tensor(self.value, dtype=torch.float32)


@dataclass(frozen=True)
class Unary(Expr):
    """``ttl.math.<fn>(child, *params)``, or an operator spelling of the same function."""

    fn: str
    child: Expr
    params: tuple[float, ...] = ()
    spelling: str = "math"  # "math" | "neg" (-x) | "abs" (abs(x)) | "pow" (x ** n)

    @property
    def interval(self) -> Interval:  # type: ignore[override]
        return UNARIES[self.fn].image(self.child.interval, self.params)

    def render(self) -> str:
        inner = self.child.render()
        if self.spelling == "neg":
            return f"-({inner})"
        if self.spelling == "abs":
            return f"abs({inner})"
        if self.spelling == "pow":
            return f"({inner}) ** {self.params[0]!r}"
        args = ", ".join([inner, *(repr(p) for p in self.params)])
        return f"ttl.math.{self.fn}({args})"

    def golden(self, env: Env) -> torch.Tensor:
        return UNARIES[self.fn].golden(self.child.golden(env), *self.params)



BINARY_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**",
                  "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@dataclass(frozen=True)
class Binary(Expr):
    fn: str
    left: Expr
    right: Expr
    operator: bool = True  # ``a + b`` or ``ttl.math.add(a, b)``

    @property
    def interval(self) -> Interval:  # type: ignore[override]
        return BINARIES[self.fn].image(self.left.interval, self.right.interval)

    def render(self) -> str:
        left, right = self.left.render(), self.right.render()
        if self.operator:
            return f"({left}) {BINARY_SYMBOLS[self.fn]} ({right})"
        return f"ttl.math.{self.fn}({left}, {right})"

    def golden(self, env: Env) -> torch.Tensor:
        return BINARIES[self.fn].golden(self.left.golden(env), self.right.golden(env)).to(torch.float32)



@dataclass(frozen=True)
class Where(Expr):
    cond: Expr
    then: Expr
    other: Expr

    @property
    def interval(self) -> Interval:  # type: ignore[override]
        return hull(self.then.interval.lo, self.other.interval.lo, self.then.interval.hi, self.other.interval.hi)

    def render(self) -> str:
        return f"ttl.math.where({self.cond.render()}, {self.then.render()}, {self.other.render()})"

    def golden(self, env: Env) -> torch.Tensor:
        cond, then, other = self.cond.golden(env), self.then.golden(env), self.other.golden(env)
        return torch.where(cond != 0, then, other).to(torch.float32)



# ---------------------------------------------------------------------------- the function table
@dataclass(frozen=True)
class UnaryFn:
    golden: Callable[..., torch.Tensor]
    domain: Interval
    image: Callable[[Interval, tuple[float, ...]], Interval]
    #: parameter lists to draw from (each a tuple of constants)
    params: tuple[tuple[float, ...], ...] = ((),)


def monotone(f: Callable[[float], float]) -> Callable[[Interval, tuple[float, ...]], Interval]:
    return lambda i, p: hull(f(i.lo), f(i.hi))


def fixed(lo: float, hi: float) -> Callable[[Interval, tuple[float, ...]], Interval]:
    return lambda i, p: Interval(lo, hi)


def below_and(floor_value: float, scale: float = 1.0) -> Callable[[Interval, tuple[float, ...]], Interval]:
    """Functions like relu, silu, gelu: bounded below, at most ``scale * x`` above."""
    return lambda i, p: Interval(floor_value, max(0.0, scale * i.hi))


def _abs_image(i: Interval, p: tuple[float, ...]) -> Interval:
    low = 0.0 if i.lo <= 0.0 <= i.hi else min(abs(i.lo), abs(i.hi))
    return Interval(low, i.magnitude)


def _square_image(i: Interval, p: tuple[float, ...]) -> Interval:
    a = _abs_image(i, p)
    return Interval(a.lo ** 2, a.hi ** 2)


def _power_image(i: Interval, p: tuple[float, ...]) -> Interval:
    m = i.magnitude ** p[0]
    return Interval(0.0 if p[0] % 2 == 0 else -m, m)


def _leaky(x: torch.Tensor, slope: float) -> torch.Tensor:
    return torch.where(x > 0, x, x * slope)


def _elu(x: torch.Tensor, alpha: float) -> torch.Tensor:
    return torch.where(x > 0, x, alpha * torch.expm1(x))


def _celu(x: torch.Tensor, alpha: float) -> torch.Tensor:
    return torch.where(x > 0, x, alpha * torch.expm1(x * (1.0 / alpha)))


UNARIES: dict[str, UnaryFn] = {
    "abs": UnaryFn(torch.abs, ANY, _abs_image),
    "neg": UnaryFn(torch.neg, ANY, monotone(lambda v: -v)),
    "square": UnaryFn(torch.square, Interval(-6, 6), _square_image),
    "exp": UnaryFn(torch.exp, Interval(-8, 4), monotone(math.exp)),
    "exp2": UnaryFn(torch.exp2, Interval(-8, 5), monotone(lambda v: 2.0 ** v)),
    "expm1": UnaryFn(torch.expm1, Interval(-8, 4), monotone(math.expm1)),
    "log": UnaryFn(torch.log, Interval(0.05, 40), monotone(math.log)),
    "log2": UnaryFn(torch.log2, Interval(0.05, 40), monotone(math.log2)),
    "log10": UnaryFn(torch.log10, Interval(0.05, 40), monotone(math.log10)),
    "log1p": UnaryFn(torch.log1p, Interval(-0.9, 40), monotone(math.log1p)),
    "sqrt": UnaryFn(torch.sqrt, Interval(0.0, 40), monotone(math.sqrt)),
    "rsqrt": UnaryFn(torch.rsqrt, Interval(0.1, 40), monotone(lambda v: v ** -0.5)),
    "recip": UnaryFn(torch.reciprocal, Interval(0.2, 40), monotone(lambda v: 1.0 / v)),
    "sin": UnaryFn(torch.sin, ANY, fixed(-1, 1)),
    "cos": UnaryFn(torch.cos, ANY, fixed(-1, 1)),
    "tan": UnaryFn(torch.tan, Interval(-1.3, 1.3), monotone(math.tan)),
    "asin": UnaryFn(torch.asin, Interval(-0.95, 0.95), monotone(math.asin)),
    "acos": UnaryFn(torch.acos, Interval(-0.95, 0.95), monotone(math.acos)),
    "atan": UnaryFn(torch.atan, ANY, monotone(math.atan)),
    "sinh": UnaryFn(torch.sinh, Interval(-4, 4), monotone(math.sinh)),
    "cosh": UnaryFn(torch.cosh, Interval(-4, 4), lambda i, p: Interval(1.0, math.cosh(i.magnitude))),
    "tanh": UnaryFn(torch.tanh, ANY, monotone(math.tanh)),
    "asinh": UnaryFn(torch.asinh, ANY, monotone(math.asinh)),
    "acosh": UnaryFn(torch.acosh, Interval(1.05, 40), monotone(math.acosh)),
    "atanh": UnaryFn(torch.atanh, Interval(-0.9, 0.9), monotone(math.atanh)),
    "relu": UnaryFn(torch.relu, ANY, monotone(lambda v: max(v, 0.0))),
    "relu6": UnaryFn(lambda x: torch.clamp(x, 0.0, 6.0), ANY, monotone(lambda v: min(max(v, 0.0), 6.0))),
    "sigmoid": UnaryFn(torch.sigmoid, ANY, fixed(0, 1)),
    "gelu": UnaryFn(lambda x: F.gelu(x, approximate="tanh"), ANY, below_and(-0.2)),
    "silu": UnaryFn(F.silu, ANY, below_and(-0.3)),
    "softsign": UnaryFn(F.softsign, ANY, fixed(-1, 1)),
    "hardsigmoid": UnaryFn(lambda x: torch.clamp(x / 6.0 + 0.5, 0.0, 1.0), ANY, fixed(0, 1)),
    "hardswish": UnaryFn(lambda x: x * torch.clamp(x / 6.0 + 0.5, 0.0, 1.0), ANY, below_and(-0.4)),
    "selu": UnaryFn(torch.selu, ANY, below_and(-1.8, 1.06)),
    "mish": UnaryFn(F.mish, ANY, below_and(-0.31)),
    "erf": UnaryFn(torch.erf, ANY, fixed(-1, 1)),
    "erfc": UnaryFn(torch.erfc, ANY, fixed(0, 2)),
    "floor": UnaryFn(torch.floor, ANY, lambda i, p: Interval(i.lo - 1, i.hi)),
    "ceil": UnaryFn(torch.ceil, ANY, lambda i, p: Interval(i.lo, i.hi + 1)),
    "trunc": UnaryFn(torch.trunc, ANY, lambda i, p: hull(i.lo, i.hi, 0.0)),
    "frac": UnaryFn(torch.frac, ANY, fixed(-1, 1)),
    "sign": UnaryFn(torch.sign, ANY, fixed(-1, 1)),
    "signbit": UnaryFn(lambda x: torch.signbit(x).to(torch.float32), ANY, fixed(0, 1)),
    "logical_not": UnaryFn(lambda x: (x == 0).to(torch.float32), ANY, fixed(0, 1)),
    "isfinite": UnaryFn(lambda x: torch.isfinite(x).to(torch.float32), ANY, fixed(0, 1)),
    # -------------------------------------------------------------- with scalar parameters
    "relu_max": UnaryFn(lambda x, u: torch.clamp(torch.relu(x), max=u), ANY,
                        lambda i, p: Interval(0.0, p[0]), ((1.0,), (2.5,))),
    "relu_min": UnaryFn(lambda x, lo: torch.relu(torch.clamp(x, min=lo)), ANY,
                        lambda i, p: Interval(0.0, max(i.hi, 0.0)), ((0.5,), (-1.0,))),
    "leaky_relu": UnaryFn(_leaky, ANY, lambda i, p: hull(i.lo * p[0], i.lo, i.hi, 0.0), ((0.01,), (0.25,))),
    "prelu": UnaryFn(_leaky, ANY, lambda i, p: hull(i.lo * p[0], i.lo, i.hi, 0.0), ((0.1,),)),
    "elu": UnaryFn(_elu, ANY, lambda i, p: Interval(-p[0], max(i.hi, 0.0)), ((1.0,), (0.5,))),
    "celu": UnaryFn(_celu, ANY, lambda i, p: Interval(-p[0], max(i.hi, 0.0)), ((1.0,), (2.0,))),
    "softplus": UnaryFn(lambda x, *p: F.softplus(x, *p), ANY,
                        lambda i, p: Interval(0.0, max(i.hi, 0.0) + 1.0), ((), (1.0,), (2.0,))),
    "hardtanh": UnaryFn(lambda x, lo, hi: torch.clamp(x, lo, hi), ANY, lambda i, p: Interval(p[0], p[1]),
                        ((-1.0, 1.0), (-0.5, 2.0))),
    "clamp": UnaryFn(lambda x, lo, hi: torch.clamp(x, lo, hi), ANY, lambda i, p: Interval(p[0], p[1]),
                     ((-2.0, 2.0), (0.0, 1.5))),
    "threshold": UnaryFn(lambda x, t, v: torch.where(x <= t, torch.tensor(v), x), ANY,
                         lambda i, p: hull(i.lo, i.hi, p[1]), ((0.0, -1.0), (0.5, 2.0))),
    "rsub": UnaryFn(lambda x, s: s - x, ANY, lambda i, p: hull(p[0] - i.lo, p[0] - i.hi), ((1.0,), (-2.5,))),
    "power": UnaryFn(lambda x, n: x ** n, Interval(-4, 4), _power_image, ((2,), (3,))),
}

#: unary functions whose result is a step function of the input: a difference in the last bit of
#: the operand can change the result by a whole step, so they only take operands computed exactly
STEP_FUNCTIONS = frozenset({"floor", "ceil", "trunc", "frac", "sign", "signbit", "logical_not", "threshold"})


#: functions computed by correctly rounded IEEE operations (or exactly): their last bit does not
#: depend on how many elements one torch call processes
CORRECTLY_ROUNDED = frozenset({
    "abs", "neg", "square", "sqrt", "recip", "relu", "relu6", "softsign", "hardsigmoid", "hardswish", "floor",
    "ceil", "trunc", "frac", "sign", "signbit", "logical_not", "isfinite", "relu_max", "relu_min", "leaky_relu",
    "prelu", "hardtanh", "clamp", "threshold", "rsub", "power",
    "add", "sub", "mul", "div", "max", "min", "lt", "le", "gt", "ge", "eq", "ne"})


def inexact_functions(expr: "Expr") -> set[str]:
    """The functions of ``expr`` whose fp32 result torch computes with a length-dependent last bit."""
    names = {node.fn for node in expr.walk() if isinstance(node, (Unary, Binary))}
    return names - CORRECTLY_ROUNDED


@dataclass(frozen=True)
class BinaryFn:
    golden: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
    left: Interval
    right: Interval
    image: Callable[[Interval, Interval], Interval]


def _product(a: Interval, b: Interval) -> Interval:
    return hull(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)


def _quotient(a: Interval, b: Interval) -> Interval:
    return _product(a, Interval(1.0 / b.hi, 1.0 / b.lo))


def _pow_image(a: Interval, b: Interval) -> Interval:
    corners = [a.lo ** b.lo, a.lo ** b.hi, a.hi ** b.lo, a.hi ** b.hi]
    return hull(*corners)


BINARIES: dict[str, BinaryFn] = {
    "add": BinaryFn(torch.add, ANY, ANY, lambda a, b: Interval(a.lo + b.lo, a.hi + b.hi)),
    "sub": BinaryFn(torch.sub, ANY, ANY, lambda a, b: Interval(a.lo - b.hi, a.hi - b.lo)),
    "mul": BinaryFn(torch.mul, Interval(-8, 8), Interval(-8, 8), _product),
    "div": BinaryFn(torch.div, Interval(-8, 8), Interval(0.5, 8), _quotient),
    "pow": BinaryFn(torch.pow, Interval(0.25, 4), Interval(-2, 2), _pow_image),
    "max": BinaryFn(torch.maximum, ANY, ANY, lambda a, b: Interval(max(a.lo, b.lo), max(a.hi, b.hi))),
    "min": BinaryFn(torch.minimum, ANY, ANY, lambda a, b: Interval(min(a.lo, b.lo), min(a.hi, b.hi))),
    "lt": BinaryFn(lambda a, b: (a < b).float(), ANY, ANY, lambda a, b: UNIT),
    "le": BinaryFn(lambda a, b: (a <= b).float(), ANY, ANY, lambda a, b: UNIT),
    "gt": BinaryFn(lambda a, b: (a > b).float(), ANY, ANY, lambda a, b: UNIT),
    "ge": BinaryFn(lambda a, b: (a >= b).float(), ANY, ANY, lambda a, b: UNIT),
    "eq": BinaryFn(lambda a, b: (a == b).float(), ANY, ANY, lambda a, b: UNIT),
    "ne": BinaryFn(lambda a, b: (a != b).float(), ANY, ANY, lambda a, b: UNIT),
}
#: comparisons are written as operators except eq/ne: `a != b` between blocks means Python's
#: identity test in TT-Lang 1.1.6 (issue 7 item 8), so those two are always spelled ttl.math.eq/ne
COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")
FUNCTION_ONLY = frozenset({"eq", "ne", "max", "min"})


def fit(expr: Expr, domain: Interval) -> Expr:
    """``expr`` mapped into ``domain``: unchanged when it fits, else through an adapter."""
    if expr.interval.within(domain):
        return expr
    shifted = Binary("add", Unary("abs", expr, spelling="abs"), Const(domain.lo))
    if domain.lo >= 0.0 and shifted.interval.within(domain):
        return shifted
    half = (domain.hi - domain.lo) / 2 * 0.9
    centre = (domain.hi + domain.lo) / 2
    squashed: Expr = Binary("mul", Unary("tanh", expr), Const(round(half, 3)))
    return Binary("add", squashed, Const(round(centre, 3))) if centre else squashed


def is_exact_operand(expr: Expr) -> bool:
    """Whether the value of ``expr`` is an input itself (not computed): step functions of it are
    then decided by the same bits in the simulator and in the golden."""
    return isinstance(expr, (Leaf, Const))


@dataclass(frozen=True)
class Broadcast(Expr):
    """A broadcast of a one-tile-wide (or -high) operand to the block shape: element 0 along
    each broadcast dim is replicated over the whole target (docs/numerics.md "Broadcast")."""

    child: Expr
    along: str  # "rows" (the source is one row of tiles), "cols" (one column), "both"
    dims_text: str  # how the dims are written: "[-2]", "[0]", ...
    target: str  # the target: a shape for ttl.block.broadcast, the output block for ttl.math.broadcast
    full: tuple[int, int]  # the golden's element shape
    style: str = "block"  # "block" | "block_positional" | "math"

    @property
    def interval(self) -> Interval:  # type: ignore[override]
        return self.child.interval

    def render(self) -> str:
        child = self.child.render()
        if self.style == "math":
            return f"ttl.math.broadcast({child}, {self.target}, {self.dims_text})"
        if self.style == "block_positional":
            return f"ttl.block.broadcast({child}, {self.dims_text}, {self.target})"
        return f"ttl.block.broadcast({child}, dims={self.dims_text}, shape={self.target})"

    def golden(self, env: Env) -> torch.Tensor:
        source = self.child.golden(env)
        rows = slice(0, 1) if self.along in ("rows", "both") else slice(None)
        cols = slice(0, 1) if self.along in ("cols", "both") else slice(None)
        return source[rows, cols].expand(self.full)



@dataclass(frozen=True)
class Scalar(Leaf):
    """A runtime integer of the thread (the block index): a number operand, not a block."""
