"""The warm worker: a fork server with torch and tilecraft already imported, one child per run.

Why: checking a kernel means running its script's host code, and a fresh Python needs about a
second to import torch and tilecraft. This process imports them once; each run is a ``fork()``
(copy-on-write, a few milliseconds) whose child executes the buffer (``runner.py``) and exits,
so no state leaks from one run into the next and a run can be killed at any time. The worker
itself never runs user code and never calls into torch, so no thread pool exists when it forks.

Protocol (JSON lines; the language server is the only client):

- requests on stdin: ``{"op": "run", "id": N, "request": {path, text, mode, arch, fidelity, numerics},
  "timeout_s": T, "memory_mb": M}`` and ``{"op": "cancel", "id": N}``;
- one reply per run on stdout: ``{"id": N, "status": S, "events": [...], "elapsed_ms": ms}``
  where S is ``done``, ``cancelled``, ``timeout``, ``memory`` or ``crashed``; the events a run
  emitted before it was stopped are kept.

A child runs with its standard streams on /dev/null (the script's prints must not reach the
protocol), an address-space limit of its current size plus ``memory_mb``, and is killed
(SIGKILL) at its deadline or when cancelled.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any


def preload() -> None:
    """Import everything a run needs, so that each child starts warm."""
    import torch

    torch.set_num_threads(1)  # one core per run; and no OpenMP pool exists in the parent at fork
    from . import runner  # noqa: F401 - imports tilecraft, ttnn, the simulator, the cost model


@dataclass
class _Run:
    id: int
    pid: int
    fd: int
    deadline: float
    started: float
    output: bytearray = field(default_factory=bytearray)
    stopped: str | None = None  # "cancelled" or "timeout" once the worker killed it


class ForkServer:
    def __init__(self, requests: int, replies: int):
        self.requests = requests
        self.replies = replies
        self.selector = selectors.PollSelector()  # poll, unlike epoll, also takes a file as stdin
        self.runs: dict[int, _Run] = {}
        self.pending = bytearray()

    def serve(self) -> None:
        """Until the language server closes our stdin."""
        os.set_blocking(self.requests, False)
        self.selector.register(self.requests, selectors.EVENT_READ, None)
        while True:
            now = time.monotonic()
            timeout = min((run.deadline - now for run in self.runs.values()), default=None)
            for key, _ in self.selector.select(None if timeout is None else max(timeout, 0.0)):
                if key.data is None:
                    if not self.read_requests():
                        self.shutdown()
                        return
                elif self.runs.get(key.data.id) is key.data:  # not stopped earlier in this batch
                    self.read_child(key.data)
            now = time.monotonic()
            for run in [r for r in self.runs.values() if r.deadline <= now]:
                self.stop(run, "timeout")

    def read_requests(self) -> bool:
        try:
            chunk = os.read(self.requests, 1 << 16)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        self.pending += chunk
        while b"\n" in self.pending:
            line, _, rest = bytes(self.pending).partition(b"\n")
            self.pending = bytearray(rest)
            if line.strip():
                self.handle(json.loads(line))
        return True

    def handle(self, message: dict[str, Any]) -> None:
        if message["op"] == "run":
            self.start(message)
        elif message["op"] == "cancel":
            run = self.runs.get(message["id"])
            if run is not None:
                self.stop(run, "cancelled")

    def start(self, message: dict[str, Any]) -> None:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read_end)
            _child(message, write_end)
        os.close(write_end)
        now = time.monotonic()
        run = _Run(message["id"], pid, read_end, now + float(message.get("timeout_s", 10.0)), now)
        self.runs[run.id] = run
        self.selector.register(read_end, selectors.EVENT_READ, run)

    def read_child(self, run: _Run) -> None:
        chunk = os.read(run.fd, 1 << 16)
        if chunk:
            run.output += chunk
            return
        _, status = os.waitpid(run.pid, 0)
        self.finish(run, status)

    def stop(self, run: _Run, why: str) -> None:
        run.stopped = why
        try:
            os.kill(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, status = os.waitpid(run.pid, 0)
        self.finish(run, status)

    def finish(self, run: _Run, wait_status: int) -> None:
        self.selector.unregister(run.fd)
        os.close(run.fd)
        del self.runs[run.id]
        events = _events(run.output)
        reply = {"id": run.id, "status": _outcome(run, wait_status, events), "events": events,
                 "elapsed_ms": (time.monotonic() - run.started) * 1e3}
        data = (json.dumps(reply) + "\n").encode()
        while data:
            data = data[os.write(self.replies, data):]

    def shutdown(self) -> None:
        for run in list(self.runs.values()):
            self.stop(run, "cancelled")


def _events(output: bytearray) -> list[dict[str, Any]]:
    """The complete JSON lines a child wrote (a child killed mid-line leaves a partial last one)."""
    lines = bytes(output).split(b"\n")
    return [json.loads(line) for line in lines[:-1] if line.strip()]


def _outcome(run: _Run, wait_status: int, events: list[dict[str, Any]]) -> str:
    statuses = {e["status"] for e in events if e.get("event") == "status"}
    if run.stopped:
        return run.stopped
    if "memory" in statuses:
        return "memory"
    if "done" in statuses and os.WIFEXITED(wait_status) and os.WEXITSTATUS(wait_status) == 0:
        return "done"
    return "crashed"


def _child(message: dict[str, Any], out: int) -> None:
    """Run one request in this forked child and exit (``os._exit``: no parent cleanup runs here)."""
    code = 0
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.closerange(3, out)  # the worker's other pipes: a child must not hold them open
        os.closerange(out + 1, os.sysconf("SC_OPEN_MAX"))
        _limit_memory(message.get("memory_mb"))
        from .runner import RunRequest, run

        def emit(event: dict[str, Any]) -> None:
            data = (json.dumps(event) + "\n").encode()
            while data:
                data = data[os.write(out, data):]

        try:
            run(RunRequest(**message["request"]), emit)
        except MemoryError:
            emit({"event": "status", "status": "memory"})
        except BaseException:  # noqa: BLE001 - reported to the server, never a hung child
            emit({"event": "crash", "traceback": traceback.format_exc()})
            code = 1
    finally:
        os._exit(code)


def _limit_memory(megabytes: int | None) -> None:
    """Cap the address space at what the child already maps plus ``megabytes``."""
    if not megabytes:
        return
    with open("/proc/self/statm") as statm:
        mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limit = mapped + int(megabytes) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main() -> None:
    replies = os.dup(1)
    os.dup2(2, 1)  # stray prints go to stderr, never into the protocol
    preload()
    ForkServer(0, replies).serve()


if __name__ == "__main__":
    sys.exit(main())
