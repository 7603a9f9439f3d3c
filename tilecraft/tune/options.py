"""Tuning options: one explicit object, as :mod:`tilecraft.options` is for runs.

``tilecraft tune`` fills it from its command line; a program sets it with
``ttl.tune_options(workers=4)``. Environment variables give defaults, read once when the object
is made: ``TILECRAFT_DASK_SCHEDULER`` (the address of an existing Dask cluster, as
``--scheduler``) and ``TILECRAFT_TUNE_CACHE`` (where tuning results are kept; by default the
``tune`` folder of tilecraft's cache, ``$TILECRAFT_CACHE_DIR`` or ``~/.cache/tilecraft``).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from ..user_cache import cache_root

SCHEDULER_VARIABLE = "TILECRAFT_DASK_SCHEDULER"
CACHE_VARIABLE = "TILECRAFT_TUNE_CACHE"


def default_cache_dir() -> Path:
    """``$TILECRAFT_TUNE_CACHE``, else ``tune/`` in tilecraft's cache (``~/.cache/tilecraft/tune``)."""
    given = os.environ.get(CACHE_VARIABLE)
    return Path(given) if given else cache_root() / "tune"


@dataclass
class TuneOptions:
    #: the board or generation to tune for; None: the decorator's ``arch=``, else the run's
    arch: Optional[str] = None
    #: math fidelity the cost model assumes; None: the decorator's ``fidelity=``
    fidelity: Optional[str] = None
    #: evaluate candidates on Dask: None decides by ``scheduler`` / ``workers`` (see ``uses_dask``)
    dask: Optional[bool] = None
    #: workers of the LocalCluster started for a sweep; None: one per core
    workers: Optional[int] = None
    #: address of an existing Dask scheduler (wins over ``workers``)
    scheduler: Optional[str] = field(default_factory=lambda: os.environ.get(SCHEDULER_VARIABLE) or None)
    #: seconds to wait for the scheduler before giving up with a clear error
    connect_timeout: float = 10.0
    #: configurations kept in the ranking; the cut-off stops any candidate slower than the k-th
    top: int = 5
    #: run every candidate to its end (no cut-off): every candidate gets a predicted time
    exhaustive: bool = False
    #: reuse tuning results from the disk cache (``tilecraft tune`` always sweeps, and stores)
    use_cache: bool = True
    cache_dir: Path = field(default_factory=default_cache_dir)
    #: show a progress bar (rich) while a sweep runs
    progress: bool = False
    #: measure each ranked candidate's error at the sweep's fidelity on the call's inputs (an accuracy column)
    accuracy: bool = False
    #: the largest error a winner may have (relative to each store's largest value); implies ``accuracy``
    max_error: Optional[float] = None
    #: called with every finished sweep (``tilecraft tune`` prints its tables here)
    report: Optional[Callable[[Any], None]] = None

    def uses_dask(self) -> bool:
        """Dask when asked, or when a scheduler or a worker count is given. A program that merely
        calls a tuned operation tunes in its own process unless told otherwise; ``tilecraft tune``
        asks for Dask (a LocalCluster, one worker per core) by default."""
        if self.dask is not None:
            return self.dask
        return self.scheduler is not None or self.workers is not None


#: the options in force, a context variable as the run options are (tilecraft/session.py)
_CURRENT: ContextVar[TuneOptions | None] = ContextVar("tilecraft_tune_options", default=None)


def current() -> TuneOptions:
    """The tuning options in force (defaults, with the environment read now, when none are set)."""
    return _CURRENT.get() or TuneOptions()


def _changed(changes: dict[str, Any]) -> TuneOptions:
    known = {f.name for f in fields(TuneOptions)}
    unknown = sorted(set(changes) - known)
    if unknown:
        raise TypeError(f"unknown tuning option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return replace(current(), **changes)


def tune_options(**changes: Any) -> TuneOptions:
    """Set tuning options for the rest of the program (``ttl.tune_options(workers=2)``); returns them.

    Unknown names are a ``TypeError`` that lists the known ones. Under ``tilecraft tune`` (or any
    :func:`using` block) the change ends with the block.
    """
    opts = _changed(changes)
    _CURRENT.set(opts)
    return opts


@contextmanager
def using(**changes: Any) -> Iterator[TuneOptions]:
    """Tuning options changed for the length of a block, restored after it."""
    token = _CURRENT.set(_changed(changes))
    try:
        yield current()
    finally:
        _CURRENT.reset(token)
