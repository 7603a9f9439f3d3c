"""The language server's parts that need no editor: the sizes comment, spans to LSP ranges, the
reference lookup behind hover, the vocabulary behind completion, and the profile's anchoring."""

from __future__ import annotations

import ast
import json
import re
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra: pip install -e '.[lsp]'")

from lsprotocol import types as lsp  # noqa: E402

from tests.paths import EXAMPLES  # noqa: E402
from tilecraft.diagnostics import Diagnostic, Note, Span  # noqa: E402
from tilecraft.lsp.assist import Assistant, file_facts, parse_for_editing  # noqa: E402
from tilecraft.lsp.checks import Checks, Snapshot  # noqa: E402
from tilecraft.lsp.convert import RangeMaker, convert_all, to_lsp  # noqa: E402
from tilecraft.lsp.docs import Reference  # noqa: E402
from tilecraft.lsp.profile_view import LineCost, ProgramTiming, code_lenses, inlay_hints, locate  # noqa: E402
from tilecraft.lsp.settings import Settings  # noqa: E402
from tilecraft.lsp.sizes import SizesError, apply_sizes, parse_directive  # noqa: E402
from tilecraft.lsp.vocabulary import METHODS, infer_kinds, module_aliases, module_names  # noqa: E402
from tilecraft.lsp.workerclient import WorkerClient  # noqa: E402

REFERENCE = Reference.load()


# ---------------------------------------------------------------- the sizes comment
def run_module(text: str) -> dict:
    tree = ast.parse(text)
    apply_sizes(tree, parse_directive(text, "s.py"))
    scope: dict = {}
    exec(compile(tree, "s.py", "exec"), scope)  # noqa: S102
    return scope


def test_sizes_override_module_constants_and_what_follows_from_them() -> None:
    text = "M = 4096\nN: int = 2048\nK = 3\nSHAPE = (M, N)\n# tilecraft: sizes M=64, N=32\n"
    scope = run_module(text)
    assert (scope["M"], scope["N"], scope["K"], scope["SHAPE"]) == (64, 32, 3, (64, 32))


@pytest.mark.parametrize("text, message, col", [
    ("M = 1\n# tilecraft: sizes X=2\n", "'X' is not assigned at module level", 20),
    ("M = 1\nM = 2\n# tilecraft: sizes M=2\n", "'M' is bound 2 times at module level (lines 1, 2)", 20),
    ("M = 1 + 1\n# tilecraft: sizes M=2\n", "'M' (line 1) is not assigned an integer literal", 20),
    ("M, N = 1, 2\n# tilecraft: sizes M=2\n", "'M' (line 1) is not assigned an integer literal", 20),
    ("M = 1\n# tilecraft: sizes M=two\n", "size M must be an integer, not 'two'", 20),
    ("M = 1\n# tilecraft: sizes M=2 N\n", "'N' is not NAME=INTEGER", 24),
    ("M = 1\n# tilecraft: sizes\n", "names no constant", 1),
])
def test_a_bad_sizes_comment_is_an_error_at_the_item(text: str, message: str, col: int) -> None:
    with pytest.raises(SizesError) as caught:
        run_module(text)
    diag = caught.value.diagnostic
    assert diag.code == "E0603" and message in diag.message
    directive = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("# tilecraft"))
    assert (diag.span.line, diag.span.col) == (directive, col)


def test_a_second_sizes_comment_is_an_error() -> None:
    with pytest.raises(SizesError, match="a second '# tilecraft: sizes' comment"):
        parse_directive("# tilecraft: sizes M=1\n# tilecraft: sizes N=1\n", "s.py")


def test_sizes_keep_positions_so_spans_stay_true() -> None:
    text = "M = 4096\n# tilecraft: sizes M=2\nx = M\n"
    tree = ast.parse(text)
    apply_sizes(tree, parse_directive(text, "s.py"))
    value = tree.body[0].value
    assert (value.value, value.lineno, value.col_offset, value.end_col_offset) == (2, 1, 4, 8)


# ---------------------------------------------------------------- spans -> LSP ranges
def ranges(lines: list[str], utf16: bool = True) -> RangeMaker:
    def to_client(text_lines: list[str], row: int, col: int) -> int:
        prefix = text_lines[row][:col]
        return len(prefix.encode("utf-16-le")) // 2 if utf16 else col

    return RangeMaker("/k.py", lines, to_client, lambda path: ["other line"])


def test_byte_columns_become_utf16_columns() -> None:
    line = "y = '😀é' + bad_name"  # the emoji is 4 UTF-8 bytes and 2 UTF-16 units, é 2 bytes and 1 unit
    col = len(line[:line.index("bad_name")].encode()) + 1
    span = Span("/k.py", 1, col, col + len("bad_name"))
    rng = ranges([line]).range(span)
    start = line.index("bad_name") + 1  # + 1: the emoji takes two UTF-16 units
    assert (rng.start.line, rng.start.character, rng.end.character) == (0, start, start + len("bad_name"))


