"""``tilecraft lsp``: the Language Server Protocol server (pygls), wiring editor requests to the
parts that answer them.

- diagnostics: ``checks.py`` schedules compile checks, the sanitizer and the profile in the warm
  worker (``worker.py``); ``convert.py`` turns results into LSP diagnostics;
- inlay hints and code lenses: ``profile_view.py``;
- hover and completion: ``assist.py`` (names from ``vocabulary.py``, text from the language
  reference via ``docs.py``); go to definition: ``definition.py`` (Jedi).

Nothing here blocks the event loop: runs are tasks waiting on the worker, Jedi runs in a thread.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from .. import __version__
from . import profile_view
from .assist import Assistant, FileFacts, file_facts, parse_for_editing
from .checks import Checks, Snapshot
from .convert import RangeMaker, path_of, read_lines, uri_of
from .definition import definitions
from .docs import Reference
from .settings import Settings
from .workerclient import WorkerClient

log = logging.getLogger(__name__)

#: the command that runs the sanitizer on a file now (arguments: the document's URI)
SANITIZE = "tilecraft.sanitize"

_ITEM_KINDS = {"function": lsp.CompletionItemKind.Function, "class": lsp.CompletionItemKind.Class,
               "module": lsp.CompletionItemKind.Module, "constant": lsp.CompletionItemKind.Constant,
               "method": lsp.CompletionItemKind.Method, "property": lsp.CompletionItemKind.Property}


class TilecraftServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("tilecraft", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.settings = Settings()
        self.assistant = Assistant(Reference.load())
        self.checks = Checks(self.settings, WorkerClient(), self)
        #: the facts of the last text of each document that parsed (for completion while typing)
        self.facts: dict[str, FileFacts] = {}

    # ---------------------------------------------------------------- the Editor that Checks talks to
    def snapshot(self, uri: str) -> Snapshot:
        doc = self.workspace.get_text_document(uri)
        return Snapshot(doc.source, doc.version, list(doc.lines))

    def ranges(self, path: str, snap: Snapshot) -> RangeMaker:
        codec = self.workspace.position_codec
        return RangeMaker(path, snap.lines, lambda lines, row, col: codec.position_to_client_units(
            lines, lsp.Position(row, col)).character, read_lines)

    def publish(self, uri: str, version: int | None, diagnostics: list[lsp.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, diagnostics, version))

    def report(self, line: str) -> None:
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Log, f"tilecraft: {line}"))

    def refresh_profile(self) -> None:
        """Ask the client to fetch inlay hints and code lenses again, if it can be asked."""
        workspace = self.client_capabilities.workspace
        if workspace is None:
            return
        if workspace.inlay_hint is not None and workspace.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)
        if workspace.code_lens is not None and workspace.code_lens.refresh_support:
            self.workspace_code_lens_refresh(None)

    def facts_at(self, uri: str, line: int) -> FileFacts:
        tree = parse_for_editing(self.workspace.get_text_document(uri).source, line)
        if tree is not None:
            self.facts[uri] = file_facts(tree)
        return self.facts.get(uri, FileFacts(frozenset({"ttl"}), {}))


server = TilecraftServer()


@server.feature(lsp.INITIALIZE)
def initialize(ls: TilecraftServer, params: lsp.InitializeParams) -> None:
    options = params.initialization_options
    ls.settings.apply(options if isinstance(options, dict) else None)


@server.feature(lsp.SHUTDOWN)
async def shutdown(ls: TilecraftServer, params: Any) -> None:
    await ls.checks.close()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: TilecraftServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.checks.opened(params.text_document.uri, path_of(params.text_document.uri))


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: TilecraftServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.checks.changed(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: TilecraftServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.checks.saved(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: TilecraftServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.checks.closed(params.text_document.uri)
    ls.facts.pop(params.text_document.uri, None)


@server.command(SANITIZE)
async def sanitize(ls: TilecraftServer, uri: str) -> None:
    """Run the sanitizer on an open document now; returns once its diagnostics are published."""
    task = ls.checks.schedule(uri, "sanitize", 0.0)
    if task is not None:
        await asyncio.shield(task)


@dataclass(frozen=True)
class Cursor:
    """Where a request points: the document, the line (0-based), the column in characters."""

    doc: TextDocument
    line: int
    col: int

    @property
    def text(self) -> str:
        return self.doc.lines[self.line]


def cursor(ls: TilecraftServer, params: lsp.TextDocumentPositionParams) -> Cursor | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    pos = doc.position_from_client_units(params.position)
    return Cursor(doc, pos.line, pos.character) if pos.line < len(doc.lines) else None


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: TilecraftServer, params: lsp.HoverParams) -> lsp.Hover | None:
    at = cursor(ls, params)
    found = ls.assistant.hover(at.text, at.col, ls.facts_at(at.doc.uri, at.line)) if at else None
    if at is None or found is None:
        return None
    span = lsp.Range(at.doc.position_to_client_units(lsp.Position(at.line, found.start)),
                     at.doc.position_to_client_units(lsp.Position(at.line, found.end)))
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, found.markdown), span)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
def completion(ls: TilecraftServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    at = cursor(ls, params)
    names = ls.assistant.complete(at.text, at.col, ls.facts_at(at.doc.uri, at.line)) if at else None
    if names is None:
        return None
    items = []
    for name in names:
        text = ls.assistant.documentation(name)
        items.append(lsp.CompletionItem(
            label=name.name, kind=_ITEM_KINDS[name.kind], detail=name.detail,
            documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, text) if text else None))
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: TilecraftServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    at = cursor(ls, params)
    if at is None:
        return None
    doc = at.doc
    places = await asyncio.to_thread(definitions, doc.source, path_of(doc.uri), at.line, at.col)
    locations = []
    for place in places:
        lines = list(doc.lines) if place.path == path_of(doc.uri) else read_lines(place.path)
        start = ls.workspace.position_codec.position_to_client_units(lines, lsp.Position(place.line, place.col))
        locations.append(lsp.Location(uri_of(place.path), lsp.Range(start, start)))
    return locations or None


@server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT)
def inlay_hint(ls: TilecraftServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint]:
    state = ls.checks.documents.get(params.text_document.uri)
    if state is None:
        return []
    lines = list(ls.workspace.get_text_document(params.text_document.uri).lines)
    hints = profile_view.inlay_hints(state.timings, lines, params.range.start.line, params.range.end.line)
    codec = ls.workspace.position_codec
    for hint in hints:
        hint.position = codec.position_to_client_units(lines, hint.position)
    return hints


@server.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: TilecraftServer, params: lsp.CodeLensParams) -> list[lsp.CodeLens]:
    state = ls.checks.documents.get(params.text_document.uri)
    if state is None:
        return []
    lines = list(ls.workspace.get_text_document(params.text_document.uri).lines)
    return profile_view.code_lenses(state.timings, lines, params.text_document.uri)


def serve(stdio: bool = True, host: str = "127.0.0.1", port: int = 0) -> None:
    logging.basicConfig(level=logging.INFO, format="tilecraft lsp: %(levelname)s: %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)  # it logs every message at INFO
    if stdio:
        server.start_io()
    else:
        server.start_tcp(host, port)
