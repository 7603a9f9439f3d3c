"""A sweep: every candidate compiled (or pruned), the survivors estimated with a cut-off, ranked.

Two phases, both through the same runner:

1. *compile*: each candidate's program is built; one that does not build (L1 overflow, a shape
   that does not divide) is pruned with its reason and never estimated.
   The compile phase also computes each survivor's lower bound (:mod:`tilecraft.perf.bound`: the
   busiest thread or resource of two cores run on their own, a few percent of an estimate).
2. *estimate*: the survivors are estimated in the order of their lower bounds, so good times
   come early. The cut-off is the k-th best predicted time so far (k = ``top``): a candidate whose
   lower bound passes it is not estimated at all, and each job carries it so that the timing
   engine abandons a candidate as soon as any of its threads passes it (the program cannot end
   sooner than its slowest thread).

Why the ranking is exact however the jobs are spread over workers: a cut-off is always at least
the final k-th best time (the k-th best of a subset is never better than the k-th best of all),
so no candidate of the final top k is ever cut, and its time is the full estimate. The ranked
table is therefore the same for a serial run, a Dask run and an exhaustive run; only how many of
the slower candidates were cut rather than run to the end differs, and the tables count those
together as "slower than the k-th".
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator, Protocol, Sized

from ..version import __version__
from .evaluate import COMPILED, OK, SLOWER, Job, Outcome
from .runners import Runner
from .shipping import CallSpec, OperationSource
from .space import Config


#: predicted times closer than this (cycles) are a tie, ranked in candidate order
TIE = 1e-3


@dataclass(frozen=True)
class SweepRequest:
    """What is tuned: the operation, its call, and the machine the cost model predicts for."""

    program: str
    source: OperationSource
    call: CallSpec
    #: the key values as text (``a=bfloat16[4096x4096] b=...``)
    key: str
    arch: str
    grid: tuple[int, ...] | None
    fidelity: str
    fp32_acc: bool = False


@dataclass(frozen=True)
class Candidate:
    index: int
    params: dict[str, Any]


class Progress(Protocol):
    def phase(self, name: str, total: int | None) -> None: ...

    def advance(self) -> None: ...


class NoProgress:
    def phase(self, name: str, total: int | None) -> None:
        pass

    def advance(self) -> None:
        pass


@dataclass
class SweepResult:
    request: SweepRequest
    #: one outcome per candidate, in candidate order
    outcomes: list[Outcome]
    top: int
    exhaustive: bool
    runner: str = field(default="", compare=False)
    elapsed_s: float = field(default=0.0, compare=False)

    @property
    def ranked(self) -> list[Outcome]:
        """Every fully estimated candidate, fastest first; equal times (to a thousandth of a cycle,
        below the rounding of the model's sums) in candidate order."""
        done = [o for o in self.outcomes if o.status == OK]
        return sorted(done, key=lambda o: (round(o.cycles, 3), o.index))  # 3 digits: see TIE

    @property
    def kept(self) -> list[Outcome]:
        """The top ``top`` (every estimated candidate when exhaustive)."""
        ranked = self.ranked
        return ranked if self.exhaustive else ranked[:self.top]

    @property
    def best(self) -> Outcome | None:
        ranked = self.ranked
        return ranked[0] if ranked else None

    def with_status(self, status: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == status]

    @property
    def slower(self) -> int:
        """Candidates outside the kept ranking: cut off, or estimated and slower than the k-th."""
        return len(self.with_status(SLOWER)) + len(self.ranked) - len(self.kept)


def run_sweep(request: SweepRequest, candidates: Iterable[Config], runner: Runner, *, top: int = 5,
              exhaustive: bool = False, progress: Progress | None = None) -> SweepResult:
    """Compile, prune, estimate and rank ``candidates`` (a list or a lazy search space)."""
    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    progress = progress or NoProgress()
    start = time.perf_counter()
    outcomes: dict[int, Outcome] = {}
    compiled: list[Outcome] = []

    def job(task: Any, phase: str, stop_after: float = float("inf")) -> Job:
        return Job(task.index, task.params, request.source, request.call, request.arch, request.grid,
                   request.fidelity, request.fp32_acc, phase, stop_after, __version__)

    def on_compiled(task: Any, outcome: Outcome) -> None:
        progress.advance()
        if outcome.status == COMPILED:
            compiled.append(outcome)
        else:
            outcomes[task.index] = outcome

    progress.phase("compiling", len(candidates) if isinstance(candidates, Sized) else None)
    tasks = (Candidate(i, c.params) for i, c in enumerate(candidates))
    runner.run(tasks, lambda t: job(t, "compile"), on_compiled)

    best: list[float] = []

    def cut_off() -> float:
        """The k-th best time so far, with the ranking's rounding as margin (ties are never cut)."""
        return float("inf") if exhaustive or len(best) < top else best[top - 1] + TIE

    def on_estimated(task: Any, outcome: Outcome) -> None:
        progress.advance()
        outcomes[task.index] = outcome
        if outcome.status == OK:
            bisect.insort(best, round(outcome.cycles, 3))

    def worth_estimating() -> Iterator[Outcome]:
        """The compiled candidates by lower bound; one whose bound passes the cut-off when the
        runner asks for it is slower than the top k without being estimated."""
        for o in sorted(compiled, key=lambda o: (o.lower_bound, o.index)):
            limit = cut_off()
            if o.lower_bound > limit:
                progress.advance()
                outcomes[o.index] = replace(o, status=SLOWER, reason=f"takes at least {o.lower_bound:,.0f} cycles, "
                                            f"more than the top {top} ({limit:,.0f})")
                continue
            yield o

    progress.phase("estimating", len(compiled))
    runner.run(worth_estimating(), lambda t: job(t, "estimate", cut_off()), on_estimated)
    return SweepResult(request, [outcomes[i] for i in sorted(outcomes)], top, exhaustive, runner.description,
                       time.perf_counter() - start)