def test_a_span_without_end_covers_the_rest_of_its_line() -> None:
    rng = ranges(["    blk.push()  # here"]).range(Span("/k.py", 1, 5))
    assert (rng.start.character, rng.end.character) == (4, 22)


def test_notes_become_related_information_and_the_hint_joins_the_message() -> None:
    diag = Diagnostic("E2110", "deadlock", Span("/k.py", 1, 1, 3),
                      (Note("step 1", Span("/k.py", 2, 5, 8)), Note("step 2", Span("/other.py", 1, 1, 6)),
                       Note("the same cycle stands on core (1, 0)")), "acquire in the same order")
    out = to_lsp(diag.to_json(), ranges(["ab", "    xyz"]), None)
    assert out.code == "E2110" and out.source == "tilecraft" and out.severity == lsp.DiagnosticSeverity.Error
    assert out.message == "deadlock\nnote: the same cycle stands on core (1, 0)\nhint: acquire in the same order"
    related = [(r.message, r.location.uri, r.location.range.start.line, r.location.range.start.character)
               for r in out.related_information]
    assert related == [("step 1", "file:///k.py", 1, 4), ("step 2", "file:///other.py", 0, 0)]


def test_a_diagnostic_placed_elsewhere_is_shown_at_the_launch() -> None:
    diag = Diagnostic("E0105", "bad shapes", Span("/lib/kernels.py", 7, 3), severity="warning").to_json()
    launch = Span("/k.py", 2, 1, 5)
    out = convert_all([diag, diag], ranges(["import ttl", "kern(x)"]), launch)
    assert len(out) == 1 and out[0].message == "bad shapes (at /lib/kernels.py:7:3)"
    assert out[0].range.start.line == 1 and out[0].severity == lsp.DiagnosticSeverity.Warning


# ---------------------------------------------------------------- hover text from the reference
@pytest.mark.parametrize("forms, bare, scope, section, piece", [
    (["ttl.copy"], None, None, "6.1 `ttl.copy`", None),
    (["ttl.Pipe"], None, None, "7.1 Construction (K)", None),
    (["ttl.make_dataflow_buffer_like"], None, None, "4.1 Creation (K)", None),
    (["ttl.compute"], None, None, "2. Threads", None),
    (["ttl.signpost"], None, None, "9.5 Debugging aids", '- `ttl.signpost("label")` marks'),
    (["ttl.math.exp", "math.exp"], "exp", "ttl.math", "5.2 `ttl.math` functions", "**One block, no parameters**"),
    (["ttl.math.relu_max", "math.relu_max"], "relu_max", "ttl.math", "5.2 `ttl.math` functions", "| call |"),
    (["ttl.block.fill", "block.fill"], "fill", "ttl.block", "5.5 `fill`, `broadcast`, `transpose`", None),
    (["cb.reserve"], None, None, "4.3 Acquiring and releasing blocks (C, DM)", "| call | blocking? | meaning |"),
])
def test_hover_finds_where_the_reference_introduces_a_name(forms: list[str], bare: str | None, scope: str | None,
                                                           section: str, piece: str | None) -> None:
    found = REFERENCE.find(forms, bare, scope)
    assert found is not None and found.section.title == section
    assert (found.piece is None) if piece is None else found.piece.startswith(piece)


def test_every_method_offered_is_described_in_the_reference() -> None:
    for kind, methods in METHODS.items():
        for method in methods:
            assert REFERENCE.find(list(method.forms), method.bare, method.scope) is not None, (kind, method.name)


def test_every_ttl_name_has_documentation() -> None:
    assistant = Assistant(REFERENCE)
    undocumented = [n.name for n in module_names() if assistant.documentation(n) is None]
    assert undocumented == []


# ---------------------------------------------------------------- completion and hover
EXAMPLE = (EXAMPLES / "matmul_row_multicast.py").read_text()


def test_kinds_are_read_off_assignments_and_with_items() -> None:
    tree = ast.parse(EXAMPLE)
    kinds = infer_kinds(tree, module_aliases(tree))
    assert kinds["a_dfb"] == "buffer" and kinds["a_blk"] == "block" and kinds["row_net"] == "pipenet"


def complete(text: str, line_text: str) -> list[str] | None:
    lines = text.splitlines() + [line_text]
    tree = parse_for_editing("\n".join(lines), len(lines) - 1)
    found = Assistant(REFERENCE).complete(line_text, len(line_text), file_facts(tree))
    return None if found is None else [n.name for n in found]


def test_completion_offers_the_language_and_the_methods_of_each_kind() -> None:
    assert {"make_dataflow_buffer_like", "copy", "Pipe", "math"} <= set(complete(EXAMPLE, "    ttl."))
    assert complete(EXAMPLE, "    ttl.make_d") == ["make_dataflow_buffer_like"]
    assert {"exp", "relu_max", "reduce_sum", "where"} <= set(complete(EXAMPLE, "x = ttl.math."))
    assert complete(EXAMPLE, "        a_dfb.") == ["reserve", "wait", "push", "pop", "shape"]
    assert complete(EXAMPLE, "        a_blk.st") == ["store"]
    assert complete(EXAMPLE, "        row_net.if_") == ["if_src", "if_dst"]
    assert complete(EXAMPLE, "        unknown.") is None


