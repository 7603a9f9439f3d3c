"""When each run happens, and what becomes of its results: one :class:`Checks` per server.

- the compile check runs when a file is opened and ``debounce`` after each change; a newer change
  cancels the run in flight (its child is killed), so results are never older than the text;
- the sanitizer runs on save (and on demand); a change cancels it, and its diagnostics, which
  describe text that is gone, are dropped until the next save;
- the profile runs on open and on save; its numbers stay, anchored to their lines' text.

Only documents the editor opened are run, only when they import the language (a Python file that
does not is never executed), and only when the settings allow running scripts at all. All of it
runs as tasks on the server's event loop, waiting on the worker: typing is never blocked.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types as lsp

from ..diagnostics import Diagnostic, Span
from .convert import RangeMaker, convert_all, span_of
from .profile_view import ProgramTiming, collect
from .runner import INTERNAL_ERROR, RunRequest
from .settings import Settings
from .sizes import DIRECTIVE
from .workerclient import RunResult, WorkerClient

log = logging.getLogger(__name__)

#: a run stopped by its time or memory limit
STOPPED = "W0604"
#: the file uses the language: only such files are ever executed
_USES_LANGUAGE = re.compile(r"^\s*(import|from)\s+(ttl|tilecraft)\b", re.MULTILINE)
_WHAT = {"compile": "compile check", "sanitize": "sanitizer", "profile": "profile"}


@dataclass
class Snapshot:
    """The text of a document at one version, as the editor has it."""

    text: str
    version: int | None
    lines: list[str]


@dataclass
class DocumentState:
    uri: str
    path: str
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    compile: list[dict[str, Any]] = field(default_factory=list)
    sanitize: list[dict[str, Any]] = field(default_factory=list)
    #: where this file launched its last program (diagnostics from elsewhere are shown there)
    anchor: Span | None = None
    timings: list[ProgramTiming] = field(default_factory=list)
    #: the modes whose run is in the worker now
    running: set[str] = field(default_factory=set)


class Editor(Protocol):
    """What the checks need from the server's side of the connection."""

    def snapshot(self, uri: str) -> Snapshot: ...

    def ranges(self, path: str, snap: Snapshot) -> RangeMaker: ...

    def publish(self, uri: str, version: int | None, diagnostics: list[lsp.Diagnostic]) -> None: ...

    def refresh_profile(self) -> None: ...

    def report(self, line: str) -> None:
        """One line for the client's log per run: what ran, how it ended, how long it took."""


