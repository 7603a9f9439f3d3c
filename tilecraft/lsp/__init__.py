"""The language server (``tilecraft lsp``) and the parts it is made of (docs/lsp.md).

``command`` is the only module the core imports (for the CLI); the rest needs the ``lsp``
extra (pygls, Jedi) and is imported by ``tilecraft lsp`` itself.
"""
