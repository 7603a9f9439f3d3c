"""``tilecraft lsp`` driven as an editor drives it (pytest-lsp starts the real server over stdio
and speaks LSP to it with VS Code's client capabilities).

Diagnostics appear while typing a compile error and disappear when it is fixed; the sanitizer
reports a deadlock (with every blocked thread) and a protocol error after save, and a stale
sanitizer run is cancelled; inlay hints and code lenses carry the profile's per-line table; hover,
completion, go to definition and the sizes comment work on real files.
"""

from __future__ import annotations

import asyncio
import runpy
import sys
from pathlib import Path
from typing import Callable, Sequence

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra: pip install -e '.[lsp]'")
pytest.importorskip("jedi", reason="the language server needs the lsp extra: pip install -e '.[lsp]'")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="the server tests need pytest-lsp (the test extra)")

from lsprotocol import types as lsp  # noqa: E402

from tests.paths import EXAMPLES, TESTS
from tilecraft.perf import estimate  # noqa: E402
from tilecraft.perf.capture import programs  # noqa: E402

MISUSE = TESTS / "misuse"
DATA = TESTS / "lsp"

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=pytest_lsp.ClientServerConfig(
    server_command=[sys.executable, "-m", "tilecraft", "lsp"], server_env={"OMP_NUM_THREADS": "1"}))
async def client(lsp_client: pytest_lsp.LanguageClient):
    lsp_client.refreshes = []  # type: ignore[attr-defined]
    for method in (lsp.WORKSPACE_INLAY_HINT_REFRESH, lsp.WORKSPACE_CODE_LENS_REFRESH):
        lsp_client.feature(method)(lambda ls, params, method=method: ls.refreshes.append(method))
    capabilities = pytest_lsp.client_capabilities("visual-studio-code")  # recorded from VS Code 1.65
    capabilities.workspace.inlay_hint = lsp.InlayHintWorkspaceClientCapabilities(refresh_support=True)  # 1.67+
    capabilities.text_document.inlay_hint = lsp.InlayHintClientCapabilities()
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=capabilities, initialization_options={"debounceMs": 100}))
    yield
    await lsp_client.shutdown_session()


Diagnostics = Sequence[lsp.Diagnostic]


async def until(client, uri: str, test: Callable[[Diagnostics], bool], timeout: float = 60.0) -> list[lsp.Diagnostic]:
    """The document's diagnostics once ``test`` holds for what was published last. The bound is
    generous because the server's worker compiles and simulates, which a loaded machine (CI running
    the suite on two processes) slows several-fold; a passing test returns as soon as it holds."""
    for _ in range(int(timeout / 0.02)):
        current = client.diagnostics.get(uri)
        if current is not None and test(current):
            return list(current)
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out; last published for {uri}: {client.diagnostics.get(uri)}")


def open_doc(client, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri, "python", 1, path.read_text() if text is None else text)))
    return uri


def edit(client, uri: str, version: int, line: int, start: int, end: int, text: str) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(line, start), lsp.Position(line, end)), text)]))


def save(client, uri: str) -> None:
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


def close(client, uri: str) -> None:
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


def marker_line(path: Path, marker: str) -> int:
    """0-based line of the line ending with ``# marker``."""
    return next(i for i, line in enumerate(path.read_text().splitlines()) if line.endswith(f"# {marker}"))


async def test_a_compile_error_appears_while_typing_and_disappears_when_fixed(client) -> None:
    path = EXAMPLES / "elementwise_1_single_tile.py"
    lines = path.read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if "* c_blk)" in line)
    at = lines[row].index("* c_blk)") + len("* c_blk")
    uri = open_doc(client, path)
    assert await until(client, uri, lambda d: len(d) == 0) == []
    for version, typed in enumerate(" + d", start=2):  # typed a key at a time, faster than the debounce
        edit(client, uri, version, row, at + version - 2, at + version - 2, typed)
        await asyncio.sleep(0.03)
    (diag,) = await until(client, uri, lambda d: len(d) == 1)
    assert diag.code == "E0102" and diag.message.startswith("name 'd' is not defined in this thread")
    assert diag.severity == lsp.DiagnosticSeverity.Error and "hint: threads can use" in diag.message
    assert diag.range == lsp.Range(lsp.Position(row, at + 3), lsp.Position(row, at + 4))
    edit(client, uri, 6, row, at, at + 4, "")  # deleted again
    assert await until(client, uri, lambda d: len(d) == 0) == []
    close(client, uri)


