"""Language server latency: time from ``didChange`` to ``publishDiagnostics`` per example (target < 300 ms).

    .venv/bin/python -m benchmarks.bench_lsp [--repeat 9] [--debounce-ms 100] [--case NAME]

One ``tilecraft lsp`` is started over stdio, as an editor starts it, and driven by pygls's client.
Each example is opened, then edited ``--repeat`` times (a comment line added at its end, then
removed again: the whole file is compiled each time, as for any edit); each edit is timed from
sending ``textDocument/didChange`` to receiving the ``publishDiagnostics`` of that version. The
time includes the debounce (the server waits that long after the last change before it compiles)
and the worker's compile run, which is also listed on its own (from the server's log). Edits are
1.5 s apart, so that each is measured alone.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_DONE = re.compile(r"compile check of (?P<file>\S+): done in (?P<ms>\d+) ms")


class Client(LanguageClient):
    """Records when each document version's diagnostics arrive, and the compile times logged."""

    def __init__(self) -> None:
        super().__init__("bench-lsp", "1")
        self.published: dict[tuple[str, int | None], float] = {}
        self.compile_ms: dict[str, list[float]] = {}

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(client: Client, params: lsp.PublishDiagnosticsParams) -> None:
            client.published[(params.uri, params.version)] = time.perf_counter()

        @self.feature(lsp.WINDOW_LOG_MESSAGE)
        def logged(client: Client, params: lsp.LogMessageParams) -> None:
            found = _DONE.search(params.message)
            if found:
                client.compile_ms.setdefault(found.group("file"), []).append(float(found.group("ms")))

    async def arrival(self, uri: str, version: int, timeout: float = 30.0) -> float:
        for _ in range(int(timeout / 0.001)):
            if (uri, version) in self.published:
                return self.published[(uri, version)]
            await asyncio.sleep(0.001)
        raise TimeoutError(f"no diagnostics for {uri} version {version}")


async def measure(script: Path, client: Client, repeat: int) -> list[float]:
    uri = script.as_uri()
    lines = script.read_text().splitlines()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=script.read_text())))
    await client.arrival(uri, 1)
    latencies = []
    end = len(lines)
    for version in range(2, repeat + 2):
        await asyncio.sleep(1.5)
        added = version % 2 == 0
        change = lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=end, character=0),
                            end=lsp.Position(line=end + (0 if added else 1), character=0)),
            text="# an edit\n" if added else "")
        sent = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(version=version, uri=uri), content_changes=[change]))
        latencies.append((await client.arrival(uri, version)) - sent)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri)))
    return latencies


async def run(args: argparse.Namespace) -> int:
    client = Client()
    await client.start_io(sys.executable, "-m", "tilecraft", "lsp", env={**os.environ, "OMP_NUM_THREADS": "1"})
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), initialization_options={
            "debounceMs": args.debounce_ms, "profileOnSave": False}))
    client.initialized(lsp.InitializedParams())
    scripts = [s for s in sorted(EXAMPLES.glob("*.py")) if not args.case or s.stem in args.case]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"debounce {args.debounce_ms:g} ms, {args.repeat} edits per example")
    print(f"{'example':36} {'median ms':>10} {'max ms':>8} {'compile run ms':>15}")
    medians = []
    for script in scripts:
        latencies = [t * 1e3 for t in await measure(script, client, args.repeat)]
        compile_ms = client.compile_ms.get(script.name, [])[1:]  # the edits' runs, not the opening one
        medians.append(statistics.median(latencies))
        print(f"{script.stem:36} {medians[-1]:10.0f} {max(latencies):8.0f} "
              f"{statistics.median(compile_ms) if compile_ms else float('nan'):15.0f}")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    worst = max(medians)
    print(f"median over examples: {statistics.median(medians):.0f} ms; slowest median: {worst:.0f} ms "
          f"(target < 300 ms); load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if worst < 300 else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--debounce-ms", type=float, default=100.0)
    parser.add_argument("--case", action="append", help="an example's name (repeatable)")
    sys.exit(asyncio.run(run(parser.parse_args())))


if __name__ == "__main__":
    main()