def test_hover_over_a_dotted_name_shows_its_reference_text() -> None:
    facts = file_facts(ast.parse(EXAMPLE))
    line = "                ttl.copy(a[r, k], blk).wait()"
    found = Assistant(REFERENCE).hover(line, line.index("copy") + 2, facts)
    assert found is not None and (found.start, found.end) == (line.index("copy"), line.index("copy") + 4)
    assert found.markdown.startswith("**ttl.copy(src, dst)** — [language reference: 6.1 `ttl.copy`](file://")
    assert "**Transfer handles.**" in found.markdown
    line = "            with a_dfb.wait() as a_blk:"
    found = Assistant(REFERENCE).hover(line, line.index("wait"), facts)
    assert found is not None and "`cb.wait()` | **blocks** until a pushed block is available" in found.markdown


# ---------------------------------------------------------------- the profile in the editor
TIMING = ProgramTiming("prog", 3, "@ttl.operation(grid=(1, 1))", "wormhole_b0", 4, 1000.0, 1e-6, "DRAM", 2,
                       (LineCost(5, "blk.store(a + b)", 640.0, 0.64, 100.0, "data in 'a'"),))


def test_profile_numbers_follow_their_line_while_the_text_moves() -> None:
    lines = ["", "", "@ttl.operation(grid=(1, 1))", "def prog():", "    blk.store(a + b)"]
    assert locate(lines, 5, "blk.store(a + b)") == 4
    moved = ["# new", "# lines"] + lines
    (hint,) = inlay_hints([TIMING], moved, 0, 10)
    assert (hint.position.line, hint.position.character) == (6, len(moved[6]))
    assert hint.label == "640 cycles (64% of time), stall 10%"
    assert "waiting on data in 'a'" in hint.tooltip
    (lens,) = code_lenses([TIMING], moved, "file:///k.py")
    assert lens.range.start.line == 4 and lens.command.command == "tilecraft.openTrace"
    assert lens.command.title == ("prog: 1.0 us predicted (1,000 cycles on 4 cores, wormhole_b0), bound: DRAM "
                                  "(first of 2 launches)")
    edited = lines[:4] + ["    blk.store(a - b)"]
    assert inlay_hints([TIMING], edited, 0, 10) == []


# ---------------------------------------------------------------- which files are run
def test_only_files_that_use_the_language_are_run_and_only_when_allowed() -> None:
    texts = {"file:///a.py": "import tilecraft as ttl\n", "file:///b.py": "import os\nos.remove('x')\n"}

    class Editor:
        def snapshot(self, uri: str) -> Snapshot:
            return Snapshot(texts[uri], 1, texts[uri].splitlines())

    settings = Settings()
    checks = Checks(settings, WorkerClient(), Editor())  # type: ignore[arg-type]
    assert checks.runnable("file:///a.py") and not checks.runnable("file:///b.py")
    settings.apply({"runScripts": False, "debounceMs": 50})
    assert not checks.runnable("file:///a.py") and settings.debounce_ms == 50.0


# ---------------------------------------------------------------- the command
def test_tilecraft_lsp_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from tilecraft.cli import main
    from tilecraft.lsp import command

    monkeypatch.setattr(command.importlib.util, "find_spec", lambda name: None)
    assert main(["lsp"]) == 2
    assert capsys.readouterr().err.strip() == command.MISSING


def read_message(connection: socket.socket) -> dict:
    """One LSP message: a Content-Length header, then that many bytes of JSON."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    header, body = data.split(b"\r\n\r\n", 1)
    length = int(re.search(rb"Content-Length: (\d+)", header).group(1))
    while len(body) < length:
        body += connection.recv(65536)
    return json.loads(body[:length])


def test_tilecraft_lsp_over_tcp_listens_on_localhost() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "tilecraft", "lsp", "--tcp", "--port", str(port)],
                              stderr=subprocess.DEVNULL)
    try:
        # the server imports torch before it listens: up to a minute on a loaded machine
        deadline = time.monotonic() + 60
        while True:
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=10)
                break
            except ConnectionRefusedError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError("the server did not listen") from None
                time.sleep(0.05)
        with connection:
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                               "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
            connection.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            reply = read_message(connection)
        capabilities = reply["result"]["capabilities"]
        assert capabilities["hoverProvider"] and capabilities["completionProvider"]["triggerCharacters"] == ["."]
        assert capabilities["executeCommandProvider"]["commands"] == ["tilecraft.sanitize"]
        listening = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True)
        if listening.returncode == 0 and listening.stdout.strip():
            assert "127.0.0.1:" in listening.stdout
    finally:
        server.kill()
        server.wait()