async def test_the_sanitizer_reports_a_deadlock_after_save_with_every_blocked_thread(client) -> None:
    path = MISUSE / "deadlock_circular.py"
    uri = open_doc(client, path)
    assert await until(client, uri, lambda d: len(d) == 0) == []  # the compile check finds nothing
    save(client, uri)
    (diag,) = await until(client, uri, lambda d: len(d) == 1)
    compute, reader = marker_line(path, "BLOCKED-COMPUTE"), marker_line(path, "BLOCKED-READER")
    assert diag.code == "E2110" and diag.message.startswith("deadlock: 2 threads wait for each other in a cycle")
    assert diag.range.start == lsp.Position(compute, 13)
    blocked = sorted((r.location.range.start.line, r.message.split(":")[0]) for r in diag.related_information)
    assert blocked == [(reader, "cycle, step 2"), (compute, "cycle, step 1")]
    assert "note: the same cycle stands on core (1, 0)" in diag.message
    # the file changes: the run described text that is gone, so its diagnostic goes too
    edit(client, uri, 2, 0, 0, 0, "# edited\n")
    assert await until(client, uri, lambda d: len(d) == 0) == []
    close(client, uri)


async def test_the_sanitizer_reports_a_protocol_error_after_save(client) -> None:
    path = MISUSE / "pop_without_wait.py"
    uri = open_doc(client, path)
    assert await until(client, uri, lambda d: len(d) == 0) == []
    save(client, uri)
    (diag,) = await until(client, uri, lambda d: len(d) == 1)
    row = marker_line(path, "ERROR-HERE")
    col = path.read_text().splitlines()[row].index("cb.pop()")
    assert diag.code == "E1101" and "pop() without a block obtained by wait()" in diag.message
    assert diag.range == lsp.Range(lsp.Position(row, col), lsp.Position(row, col + len("cb.pop()")))
    close(client, uri)


async def test_a_stale_sanitizer_run_is_cancelled(client) -> None:
    path = DATA / "slow_when_simulated.py"
    uri = open_doc(client, path)
    assert await until(client, uri, lambda d: len(d) == 0) == []
    save(client, uri)  # this sanitizer run would take a minute
    await asyncio.sleep(1.5)
    edit(client, uri, 2, 0, 0, 0, "# edited\n")
    for _ in range(600):  # generous: a loaded machine delays the server's answer, a passing run returns early
        if any("sanitizer of slow_when_simulated.py: cancelled" in m.message for m in client.log_messages):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError([m.message for m in client.log_messages])
    assert not any("STALE" in d.message for d in client.diagnostics.get(uri, ()))
    close(client, uri)


def expected_profile(path: Path):
    """The profile of the script as the profiler's API gives it (values not computed)."""
    with programs() as launched:
        try:
            runpy.run_path(str(path), run_name="__main__")
        except AssertionError:
            pass  # the script checks values, which were not computed
    (program,) = launched
    return estimate(program)


async def test_inlay_hints_and_the_code_lens_carry_the_per_line_profile(client, fresh_process_state) -> None:
    path = EXAMPLES / "matmul_2_multitile_block.py"
    client.refreshes.clear()
    uri = open_doc(client, path)
    wanted = {lsp.WORKSPACE_INLAY_HINT_REFRESH, lsp.WORKSPACE_CODE_LENS_REFRESH}
    for _ in range(300):  # the profile runs on open and asks the editor to refresh both when done
        if wanted <= set(client.refreshes):  # two requests, sent one after the other: wait for both
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"refreshes received: {client.refreshes}, wanted both of {sorted(wanted)}")
    est = expected_profile(path)
    lines = path.read_text().splitlines()
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        lsp.TextDocumentIdentifier(uri), lsp.Range(lsp.Position(0, 0), lsp.Position(len(lines), 0))))
    by_line = {h.position.line: h for h in hints}
    costs = [c for c in est.lines if c.file == str(path)]
    assert sorted(by_line) == [c.line - 1 for c in costs]
    for cost in costs:
        hint = by_line[cost.line - 1]
        assert hint.position.character == len(lines[cost.line - 1])
        assert hint.label.startswith(f"{cost.busy_per_core:,.0f} cycles")
        if cost.stall_per_core:
            assert f"stall {cost.stall_per_core / est.cycles:.0%}" in hint.label
    heaviest = max(costs, key=lambda c: c.busy_per_core)
    assert f"({heaviest.critical_share:.0%} of time)" in by_line[heaviest.line - 1].label
    (lens,) = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert lines[lens.range.start.line].startswith("@ttl.operation")
    title = lens.command.title
    assert title.startswith(f"matmul_bias: {est.seconds * 1e6:,.1f} us predicted ({est.cycles:,.0f} cycles")
    assert title.endswith(f"bound: {est.bound}") and lens.command.command == "tilecraft.openTrace"
    close(client, uri)


