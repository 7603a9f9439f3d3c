"""``@ttl.autotune``: an operation whose hyper-parameters are chosen by the cost model.

::

    @ttl.autotune(configs=ttl.SearchSpace(BM=[2, 4, 8], BN=[2, 4, 8]), key=["a", "b"])
    @ttl.operation(grid="full")
    def matmul(a, b, y, *, BM, BN):
        ...

Hyper-parameters are keyword arguments of the operation (the body is host Python, so they are
ordinary values there, and compile-time constants in the threads). The *key* names arguments;
a key value is a tensor's shape, data format and layout, or a plain argument's value. The first
call for a key tunes (a sweep, :mod:`.sweep`), later calls reuse the winner from memory, and the
winner is stored on disk (:mod:`.cache`) for the next process.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterable

from .. import session
from ..diagnostics import Note, Span, calling_user_span, error
from ..lang.kernel import KernelDef
from ..lang.scope import caller_span
from ..perf import resolve_arch, resolve_fidelity
from ..version import __version__
from . import accuracy, options as tune_options, verify
from .cache import TuneCache
from .evaluate import FAILED, LOST, PRUNED, Outcome, split_params
from .fingerprint import program_hash
from .report import RichProgress
from .runners import shared_runner
from .shipping import CallSpec, DefinitionsOnly, OperationSource, loading_definitions, register
from .space import GRID, Candidates, check_candidates, fingerprint, parameter_names
from .sweep import Progress, SweepRequest, SweepResult, run_sweep


@dataclass(frozen=True)
class Setting:
    """One tuning question: the call (by key), the machine, and its cache record."""

    request: SweepRequest
    generation: str
    question: dict[str, Any]

    @property
    def memo(self) -> str:
        return repr(sorted(self.question.items()))


class Autotuned:
    """A tuned operation; call it like the operation, without its hyper-parameters."""

    def __init__(self, kernel: KernelDef, candidates: Candidates, key: list[str] | None, arch: str | None,
                 fidelity: str, fp32_acc: bool, verify: bool, reference: Callable[..., dict] | None,
                 rtol: float, atol: float, span: Span | None):
        self.kernel = kernel
        self.candidates = candidates
        self.params = parameter_names(candidates)
        self.key = key
        self.arch = arch
        self.fidelity = fidelity
        self.fp32_acc = fp32_acc
        self.verify = verify
        self.reference = reference
        self.rtol, self.atol = rtol, atol
        self.span = span
        self.winners: dict[str, dict[str, Any]] = {}
        #: the last sweep this operation ran (None until it tunes)
        self.last: SweepResult | None = None
        self.__name__ = kernel.name
        self.__doc__ = kernel.__doc__
        self.__wrapped__ = kernel.fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if loading_definitions():
            raise DefinitionsOnly()
        kernel, hyper = split_params(self.kernel, self.choose(*args, **kwargs))
        return kernel(*args, **kwargs, **hyper)

    def __repr__(self) -> str:
        return f"<ttl autotuned {self.kernel.name} over {', '.join(self.params)}>"

    # ------------------------------------------------------------------------------ choosing
    def choose(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The hyper-parameters for this call: remembered, cached on disk, or tuned now."""
        setting = self.setting(args, kwargs)
        found = self.winners.get(setting.memo)
        if found is not None:
            return found
        opts = tune_options.current()
        cache = TuneCache(opts.cache_dir)
        entry = cache.get(setting.question) if opts.use_cache else None
        if entry is not None:
            self.winners[setting.memo] = entry.winner
            return entry.winner
        result = self.sweep(setting, opts)
        winner = self.accept(result, setting, args, kwargs)
        best = next(o for o in result.outcomes if o.params == winner)
        cache.put(setting.question, winner, best.seconds or 0.0, best.bound)
        self.winners[setting.memo] = winner
        if opts.report is not None:
            opts.report(result)
        else:
            print(f"tilecraft: {self.kernel.name}: {_label(winner)} wins ({(best.seconds or 0) * 1e3:.3f} ms "
                  f"predicted, {best.bound}-bound) of {len(result.outcomes)} candidates, tuned in "
                  f"{result.elapsed_s:.1f} s {result.runner}", file=sys.stderr)
        return winner

    @cached_property
    def source(self) -> OperationSource:
        """What workers rebuild the operation from (read once: a module's text does not change
        under a running program); this process uses the operation itself."""
        source = OperationSource.of(self.kernel, self.span)
        register(source, self.kernel)
        return source

    @cached_property
    def program_hash(self) -> str:
        return program_hash(self.kernel)

    def tune(self, *args: Any, **kwargs: Any) -> SweepResult:
        """Sweep the candidates for this call now (no cache, no verification); returns the result."""
        setting = self.setting(args, kwargs)
        return self.sweep(setting, tune_options.current())

    def setting(self, args: tuple, kwargs: dict) -> Setting:
        span = calling_user_span()
        passed = [p for p in self.params if p in kwargs]
        if passed:
            raise error("E0601", f"{', '.join(passed)} of {self.kernel.name}() {'is' if len(passed) == 1 else 'are'} "
                        "chosen by @ttl.autotune; do not pass them", span,
                        hint="call the tuned operation with its tensors only")
        call = CallSpec.of(self.kernel, args, kwargs, span)
        names = self.key if self.key is not None else [n for n, _ in call.arguments]
        key = {name: str(call.named(name)) for name in names if _has(call, name)}
        opts = tune_options.current()
        run = session.options()
        board = resolve_arch(opts.arch or self.arch or run.arch)
        fidelity = resolve_fidelity(opts.fidelity or self.fidelity).name
        grid = tuple(run.grid) if run.grid and board.name == run.arch else board.compute_grid
        source = self.source
        arch = board.board or board.name
        question = {"program": self.kernel.name, "operation": self.kernel.fn.__qualname__,
                    "program_hash": self.program_hash, "candidates": fingerprint(self.candidates),
                    "key": key, "arch": arch, "grid": list(grid), "fidelity": fidelity, "fp32_acc": self.fp32_acc,
                    "tilecraft": __version__}
        key_text = " ".join(f"{k}={v}" for k, v in key.items())
        request = SweepRequest(self.kernel.name, source, call, key_text, arch, grid, fidelity, self.fp32_acc)
        return Setting(request, board.name, question)

    def sweep(self, setting: Setting, opts: tune_options.TuneOptions) -> SweepResult:
        runner = shared_runner(opts)
        if opts.report is None:
            print(f"tilecraft: tuning {self.kernel.name}({setting.request.key}) for {setting.request.arch} at "
                  f"{setting.request.fidelity}, {runner.description}", file=sys.stderr)
        progress = _progress(opts, self.kernel.name)
        try:
            result = run_sweep(setting.request, self.candidates, runner, top=opts.top, exhaustive=opts.exhaustive,
                               progress=progress)
        finally:
            close = getattr(progress, "close", None)
            if close is not None:
                close()
        self.last = result
        return result

    def accept(self, result: SweepResult, setting: Setting, args: tuple, kwargs: dict) -> dict[str, Any]:
        """The winner: the fastest candidate, or the fastest within ``--max-error`` (each ranked
        candidate's error measured with ``--accuracy`` or ``--max-error``) that, with ``verify``,
        computes the reference."""
        if not result.ranked:
            raise error("E0602", f"no candidate of {self.kernel.name}() could be estimated: "
                        f"{len(result.with_status(PRUNED))} pruned, {len(result.with_status(FAILED))} failed, "
                        f"{len(result.with_status(LOST))} lost", self.span,
                        notes=[Note(f"{_label(o.params)}: {o.status}: {o.reason}") for o in result.outcomes[:8]],
                        hint="widen the search space, or fix what the reasons name")
        opts = tune_options.current()
        fidelity = setting.request.fidelity
        if opts.accuracy or opts.max_error is not None:
            for outcome in result.ranked[:result.top]:
                outcome.error = accuracy.measure(self.kernel, outcome.params, args, kwargs, setting.generation,
                                                 setting.request.grid, fidelity)
        if not self.verify and opts.max_error is None:
            return result.ranked[0].params
        expected = self._expected(args, kwargs) if self.verify else None
        rejected: list[Outcome] = []
        for outcome in result.ranked[:result.top]:
            if opts.max_error is not None and (outcome.error or 0.0) > opts.max_error:
                outcome.reason = (f"rejected by --max-error: error {outcome.error:.3%} at {fidelity} is above "
                                  f"{opts.max_error:.3%}")
            elif expected is not None:
                problem = verify.check(self.kernel, outcome.params, args, kwargs, expected, setting.generation,
                                       setting.request.grid, self.rtol, self.atol)
                if problem is None:
                    return outcome.params
                outcome.reason = f"rejected by verify: {problem}"
            else:
                return outcome.params
            rejected.append(outcome)
        if expected is None or all(o.reason.startswith("rejected by --max-error") for o in rejected):
            raise error("E0640", f"none of the {len(rejected)} best candidates of {self.kernel.name}() is within "
                        f"--max-error {opts.max_error:.3%} at {fidelity}", self.span,
                        notes=[Note(f"{_label(o.params)}: {o.reason}") for o in rejected],
                        hint="a higher fidelity (--fidelity HiFi4, or the operation's fidelity=) costs time and "
                             "buys accuracy; or allow a larger error")
        raise error("E0603", f"none of the {len(rejected)} best candidates of {self.kernel.name}() computes the "
                    "reference", self.span, notes=[Note(f"{_label(o.params)}: {o.reason}") for o in rejected],
                    hint="check the kernel with these hyper-parameters in the simulator (tilecraft run)")

    def _expected(self, args: tuple, kwargs: dict) -> dict[str, Any]:
        expected = self.reference(*args, **kwargs) if self.reference is not None else None
        names = inspect.signature(self.kernel.fn).parameters
        if not isinstance(expected, dict) or not expected or not all(k in names for k in expected):
            raise error("E0601", f"reference of {self.kernel.name}() must return a dict from output argument "
                        f"names to expected torch tensors, got {type(expected).__name__}", self.span,
                        hint="reference=lambda a, b, y: {'y': torch_a @ torch_b}")
        return expected


