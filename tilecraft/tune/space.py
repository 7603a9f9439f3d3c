"""Candidates: ``ttl.Config(BM=4, BN=8)`` lists and ``ttl.SearchSpace`` (ranges, choices, constraints).

A candidate is a set of hyper-parameters, passed to the operation as keyword arguments. A search
space is the lazy form: the cartesian product of each parameter's choices, filtered by
constraints as it is generated, so a space of millions of points is never held in memory and a
constraint can cut most of it before anything is built.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
from typing import Any, Callable, Iterable, Iterator, Union

from ..diagnostics import Span, error
from ..lang.scope import caller_span

#: the one hyper-parameter that is not a keyword argument of the operation: its launch grid
GRID = "grid"


class Config:
    """One candidate: hyper-parameter values by name (``ttl.Config(BM=4, BK=2, BN=8)``).

    ``grid=(c, r)`` is a launch setting rather than a keyword argument: it replaces the grid of the
    operation's decorator for this candidate.
    """

    __slots__ = ("params",)

    def __init__(self, **params: Any):
        self.params: dict[str, Any] = dict(params)

    def __repr__(self) -> str:
        return f"Config({', '.join(f'{k}={v!r}' for k, v in self.params.items())})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and other.params == self.params

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, repr(v)) for k, v in self.params.items())))

    def label(self) -> str:
        """``BM=4 BK=2 BN=8`` for tables and messages."""
        return " ".join(f"{k}={_short(v)}" for k, v in self.params.items())


Constraint = Callable[..., bool]


class SearchSpace:
    """``ttl.SearchSpace(BM=[2, 4, 8], BK=range(1, 9), where=lambda BM, BK: BM * BK <= 32)``.

    Each keyword names a hyper-parameter and gives its choices (any re-iterable: a list, a
    range, a tuple). ``where`` is one constraint or a list of them; a constraint names the
    parameters it reads as its own parameters and returns whether a point is kept. Points come
    in the order of the product (the last parameter varies fastest).
    """

    def __init__(self, *, where: Union[Constraint, Iterable[Constraint], None] = None, **choices: Iterable[Any]):
        span = caller_span(2)
        if not choices:
            raise error("E0601", "a search space needs at least one hyper-parameter", span,
                        hint="ttl.SearchSpace(BM=[2, 4, 8], BN=range(1, 9))")
        self.choices: dict[str, tuple[Any, ...]] = {}
        for name, values in choices.items():
            try:
                self.choices[name] = tuple(values)
            except TypeError:
                raise error("E0601", f"the choices of hyper-parameter {name!r} must be a list or a range, "
                            f"got {values!r}", span) from None
            if not self.choices[name]:
                raise error("E0601", f"hyper-parameter {name!r} has no choices", span)
        constraints = [] if where is None else [where] if callable(where) else list(where)
        self.constraints: list[tuple[Constraint, tuple[str, ...]]] = []
        for constraint in constraints:
            if not callable(constraint):
                raise error("E0601", f"a constraint must be a function of hyper-parameters, got {constraint!r}", span)
            names = tuple(inspect.signature(constraint).parameters)
            unknown = [n for n in names if n not in self.choices]
            if unknown:
                raise error("E0601", f"constraint reads {', '.join(map(repr, unknown))}, which the space does not "
                            f"define (its parameters: {', '.join(self.choices)})", span)
            self.constraints.append((constraint, names))

    def __iter__(self) -> Iterator[Config]:
        names = list(self.choices)
        for values in itertools.product(*self.choices.values()):
            point = dict(zip(names, values))
            if all(c(*(point[n] for n in args)) for c, args in self.constraints):
                yield Config(**point)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.choices)

    def describe(self) -> str:
        """The space as text (choices and the constraints' source), for the cache key."""
        parts = [f"{k}={list(v)!r}" for k, v in self.choices.items()]
        parts += [_source(c) for c, _ in self.constraints]
        return "; ".join(parts)

    def __repr__(self) -> str:
        return f"SearchSpace({self.describe()})"


Candidates = Union[SearchSpace, Iterable[Config]]


def check_candidates(configs: Any, span: Span | None) -> Candidates:
    """``configs=`` of ``@ttl.autotune``: a search space or a non-empty list of ``ttl.Config``."""
    if isinstance(configs, SearchSpace):
        return configs
    if isinstance(configs, (list, tuple)) and configs and all(isinstance(c, Config) for c in configs):
        return tuple(configs)
    raise error("E0601", f"configs must be a non-empty list of ttl.Config or a ttl.SearchSpace, got {configs!r}",
                span, hint="configs=[ttl.Config(BM=4, BN=8), ttl.Config(BM=8, BN=4)]")


def parameter_names(candidates: Candidates) -> tuple[str, ...]:
    """Every hyper-parameter any candidate sets, in first-seen order."""
    if isinstance(candidates, SearchSpace):
        return candidates.names
    names: dict[str, None] = {}
    for config in candidates:
        names.update(dict.fromkeys(config.params))
    return tuple(names)


def fingerprint(candidates: Candidates) -> str:
    """A short hash of the candidate set (a different set is a different tuning question)."""
    text = candidates.describe() if isinstance(candidates, SearchSpace) else repr(list(candidates))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _source(fn: Callable[..., Any]) -> str:
    try:
        return inspect.getsource(fn).strip()
    except (OSError, TypeError):
        return getattr(fn, "__qualname__", repr(fn))


def _short(value: Any) -> str:
    if isinstance(value, tuple):
        return "x".join(map(str, value))
    return str(value)