class Checks:
    def __init__(self, settings: Settings, worker: WorkerClient, editor: Editor):
        self.settings = settings
        self.worker = worker
        self.editor = editor
        self.documents: dict[str, DocumentState] = {}

    # ---------------------------------------------------------------- editor events
    def opened(self, uri: str, path: str) -> None:
        self.documents[uri] = DocumentState(uri, path)
        self.schedule(uri, "compile", 0.0)
        if self.settings.profile_on_save:
            self.schedule(uri, "profile", 0.0)

    def changed(self, uri: str) -> None:
        state = self.documents.get(uri)
        if state is None:
            return
        self.cancel(state, "sanitize")
        if state.sanitize:
            state.sanitize = []
            self.show(state)
        self.schedule(uri, "compile", self.settings.debounce_ms / 1e3)

    def saved(self, uri: str) -> None:
        if self.settings.sanitize_on_save:
            self.schedule(uri, "sanitize", 0.0)
        if self.settings.profile_on_save:
            self.schedule(uri, "profile", 0.0)

    def closed(self, uri: str) -> None:
        state = self.documents.pop(uri, None)
        if state is not None:
            for mode in list(state.tasks):
                self.cancel(state, mode)
            self.editor.publish(uri, None, [])

    async def close(self) -> None:
        for uri in list(self.documents):
            self.closed(uri)
        await self.worker.close()

    # ---------------------------------------------------------------- runs
    def runnable(self, uri: str) -> bool:
        return self.settings.run_scripts and _USES_LANGUAGE.search(self.editor.snapshot(uri).text) is not None

    def schedule(self, uri: str, mode: str, delay: float) -> asyncio.Task[None] | None:
        """Start a ``mode`` run of the document after ``delay`` s, replacing one in flight."""
        state = self.documents.get(uri)
        if state is None or not self.runnable(uri):
            return None
        self.cancel(state, mode)
        task = asyncio.create_task(self._run(state, mode, delay))
        state.tasks[mode] = task
        return task

    def cancel(self, state: DocumentState, mode: str) -> None:
        task = state.tasks.pop(mode, None)
        if task is not None:
            task.cancel()

    async def _run(self, state: DocumentState, mode: str, delay: float) -> None:
        try:
            await asyncio.sleep(delay)  # the debounce: a newer change cancels the task here, silently
            await self._run_once(state, mode)
        except asyncio.CancelledError:
            if mode in state.running:
                self.editor.report(f"{_WHAT[mode]} of {Path(state.path).name}: cancelled (the file changed)")
            raise
        except Exception:  # noqa: BLE001 - a failed run must not end the server; the log says why
            log.exception("tilecraft %s of %s failed", _WHAT[mode], state.path)
        finally:
            state.running.discard(mode)
            if state.tasks.get(mode) is asyncio.current_task():
                del state.tasks[mode]

    async def _run_once(self, state: DocumentState, mode: str) -> None:
        state.running.add(mode)
        snap = self.editor.snapshot(state.uri)
        request = RunRequest(state.path, snap.text, mode, self.settings.arch, self.settings.fidelity,
                             self.settings.numerics)
        result = await self.worker.run(request, self.settings.limits(mode))
        self.editor.report(f"{_WHAT[mode]} of {Path(state.path).name}: {result.status} in "
                           f"{result.elapsed_ms:.0f} ms, {len(result.of_kind('diagnostic'))} diagnostic(s), "
                           f"{len(result.of_kind('launch'))} launch(es)")
        for crash in result.of_kind("crash"):
            log.error("tilecraft %s of %s crashed:\n%s", _WHAT[mode], state.path, crash["traceback"])
        if mode == "profile":  # kept across edits: its numbers are anchored to their lines' text
            state.timings = collect(result.events, state.path)
            self.editor.refresh_profile()
            return
        if self.editor.snapshot(state.uri).version != snap.version:
            return  # the text changed meanwhile (its own run is scheduled)
        found = [e["diagnostic"] for e in result.of_kind("diagnostic")]
        found += self.outcome_diagnostics(state, mode, result, snap)
        if mode == "compile":
            state.anchor = _last_launch(result, state.path)
            state.compile = found
        else:
            state.sanitize = found
        self.show(state)

    def outcome_diagnostics(self, state: DocumentState, mode: str, result: RunResult,
                            snap: Snapshot) -> list[dict[str, Any]]:
        """A run that did not finish says so, at the launch it was in (or the sizes comment)."""
        if result.status in ("done", "cancelled"):
            return []
        at = _last_launch(result, state.path)
        if at is None:
            row = next((i for i, line in enumerate(snap.lines) if DIRECTIVE.match(line)), 0)
            at = Span(state.path, row + 1, 1)
        what = _WHAT[mode]
        limits = self.settings.limits(mode)
        hint = ("declare smaller sizes for the editor's runs with a '# tilecraft: sizes NAME=INT' comment "
                "(docs/lsp.md), or raise the limit in the settings")
        if result.status == "timeout":
            return [Diagnostic(STOPPED, f"the {what} stopped at its time limit of {limits.timeout_s:g} s",
                               at, (), hint, "warning").to_json()]
        if result.status == "memory":
            return [Diagnostic(STOPPED, f"the {what} stopped at its memory limit of {limits.memory_mb} MiB",
                               at, (), hint, "warning").to_json()]
        return [Diagnostic(INTERNAL_ERROR, f"internal error: the {what} process failed", at, (),
                           "this is a bug in tilecraft; the language server's log has the details").to_json()]

    def show(self, state: DocumentState) -> None:
        snap = self.editor.snapshot(state.uri)
        diagnostics = convert_all([*state.compile, *state.sanitize], self.editor.ranges(state.path, snap), state.anchor)
        self.editor.publish(state.uri, snap.version, diagnostics)


def _last_launch(result: RunResult, path: str) -> Span | None:
    """Where this file launched the last program the run reached."""
    launches = [span_of(e["span"]) for e in result.of_kind("launch")]
    return next((s for s in reversed(launches) if s is not None and s.file == path), None)