def autotune(configs: Candidates, key: Iterable[str] | None = None, *, arch: str | None = None,
             fidelity: str = "HiFi4", fp32_acc: bool = False, verify: bool = False,
             reference: Callable[..., dict] | None = None, rtol: float = 1e-2,
             atol: float = 1e-2) -> Callable[[KernelDef], Autotuned]:
    """Tune the keyword hyper-parameters of the operation below it with the cost model.

    ``configs``: a list of :class:`ttl.Config` or a :class:`ttl.SearchSpace`. ``key``: argument
    names whose shapes (tensors) or values (plain arguments) select a tuning; None: all of them.
    ``arch``: the board or generation to tune for (default: the run's). ``fidelity`` and
    ``fp32_acc``: what the cost model assumes. ``verify=True`` with ``reference=`` checks the
    winner's values in the simulator before accepting it (tolerances ``rtol``, ``atol``).
    """
    span = caller_span(2)
    candidates = check_candidates(configs, span)
    keys = None if key is None else list(key)
    if verify and reference is None:
        raise error("E0601", "verify=True needs reference=, a function of the operation's arguments that returns "
                    "the expected outputs", span, hint="reference=lambda a, b, y: {'y': a_torch @ b_torch}")
    if arch is not None:
        _checked(resolve_arch, arch, span)
    _checked(resolve_fidelity, fidelity, span)

    def wrap(kernel: Any) -> Autotuned:
        if not isinstance(kernel, KernelDef):
            raise error("E0601", "@ttl.autotune goes above @ttl.operation (or @ttl.kernel)", span,
                        hint="@ttl.autotune(configs=...)\n@ttl.operation(grid=...)\ndef op(...): ...")
        _check_signature(kernel, parameter_names(candidates), keys, span)
        return Autotuned(kernel, candidates, keys, arch, fidelity, fp32_acc, verify, reference, rtol, atol, span)

    return wrap


