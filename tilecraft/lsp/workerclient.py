"""The language server's side of the warm worker (``worker.py``): start it, ask it, cancel runs.

Everything here runs on the server's event loop and never blocks it: requests are written to
the worker's stdin, replies are read by one task and handed to the awaiting coroutine. Cancelling
that coroutine (a newer edit, a closed file) cancels the run, and the worker kills its child. A
worker that died (killed, out of memory) is started again on the next request.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import logging
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from .runner import RunRequest

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunLimits:
    timeout_s: float
    memory_mb: int | None = None


@dataclass
class RunResult:
    #: done, cancelled, timeout, memory or crashed (see worker.py)
    status: str
    events: list[dict[str, Any]] = field(default_factory=list)
    elapsed_ms: float = 0.0

    def of_kind(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("event") == event]


class WorkerClient:
    def __init__(self, python: str = sys.executable):
        self.python = python
        self.process: asyncio.subprocess.Process | None = None
        self.reader: asyncio.Task[None] | None = None
        self.waiting: dict[int, asyncio.Future[RunResult]] = {}
        self.ids = itertools.count(1)
        self.starting = asyncio.Lock()

    async def ensure_started(self) -> asyncio.subprocess.Process:
        async with self.starting:
            if self.process is None or self.process.returncode is not None:
                env = {**os.environ, "OMP_NUM_THREADS": "1"}
                self.process = await asyncio.create_subprocess_exec(
                    self.python, "-m", "tilecraft.lsp.worker", stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE, env=env)
                self.reader = asyncio.create_task(self._read_replies(self.process))
            return self.process

    async def run(self, request: RunRequest, limits: RunLimits) -> RunResult:
        """Run ``request`` in a fresh child of the worker; cancelling this cancels the run."""
        process = await self.ensure_started()
        run_id = next(self.ids)
        future: asyncio.Future[RunResult] = asyncio.get_running_loop().create_future()
        self.waiting[run_id] = future
        self._send(process, {"op": "run", "id": run_id, "request": dataclasses.asdict(request),
                             "timeout_s": limits.timeout_s, "memory_mb": limits.memory_mb})
        try:
            return await future
        except asyncio.CancelledError:
            if process.returncode is None:
                self._send(process, {"op": "cancel", "id": run_id})
            raise
        finally:
            self.waiting.pop(run_id, None)

    def _send(self, process: asyncio.subprocess.Process, message: dict[str, Any]) -> None:
        assert process.stdin is not None
        process.stdin.write((json.dumps(message) + "\n").encode())

    async def _read_replies(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        while line := await process.stdout.readline():
            reply = json.loads(line)
            future = self.waiting.get(reply["id"])
            if future is not None and not future.done():
                future.set_result(RunResult(reply["status"], reply["events"], reply["elapsed_ms"]))
        await process.wait()
        if self.waiting:
            log.warning("tilecraft worker exited with status %s during a run", process.returncode)
        for future in self.waiting.values():  # runs in flight when it died
            if not future.done():
                future.set_result(RunResult("crashed"))

    async def close(self) -> None:
        if self.process is not None and self.process.returncode is None:
            assert self.process.stdin is not None
            self.process.stdin.close()  # the worker kills its children and exits
            try:
                await asyncio.wait_for(self.process.wait(), 5)
            except asyncio.TimeoutError:
                self.process.kill()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