async def test_hover_shows_the_language_reference(client) -> None:
    path = EXAMPLES / "elementwise_1_single_tile.py"
    lines = path.read_text().splitlines()
    uri = open_doc(client, path)
    row = next(i for i, line in enumerate(lines) if "ttl.copy(" in line)
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(row, lines[row].index("ttl.copy") + 5)))
    assert hover.contents.kind == lsp.MarkupKind.Markdown
    assert "[language reference: 6.1 `ttl.copy`]" in hover.contents.value and "Transfer handles" in hover.contents.value
    row = next(i for i, line in enumerate(lines) if "ttl.math.relu(" in line)
    hover = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(row, lines[row].index("relu") + 1)))
    assert hover.contents.value.startswith("**ttl.math.relu(x)**") and "`relu`" in hover.contents.value
    close(client, uri)


async def test_completion_offers_ttl_names_and_buffer_and_block_methods(client) -> None:
    path = EXAMPLES / "elementwise_1_single_tile.py"
    lines = path.read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if "y_blk.store(" in line)
    indent = lines[row][:len(lines[row]) - len(lines[row].lstrip())]
    uri = open_doc(client, path)
    version = 1

    async def complete(typed: str) -> list[str]:
        nonlocal version
        version += 1
        edit(client, uri, version, row, 0, len(lines[row]), indent + typed)
        lines[row] = indent + typed
        result = await client.text_document_completion_async(lsp.CompletionParams(
            lsp.TextDocumentIdentifier(uri), lsp.Position(row, len(lines[row]))))
        return [item.label for item in result.items]

    assert {"make_dataflow_buffer_like", "copy", "Pipe", "math", "block"} <= set(await complete("ttl."))
    assert {"relu", "exp", "relu_max", "where"} <= set(await complete("ttl.math."))
    assert await complete("a_dfb.") == ["reserve", "wait", "push", "pop", "shape"]
    assert await complete("y_blk.s") == ["store", "shape"]
    close(client, uri)


async def test_go_to_definition_of_a_helper(client) -> None:
    path = DATA / "helper_kernel.py"
    lines = path.read_text().splitlines()
    uri = open_doc(client, path)
    row = marker_line(path, "HELPER-CALL")
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(row, lines[row].index("scaled(") + 2)))
    (location,) = found
    definition = marker_line(path, "HELPER-DEF")
    assert location.uri == uri and location.range.start == lsp.Position(definition, lines[definition].index("scaled"))
    close(client, uri)


async def test_the_sizes_comment_shrinks_the_editors_runs(client) -> None:
    path = DATA / "sizes_directive.py"
    text = path.read_text()
    uri = open_doc(client, path)
    assert await until(client, uri, lambda d: len(d) == 0) == []  # ran with TILES=2
    row = text.splitlines().index("# tilecraft: sizes TILES=2")
    edit(client, uri, 2, row, 0, len("# tilecraft: sizes TILES=2"), "# tilecraft: sizes TILE=2")
    (diag,) = await until(client, uri, lambda d: len(d) == 1 and d[0].code == "E0603")
    assert "'TILE' is not assigned at module level" in diag.message
    assert diag.range == lsp.Range(lsp.Position(row, 19), lsp.Position(row, 25))
    edit(client, uri, 3, row, 0, len("# tilecraft: sizes TILE=2"), "")  # without it: the full size
    (diag,) = await until(client, uri, lambda d: len(d) == 1 and d[0].code == "E0601")
    assert "the editor ran the full size" in diag.message and diag.range.start.line == marker_line(path, "FULL-SIZE")
    close(client, uri)