def _check_signature(kernel: KernelDef, params: tuple[str, ...], keys: list[str] | None, span: Span | None) -> None:
    parameters = inspect.signature(kernel.fn).parameters
    takes_any = any(p.kind == inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    keyword = {n for n, p in parameters.items()
               if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)}
    missing = [p for p in params if p != GRID and p not in keyword and not takes_any]
    if missing:
        raise error("E0601", f"{kernel.name}() has no keyword parameter {', '.join(map(repr, missing))} for the "
                    "tuned hyper-parameters", span,
                    hint=f"add them to its signature: def {kernel.name}(..., *, {', '.join(missing)})")
    wrong = [k for k in keys or () if k not in parameters or k in params]
    if wrong:
        raise error("E0601", f"key names {', '.join(map(repr, wrong))}, which {'is' if len(wrong) == 1 else 'are'} "
                    f"not an argument of {kernel.name}() (hyper-parameters cannot be keys)", span,
                    hint=f"name tensor arguments: key={[n for n in parameters if n not in params][:3]!r}")


def _checked(resolve: Callable[[str], Any], value: str, span: Span | None) -> None:
    try:
        resolve(value)
    except ValueError as exc:
        raise error("E0601", str(exc), span) from None


def _has(call: CallSpec, name: str) -> bool:
    return any(arg == name for arg, _ in call.arguments)


def _label(params: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


def _progress(opts: tune_options.TuneOptions, name: str) -> Progress | None:
    return RichProgress(name) if opts.progress else None
