"""``tilecraft lsp [--stdio | --tcp [--host H] [--port N]]``: start the language server.

The server's libraries (pygls, Jedi) are the ``lsp`` extra; this module does not import them,
so the core install's ``tilecraft`` works without them, and ``tilecraft lsp`` says what to install.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys

MISSING = ("tilecraft: error: the language server needs the 'lsp' extra: "
           "pip install 'tilecraft[lsp]' (or -e '.[lsp]' in a checkout)")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("lsp", help="run the language server (for VS Code, Neovim and other LSP clients)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="talk LSP on stdin/stdout (the default)")
    mode.add_argument("--tcp", action="store_true", help="listen on a TCP port instead")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on with --tcp (default: localhost only)")
    p.add_argument("--port", type=int, default=2087, help="port to listen on with --tcp (default: 2087)")


def run(args: argparse.Namespace) -> int:
    if any(importlib.util.find_spec(name) is None for name in ("pygls", "jedi")):
        print(MISSING, file=sys.stderr)
        return 2
    from .server import serve  # pygls is there: the optional part may be imported now

    serve(stdio=not args.tcp, host=args.host, port=args.port)
    return 0
