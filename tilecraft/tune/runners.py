"""Where candidates are evaluated: in this process, or on a Dask cluster (local or remote).

Both runners take the same tasks and call the same :func:`.evaluate.evaluate`; they differ only
in where it runs. A runner pulls the next task when it has a free slot and asks the sweep for its
job at that moment (``make_job``), so every job carries the newest cut-off.

Dask (the ``tune`` extra) is imported only when a Dask runner is asked for. Without a scheduler
address the runner starts a ``LocalCluster`` of worker processes (one per core unless told),
otherwise it connects to the given scheduler: the same code path either way, so a sweep that
outgrows one machine points ``--scheduler`` / ``TILECRAFT_DASK_SCHEDULER`` at a cluster.
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import time
import uuid
from importlib.machinery import ModuleSpec
from typing import Any, Callable, Iterable, Protocol

from ..diagnostics import UsageError
from .evaluate import LOST, Job, Outcome, evaluate
from .options import TuneOptions

MakeJob = Callable[[Any], Job]
Done = Callable[[Any, Outcome], None]

#: seconds without any result and without any worker after which a Dask sweep gives up
NO_WORKER_GRACE_S = 60.0
#: the module spawned workers import as their main module (see _spawn_without_rerunning_main)
SPAWN_MAIN = "tilecraft.tune.spawn_main"
#: seconds between looks at the futures in flight (a candidate takes 10 ms to seconds)
POLL_S = 0.01


class SchedulerUnreachable(UsageError):
    """The Dask scheduler given by ``--scheduler`` / ``TILECRAFT_DASK_SCHEDULER`` did not answer."""

    code = "E0605"


class DaskUnavailable(RuntimeError):
    """dask.distributed is not installed (the ``tune`` extra)."""


class Runner(Protocol):
    #: how it evaluates, for messages ("serially in this process", "a LocalCluster of 2 workers")
    description: str

    def run(self, tasks: Iterable[Any], make_job: MakeJob, done: Done) -> None: ...

    def close(self) -> None: ...


class SerialRunner:
    """Every candidate in this process, one after the other."""

    description = "serially in this process"

    def run(self, tasks: Iterable[Any], make_job: MakeJob, done: Done) -> None:
        for task in tasks:
            done(task, evaluate(make_job(task)))

    def close(self) -> None:
        pass


class DaskRunner:
    """Candidates as Dask tasks, a few more in flight than the cluster has threads."""

    def __init__(self, client: Any, cluster: Any, description: str, restore: Callable[[], None]):
        self.client = client
        self.cluster = cluster
        self.description = description
        self._restore = restore

    @classmethod
    def start(cls, workers: int | None, scheduler: str | None, timeout: float) -> "DaskRunner":
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise DaskUnavailable("dask.distributed is not installed: pip install 'tilecraft[tune]'") from None
        if scheduler:
            try:
                client = Client(scheduler, timeout=timeout, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise SchedulerUnreachable(
                    f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s ({type(exc).__name__}: "
                    f"{exc})", hint="start one with `dask scheduler` and `dask worker ADDRESS`, or check "
                    "--scheduler / TILECRAFT_DASK_SCHEDULER; leave both unset for a local cluster") from None
            try:
                client.wait_for_workers(1, timeout=timeout)
            except (OSError, TimeoutError):
                client.close()
                raise SchedulerUnreachable(f"the Dask scheduler at {scheduler} has no workers",
                                           hint="start workers with `dask worker ADDRESS`") from None
            n = sum(client.nthreads().values())
            return cls(client, None, f"the Dask cluster at {scheduler} ({n} worker thread{'s' * (n != 1)})",
                       lambda: None)
        n = workers or os.cpu_count() or 1
        restore = _spawn_without_rerunning_main()
        try:
            # a task whose worker dies is retried once on another worker, then reported as lost
            with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
                cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=logging.CRITICAL, env={"OMP_NUM_THREADS": "1"})
        except BaseException:
            restore()
            raise
        client = Client(cluster, set_as_default=False)
        return cls(client, cluster, f"a Dask LocalCluster of {n} worker process{'es' * (n != 1)}", restore)

    @property
    def slots(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def run(self, tasks: Iterable[Any], make_job: MakeJob, done: Done) -> None:
        from distributed import KilledWorker

        pending = iter(tasks)
        in_flight: dict[Any, Any] = {}

        def submit_next() -> None:
            for task in pending:
                job = make_job(task)
                key = f"tilecraft-tune-{job.phase}-{job.index}-{uuid.uuid4().hex[:8]}"
                in_flight[self.client.submit(evaluate, job, key=key, pure=False)] = task
                return

        for _ in range(self.slots + 2):
            submit_next()
        idle_since = time.monotonic()
        while in_flight:
            finished = [f for f in in_flight if f.done()]
            if not finished:
                if self.client.nthreads():
                    idle_since = time.monotonic()
                elif time.monotonic() - idle_since > NO_WORKER_GRACE_S:
                    raise RuntimeError(f"the Dask cluster ({self.description}) has had no worker for "
                                       f"{NO_WORKER_GRACE_S:g} s; {len(in_flight)} candidates were not evaluated")
                time.sleep(POLL_S)
                continue
            for future in finished:
                task = in_flight.pop(future)
                try:
                    outcome = future.result()
                except KilledWorker as exc:
                    outcome = _lost(task, f"the worker evaluating it died ({exc})")
                except Exception as exc:  # noqa: BLE001 - infrastructure failure of one task
                    outcome = _lost(task, f"{type(exc).__name__}: {exc}")
                future.release()
                done(task, outcome)
                submit_next()

    def close(self) -> None:
        try:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        finally:
            self._restore()


def _lost(task: Any, reason: str) -> Outcome:
    index, params = task.index, task.params
    return Outcome(index, dict(params), LOST, reason)


def _spawn_without_rerunning_main() -> Callable[[], None]:
    """Let worker processes start from a script that has no ``if __name__ == "__main__":`` guard.

    Dask starts workers with multiprocessing's "spawn", which re-runs the parent's main script in
    every child unless ``__main__.__spec__`` names a module to import instead. While the cluster
    lives (workers are restarted when one dies) the main module names :data:`SPAWN_MAIN`, whose
    import has no effect; afterwards it is given back its own spec. Returns the function that
    restores it.
    """
    main = sys.modules.get("__main__")
    if main is None or getattr(main, "__spec__", None) is not None or not hasattr(main, "__file__"):
        return lambda: None
    main.__spec__ = ModuleSpec(SPAWN_MAIN, None)

    def restore() -> None:
        main.__spec__ = None

    return restore


def open_runner(opts: TuneOptions) -> Runner:
    """The runner the options ask for; without Dask installed, the serial one (and it says so)."""
    if not opts.uses_dask():
        return SerialRunner()
    try:
        return DaskRunner.start(opts.workers, opts.scheduler, opts.connect_timeout)
    except DaskUnavailable as exc:
        print(f"tilecraft: {exc}; evaluating candidates serially in this process", file=sys.stderr)
        return SerialRunner()


_shared: dict[tuple, Runner] = {}


def shared_runner(opts: TuneOptions) -> Runner:
    """One runner per setting for the whole process (a cluster is started once, closed at exit)."""
    key = (opts.uses_dask(), opts.workers, opts.scheduler)
    found = _shared.get(key)
    if found is None:
        found = _shared[key] = open_runner(opts)
    return found


def close_shared() -> None:
    """Close every runner :func:`shared_runner` opened (``tilecraft tune`` does at its end)."""
    while _shared:
        _, runner = _shared.popitem()
        runner.close()


atexit.register(close_shared)
